// Builds the publishable entry points of package.json "exports":
//   @tessera-ui/tessera/client → dist/client/index.js (src/client/package.ts)
//   @tessera-ui/tessera/lang   → dist/lang/index.js   (src/lang/index.ts)
//   @tessera-ui/tessera/openui → dist/openui/index.js (src/openui/index.ts; OpenUI's react-headless stays an import)
// as ES modules that need only web-standard globals (the parser's WebAssembly is inlined), with a
// shared chunk so both entries use one language engine, and their declarations under dist/types.
//
//   bun src/client/build.ts     (part of `npm run build`; `npm test` runs it before the Node tests)
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));

for (const dir of ["dist/client", "dist/lang", "dist/openui", "dist/shared", "dist/types"]) rmSync(root + dir, { recursive: true, force: true });

await build({
  entryPoints: { "client/index": root + "src/client/package.ts", "lang/index": root + "src/lang/index.ts", "openui/index": root + "src/openui/index.ts" },
  external: ["@openuidev/react-headless"],
  outdir: root + "dist",
  chunkNames: "shared/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "neutral",
  mainFields: ["module", "main"],
  target: "es2022",
  legalComments: "none",
  logLevel: "warning",
  banner: { js: "// Tessera, built by src/client/build.ts. Do not edit." },
});

// Declarations only, without type-checking (npm test checks the types first: tsconfig.json): the sources import each
// other with .ts extensions, which the emitted .d.ts files keep and TypeScript resolves to .d.ts.
const tsc = spawnSync(
  root + "node_modules/.bin/tsc",
  [
    "--declaration",
    "--emitDeclarationOnly",
    "--noCheck",
    "--allowImportingTsExtensions",
    "--target",
    "es2022",
    "--module",
    "preserve",
    "--moduleResolution",
    "bundler",
    "--skipLibCheck",
    "--rootDir",
    root + "src",
    "--outDir",
    root + "dist/types",
    root + "src/client/package.ts",
    root + "src/lang/index.ts",
    root + "src/openui/index.ts",
  ],
  { stdio: "inherit" },
);
if (tsc.status !== 0) throw new Error(`tsc failed (exit ${tsc.status})`);
console.log("wrote dist/client/index.js, dist/lang/index.js, dist/openui/index.js and dist/types/");
