// How deep a JSON text nests, found before JSON.parse: the parse itself copes with any depth, but
// every recursive walk after it (valibot, the library compiler, JSON.stringify towards a provider)
// does not, and a body of 400,000 brackets blocked the server for seconds before failing. One pass
// over the bytes, no allocation: brackets count only outside strings, which it crosses quote to
// quote with the native indexOf (0.2 ms for a 900 KB body; its JSON.parse takes 0.55 ms). Before
// that, the brackets are only counted (native indexOf too): a body with no more of them than the
// bound cannot nest deeper, and a long program in a string is then not crossed quote by quote
// (3 µs instead of 75 µs for a 100k-character Autofix body).

/** Deepest nesting of arrays and objects accepted in a request body or a config block. */
export const MAX_JSON_DEPTH = 128;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether JSON (UTF-8 bytes, or a string) opens more than `max` arrays and objects inside one
 * another. Bytes of multi-byte UTF-8 characters are never ASCII, so scanning bytes is exact.
 * Text that is not JSON gets some answer; JSON.parse refuses it afterwards anyway.
 */
export function nestsDeeperThan(json: Uint8Array | string, max = MAX_JSON_DEPTH): boolean {
  // Nothing nests deeper than the number of brackets that open, wherever they stand: most bodies
  // (a long program in a string, few objects) have so few that the strings need not be crossed.
  if (opensAtMost(json, max)) return false;
  const bytes = typeof json === "string" ? new TextEncoder().encode(json) : json;
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === QUOTE) i = stringEnd(bytes, i + 1);
    else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) depth--;
  }
  return false;
}

/**
 * Where the string whose text starts at `from` ends (its closing quote; the end of the input when
 * it has none). Strings are most of a large body, so this jumps quote to quote with the native
 * indexOf; a quote after an odd run of backslashes is escaped. Each run is counted once: linear.
 */
function stringEnd(bytes: Uint8Array, from: number): number {
  for (let at = from; ; ) {
    const quote = bytes.indexOf(QUOTE, at);
    if (quote < 0) return bytes.length;
    let slashes = 0;
    while (quote - slashes - 1 >= from && bytes[quote - slashes - 1] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return quote;
    at = quote + 1;
  }
}

/** Whether `[` and `{` occur at most `max` times in all, inside strings or not (counted with the native indexOf, stopping past `max`). */
function opensAtMost(json: Uint8Array | string, max: number): boolean {
  // Either form's native indexOf, by the bracket's code (a string searches for its one-character text).
  const find =
    typeof json === "string"
      ? (code: number, from: number) => json.indexOf(String.fromCharCode(code), from)
      : (code: number, from: number) => json.indexOf(code, from);
  let count = 0;
  for (const open of [OPEN_ARRAY, OPEN_OBJECT]) for (let at = find(open, 0); at !== -1; at = find(open, at + 1)) if (++count > max) return false;
  return true;
}
