// Streams repaired as they arrive: what is sent, concatenated, is the stored answer; it is valid
// whenever the repair of the whole text is; each line goes out when it ends.
import { expect, test } from "bun:test";
import fc from "fast-check";
import { compileLibrary, inspect, isValid, loadLanguage, parse } from "../../src/lang/index.ts";
import { repair } from "../../src/repair/index.ts";
import { createStreamRepair } from "../../src/repair/stream-repair.ts";
import { builtInLibraries } from "../../src/library/index.ts";
import { mutationArb } from "../conformance/generators.ts";

await loadLanguage();
// react-ui's openuiChatLibrary (root Card), a built-in, and its own prompt's example programs.
const builtin = builtInLibraries["react-ui/openui-chat"]!;
const lib = compileLibrary(builtin.chatLibrary);
const examples = builtin.prompt.examples.map((e) => e.replace(/^[^\n]*:\n\n/, ""));

/** Streams `text` in the given chunk sizes (cycled); every piece sent, and the end. */
function stream(text: string, sizes: number[] = [3]) {
  const r = createStreamRepair(lib);
  const sent: string[] = [];
  for (let i = 0, k = 0; i < text.length; k++) {
    const n = Math.max(1, sizes[k % sizes.length]);
    sent.push(r.push(text.slice(i, i + n)));
    i += n;
  }
  const end = r.end();
  sent.push(end.text);
  return { ...end, sent: sent.join("") };
}

// Mistakes models make, each applied to one statement line of a valid program.
const MISTAKES: ((line: string) => string)[] = [
  (l) => l.replace(/= ([A-Z])([a-z])([a-z])/, (_, a, b, c) => `= ${a}${c}${b}`), // misspelt component
  (l) => l.replace(/\)$/, ', "extra", 7)'), // excess arguments
  (l) => l.replace(/"([^"]*)"\)$/, (_, s) => `"${s.toUpperCase()}")`), // enum in the wrong case
  (l) => l.replace(/\)$/, ""), // cut short
  (l) => l.replace(/\]\)$/, ")"), // a bracket lost
  (l) => l.replace(/^(\w+) = /, "$1: "), // `name: value`
  (l) => l.replace(/\(\[/, "(["), // unchanged
  (l) => l.replace(/= [A-Z]/, (m) => m.toLowerCase()), // lower-case call
  (l) => `${l}\nstray = TextContent("nobody refers to me")`, // an orphan
  (l) => l.replace(/\[(\w+), /, "[$1, ghost, "), // a reference to nothing
  () => "", // a statement lost
  (l) => `- ${l}`, // a Markdown list item
  (l) => `\`${l}\``, // inline code
  (l) => l.replace(/"([^"\n]*) ([^"\n]*)"/, '"$1\n$2"'), // a string typed over lines
  (l) => `${l},`, // a comma after the statement
];

const mistaken = fc
  .tuple(
    fc.constantFrom(...examples),
    fc.array(fc.tuple(fc.nat(), fc.nat({ max: MISTAKES.length - 1 })), { maxLength: 3 }),
    fc.constantFrom("bare", "fenced", "prose", "envelope", "bottom-up", "crlf"),
  )
  .map(([program, edits, wrap]) => {
    let lines = program.split("\n");
    for (const [at, m] of edits) {
      const i = at % lines.length;
      lines[i] = MISTAKES[m](lines[i]);
    }
    if (wrap === "bottom-up") lines = lines.reverse();
    const text = lines.join(wrap === "crlf" ? "\r\n" : "\n");
    if (wrap === "fenced") return "```openui\n" + text + "\n```\n";
    if (wrap === "prose") return "Here is the UI:\n\n```\n" + text + "\n```\nAnything else?";
    if (wrap === "envelope") return `]]>service:content\n${text}\n]]>service:context\n{"a":1}\n`;
    return text;
  });

const chunking = fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 });

const definedIn = (text: string) => new Set(inspect(text, lib).statements.map((s) => s.id));
let dropsSent = 0;

function holds(text: string, sizes: number[]) {
  const s = stream(text, sizes);
  // What was sent is the stored answer.
  expect(s.sent).toBe(s.content);
  expect(s.outcome === "fix_failed").toBe(!isValid(parse(s.content, lib)));
  // Valid whenever the repair of the whole text is, unless that repair removed a statement the
  // stream had already sent (text sent is not taken back; counted, and bounded below).
  const whole = repair(text, lib);
  if (whole.status === "fix_failed") return;
  const kept = definedIn(whole.content!);
  if ([...definedIn(s.content)].some((id) => !kept.has(id)) && !isValid(parse(s.content, lib))) {
    dropsSent++;
    return;
  }
  expect(parse(s.content, lib).errors).toEqual([]);
}

const RUNS = Number(process.env.STREAM_RUNS ?? 400);

test("property: concatenated stream == stored answer, valid whenever the non-streamed repair is (programs with models' mistakes)", () => {
  fc.assert(
    fc.property(mistaken, chunking, (text, sizes) => holds(text, sizes)),
    { numRuns: RUNS },
  );
  expect(dropsSent).toBe(0);
});

test("property: the same on arbitrary edits of valid programs (characters inserted, deleted, replaced)", () => {
  dropsSent = 0;
  fc.assert(
    fc.property(mutationArb(examples), chunking, (text, sizes) => holds(text, sizes)),
    { numRuns: RUNS },
  );
  expect(dropsSent).toBeLessThanOrEqual(RUNS / 100);
});

