// Provider answers are checked at the boundary, once per body or stream event, against the fields
// the adapters read (valibot schemas beside each adapter): what does not fit is a ProviderError
// (502) naming the field, never its value (a body may echo the prompt or a key). Checks only: what
// passes is the provider's own object, unknown fields and key order kept (a chunk is passed on).
import * as v from "valibot";
import { ProviderError } from "./types.ts";

/** Any tagged value: what a provider may add (new event or block types) is taken and left unread. */
export const Tagged = v.looseObject({ type: v.string() });

type Variant = v.VariantSchema<"type", v.VariantOptions<"type">, undefined>;

/**
 * A reader of the tagged values `schema` (a variant on `type`) knows: a value of one of its types
 * is checked against it; one of any other type is null (not read).
 */
export function knownTags<S extends Variant>(schema: S) {
  const types = new Set(schema.options.flatMap((o) => ("entries" in o && "literal" in o.entries.type ? [String(o.entries.type.literal)] : [])));
  return (value: v.InferInput<typeof Tagged>, what: string, upstreamStatus: number | null): v.InferInput<S> | null =>
    types.has(value.type) ? checked(schema, value, what, upstreamStatus) : null;
}

/** `value`, typed by `schema` when it fits; a ProviderError saying where it does not. */
export function checked<S extends v.GenericSchema>(schema: S, value: unknown, what: string, upstreamStatus: number | null): v.InferInput<S> {
  if (v.is(schema, value)) return value;
  const issue = v.safeParse(schema, value, { abortEarly: true }).issues?.[0];
  const at = issue?.path?.map((p) => String(p.key)).join(".");
  // `received` would quote the value: only its absence is told.
  const why = issue?.received === "undefined" ? "is missing" : `expected ${issue?.expected ?? "another value"}`;
  throw new ProviderError(`${what} of an unexpected shape: ${at ? `${at} ` : ""}${why}`, 502, upstreamStatus);
}

/** One stream event's data: JSON, then checked. */
export function streamEvent<S extends v.GenericSchema>(schema: S, data: string, provider: string): v.InferInput<S> {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    throw new ProviderError(`${provider} sent a stream event that is not JSON`, 502, null);
  }
  return checked(schema, json, `${provider} sent a stream event`, null);
}
