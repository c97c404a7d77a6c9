// Habits from other languages, mended in the line where they stand rather than the line dropped:
// a statement written as a Markdown list item or inline code; `UI.Card(` and `new Card(` for `Card(`;
// `const`/`let`/`var` and `export default`; a trailing semicolon, or one between two statements;
// a comma after a whole statement; `name: value`, `name := value`, `name == value`,
// `name => value`, `name = () => value`, `name: Type = value` and `name Card(...)` for
// `name = value`; Python's True/False/None and tuples, JavaScript's undefined, template literals
// and escapes (`\'`); strings in typographic quotes; `34%` and `16px` for 34 and 16, `6 rows` for
// `"6 rows"`; named arguments written `label="Go"`; `...` for items left out; a comma typed twice,
// or left out between names in a list; a backslash continuing a line; line breaks typed inside a string (`\n`); quotes left
// unescaped inside a string, a string's closing or opening quote left out. Pure text edits; the
// parser then judges the result.
import { balance } from "../lang/balance.ts";
import { readAlone } from "../lang/program.ts";
import { jsxAsCalls } from "./jsx.ts";

const DECLARATION = /^([ \t]*)(?:export[ \t]+default[ \t]+|(?:export[ \t]+)?(?:const|let|var)[ \t]+)(?=\$?[A-Za-z_])/;
// `root = () => Stack(...)`: the value written as a function that returns it.
const ARROW = /^([ \t]*\$?[A-Za-z_][A-Za-z0-9_]*[ \t]*=)[ \t]*\([ \t]*\)[ \t]*=>(?=[ \t]*\S)/;
// A statement written as a Markdown list item (`- `, `* `, `• `, `1. `) or as inline code (`` `…` ``).
const LIST_ITEM = /^([ \t]*)(?:[-*+\u2022\u00b7\u25aa\u25e6\u2023]|\d+[.)])[ \t]+(?=\$?[A-Za-z_][A-Za-z0-9_-]*[ \t]*=)/;
const INLINE_CODE = /^([ \t]*)`(\$?[A-Za-z_][A-Za-z0-9_-]*[ \t]*=[^`]*)`[ \t]*$/;
// A statement's name in Markdown's emphasis or code (`**header** = …`, `` `header` = …``), or in
// quotes as a JSON key is (`"header" = …`).
const NAME_MARKED = /^([ \t]*)(\*\*|__|\*|`|"|')(\$?[A-Za-z_][A-Za-z0-9_-]*)\2(?=[ \t]*=)/;
// A statement's name written as words (`metric card = …`): in camel case.
const NAME_WORDS = /^([ \t]*)([a-z][A-Za-z0-9_]*(?:[ \t]+[A-Za-z][A-Za-z0-9_]*)+)(?=[ \t]*=(?!=))/;
// `form-buttons = …`: a name written with hyphens, as HTML ids are (graph.ts renames it).
const HYPHEN_NAME = /^([ \t]*)(\$?[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)+)(?=[ \t]*=)/;
// `UI.Card(`: a namespace before a component call; `new Card(`: a constructor's keyword.
const NAMESPACE = /(?<![A-Za-z0-9_$.])(?:[A-Za-z_][A-Za-z0-9_]*\.|new[ \t]+)(?=[A-Z][A-Za-z0-9_]*[ \t]*\()/g;
// `header: CardHeader = CardHeader(...)`: a type written after the name, as TypeScript does.
const TYPED_NAME = /^([ \t]*\$?[A-Za-z_][A-Za-z0-9_]*)[ \t]*:[ \t]*[A-Za-z_][A-Za-z0-9_.]*(?:<[^<>=]*>)?(?:\[\])*[ \t]*(?==(?![=>]))/;
const COLON_ASSIGN = /^([ \t]*\$?[A-Za-z_][A-Za-z0-9_]*)[ \t]*(?::=?|==|=>)[ \t]*(?=\S)/;
// `name Card(...)`: the `=` left out before a component call.
const NO_ASSIGN = /^([ \t]*\$?[A-Za-z_][A-Za-z0-9_]*)[ \t]+(?=[A-Z][A-Za-z0-9_]*[ \t]*\()/;
export const LITERALS: Record<string, string> = {
  True: "true",
  False: "false",
  TRUE: "true",
  FALSE: "false",
  None: "null",
  undefined: "null",
  nil: "null",
  NULL: "null",
  Null: "null",
};
const NAME_CHAR = /[A-Za-z0-9_$@.]/;
// Brackets: each opener, and the opener of each closer.
const OPENERS = "([{";
const OPENER_OF: Record<string, string> = { ")": "(", "]": "[", "}": "{" };

// Typographic quotes (a model copying from prose) open a string that either of their pair closes.
const SMART_PAIR: Record<string, string> = { "\u201c": "\u201d", "\u201d": "\u201c", "\u2018": "\u2019", "\u2019": "\u2018" };
const isSmart = (c: string) => Object.hasOwn(SMART_PAIR, c);
const closes = (open: string, c: string) => c === open || (isSmart(open) && SMART_PAIR[open] === c);

/** Code and string parts of `line`, in order (a string part keeps its quotes). */
function parts(line: string): { code: boolean; text: string }[] {
  const out: { code: boolean; text: string }[] = [];
  let at = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "#" || (c === "/" && line[i + 1] === "/")) break; // a comment runs to the end
    if (c !== '"' && c !== "'" && c !== "`" && !isSmart(c)) continue;
    if (i > at) out.push({ code: true, text: line.slice(at, i) });
    let j = i + 1;
    while (j < line.length && !closes(c, line[j])) j += line[j] === "\\" ? 2 : 1;
    out.push({ code: false, text: line.slice(i, j + 1) });
    i = Math.min(j, line.length);
    at = i + 1;
  }
  if (at < line.length) out.push({ code: true, text: line.slice(at) });
  return out;
}

