// A browser bundle of @openuidev/thesys's own Presentation and Report viewers (React 19), for the
// artifact browser test: window.renderArtifact(kind, program) draws one (in place of the last),
// every slide or page stacked ("print" mode). The package imports DotMatrixLoader from @openuidev/react-ui, which the
// newest published react-ui (0.12.1) lacks; it draws only a loading placeholder, so the bundle
// supplies an empty one. Everything else is the installed packages' own code and styles.
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const MODULES = `${ROOT}node_modules/`;

const ENTRY = `
import { createElement } from "react";
import { createRoot } from "react-dom/client";
import { Presentation, Report } from "@openuidev/thesys";
import "@openuidev/thesys/styles.css";
let root = null;
window.renderArtifact = (kind, program) => {
  root?.unmount();
  root = createRoot(document.getElementById("artifact"));
  const viewer = kind === "report" ? Report : Presentation;
  root.render(createElement(viewer, { response: program, preview: false, mode: "print" }));
};
`;

/** The bundle's files by URL path: /viewer.js (the entry), /viewer.css, and the chunks it loads when needed. */
export async function buildViewer(): Promise<Map<string, { body: string; type: string }>> {
  const thesysEntry = `${MODULES}@openuidev/thesys/dist/index.mjs`;
  const reactUi = `${MODULES}@openuidev/react-ui/dist/index.mjs`;
  const built = await esbuild.build({
    stdin: { contents: ENTRY, resolveDir: ROOT, loader: "js", sourcefile: "viewer.js" },
    // Split and minified: what the viewers load later (mermaid, KaTeX, each icon) stays out of
    // the entry, which the browser then parses in a fraction of the time.
    bundle: true,
    format: "esm",
    splitting: true,
    minify: true,
    platform: "browser",
    write: false,
    outdir: "/out",
    logLevel: "silent",
    entryNames: "viewer",
    chunkNames: "chunks/[name]-[hash]",
    define: { "process.env.NODE_ENV": '"production"' },
    loader: { ".woff": "dataurl", ".woff2": "dataurl", ".ttf": "dataurl", ".svg": "dataurl", ".png": "dataurl" },
    plugins: [
      {
        name: "react-ui-with-dot-matrix-loader",
        setup(b) {
          b.onResolve({ filter: /^@openuidev\/react-ui$/ }, (a) => (a.importer === thesysEntry ? { path: "react-ui", namespace: "shim" } : undefined));
          b.onLoad({ filter: /.*/, namespace: "shim" }, () => ({
            contents: `export * from ${JSON.stringify(reactUi)}; export const DotMatrixLoader = () => null;`,
            resolveDir: ROOT,
            loader: "js",
          }));
        },
      },
    ],
  });
  const files = new Map<string, { body: string; type: string }>();
  for (const f of built.outputFiles) files.set(f.path.slice("/out".length), { body: f.text, type: f.path.endsWith(".css") ? "text/css" : "text/javascript" });
  return files;
}
