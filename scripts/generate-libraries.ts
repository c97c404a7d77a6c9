// Generates Tessera's built-in component libraries (src/library/openui/*.json) from the OpenUI npm
// packages that render them, so a built-in library is exactly what its renderer draws and its
// prompt is what the package's own prompt() says.
//
//   bun scripts/generate-libraries.ts              writes src/library/openui/
//   bun scripts/generate-libraries.ts --out DIR    writes DIR instead (test/library compares the two)
//
// Each JSON holds the library as a config block carries it (`chatLibrary`: root, componentGroups,
// schema; from the package's Library.toSpec()) and the pieces of its prompt (src/prompt/builtin.ts).
// The generator checks that those pieces reassemble into the package's prompt() byte for byte, with
// and without options, and stops otherwise.
//
// Loading @openuidev/thesys 0.3.2 needs two changes to its bundle, made in memory as it loads:
// - it imports `DotMatrixLoader` (a loading animation of its artifact viewer) from
//   @openuidev/react-ui 0.13.6, which is not on npm; 0.12.1, the newest published, lacks only that
//   name, so the import is dropped and a component that draws nothing stands in;
// - the Presentation and Report viewers render with libraries the package does not export (roots
//   `SlideShow` and `ReportView`), so createLibrary is wrapped to keep every library it makes.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { assembleBuiltinPrompt, type BuiltinPrompt, type BuiltinPromptOptions } from "../src/prompt/builtin.ts";

// lang-core reports prompt generation to its authors unless told not to; a build step must not.
process.env.OPENUI_TELEMETRY_DISABLED = "1";

const root = fileURLToPath(new URL("..", import.meta.url));
/** Where npm installed a package (the packages are the root project's devDependencies). */
const installed = (pkg: string, file: string) => join(root, "node_modules", pkg, file);

/** The slice of @openuidev/lang-core's Library this script reads. */
interface OpenUILibrary {
  root?: string;
  prompt(options?: Record<string, unknown>): string;
  toSpec(): {
    root?: string;
    components: Record<string, { signature: string; description?: string }>;
    componentGroups?: { name: string; components: string[]; notes?: string[] }[];
    [key: string]: unknown;
  };
}

interface Source {
  name: string;
  file: string;
  pkg: string;
  from: string;
  library: OpenUILibrary;
  options: BuiltinPromptOptions;
}

const made: OpenUILibrary[] = [];

function packageVersion(pkg: string): string {
  return JSON.parse(readFileSync(installed(pkg, "package.json"), "utf8")).version;
}

/** Replaces `find` in `text`, which must occur exactly once (a new bundle must be looked at again). */
function replaceOnce(text: string, find: string, by: string): string {
  const at = text.indexOf(find);
  if (at === -1 || text.indexOf(find, at + 1) !== -1) {
    throw new Error(`@openuidev/thesys's bundle has changed: \`${find}\` is not there exactly once`);
  }
  return text.slice(0, at) + by + text.slice(at + find.length);
}

Bun.plugin({
  name: "thesys-libraries",
  setup(build) {
    build.onLoad({ filter: /@openuidev[\\/]thesys[\\/]dist[\\/]index\.mjs$/ }, (args) => {
      let code = readFileSync(args.path, "utf8");
      code = replaceOnce(code, "DotMatrixLoader as T,", "");
      code = replaceOnce(code, "createLibrary as i,", "createLibrary as __createLibrary,");
      const prelude =
        "const T = () => null;\n" +
        "const i = (definition) => { const library = __createLibrary(definition); globalThis.__tesseraLibraries.push(library); return library; };\n";
      return { loader: "js", contents: prelude + code };
    });
  },
});

async function sources(): Promise<Source[]> {
  (globalThis as { __tesseraLibraries?: OpenUILibrary[] }).__tesseraLibraries = made;
  const thesys = await import("@openuidev/thesys");
  const ui = await import("@openuidev/react-ui/genui-lib");
  const viewer = (rootName: string) => {
    const found = made.filter((l) => l.root === rootName);
    if (found.length !== 1) throw new Error(`@openuidev/thesys made ${found.length} libraries rooted at ${rootName}, not one`);
    return found[0]!;
  };
  const t = "@openuidev/thesys";
  const r = "@openuidev/react-ui";
  return [
    { name: "thesys/chat", file: "thesys-chat", pkg: t, from: "chatLibrary", library: thesys.chatLibrary, options: {} },
    { name: "thesys/presentation", file: "thesys-presentation", pkg: t, from: "presentationLibrary", library: thesys.presentationLibrary, options: {} },
    { name: "thesys/report", file: "thesys-report", pkg: t, from: "reportLibrary", library: thesys.reportLibrary, options: {} },
    { name: "thesys/dashboard", file: "thesys-dashboard", pkg: t, from: "dashboardLibrary", library: thesys.dashboardLibrary, options: {} },
    { name: "thesys/slideshow", file: "thesys-slideshow", pkg: t, from: "the library its Presentation viewer renders (root SlideShow)", library: viewer("SlideShow"), options: {} },
    { name: "thesys/report-view", file: "thesys-report-view", pkg: t, from: "the library its Report viewer renders (root ReportView)", library: viewer("ReportView"), options: {} },
    { name: "react-ui/openui-chat", file: "react-ui-openui-chat", pkg: r, from: "openuiChatLibrary with openuiChatPromptOptions", library: ui.openuiChatLibrary, options: ui.openuiChatPromptOptions },
    { name: "react-ui/openui", file: "react-ui-openui", pkg: r, from: "openuiLibrary with openuiPromptOptions", library: ui.openuiLibrary, options: ui.openuiPromptOptions },
  ] as Source[];
}