/**
 * Calls `visit` with each character of `line` that is code (not in a string or a comment), its
 * offset in the line, the last character before it that is not a space (`"` for a string), and
 * how many brackets are open with it (an opener counted, a closer not).
 */
function eachInCode(line: string, visit: (c: string, at: number, prev: string, depth: number) => void): void {
  let at = 0;
  let prev = "";
  let depth = 0;
  for (const p of parts(line)) {
    for (let i = 0; p.code && i < p.text.length; i++) {
      const c = p.text[i];
      if (OPENERS.includes(c)) depth++;
      else if (OPENER_OF[c] !== undefined) depth--;
      visit(c, at + i, prev, depth);
      if (c !== " " && c !== "\t") prev = c;
    }
    if (!p.code) prev = '"';
    at += p.text.length;
  }
}

/** The characters of `line` that are code, each with its offset and depth (as eachInCode gives them). */
function codeChars(line: string): { c: string; at: number; depth: number }[] {
  const code: { c: string; at: number; depth: number }[] = [];
  eachInCode(line, (c, at, _prev, depth) => code.push({ c, at, depth }));
  return code;
}

/** A template literal as a double-quoted string, its `${x}` parts joined with `+`. */
function untemplate(literal: string): string {
  const body = literal.slice(1, literal.endsWith("`") && literal.length > 1 ? -1 : undefined);
  const pieces: string[] = [];
  let at = 0;
  for (let i = body.indexOf("${"); i !== -1; i = body.indexOf("${", at)) {
    const close = body.indexOf("}", i);
    if (close === -1) break;
    if (i > at) pieces.push(quoted(body.slice(at, i)));
    pieces.push(body.slice(i + 2, close).trim());
    at = close + 1;
  }
  if (at < body.length || pieces.length === 0) pieces.push(quoted(body.slice(at)));
  return pieces.join(" + ");
}

// A template literal's escapes (JavaScript's): `\n`, `\xHH`, `\uHHHH`, a line continuation, any other character as itself.
const TEMPLATE_ESCAPE = /\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|(\r?\n)|([\s\S]))/g;
const ESCAPED: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f", v: "\v", "0": "\0" };

/** A piece of a template literal's text as a double-quoted string that means the same (`\n` stays a line break). */
function quoted(piece: string): string {
  const text = piece.replace(TEMPLATE_ESCAPE, (_, x?: string, u?: string, continued?: string, c?: string) =>
    x || u ? String.fromCharCode(Number.parseInt(x ?? u!, 16)) : continued ? "" : (ESCAPED[c!] ?? c!),
  );
  return JSON.stringify(text);
}

/** A string in typographic quotes as a double-quoted one (its text as written). */
function unsmart(literal: string): string {
  return JSON.stringify(literal.slice(1, literal.length > 1 && isSmart(literal[literal.length - 1]) ? -1 : undefined));
}

// Read where a search stops (sticky): no copy of the rest of the line for each look.
const CALL_AFTER = /\s*\(/y;

/** Literals of other languages in code, as whole words (not members, state or calls). */
function literals(code: string): string {
  return code.replace(/[A-Za-z_][A-Za-z0-9_]*/g, (word, at: number) => {
    const to = Object.hasOwn(LITERALS, word) ? LITERALS[word] : undefined;
    if (to === undefined || NAME_CHAR.test(code[at - 1] ?? "")) return word;
    CALL_AFTER.lastIndex = at + word.length;
    return CALL_AFTER.test(code) ? word : to;
  });
}

/** `label="Go"` inside a call's parentheses: `label: "Go"` (positional() takes it from there). */
function namedEquals(code: string, depth: { paren: number }): string {
  const out: string[] = [];
  let at = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (c === ")") depth.paren--;
    if (c === "(") depth.paren++;
    else if (c !== ",") continue;
    if (depth.paren <= 0) continue;
    // `  name  =  ` (not `==`), read by hand: a pattern per comma cost the rest of the line.
    let j = i + 1;
    while (code[j] === " " || code[j] === "\t") j++;
    const nameStart = j;
    if (!/[A-Za-z_]/.test(code[j] ?? "")) continue;
    while (/[A-Za-z0-9_]/.test(code[j] ?? "")) j++;
    const nameEnd = j;
    while (code[j] === " " || code[j] === "\t") j++;
    if (code[j] !== "=" || code[j + 1] === "=") continue;
    j++;
    while (code[j] === " " || code[j] === "\t") j++;
    out.push(code.slice(at, nameStart), `${code.slice(nameStart, nameEnd)}: `);
    at = j;
    i = j - 1;
  }
  if (at === 0) return code;
  out.push(code.slice(at));
  return out.join("");
}

// A statement's start after a `;` between statements (`a = X(); b = Y()`), with the spaces before it.
const NEXT_STATEMENT = /[ \t]*\$?[A-Za-z_][A-Za-z0-9_]*[ \t]*=(?!=)/y;

