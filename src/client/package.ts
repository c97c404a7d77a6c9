// The public surface of `@tessera-ui/tessera/client` (package.json "exports"): the server helper and the
// stream autofix pass-throughs. src/client/build.ts bundles it for Node 20, Bun, Deno and browsers.
export * from "./index.ts";
export { autofixChunkStream, autofixSseStream, StreamAutofixError } from "./stream-autofix.ts";
export type { AutofixResult, StreamAutofixOptions } from "./stream-autofix.ts";
