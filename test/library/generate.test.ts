// The built-in libraries are generated from the OpenUI packages that render them: regenerating
// from the installed packages gives the committed files byte for byte, and each library's prompt
// is what its package's own prompt() writes.
import { expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { builtInLibraries, getBuiltinLibrary } from "../../src/library/index.ts";
import { assembleBuiltinPrompt } from "../../src/prompt/builtin.ts";

process.env.OPENUI_TELEMETRY_DISABLED = "1"; // lang-core's prompt() reports to its authors otherwise

const root = fileURLToPath(new URL("../..", import.meta.url));
const committed = join(root, "src/library/openui");

test("regenerating the built-in libraries from the installed packages gives the committed files", () => {
  const out = mkdtempSync(join(tmpdir(), "tessera-libraries-"));
  try {
    const run = Bun.spawnSync([process.execPath, join(root, "scripts/generate-libraries.ts"), "--out", out], { cwd: root, stderr: "pipe" });
    expect(run.stderr.toString()).toBe("");
    expect(run.exitCode).toBe(0);
    const names = readdirSync(committed).sort();
    expect(readdirSync(out).sort()).toEqual(names);
    expect(names).toContain("LICENSE");
    for (const name of names) expect(`${name}: ${readFileSync(join(out, name), "utf8")}`).toBe(`${name}: ${readFileSync(join(committed, name), "utf8")}`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}, 120_000);

test("the built-ins by name: 0.1.0 is @openuidev/thesys's chat library; the others are named as documented", () => {
  const roots = Object.fromEntries(
    Object.entries(builtInLibraries).map(([name, l]) => [
      name,
      [l.generatedFrom.package, l.chatLibrary.root, Object.keys((l.chatLibrary.schema as { $defs: object }).$defs).length],
    ]),
  );
  expect(roots).toEqual({
    "0.1.0": ["@openuidev/thesys", "Card", 73],
    "thesys/chat": ["@openuidev/thesys", "Card", 73],
    "thesys/presentation": ["@openuidev/thesys", "Presentation", 33],
    "thesys/report": ["@openuidev/thesys", "Report", 34],
    "thesys/dashboard": ["@openuidev/thesys", "Dashboard", 48],
    "thesys/slideshow": ["@openuidev/thesys", "SlideShow", 33],
    "thesys/report-view": ["@openuidev/thesys", "ReportView", 34],
    "react-ui/openui-chat": ["@openuidev/react-ui", "Card", 58],
    "react-ui/openui": ["@openuidev/react-ui", "Stack", 54],
  });
  expect(getBuiltinLibrary("0.1.0")).toBe(builtInLibraries["thesys/chat"]!);
  for (const notAName of ["constructor", "__proto__", "toString", "9.9.9", ""]) expect(getBuiltinLibrary(notAName)).toBeNull();
  // The viewers' libraries are the exported ones with the viewer's root in place of the export's.
  const defs = (n: string) => Object.keys((builtInLibraries[n]!.chatLibrary.schema as { $defs: object }).$defs).sort();
  expect(defs("thesys/slideshow")).toEqual(
    defs("thesys/presentation")
      .map((d) => (d === "Presentation" ? "SlideShow" : d))
      .sort(),
  );
  expect(defs("thesys/report-view")).toEqual(
    defs("thesys/report")
      .map((d) => (d === "Report" ? "ReportView" : d))
      .sort(),
  );
});

test("react-ui's libraries are prompted as react-ui prompts them, with a request's options merged in", async () => {
  const ui = await import("@openuidev/react-ui/genui-lib");
  const pairs = [
    ["react-ui/openui-chat", ui.openuiChatLibrary, ui.openuiChatPromptOptions],
    ["react-ui/openui", ui.openuiLibrary, ui.openuiPromptOptions],
  ] as const;
  for (const [name, library, options] of pairs) {
    const pieces = builtInLibraries[name]!.prompt;
    expect(assembleBuiltinPrompt(pieces)).toBe(library.prompt(options));
    const mine = { preamble: "You build dashboards.", examples: ['root = Card([TextContent("hi")])'], additionalRules: ["Prefer tables."] };
    expect(assembleBuiltinPrompt(pieces, mine)).toBe(
      library.prompt({
        preamble: mine.preamble,
        examples: [...options.examples!, ...mine.examples],
        additionalRules: [...options.additionalRules!, ...mine.additionalRules],
      }),
    );
    expect(assembleBuiltinPrompt(pieces, {}, "Answer in French.")).toBe(`${library.prompt(options)}\n\nAnswer in French.`);
  }
});