/**
 * `;` between values inside brackets (`TextContent("Hi"; "small")`): a comma; between two
 * statements on one line: a line break. One at the line's end ends the statement.
 */
function semicolonsInside(line: string): string {
  if (!line.includes(";")) return line;
  const out = line.split("");
  let last = line.length - 1; // the last character that is neither space nor `;`
  while (last >= 0 && /[\s;]/.test(line[last])) last--;
  eachInCode(line, (c, at, _, depth) => {
    if (c === ";" && at < last) {
      NEXT_STATEMENT.lastIndex = at + 1;
      if (depth > 0) out[at] = ",";
      else if (depth === 0 && NEXT_STATEMENT.test(line)) {
        out[at] = "\n";
        for (let j = at + 1; line[j] === " " || line[j] === "\t"; j++) out[j] = "";
      }
    }
  });
  return out.join("");
}

/** A line holding statements with `;` between them (`a = X(); b = Y()`), a line each (its break on the last); null for one. */
export function statementsOnLine(line: string): string[] | null {
  if (!line.includes(";")) return null;
  const body = line.replace(/\r?\n$/, "");
  const pieces = semicolonsInside(body).split("\n");
  if (pieces.length < 2) return null;
  return pieces.map((p, k) => p + (k < pieces.length - 1 ? "\n" : line.slice(body.length)));
}

// A number with a unit where a value ends: `34%` or `16px` is its number (a percentage or a length
// is written as its number); another word (`6 rows`, `30s`) is kept, the whole quoted: values.ts
// takes its number where a number goes, and a text keeps the word.
const UNIT = /(?<![A-Za-z0-9_$.])(-?\d+(?:\.\d+)?)((?:%|[ \t]*[A-Za-z]+))(?=[ \t]*(?:[,)\]}]|$))/g;
const CSS_UNIT = /^(?:%|px|rem|em|pt)$/;
// `...` standing for items left out (`[a, b, ...]`, `[...]`): nothing, as written.
const ELLIPSIS = /,[ \t]*(?:\.\.\.|…)(?=[ \t]*[\])])|(?<=[[(])[ \t]*(?:\.\.\.|…)[ \t]*(?=[\])])/g;

// A backslash that continues a line (Python's, a shell's), where code breaks over lines: the break alone.
const CONTINUED = /[ \t]*\\[ \t]*(?=\r?\n)/g;

// An amount with its currency sign where a value goes (`$1,200`): quoted, as UNIT quotes a number with its word.
const CURRENCY = /(?<![A-Za-z0-9_$.])[$€£]-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?=[ \t]*(?:[,)\]}]|$))/g;
// Words without quotes where a value goes, the first capitalized (`CardHeader(Monthly Revenue, …)`): text.
const BARE_TEXT = /(?<=[(,[][ \t]*)[A-Z][\w'&.%$-]*(?:[ \t]+[\w'&.%$-]+)+(?=[ \t]*[,)\]])/g;
// Names in braces with no keys (`Card({header, body}, …)`): a list, as a set is written elsewhere.
const NAMES_IN_BRACES = /\{([ \t]*[a-z_][A-Za-z0-9_]*(?:[ \t]*,[ \t]*[a-z_][A-Za-z0-9_]*)*[ \t]*)\}/g;

const NUMBER_IN = /^[$€£]?(-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)(?:[ \t]*(?:%|[A-Za-z]+))?$/;
/** The number a string holds with a currency sign, thousands separators or a word after it (`"$1,200"`, `"6 rows"`), or null. */
export function numberIn(text: string): string | null {
  const m = NUMBER_IN.exec(text.trim());
  return m && m[0] !== m[1] ? m[1].replace(/,/g, "") : null;
}

/** UNIT's replacement (`true`, `null` after a number are values of their own, not a unit). */
function unitless(all: string, num: string, unit: string): string {
  if (CSS_UNIT.test(unit.trim())) return num;
  return /^[ \t]*(?:true|false|null)$/.test(unit) ? all : `"${num}${unit}"`;
}

/**
 * Commas inside brackets: an empty place between two (`Stack([a], "column", , "l")`, `["Oct", ,
 * "Nov"]`), or before the first value, is a comma typed twice, taken out with the spaces after it
 * (a value then in the wrong place is moved by its type, as any other); two names or numbers with
 * only spaces between (`[header body footer]`) have their comma put back.
 */
function listCommas(line: string): string {
  if (!/[(,[][ \t]*,|[A-Za-z0-9_$][ \t]+[A-Za-z0-9_$]/.test(line)) return line;
  const out = line.split("");
  eachInCode(line, (c, at, prev, depth) => {
    if (c === "," && (prev === "," || prev === "(" || prev === "[")) {
      out[at] = "";
      for (let j = at + 1; line[j] === " " || line[j] === "\t"; j++) out[j] = "";
    } else if ((c === " " || c === "\t") && depth > 0 && VALUE_CHAR.test(line[at - 1] ?? "")) {
      // A value's end, spaces, then the next value's start (a string or a comment begins otherwise).
      let j = at + 1;
      while (line[j] === " " || line[j] === "\t") j++;
      if (VALUE_CHAR.test(line[j] ?? "")) out[at - 1] += ",";
    }
  });
  return out.join("");
}

// A character of a name or a number, as one ends or the next begins.
const VALUE_CHAR = /[A-Za-z0-9_$]/;

/** `("Apr", "May")` where a value goes (Python's tuple, not a call nor a grouping): an array. */
function tuplesAsArrays(line: string): string {
  const open: { at: number; tuple: boolean; comma: boolean }[] = [];
  const out = line.split("");
  eachInCode(line, (c, at, prev) => {
    if (OPENERS.includes(c)) open.push({ at, tuple: c === "(" && !/[A-Za-z0-9_$)\]]/.test(prev), comma: false });
    else if (OPENER_OF[c] !== undefined) {
      const o = open.pop();
      if (c === ")" && o?.tuple && o.comma) [out[o.at], out[at]] = ["[", "]"];
    } else if (c === "," && open.length) open[open.length - 1].comma = true;
  });
  return out.join("");
}