/** The text of `prompt` from `start` up to (not including) `end`, both required. */
function between(prompt: string, start: string, end: string | null, what: string): string {
  const from = prompt.indexOf(start);
  const to = end === null ? prompt.length : prompt.indexOf(end, from + 1);
  if (from === -1 || to === -1) throw new Error(`${what}: the package's prompt has no ${JSON.stringify(start)} … ${JSON.stringify(end)}`);
  return prompt.slice(from, to);
}

/** The package's prompt, cut into the pieces src/prompt/builtin.ts puts back together. */
function promptPieces(src: Source): BuiltinPrompt {
  const spec = src.library.toSpec();
  // Without examples or extra rules, the closing sections follow the last guidance section directly.
  const bare = src.library.prompt({});
  const preamble = bare.slice(0, bare.indexOf("\n\n## Syntax Rules\n"));
  const rules = between(bare, "## Syntax Rules\n", "\n\n## Component Signatures\n", src.name);
  const sigs = between(bare, "## Component Signatures\n", "\n\n## ", src.name).split("\n");
  const blank = sigs.indexOf("", 2);
  const signatureNotes = sigs.slice(2, blank === -1 ? sigs.length : blank);
  const afterSigs = bare.indexOf("\n\n## ", bare.indexOf("## Component Signatures\n")) + 2;
  const closingAt = bare.indexOf("\n## Important Rules\n");
  if (closingAt < afterSigs) throw new Error(`${src.name}: no "## Important Rules" after the signatures`);
  const guidance = bare.slice(afterSigs, closingAt).split("\n\n## ").map((s, i) => (i === 0 ? s : `## ${s}`));
  return {
    preamble,
    rules,
    signatureNotes,
    components: spec.components,
    groups: (spec.componentGroups ?? []).map((g) => ({ name: g.name, components: g.components, ...(g.notes?.length ? { notes: g.notes } : {}) })),
    guidance,
    examples: src.options.examples ?? [],
    closing: bare.slice(closingAt + 1),
    additionalRules: src.options.additionalRules ?? [],
  };
}

/** Stops unless the pieces give the package's own prompt, as shipped and with a request's options. */
function checkReassembly(src: Source, pieces: BuiltinPrompt): void {
  const request = { preamble: "You answer with UI.", examples: ['root = X("example")'], additionalRules: ["Keep it short."] };
  const cases: [BuiltinPromptOptions, Record<string, unknown>][] = [
    [{}, { ...src.options }],
    [request, { preamble: request.preamble, examples: [...(src.options.examples ?? []), ...request.examples], additionalRules: [...(src.options.additionalRules ?? []), ...request.additionalRules] }],
  ];
  for (const [ours, theirs] of cases) {
    if (assembleBuiltinPrompt(pieces, ours) !== src.library.prompt(theirs)) {
      throw new Error(`${src.name}: the prompt's pieces do not reassemble into the package's prompt(${JSON.stringify(Object.keys(theirs))})`);
    }
  }
}

const LICENSE_HEADER =
  "The JSON files in this folder are generated by scripts/generate-libraries.ts from these npm\n" +
  "packages, which are published under the MIT License below:\n";

/** Every generated file: name → content. */
export async function generate(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const used = new Set<string>();
  for (const src of await sources()) {
    const { components: _, ...chatLibrary } = src.library.toSpec();
    const pieces = promptPieces(src);
    checkReassembly(src, pieces);
    used.add(`${src.pkg}@${packageVersion(src.pkg)}`);
    const json = {
      name: src.name,
      generatedFrom: { package: src.pkg, version: packageVersion(src.pkg), export: src.from, license: "MIT (see LICENSE in this folder)" },
      chatLibrary,
      prompt: pieces,
    };
    files.set(`${src.file}.json`, JSON.stringify(json, null, 1) + "\n");
  }
  const license = readFileSync(installed("@openuidev/react-ui", "LICENSE"), "utf8");
  files.set("LICENSE", `${LICENSE_HEADER}${[...used].map((p) => `  ${p}\n`).join("")}\n${license.trimEnd()}\n`);
  return files;
}

if (import.meta.main) {
  const at = process.argv.indexOf("--out");
  const out = at === -1 ? join(root, "src/library/openui") : process.argv[at + 1]!;
  mkdirSync(out, { recursive: true });
  for (const [name, text] of await generate()) writeFileSync(join(out, name), text);
  console.log(`wrote ${out}`);
  // The packages' modules leave timers behind; the work is done.
  process.exit(0);
}

