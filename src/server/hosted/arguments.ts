// A hosted tool's arguments come from the model, as JSON text: read at this boundary with a valibot
// schema, like every other input, and null when they are not JSON or do not fit (the tool then
// answers the model with an error of its own, naming what was missing).
import * as v from "valibot";

/** A string the model filled in: trimmed, not empty. */
export const filled = v.pipe(v.string(), v.trim(), v.nonEmpty());

export function readArguments<S extends v.GenericSchema>(schema: S, text: string): v.InferOutput<S> | null {
  let json: unknown;
  try {
    json = JSON.parse(text.trim() || "{}");
  } catch {
    return null;
  }
  const read = v.safeParse(schema, json);
  return read.success ? read.output : null;
}