/** The line without the Markdown or declaration around its statement. */
const unwrapped = (line: string) =>
  line
    .replace(INLINE_CODE, "$1$2")
    .replace(LIST_ITEM, "$1")
    .replace(DECLARATION, "$1")
    .replace(NAME_MARKED, "$1$3")
    .replace(
      NAME_WORDS,
      (_, space: string, words: string) =>
        space +
        words
          .split(/[ \t]+/)
          .map((w, i) => (i ? w[0].toUpperCase() + w.slice(1) : w))
          .join(""),
    );

/** `form-buttons` → `formButtons`. */
export const camelName = (name: string) => name.replace(/-([A-Za-z0-9_])/g, (_, c: string) => c.toUpperCase());

/** The name a line defines with hyphens in it (`form-buttons = …`), or null. */
export function hyphenDefined(line: string): string | null {
  return HYPHEN_NAME.exec(unwrapped(line))?.[2] ?? null;
}

/** Whether offset `at` of `line` is code: not in a string or a comment. */
export function inCode(line: string, at: number): boolean {
  let from = 0;
  for (const p of parts(line)) {
    if (at < from + p.text.length) return p.code;
    from += p.text.length;
  }
  return false; // in the comment that ends the line
}

// A block comment of C and JavaScript (`/* row */`, in JSX `{/* row */}`) or HTML (`<!-- row -->`), on one line or over
// lines inside a statement over lines: with its lines where it has them to itself, else with the
// spaces before it where it ends the code.
const COMMENT = String.raw`(?:\{[ \t]*\/\*[\s\S]*?\*\/[ \t]*\}|\/\*[\s\S]*?\*\/|<!--[\s\S]*?-->)`;
const BLOCK_COMMENT = new RegExp(String.raw`\r?\n[ \t]*${COMMENT}[ \t]*(?=\r?\n)|[ \t]*${COMMENT}(?=[ \t]*$)|${COMMENT}[ \t]*`, "g");

// Characters of no width (a zero-width space or joiner, a byte-order mark) copied into code.
const ZERO_WIDTH = /[\u200b-\u200d\u2060\ufeff]/g;
// Punctuation of a CJK keyboard in code (`TextContent（"Hi"，"small"）`, the ideographic comma `、`
// between items): its ASCII character.
const FULL_WIDTH = /[\uff08\uff09\uff0c\uff3b\uff3d\uff5b\uff5d\u3001]/g;
const FULL_WIDTH_AS: Record<string, string> = { "（": "(", "）": ")", "，": ",", "［": "[", "］": "]", "｛": "{", "｝": "}", "、": "," };
// A name with accented Latin letters (`título`, `größe`), which names of the language do not take:
// the letters without their accents.
const ACCENTED_NAME =
  /(?<![\w$\u00c0-\u024f])[\w$\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f]*[\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f][\w$\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f]*/g;
const UNDECOMPOSED: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  Æ: "AE",
  œ: "oe",
  Œ: "OE",
  ø: "o",
  Ø: "O",
  ł: "l",
  Ł: "L",
  đ: "d",
  Đ: "D",
  þ: "th",
  Þ: "Th",
  ð: "d",
  Ð: "D",
};
const unaccented = (name: string) =>
  name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[\u00c0-\u024f]/g, (c) => UNDECOMPOSED[c] ?? c);
// What stands before where a value begins: an opener, a comma, `=` or `:`, and spaces.
const BEFORE_VALUE = String.raw`[(,[=:][ \t]*`;
// A number written with a sign or a point a number of the language does not take (`+6`, `.5`, `6.`):
// the number.
const PLUS_SIGN = new RegExp(String.raw`(?<=${BEFORE_VALUE})\+(?=\d|\.\d)`, "g");
const BARE_POINT = new RegExp(String.raw`(?<=${BEFORE_VALUE}-?)\.(?=\d)`, "g");
const POINT_LAST = /(?<![\w.$])(\d+)\.(?=[ \t]*[,)\]}])/g;
// Digits grouped by underscores (`1_000`, as JavaScript and Python allow): the number.
const DIGIT_GROUPS = /(?<![A-Za-z0-9_$.])\d+(?:_\d+)+(?![A-Za-z0-9_])/g;
// A typographic minus or dash before a number where a value begins (`−6`, `—6`): a minus.
const TYPOGRAPHIC_MINUS = new RegExp(String.raw`(?<=${BEFORE_VALUE})[\u2212\u2013\u2014](?=\d)`, "g");

