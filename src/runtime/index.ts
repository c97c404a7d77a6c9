// The runtime the process runs on (types.ts): Bun's when there is a Bun, else Deno's. Imported
// lazily, so that neither runtime loads the other's modules (bun:sqlite, node:sqlite).
import type { Runtime } from "./types.ts";

export type * from "./types.ts";

export const runtime: Runtime = "Bun" in globalThis ? (await import("./bun.ts")).runtime : (await import("./deno.ts")).runtime;
