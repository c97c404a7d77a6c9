// What a search backend is asked and answers, whichever wire it speaks.
import type { ImageSearchResultOut } from "../../../responses/types.ts";

export interface SearchQuery {
  query: string;
  /** How many results to ask for. */
  count: number;
  /** Only results from these domains (and their subdomains). */
  allowedDomains?: string[];
  /** ISO 3166 two-letter country code of the user, when known. */
  country?: string;
}

export interface WebResult {
  url: string;
  title: string;
  snippet: string;
}

/** An image found: the shape an image_search_call item lists. */
export type ImageResult = ImageSearchResultOut;

/** An HTTP request as a backend's wire wants it (pure translation: the caller sends it). */
export interface WireRequest {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

/** One backend: its wire both ways. `images` is absent where the backend has no image search. */
export interface SearchWire {
  readonly name: string;
  web: { request(q: SearchQuery): WireRequest; read(json: unknown): WebResult[] };
  images?: { request(q: SearchQuery): WireRequest; read(json: unknown): ImageResult[] };
}

export const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string => (typeof v === "string" ? v : "");
export const num = (v: unknown): number | null =>
  typeof v === "number" && Number.isFinite(v) ? v : typeof v === "string" && /^\d+$/.test(v) ? Number(v) : null;
export const obj = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