// A closing fence written at the end of the program's last line (`… "large")````), not on a line
// of its own: the program ends there, and a fence left open runs to the end.
const GLUED_FENCE = /(?<=[)\]}"'\w])[ \t]*```[ \t]*(?=\r?\n?$)/;

// A string in Python's triple quotes, or in doubled ones (`""Revenue""`), as a string in quotes of its own.
const TRIPLED = /"""([^"\n]*)"""/g;
const DOUBLED = /(?<!["\\])""([^"\n,()[\]{}][^"\n]*?)""(?!")/g;

/** `line` with every mend applied, or null when none applies. */
export function mendLine(line: string): string | null {
  const unfenced = line.includes("```") ? line.replace(GLUED_FENCE, "") : line;
  const jsx = (unfenced.includes("<") && jsxAsCalls(unfenced)) || unfenced;
  let text = unwrapped(jsx.includes('""') ? jsx.replace(TRIPLED, '"$1"').replace(DOUBLED, '"$1"') : jsx)
    .replace(ARROW, "$1")
    .replace(TYPED_NAME, "$1 ")
    .replace(COLON_ASSIGN, "$1 = ")
    .replace(NO_ASSIGN, "$1 = ");
  const depth = { paren: 0 };
  text = parts(text)
    .map((p) =>
      p.code
        ? namedEquals(
            literals(
              p.text
                .replace(BLOCK_COMMENT, "")
                .replace(CONTINUED, "")
                .replace(ZERO_WIDTH, "")
                .replace(FULL_WIDTH, (c) => FULL_WIDTH_AS[c]!)
                .replace(ACCENTED_NAME, unaccented)
                .replace(DIGIT_GROUPS, (n) => n.replaceAll("_", ""))
                .replace(TYPOGRAPHIC_MINUS, "-")
                .replace(PLUS_SIGN, "")
                .replace(BARE_POINT, "0.")
                .replace(POINT_LAST, "$1"),
            )
              .replace(BARE_TEXT, '"$&"')
              .replace(CURRENCY, '"$&"')
              .replace(UNIT, unitless)
              .replace(NAMESPACE, "")
              .replace(ELLIPSIS, "")
              .replace(NAMES_IN_BRACES, "[$1]"),
            depth,
          )
        : p.text.startsWith("`")
          ? untemplate(p.text)
          : isSmart(p.text[0])
            ? unsmart(p.text)
            : p.text[0] === '"'
              ? unescaped(p.text.replace(/\r?\n/g, "\\n"))
              : p.text.replace(/\r?\n/g, "\\n"),
    )
    .join("");
  text = listCommas(tuplesAsArrays(semicolonsInside(text)));
  // A trailing semicolon (or several), with what spacing follows (read back from the end: a
  // pattern for it would try every run of semicolons in the line); or one comma after a whole
  // statement, as between an object's entries (inside an open bracket it goes on the next line),
  // or one full stop after a closing bracket, as a sentence ends.
  let end = text.length;
  while (end > 0 && (text[end - 1] === " " || text[end - 1] === "\t")) end--;
  let cut = end;
  while (cut > 0 && text[cut - 1] === ";") cut--;
  if (cut === end && text[end - 1] === "," && closedAt(text, end - 1)) cut--;
  else if (cut === end && text[end - 1] === "." && /[)\]}]/.test(text[end - 2] ?? "") && closedAt(text, end - 1)) cut--;
  if (cut < end) text = text.slice(0, cut) + text.slice(end);
  return text === line ? null : text;
}

/** Whether every bracket and string opened before `at` is closed there. */
function closedAt(text: string, at: number): boolean {
  const b = balance(text.slice(0, at));
  return b.closers === "" && b.mismatch === null && b.unopened === -1;
}

// What a backslash may stand before in a string, whose escapes are JSON's: `\'`, `\$` or `` \` ``
// (JavaScript's, meaning the character alone) is the character; `\xHH` (JavaScript's too) the
// character of that code; before anything else (`\d` or `\.` of a pattern, `\U` of a Windows
// path) the backslash itself was meant.
const ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t", "u"]);
const unescaped = (literal: string) =>
  literal.replace(/\\(x[0-9A-Fa-f]{2}|[\s\S])/g, (pair, c: string) =>
    ESCAPES.has(c) ? pair : c.length === 3 ? `\\u00${c.slice(1)}` : /['$`\s]/.test(c) ? c : `\\${pair}`,
  );

// What follows a quote inside a string and never one that ends a string: a word, a number, a
// currency sign, a letter or a dash past ASCII (`"—"`).
const INSIDE_AFTER = /[A-Za-z0-9$\u00a0-\uffff]/;

/**
 * Quotes inside a string written as they are (`"the "best" plan"`): a quote followed by a word
 * (not a comma, a closer or another value) is part of the string, escaped. Null when there is none.
 */
export function innerQuotes(line: string): string | null {
  const out: string[] = [];
  let at = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "#" || (c === "/" && line[i + 1] === "/")) {
      while (i + 1 < line.length && line[i + 1] !== "\n") i++; // a comment runs to the line's end
      continue;
    }
    if (c !== '"' && c !== "'") continue;
    let j = i + 1;
    for (; j < line.length && line[j] !== "\n"; j++) {
      if (line[j] === "\\") j++;
      else if (line[j] === c) {
        let k = j + 1;
        while (line[k] === " " || line[k] === "\t") k++;
        if (!INSIDE_AFTER.test(line[k] ?? "")) break;
        out.push(line.slice(at, j), "\\");
        at = j;
      }
    }
    i = j;
  }
  if (at === 0) return null;
  out.push(line.slice(at));
  return out.join("");
}

