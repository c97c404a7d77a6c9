// POST /encryption/encrypt: {provider, apiKey} → {encryptedApiKey}, sealed for the caller's
// organization. The plain key goes no further than this handler: never logged, never stored.
import * as v from "valibot";
import { readBody } from "../../body.ts";
import type { AuthedContext } from "../../context.ts";

const EncryptBody = v.object({
  provider: v.pipe(
    v.string(),
    v.maxLength(64, "provider is at most 64 characters"),
    v.regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "provider must be a provider id such as openai, anthropic, google"),
  ),
  // The key ends up in an HTTP header: a CR, LF or NUL there would fail (or split the header)
  // only at request time, as a 502; refused here, with the reason.
  apiKey: v.pipe(
    v.string(),
    v.minLength(1, "apiKey must not be empty"),
    v.maxLength(4096, "apiKey is too long"),
    v.check(
      (key) => unprintable(key) < 0,
      (issue) => unprintableMessage(issue.input as string),
    ),
  ),
});

const unprintable = (key: string) => key.search(/[^\x20-\x7e]/);

/** Names the first character refused and where it stands (a pasted "…" is not a control character). */
function unprintableMessage(key: string): string {
  const at = unprintable(key);
  const code = key.codePointAt(at)!;
  const kind = code < 0x20 || (code >= 0x7f && code <= 0x9f) ? "a control character" : "a character outside ASCII";
  const hex = code.toString(16).toUpperCase().padStart(4, "0");
  return `apiKey may hold only printable ASCII characters (it travels in an HTTP header): ${kind}, U+${hex}, at position ${at}`;
}

export async function encryptKey(ctx: AuthedContext<string, "key">): Promise<Response> {
  const { org } = ctx;
  const body = await readBody(ctx.req, EncryptBody);
  const encryptedApiKey = await ctx.deps.keys.seal(org.id, body.provider, body.apiKey);
  return Response.json({ provider: body.provider.toLowerCase(), encryptedApiKey });
}
