// web_search and image_search as hosted tools: one function each for the model (a query), run
// against the operator's backend; a web_search_call / image_search_call item per call.
import * as v from "valibot";
import { IMAGE_SEARCH_FUNCTION, WEB_SEARCH_FUNCTION, webResultsText, imageSearchText } from "../../../responses/hosted.ts";
import { newId } from "../../../responses/ids.ts";
import type { ImageSearchToolIn, ToolIn, WebSearchToolIn } from "../../../responses/schema.ts";
import type { FunctionToolOut, ImageSearchCallItem, WebSearchCallItem } from "../../../responses/types.ts";
import { filled, readArguments } from "../arguments.ts";
import type { HostedToolsConfig } from "../config.ts";
import { HttpError } from "../../errors.ts";
import type { HostedRun, HostedTool } from "../registry.ts";
import { CONFIGURE_HINT, searchImages, searchWeb, SearchError, wireOf } from "./index.ts";
import type { SearchQuery } from "./types.ts";

const RESULTS = { low: 3, medium: 5, high: 10 } as const;

const queryParams = (what: string) => ({
  type: "object",
  properties: { query: { type: "string", description: `What to search ${what} for` } },
  required: ["query"],
  additionalProperties: false,
});

function declaration(name: string, description: string, what: string): FunctionToolOut {
  return { type: "function", name, description, parameters: queryParams(what), strict: true };
}

export const SEARCH_ARGUMENTS = v.object({ query: filled });

/** The query of a call, or null when the model's arguments hold none. */
const queryOf = (args: string): string | null => readArguments(SEARCH_ARGUMENTS, args)?.query ?? null;

function needsBackend(type: string): HttpError {
  return new HttpError(400, `${type} needs a search backend and none is configured: ${CONFIGURE_HINT}`, { param: "tools", code: "search_not_configured" });
}

const isWeb = (t: ToolIn): t is WebSearchToolIn => t.type.startsWith("web_search");

export async function webSearchTool(entries: ToolIn[], config: HostedToolsConfig): Promise<HostedTool[]> {
  const tool = entries.find(isWeb);
  if (!tool) return [];
  if (!config.webSearch) throw needsBackend(tool.type);
  const wire = wireOf(config.webSearch);
  const query = (q: string): SearchQuery => ({
    query: q,
    count: RESULTS[tool.search_context_size ?? "medium"],
    allowedDomains: tool.filters?.allowed_domains ?? undefined,
    country: tool.user_location?.country ?? undefined,
  });
  return [
    {
      kind: "web_search",
      declarations: () => [declaration(WEB_SEARCH_FUNCTION, "Search the web. Answers with numbered results: URL, title and a snippet each.", "the web")],
      owns: (name) => name === WEB_SEARCH_FUNCTION,
      call(call, ctx): HostedRun {
        const q = queryOf(call.arguments);
        const item: WebSearchCallItem = { type: "web_search_call", id: newId("webSearch"), status: "in_progress", action: { type: "search", query: q ?? "" } };
        return {
          item,
          async run() {
            if (!q) {
              item.status = "failed";
              return { ran: false, modelText: 'The search needs a query: call it with {"query": "…"}.' };
            }
            try {
              const results = await searchWeb(wire, query(q), ctx.signal);
              item.status = "completed";
              if (ctx.include.includes("web_search_call.action.sources")) item.action.sources = results.map((r) => ({ type: "url", url: r.url }));
              if (ctx.include.includes("web_search_call.results")) item.results = results;
              return { ran: true, modelText: webResultsText(q, results), sources: results.map((r) => ({ url: r.url, title: r.title })) };
            } catch (e) {
              if (!(e instanceof SearchError)) throw e;
              item.status = "failed";
              return { ran: false, modelText: `The search failed: ${e.message}.` };
            }
          },
        };
      },
    },
  ];
}

export async function imageSearchTool(entries: ToolIn[], config: HostedToolsConfig): Promise<HostedTool[]> {
  const tool = entries.find((t): t is ImageSearchToolIn => t.type === "image_search");
  if (!tool) return [];
  if (!config.webSearch) throw needsBackend("image_search");
  const wire = wireOf(config.webSearch);
  if (!wire.images) {
    throw new HttpError(400, `image_search is not available with the ${wire.name} search backend: it needs searxng or brave (TESSERA_WEB_SEARCH_PROVIDER)`, {
      param: "tools",
      code: "search_not_configured",
    });
  }
  return [
    {
      kind: "image_search",
      declarations: () => [
        declaration(IMAGE_SEARCH_FUNCTION, "Search for images. Answers with absolute image URLs, each with its title, size and the page it is on.", "images"),
      ],
      owns: (name) => name === IMAGE_SEARCH_FUNCTION,
      call(call, ctx): HostedRun {
        const q = queryOf(call.arguments);
        const item: ImageSearchCallItem = {
          type: "image_search_call",
          id: newId("imageSearch"),
          status: "in_progress",
          action: { type: "search", query: q ?? "" },
          results: [],
        };
        return {
          item,
          async run() {
            if (!q) {
              item.status = "failed";
              return { ran: false, modelText: 'The image search needs a query: call it with {"query": "…"}.' };
            }
            try {
              item.results = await searchImages(
                wire,
                { query: q, count: RESULTS[tool.search_context_size ?? "medium"], allowedDomains: tool.filters?.allowed_domains ?? undefined },
                ctx.signal,
              );
              item.status = "completed";
              return { ran: true, modelText: imageSearchText(item) };
            } catch (e) {
              if (!(e instanceof SearchError)) throw e;
              item.status = "failed";
              return { ran: false, modelText: `The image search failed: ${e.message}.` };
            }
          },
        };
      },
    },
  ];
}