/**
 * A string's closing quote left out before the next argument (`"Contact Us, "large-heavy"`): where
 * a quote inside a string is followed by a word (as innerQuotes reads it) and the string holds a
 * `, ` before it, the quote put back before that comma. Null when there is no such place.
 */
export function closedQuote(line: string): string | null {
  const escaped = innerQuotes(line);
  if (escaped === null) return null;
  // The first quote innerQuotes escaped: where the two texts first differ.
  let at = 0;
  while (line[at] === escaped[at]) at++;
  const open = line.lastIndexOf(line[at], at - 1);
  if (open < 0) return null;
  // The first `, ` code follows (`"subject, subjectOptions, "Select…"`), else the last one.
  const code = commaBeforeCode(line, open + 1, at);
  const comma = code >= 0 ? code : line.lastIndexOf(", ", at);
  if (comma <= open) return null;
  // Before the brackets the code closed there, when the string ends in them (`"primary), Button(`).
  return withQuote(line, closersFrom(line, open + 1, comma), line[at]);
}

/**
 * A string left open at the line's end (`TextContent("Contact Us)`) closed before the brackets
 * the code closes at its end, which it took in: null when its text ends in none.
 */
export function closedBeforeBrackets(line: string, quoteAt: number): string | null {
  const end = closersFrom(line, quoteAt + 1, line.length);
  return end === line.length ? null : withQuote(line, end, line[quoteAt]);
}

/**
 * A string left open at the line's end closed before the first `, ` that code follows
 * (`Slice("Paid Search, 22)`, `Form("contact, [nameField], buttons)`): null when none does.
 */
export function closedBeforeCode(line: string, quoteAt: number): string | null {
  const comma = commaBeforeCode(line, quoteAt + 1, line.length);
  return comma < 0 ? null : withQuote(line, comma, line[quoteAt]);
}

/** A string left open at the line's end closed before the code it took in: the values after a comma, the brackets at the end. */
export function closedEarly(line: string, quoteAt: number): string[] {
  return [closedBeforeCode(line, quoteAt), closedBeforeBrackets(line, quoteAt)].filter((t) => t !== null);
}

// What follows a comma in code and seldom in prose: a list or object, a number, a literal, a
// name written as code names are (`subjectOptions`, `faq2Text`) before the next delimiter, or an
// object's next key with its value (`values: [`, `value: 40`).
const CODE_AFTER =
  /^,[ \t]+(?:[[{]|-?\d|(?:true|false|null)\b|[a-z][a-z0-9]*[A-Z0-9_][A-Za-z0-9_]*[ \t]*[,)\]]|[A-Za-z_][A-Za-z0-9_]*:[ \t]*(?:[[{"]|-?\d|(?:true|false|null)\b))/;

// The ways a line of a statement over lines may have lost a quote, each tried on every line.
const LINE_QUOTES: ((line: string, quoteAt: number) => string | null)[] = [
  (line) => closedQuote(line),
  closedBeforeCode,
  closedBeforeBrackets,
  (line) => openedQuotes(line, 1)[0] ?? null,
];

/**
 * A statement over several lines (a table's rows, one a line) with a quote left out in some of
 * them: readings with each such line (one that ends inside a string) mended on its own, as a
 * string holds no line break: the closing quote put back before the next argument's quote, the
 * code it took in, or the brackets at the line's end; or the opening quote given back. One
 * reading per way, those that change the text.
 */
export function quotesByLine(text: string): string[] {
  if (!text.includes("\n")) return [];
  const lines = text.split("\n");
  const open = lines.map((line) => balance(line).quoteAt);
  if (!open.some((q) => q >= 0)) return [];
  const out = new Set<string>();
  for (const mend of LINE_QUOTES) {
    const read = lines.map((line, i) => (open[i] >= 0 ? (mend(line, open[i]) ?? line) : line)).join("\n");
    if (read !== text) out.add(read);
  }
  return [...out];
}

/** A string opened with `"` and closed with `'` before a comma or a closer (`"Month', "Revenue"`), closed with `"`; null when none is. */
export function mismatchedQuote(line: string): string | null {
  const out = line.replace(/"([^"'\n]*)'(?=[ \t]*[,)\]}])/g, '"$1"');
  return out === line ? null : out;
}

/** Where the first `, ` in `line.slice(from, to)` stands that code follows, or -1. */
function commaBeforeCode(line: string, from: number, to: number): number {
  for (let i = line.indexOf(",", from); i !== -1 && i < to; i = line.indexOf(",", i + 1)) {
    if (CODE_AFTER.test(line.slice(i, i + 80))) return i;
  }
  return -1;
}

/** `line` with `quote` put in at `at`. */
const withQuote = (line: string, at: number, quote: string) => `${line.slice(0, at)}${quote}${line.slice(at)}`;

/**
 * Where the run of closing brackets (and spaces) at the end of `line.slice(from, to)` begins, when
 * each closes nothing opened in that text: brackets of the code around a string that took them in.
 * `to` when the text does not end so.
 */
function closersFrom(line: string, from: number, to: number): number {
  let end = to;
  while (end > from && /[ \t)\]},]/.test(line[end - 1])) end--;
  if (!/[)\]}]/.test(line.slice(end, to))) return to;
  // Brackets opened in the text before the run close their own first.
  const opened: string[] = [];
  for (let i = from; i < end; i++) {
    const c = line[i];
    if (OPENERS.includes(c)) opened.push(c);
    else if (OPENER_OF[c] !== undefined && opened.at(-1) === OPENER_OF[c]) opened.pop();
  }
  for (let i = end; i < to && opened.length > 0; i++) {
    const c = line[i];
    if (OPENER_OF[c] === undefined) continue;
    if (opened.at(-1) !== OPENER_OF[c]) break;
    opened.pop();
    end = i + 1;
  }
  while (end < to && (line[end] === " " || line[end] === "\t")) end++;
  return end;
}