test("a valid program streams through unchanged, and its chunking does not matter", () => {
  for (const program of examples) {
    for (const sizes of [[1], [5], [1000]]) {
      const s = stream(program, sizes);
      expect(s.content).toBe(program);
      expect(s.outcome).toBe("already_valid");
    }
  }
});

test("each line is sent, repaired, when it ends (root first): nothing waits for a second line", () => {
  const r = createStreamRepair(lib);
  expect(r.push('root = Card([hdr, body])\nhdr = CardHeadr("Quar')).toBe("root = Card([hdr, body])\n");
  expect(r.push('terly")\n')).toBe('hdr = CardHeader("Quarterly")\n');
  expect(r.push('body = TextContent("hello", "LARGE")\n')).toBe('body = TextContent("hello", "large")\n');
  const end = r.end();
  expect(end.text).toBe("");
  expect(end.outcome).toBe("fixed");
  expect(end.corrected).toContain("unknown-component");
});

test("what only the end tells is repaired by statements sent at the end: a reference to nothing; an orphan is held back", () => {
  const r = createStreamRepair(lib);
  const sent = r.push('root = Card([title, ghost])\ntitle = TextContent("Hi")\n');
  expect(sent).toBe('root = Card([title, ghost])\ntitle = TextContent("Hi")\n');
  const end = r.end();
  expect(end.text).toBe("root = Card([title])\n");
  expect(parse(end.content, lib).errors).toEqual([]);
  expect(end.corrected).toContain("unresolved");

  // An orphan is not sent when its line ends; at the end the whole program's repair decides what
  // becomes of it (sent with a root that refers to it, or left out), as it does without streaming.
  const text = 'root = Card([title])\ntitle = TextContent("Hi")\nstray = TextContent("no parent")\n';
  const orphan = createStreamRepair(lib);
  expect(orphan.push(text)).toBe('root = Card([title])\ntitle = TextContent("Hi")\n');
  const done = orphan.end();
  expect(parse(done.content, lib).errors).toEqual([]);
  expect(done.outcome).toBe("fixed");
  expect(done.content.includes("stray =")).toBe(repair(text, lib).content!.includes("stray ="));
});

test("a broken line is mended or held back, never sent broken; a missing root is built at the end", () => {
  const s = stream('a = TextContent("x"\nb = TextContent("y")\n', [4]);
  expect(s.content).not.toContain('TextContent("x"\n');
  expect(parse(s.content, lib).errors).toEqual([]);
  expect(s.content).toMatch(/^root = /m);
});

test("framing: fences and envelope lines pass through; end statements go inside the program, before the closing fence or marker", () => {
  const fenced = stream('Intro\n```\nroot = Card([a, ghost])\na = TextContent("x")\n```\nBye\n', [7]);
  expect(fenced.content).toBe('Intro\n```\nroot = Card([a, ghost])\na = TextContent("x")\nroot = Card([a])\n```\nBye\n');
  const env = stream(']]>service:content\nroot = Card([a, ghost])\na = TextContent("x")\n]]>service:context\n{"x":1}\n', [5]);
  expect(env.content).toBe(']]>service:content\nroot = Card([a, ghost])\na = TextContent("x")\nroot = Card([a])\n]]>service:context\n{"x":1}\n');
  const openui = stream(']]>openui:content\nroot = Card([a, ghost])\na = TextContent("x")\n]]>openui:end\n', [5]);
  expect(openui.content).toBe(']]>openui:content\nroot = Card([a, ghost])\na = TextContent("x")\nroot = Card([a])\n]]>openui:end\n');
});

test("a fence line after a bare program is held: dropped at the end (it closed a program no fence opened), sent when a block follows", () => {
  const program = 'root = Card([a])\na = TextContent("x")\n';
  for (const tail of ["```\n", "```", "```\n\n"]) {
    const s = stream(program + tail, [4]);
    expect(s.sent).toBe(program);
    expect(s.content).toBe(program);
    expect(s.outcome).toBe("fixed");
    expect(s.corrected).toContain("missing-root");
    expect(s.content).toBe(repair(program + tail, lib).content!);
  }
  // A block after it: the fence opened that block, and goes out before it.
  const twice = `${program}\`\`\`\nroot = Card([b])\nb = TextContent("y")\n\`\`\`\n`;
  expect(stream(twice, [5]).content).toBe(twice);
});

test("lines the whole repair reads as statements stream as it reads them: list items, inline code, the root without its name, a string over lines, `;` between statements", () => {
  const cases = [
    '- root = Card([t])\n- t = TextContent("Hello there")\n',
    'root = Card([t, u]); t = TextContent("Hello there");  u = TextContent("Bye now")\n',
    '`root = Card([t])`\n`t = TextContent("Hello there")`\n',
    'Card([t], "sunk")\nt = TextContent("Hello there")\n',
    'root = Card([m])\nm = MarkDownRenderer(notes)\nnotes = "## Notes\n\n- one\n- two"\n',
  ];
  for (const text of cases) {
    for (const sizes of [[3], [1000]]) {
      const s = stream(text, sizes);
      expect(s.outcome).toBe("fixed");
      expect(s.content).toBe(repair(text, lib).content!);
    }
  }
  // Prose whose mended reading is no clean statement stays prose.
  const prose = "Note: this is not a program.\n- first = the plan\n";
  expect(stream(prose, [4]).content).toBe(prose);
});

test("a plain-text answer stays as the model wrote it", () => {
  const s = stream("Sorry, I can only help with orders.\nAsk me about one.", [6]);
  expect(s.content).toBe("Sorry, I can only help with orders.\nAsk me about one.");
  expect(s.outcome).toBe("fix_failed");
});
