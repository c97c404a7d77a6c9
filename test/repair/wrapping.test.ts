// Byte-for-byte preservation: untouched lines, fence prose, envelope parts, CRLF; the real
// samples; settings-panel's type mismatches; the Autofix pipeline's use of `repair`.
import { beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { isValid, parse, type Library } from "../../src/lang/index.ts";
import { repair } from "../../src/repair/index.ts";
import { checkGeneration, runFix } from "../../src/repair/autofix.ts";
import { codes, FIXTURES, HAVE_SHARED, library, sample } from "./support.ts";

let lib: Library;
beforeAll(async () => {
  if (HAVE_SHARED) lib = await library();
});

describe.skipIf(!HAVE_SHARED)("wrapping and untouched text come back byte for byte", () => {
  test("untouched lines keep odd spacing, comments and blank lines", () => {
    const input =
      'root   =  Stack( [ a ,b ],"column" )   // the page\n\n# a comment line\na = TextContent( "x" ,  "Small" )\nb=Card([a2],"card")\na2 = CardHeader("t")\n';
    const out = repair(input, lib);
    expect(out.status).toBe("fixed");
    expect(out.content).toBe(input.replace('"Small"', '"small"'));
  });

  test("fenced: prose and fence lines unchanged, the error inside fixed", () => {
    const input = 'Sure! Here it is:\n\n```openui\nroot = Stack([title])\ntitle = TxtContent("Hi")\n```\n\nWant a *darker* theme?\n';
    const out = repair(input, lib);
    expect(out.status).toBe("fixed");
    expect(out.content).toBe(input.replace("TxtContent", "TextContent"));
    expect(codes(out.fixed_errors)).toEqual(["unknown-component"]);
  });

  test("fence never closed: the head stays, the rest is program (an unclosed string closed, prose removed)", () => {
    const input = 'Intro line\n```\nroot = Stack([title])\ntitle = TextContent("Hi\nOutro line with "quotes" and (brackets\n';
    const out = repair(input, lib);
    expect(out.content).toBe('Intro line\n```\nroot = Stack([title])\ntitle = TextContent("Hi")\n');
    expect(codes(out.fixed_errors)).toEqual(["syntax", "syntax"]);
  });

  test("envelope: header with attributes, context and end marker unchanged, CRLF kept", () => {
    const head = "]]>service:content?libraryVersion=0.1.0&x=1\r\n";
    const tail = ']]>service:context\r\n[{"f":{"name":{"value":"Ada"}}}]\r\n]]>service:end\r\n';
    const program = 'root = Stack([title, spare])\r\ntitle = TextContent("Hi", "Large-heavy")\r\n';
    const out = repair(head + program + tail, lib);
    expect(out.status).toBe("fixed");
    expect(out.content).toBe(head + 'root = Stack([title])\r\ntitle = TextContent("Hi", "large-heavy")\r\n' + tail);
    expect(codes(out.fixed_errors)).toEqual(["unresolved", "type-mismatch"]);
  });

  test("envelope: a built root line uses the program's CRLF and sits inside the envelope", () => {
    const head = "]]>service:content\r\n";
    const tail = "]]>service:end";
    const out = repair(head + 'card = Card([t], "card")\r\nt = TextContent("Hi")\r\nnote = TextContent("n")\r\n' + tail, lib);
    expect(out.content).toBe(head + 'root = Stack([card, note])\r\ncard = Card([t], "card")\r\nt = TextContent("Hi")\r\nnote = TextContent("n")\r\n' + tail);
  });

  test("the six valid real samples come back already_valid, content identical", () => {
    const files = readdirSync(join(FIXTURES, "samples")).filter((f) => f.endsWith(".oui") && f !== "settings-panel.oui");
    expect(files.length).toBe(6);
    for (const f of files) {
      const text = sample(f);
      expect(repair(text, lib)).toEqual({ status: "already_valid", content: text, fixed_errors: [], unfixed_errors: [] });
    }
  });

  test("settings-panel: a Card inside TabItem content and a SwitchGroup inside a Card cannot be fixed without dropping content", () => {
    // TabItem.content and Card.children list the components they accept; Card and SwitchGroup
    // are not among them. No rename, coercion or removal the sanitizer may make restores them.
    const text = sample("settings-panel.oui");
    const out = repair(text, lib);
    expect(out.status).toBe("fix_failed");
    expect(out.content).toBeNull();
    expect(out.fixed_errors).toEqual([]);
    expect(out.unfixed_errors).toEqual(parse(text, lib).errors);
    expect(out.unfixed_errors.map((e) => `${e.statementId} ${e.path}`)).toEqual([
      "tabProfile /content/0",
      "tabSecurity /content/0",
      "securityCard /children/1",
      "tabNotifications /content/0",
      "notificationsCard /children/1",
    ]);
    expect(codes(out.unfixed_errors)).toEqual(Array(5).fill("type-mismatch"));
  });

  test("a real sample broken in three places at once comes back exactly", () => {
    const text = sample("contact-form.oui");
    const broken =
      "Here you go:\n" + text.replace('TextContent("Contact Us"', 'TextContnet("Contact Us"').replace('"row")', '"Row")').replace("6, [", '"6", [');
    const out = repair(broken, lib);
    expect(out.content).toBe(text);
    expect(codes(out.fixed_errors)).toEqual(["syntax", "unknown-component", "type-mismatch", "type-mismatch"]);
  });

  test("the Autofix pipeline (runFix) keeps its contract with repair: wrapping restored around the fixed program", async () => {
    const input = 'Look:\n```\nroot = Stack([title], "Column")\ntitle = TextContent("Hi")\n```\nbye\n';
    const checked = checkGeneration(input, lib);
    const outcome = await runFix({ checked, library: lib, source: {}, context: [], instructions: "", complete: null });
    expect(outcome.status).toBe("fixed");
    expect(outcome.content).toBe(input.replace('"Column"', '"column"'));
    expect(isValid(parse(outcome.content!, lib))).toBe(true);
  });
});

describe("several fenced blocks are one program, each repaired in place", () => {
  const small = {
    root: "Stack",
    schema: {
      $defs: {
        Stack: { properties: { children: { type: "array" } }, required: ["children"] },
        Text: { properties: { text: { type: "string" }, size: { enum: ["s", "m", "l"] } }, required: ["text"] },
      },
    },
  };
  let readme: Library;
  beforeAll(async () => {
    const { compileLibrary, loadLanguage } = await import("../../src/lang/index.ts");
    await loadLanguage();
    readme = compileLibrary(small);
  });
  const generation = [
    "Here is the page:",
    "```ui",
    "root = Stack([title, body])",
    "```",
    "The title, then the body (`body` below):",
    "",
    "```",
    'title = Txt("Hello", "L")',
    "```",
    "and",
    "```ui",
    'body = text("World")',
    'stray = Text("x")',
    "```",
    "Anything else?",
  ].join("\n");

  test("errors in later blocks are fixed where they stand; prose and fences come back byte for byte", () => {
    const out = repair(generation, readme);
    expect(out.status).toBe("fixed");
    expect(out.content).toBe(
      // The orphan written beside `body` goes into the list `body` is in.
      generation
        .replace('Txt("Hello", "L")', 'Text("Hello", "l")')
        .replace('body = text("World")', 'body = Text("World")')
        .replace("[title, body]", "[title, body, stray]"),
    );
    expect(codes(out.fixed_errors).sort()).toEqual(["orphaned", "syntax", "type-mismatch", "unknown-component"]);
  });

  test("the Autofix pipeline returns the whole generation repaired in place", async () => {
    const checked = checkGeneration(generation, readme);
    expect(checked.valid).toBe(false);
    const outcome = await runFix({ checked, library: readme, source: small, context: [], instructions: "", complete: null });
    expect(outcome).toMatchObject({ status: "fixed", by: "sanitizer", content: repair(generation, readme).content });
  });

  test("a valid program split over blocks is already valid, as one program", () => {
    const valid = 'A:\n```\nroot = Stack([t])\n```\nB:\n```\nt = Text("x")\n```\n';
    expect(repair(valid, readme)).toEqual({ status: "already_valid", content: valid, fixed_errors: [], unfixed_errors: [] });
  });

  test("the fixing model's whole program goes into the first block; later blocks are left empty, prose kept", async () => {
    const hopeless = "A:\n```\nroot = Stack([t])\n```\nB:\n```\nt = Text()\n```\nC";
    const checked = checkGeneration(hopeless, readme);
    const outcome = await runFix({
      checked,
      library: readme,
      source: small,
      context: [],
      instructions: "",
      complete: async () => ({ content: 'root = Stack([t])\nt = Text("x")', usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } }),
    });
    expect(outcome).toMatchObject({ status: "fixed", by: "model", content: 'A:\n```\nroot = Stack([t])\nt = Text("x")\n```\nB:\n```\n```\nC' });
  });
});