/**
 * Readings of `line` with a string's opening quote given back (`TextContent(+6.2% vs last month",
 * "small")`): before a quote that closes an argument (a comma or a closer follows it), the text
 * back to an opener, a `, `, a `: ` or a `= ` becomes the string, when it holds no quote and its
 * brackets are balanced. Nearest start first, the line's first such quote first; at most `max`.
 */
export function openedQuotes(line: string, max = 4): string[] {
  const out: string[] = [];
  for (let q = 0; q < line.length && out.length < max; q++) {
    const c = line[q];
    if (c !== '"' && c !== "'") continue;
    if (!/^[ \t]*(?:[,)\]}]|$)/.test(line.slice(q + 1, q + 40))) continue;
    let depth = 0;
    for (let i = q - 1; i >= 0 && out.length < max; i--) {
      const d = line[i];
      if (d === '"' || d === "'" || d === "\n") break;
      if (OPENER_OF[d] !== undefined) depth++;
      const opener = OPENERS.includes(d);
      if (opener && depth > 0) {
        depth--;
        continue;
      }
      const delimiter = opener || ((d === "," || d === ":" || d === "=") && (line[i + 1] === " " || line[i + 1] === "\t"));
      if (!delimiter) continue;
      let start = i + 1;
      while (line[start] === " " || line[start] === "\t") start++;
      if (start < q && depth === 0) out.push(withQuote(line, start, c));
      if (opener) break;
    }
  }
  return out;
}

/** Runs of spaces (or a line break, in a statement over lines) outside strings between the end of one value and the start of another. */
function valueGaps(line: string): number[] {
  const out: number[] = [];
  let at = 0;
  for (const p of parts(line)) {
    if (p.code) {
      for (const m of p.text.matchAll(/[ \t]*\r?\n[ \t]*|[ \t]+/g)) {
        const i = at + m.index!;
        const left = line[i - 1] ?? "";
        const right = line[i + m[0].length] ?? "";
        if (/["'\])}A-Za-z0-9_]/.test(left) && /["'[{A-Za-z0-9_$@-]/.test(right)) out.push(i);
      }
    }
    at += p.text.length;
  }
  return out;
}

/**
 * Commas put back between two values that stand side by side (`"a" "b"`, `"Latency" [...]`):
 * the first gap whose comma leaves the line readable as a statement, again for a second and
 * third. Null when none does.
 */
export function missingCommas(line: string, tries = 3): string | null {
  let text = line;
  for (let n = 0; n < tries; n++) {
    const now = readAlone(text).broken[0];
    if (!now) return n === 0 ? null : text;
    const reached = now.stoppedAt ?? 0;
    const gaps = valueGaps(text).slice(0, 12);
    let next: string | null = null;
    let fallback: string | null = null;
    for (const at of gaps) {
      // Not the gap between a statement's name and its `=` (no value there), nor keywords' own.
      // Over lines, the comma ends the first line.
      const rest = text.slice(at);
      const candidate = `${text.slice(0, at)},${/^[ \t]*\r?\n/.test(rest) ? "" : " "}${rest.replace(/^[ \t]+/, "")}`;
      const ins = readAlone(candidate);
      if (ins.statements === 1 && ins.broken.length === 0) return candidate;
      // Readable further than before: there may be another comma missing after it.
      const b = ins.broken[0];
      if (fallback === null && b && !b.incomplete && (b.stoppedAt ?? 0) > reached + 2) fallback = candidate;
    }
    next = fallback;
    if (next === null) return null;
    text = next;
  }
  return readAlone(text).broken.length === 0 ? text : null;
}

// Where a value starts, after a list's closing bracket (`] name`, `] "text"`, `] Text(`).
const VALUE_START_CHAR = "[A-Za-z0-9_$@\"'[{-]";
const VALUE_START = new RegExp(VALUE_START_CHAR);
// A value after a closing bracket with only space between: a line without one has no reading below
// (a broken line is read for it every round; most lines are not walked).
const VALUE_AFTER_CLOSER = new RegExp(String.raw`\]\s+${VALUE_START_CHAR}`);

/**
 * A list's last item written after its closing bracket (`[a,\n  b\n] c, d)` for
 * `[a,\n  b,\n  c\n], d)`): for each `]` with a value after it and no comma between, the line with
 * that value moved inside, laid out as the items before it. The reading with a comma after the
 * `]` instead is missingCommas'; the library judges between them.
 */
export function itemAfterCloser(line: string): string[] {
  if (!VALUE_AFTER_CLOSER.test(line)) return [];
  const code = codeChars(line);
  const out: string[] = [];
  code.forEach(({ c, at, depth }, k) => {
    if (c !== "]") return;
    let start = at + 1;
    while (/\s/.test(line[start] ?? "")) start++;
    if (start === at + 1 || !VALUE_START.test(line[start] ?? "")) return;
    // The value runs to a comma beside it or to the closer of what holds it.
    let stop = line.length;
    for (let j = k + 1; j < code.length; j++) {
      const e = code[j];
      if (e.at < start) continue;
      if ((e.c === "," && e.depth === depth) || e.depth < depth) {
        stop = e.at;
        break;
      }
    }
    const value = line.slice(start, stop).trimEnd();
    const before = line.slice(0, at).trimEnd();
    const gap = line.slice(before.length, at);
    const lastLine = before.slice(before.lastIndexOf("\n") + 1);
    const separator = gap.includes("\n") ? `\n${/^[ \t]*/.exec(lastLine)![0]}` : " ";
    const first = before.endsWith("[");
    const comma = first || before.endsWith(",") ? "" : ",";
    out.push(`${before}${comma}${first ? "" : separator}${value}${gap}]${line.slice(start + value.length)}`);
  });
  return out;
}

// A component's name where a call starts (not a member's name, `a.Card`).
const CALL_NAME = /(?<![A-Za-z0-9_$.@])[A-Z][A-Za-z0-9_]*$/;
// A capitalized name before `[` or before a space and a value: a line without one has no reading below.
const CALL_WITHOUT_PARENS = new RegExp(String.raw`[A-Z][A-Za-z0-9_]*(?:\s*\[| \s*${VALUE_START_CHAR})`);
// The most calls a line's readings below are made for, each on its own.
const MAX_CALL_SITES = 3;

/**
 * Calls written with square brackets (`TextContent["Hi", "large"]`) or with their opening
 * parenthesis left out (`TextContent "Hi", "large")`): for each, the line with it written as a
 * call. A closer the second leaves missing is put back by the readings that close a line.
 */
export function callsMended(line: string): string[] {
  if (!CALL_WITHOUT_PARENS.test(line)) return [];
  const code = codeChars(line);
  const out: string[] = [];
  for (let k = 0; k < code.length && out.length < MAX_CALL_SITES; k++) {
    const { c, at, depth } = code[k];
    const name = CALL_NAME.exec(line.slice(Math.max(0, at - 64), at).trimEnd());
    if (!name) continue;
    if (c === "[") {
      const close = code.find((e, j) => j > k && e.c === "]" && e.depth === depth - 1);
      if (close) out.push(`${line.slice(0, at)}(${line.slice(at + 1, close.at)})${line.slice(close.at + 1)}`);
    } else if (c === " " && line[at - 1] !== " " && VALUE_START.test(line.slice(at).trimStart()[0] ?? "")) {
      out.push(`${line.slice(0, at)}(${line.slice(at).trimStart()}`);
    }
  }
  return out;
}

// A line of words and nothing else: no string, bracket, `=` or number.
const WORDS_LINE = /^[ \t]*([A-Za-z][^"'`[\]{}()=0-9\r\n]*?)[ \t]*\r?$/;

/**
 * A statement over lines with a line of prose among its lines (`Next, the details section:`, two
 * words or more): without that line. A line of names only (`header body footer`, each `isName`)
 * is a list whose commas were left out, not prose. Null when no line is prose.
 */
export function proseLinesOut(text: string, isName: (word: string) => boolean): string | null {
  const all = text.split("\n");
  const kept = all.filter((line, i) => {
    const words = (i === 0 ? undefined : WORDS_LINE.exec(line)?.[1])?.split(/[^A-Za-z0-9_$]+/).filter((w) => w !== "") ?? [];
    return words.length < 2 || words.every(isName);
  });
  return kept.length === all.length ? null : kept.join("\n");
}

// Candidate ends `proseAfter` tries, from the last: a line with more has prose with code in it.
const MAX_PROSE_ENDS = 3;

/**
 * A whole statement with prose after it on its line (`rows = Stack([a, b])  <- the main layout`):
 * the line cut where a value ends at depth 0 (a closing bracket, a string's closing quote) and
 * words follow after a space, the last such end first. Each is a reading the parser then judges.
 */
export function proseAfter(line: string): string[] {
  const ends: number[] = [];
  let at = 0;
  let depth = 0;
  let assigned = false;
  for (const p of parts(line)) {
    if (!p.code) {
      at += p.text.length;
      if (assigned && depth === 0) ends.push(at);
      continue;
    }
    for (let i = 0; i < p.text.length; i++) {
      const c = p.text[i];
      if (c === "=" && depth === 0) assigned = true;
      else if (OPENERS.includes(c)) depth++;
      else if (OPENER_OF[c] !== undefined && --depth === 0 && assigned) ends.push(at + i + 1);
    }
    at += p.text.length;
  }
  const out: string[] = [];
  for (let k = ends.length - 1; k >= 0 && out.length < MAX_PROSE_ENDS; k--) {
    if (PROSE_FOLLOWS.test(line.slice(ends[k]))) out.push(line.slice(0, ends[k]));
  }
  return out;
}

// After a value: a space, then text with a word of two letters or more in it and no code (a
// string, a list, a call, an `=`: a value or statement that a comma or line break left out).
const PROSE_FOLLOWS = /^[ \t]+(?![^\n]*(?:["[{=]|\w\())[^\n]*[A-Za-z]{2}/;
