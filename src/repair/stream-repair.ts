// Managed-UI streams repaired as they arrive (pure). Text goes in as the model writes it; what
// comes out is what the client may show at once: each statement is checked when its line ends
// and sent already repaired (misspelt component renamed, value coerced, broken line mended or
// held back). What only the whole answer tells (references to nothing, a missing root, orphans)
// is repaired at the end by statements sent after the others: a later statement of the same
// name replaces an earlier one, so the sent text never needs taking back. The concatenation of
// everything sent is the stored answer.
//
// Two rules keep that answer free of what cannot be taken back:
// - No broken line is ever sent (it would stay an error); it is mended, or held back.
// - A component or value statement nothing sent refers to yet is held until something does
//   (with root first, as the prompt asks, that is at once): an orphan is never sent as one. What
//   becomes of a statement that never gets a parent is the whole program's repair's decision at
//   the end (a root that refers to it, or left out), as without streaming.
import { inspect, isValid, parse, type FixError, type Inspection, type Library, type Statement } from "../lang/index.ts";
import { FENCE, isEnvelopeHeader, isMarkerAt } from "../lang/frame.ts";
import { balance } from "../lang/balance.ts";
import { eachNode } from "./exprs.ts";
import { asRoot, openQuote } from "./lines.ts";
import { mendLine, statementsOnLine } from "./mend.ts";
import { sanitize } from "./sanitize.ts";

/** Errors only the whole program can have: left to the end. */
const END_ONLY = new Set<FixError["code"]>(["unresolved", "orphaned", "missing-root"]);
// A line that starts a statement: no open bracket of an earlier line can go on past it.
const STARTS_STATEMENT = /^[ \t]*\$?[A-Za-z_][A-Za-z0-9_]*[ \t]*=[^=]/;
// Names in a text (strings removed first), for the probe's stand-ins.
const NAME = /(?<![\w.$@])[A-Za-z_][A-Za-z0-9_]*(?![\w]*[ \t]*\()/g;
const STRINGS = /"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?/g;
const KEYWORDS = new Set(["true", "false", "null"]);
// Names of the probe's own statements: a state no program of a model defines.
const STUB = "$__tessera_stub";
const ANCHOR = "$__tessera_anchor";

/** The names a unit defines, in its statements and its broken lines. */
const idsOf = (ins: Inspection) => [...new Set([...ins.statements.map((s) => s.id), ...ins.broken.flatMap((b) => (b.id === undefined ? [] : [b.id]))])];

export interface StreamRepairEnd {
  /** Text to send after the last push()'s, before the terminal event. */
  text: string;
  /** Everything sent, in order: the stored answer. */
  content: string;
  outcome: "already_valid" | "fixed" | "fix_failed";
  /** Codes of the errors repaired, for reliability monitoring. */
  corrected: string[];
}

export interface StreamRepair {
  /** The text to send now for this chunk (often "": a line is sent when it ends). */
  push(chunk: string): string;
  end(): StreamRepairEnd;
}

interface Sent {
  id: string;
  /** The statement's text as sent (repaired), without its line break. */
  text: string;
  /** The model's own text of the unit it came from. */
  raw: string;
  refs: string[];
  /** The line break it ends with ("" for the last line of a stream without one). */
  br: string;
  /** Component and value statements must be reachable from root; state, queries and mutations are where reaching starts. */
  reachable: boolean;
}

type Mode = "start" | "bare" | "fence" | "between" | "envelope" | "after";

export function createStreamRepair(library: Library): StreamRepair {
  const received: string[] = [];
  const sentAll: string[] = [];
  let out = ""; // what this call sends
  let buf = ""; // received text not yet read: the line being written
  let mode: Mode = "start";
  let unit: { text: string; peek: boolean } | null = null; // the statement being written, whole lines
  let afterBlock = ""; // a closing fence and the prose after it: held until another block opens or the end
  let maybeProse: string[] = []; // bare lines before any statement: prose, should a fence follow
  // A fence line after a bare program's statements, and the blank lines after it: held until a
  // line shows it opened a block (what came before was prose), or the stream ends without one: it
  // closed a program no fence opened, which, read as an opening fence, would leave none.
  let strayFence: string | null = null;
  let sentText = ""; // the program's text sent so far (does it end a line?)
  const corrected: string[] = [];
  // The program as sent, and statements held for a parent.
  let sent = new Map<string, Sent>();
  let held = new Map<string, Sent>();
  let refCount = new Map<string, number>();
  let ended = false;

  const send = (text: string) => {
    if (!text) return;
    out += text;
    sentAll.push(text);
  };
  const sendProgram = (text: string) => {
    send(text);
    sentText = text;
  };

  const resetProgram = () => {
    sent = new Map();
    held = new Map();
    refCount = new Map();
    sentText = "";
  };

  // ---- statements: sent, held or dropped ----

  const referenced = (id: string) => (refCount.get(id) ?? 0) > 0;

  // Sending `s` again under its name must not leave a statement it referred to without a parent.
  const orphansSome = (prev: Sent, next: Sent) => {
    for (const r of new Set(prev.refs)) {
      if (next.refs.includes(r) || !sent.has(r)) continue;
      if ((refCount.get(r) ?? 0) - prev.refs.filter((x) => x === r).length <= 0) return true;
    }
    return false;
  };

  const emit = (s: Sent) => {
    const prev = sent.get(s.id);
    if (prev && orphansSome(prev, s)) return;
    if (prev) for (const r of prev.refs) refCount.set(r, (refCount.get(r) ?? 1) - 1);
    for (const r of s.refs) refCount.set(r, (refCount.get(r) ?? 0) + 1);
    sent.delete(s.id);
    sent.set(s.id, s);
    maybeProse = [];
    sendProgram(`${sentText === "" || sentText.endsWith("\n") ? "" : "\n"}${s.text}${s.br}`);
    for (const r of s.refs) {
      const h = held.get(r);
      if (h) {
        held.delete(r);
        emit(h);
      }
    }
  };

  const route = (s: Sent) => {
    if (!s.reachable || s.id === "root" || referenced(s.id)) emit(s);
    else {
      held.delete(s.id);
      held.set(s.id, s);
    }
  };

  // ---- one unit: a statement (or what should have been one), its lines whole ----

  const sentInfo = (stmt: Statement, text: string, raw: string): Sent => {
    const br = /\r?\n$/.exec(raw)?.[0] ?? "";
    const refs: string[] = [];
    eachNode(stmt.expr, (e) => {
      if (e.k === "ref") refs.push(e.name);
    });
    return { id: stmt.id, text, raw, refs, br: text.endsWith("\n") ? "" : br, reachable: stmt.kind === "component" || stmt.kind === "value" };
  };

  const refersToKnown = (stmt: Statement) => {
    let known = false;
    eachNode(stmt.expr, (e) => {
      if (e.k === "ref" && (sent.has(e.name) || held.has(e.name))) known = true;
    });
    return known;
  };

  // The unit with what it refers to: statements sent or held of those names (and theirs), a
  // stand-in whose value is known only at run time for any other name (so a name defined later
  // is neither a dangling reference nor a type to check), and an anchor that refers to the
  // unit's statements (so they are neither orphans nor taken for a missing root).
  const probeOf = (text: string, ids: string[]) => {
    const lines = [text.endsWith("\n") ? text : `${text}\n`];
    const seen = new Set<string>(ids);
    const queue = [text];
    while (queue.length) {
      const t = queue.pop()!;
      for (const m of t.replace(STRINGS, '""').matchAll(NAME)) {
        const name = m[0];
        if (seen.has(name) || KEYWORDS.has(name)) continue;
        seen.add(name);
        const known = sent.get(name) ?? held.get(name);
        if (known) {
          lines.push(`${known.text}\n`);
          queue.push(known.text);
        } else lines.push(`${name} = ${STUB}\n`);
      }
    }
    const anchored = ids.filter((id) => id !== "root" && !id.startsWith("$"));
    if (anchored.length) lines.push(`${ANCHOR} = [${anchored.join(", ")}]\n`);
    return { text: lines.join(""), names: seen };
  };

  // `checked`: the unit's own inspection, when settle() has just made it.
  const finishUnit = (checked?: Inspection) => {
    if (!unit) return;
    let raw = unit.text;
    unit = null;
    let own = checked ?? inspect(raw, library);
    if (own.statements.length === 0 && own.broken.length === 0) {
      // Blank lines and comments.
      if (mode === "bare" && sent.size === 0) maybeProse.push(raw);
      else sendProgram(raw);
      return;
    }
    let ids = idsOf(own);
    if (ids.length === 0) {
      // A statement another language's habits hide (`- name = …`, `const name = …`), or the root
      // written without its name, read as the whole program's repair reads it (lines.ts): taken
      // only when that reads cleanly, so that prose before a plain-text answer stays prose.
      const body = raw.replace(/\r?\n$/, "");
      const mended = mendLine(body);
      const reading = mended !== null && STARTS_STATEMENT.test(mended) ? mended : sent.has("root") || held.has("root") ? null : asRoot(body, mended);
      const again = reading === null ? null : inspect(reading, library);
      if (reading !== null && again !== null && again.broken.length === 0 && again.statements.length === 1) {
        raw = reading + raw.slice(body.length);
        own = inspect(raw, library);
        ids = idsOf(own);
      }
    }
    if (ids.length === 0) {
      // Not a statement at all: prose before a fence, or a line the repair drops.
      if (mode === "bare" && sent.size === 0) maybeProse.push(raw);
      return;
    }
    const local = (e: { code: FixError["code"]; at: number }, end: number) => !END_ONLY.has(e.code) && e.at < end;
    const unitEnd = raw.length;
    const sendAsWritten = (stmts: Statement[], text: string) => {
      if (stmts.length === 1) route(sentInfo(stmts[0], raw.replace(/\r?\n$/, ""), raw));
      else for (const s of stmts) route(sentInfo(s, text.slice(s.start, s.end), raw));
    };
    // Valid by itself and referring to nothing sent or held (whose types a check would follow):
    // sent as written, without a probe.
    if (own.broken.length === 0 && !own.errors.some((e) => local(e, unitEnd)) && !own.statements.some(refersToKnown)) {
      sendAsWritten(own.statements, raw);
      return;
    }
    const probe = probeOf(raw, ids);
    const ins = inspect(probe.text, library);
    if (own.broken.length === 0 && !ins.errors.some((e) => local(e, unitEnd))) {
      // Valid as written: sent as written.
      sendAsWritten(
        ins.statements.filter((s) => s.start < unitEnd),
        probe.text,
      );
      return;
    }
    const fixed = sanitize(probe.text, library, ins);
    const result = fixed.last;
    // The unit's statements as repaired, and any the repair made for them (a hoisted value).
    const mine = new Set(ids);
    const picked = result.statements.filter((s) => mine.has(s.id) || (!probe.names.has(s.id) && s.id !== ANCHOR));
    const bad = new Set(result.errors.filter((e) => !END_ONLY.has(e.code) && e.statementId !== undefined).map((e) => e.statementId!));
    // A broken line left in the unit's place leaves the unit unrepaired.
    const left = result.broken.filter((b) => b.id !== undefined && mine.has(b.id));
    for (const b of left) bad.add(b.id!);
    const keep = picked.filter((s) => !bad.has(s.id));
    if (keep.length) for (const e of fixed.fixed) if (!END_ONLY.has(e.code)) corrected.push(e.code);
    // Dependencies first in the held map does not matter: routing sends a parent, then what it refers to.
    const made = keep.filter((s) => !mine.has(s.id));
    for (const s of keep.filter((k) => mine.has(k.id))) route(sentInfo(s, fixed.content.slice(s.start, s.end), raw));
    for (const s of made) route(sentInfo(s, fixed.content.slice(s.start, s.end), raw));
  };

  // ---- lines ----

  const programLine = (line: string): void => {
    // Statements with `;` between them on one line: a line each.
    const split = STARTS_STATEMENT.test(line) ? statementsOnLine(line) : null;
    if (split) {
      for (const piece of split) programLine(piece);
      return;
    }
    if (unit?.peek) {
      // A complete statement whose next line may still go on with `?` or `:` (a ternary).
      if (/^[ \t]*[?:]/.test(line)) {
        unit.text += line;
        unit.peek = false;
      } else finishUnit();
    } else if (unit) {
      if (STARTS_STATEMENT.test(line)) finishUnit();
      else unit.text += line;
    }
    if (!unit) {
      if (line.trim() === "") {
        if (mode === "bare" && sent.size === 0) maybeProse.push(line);
        else sendProgram(line);
        return;
      }
      unit = { text: line, peek: false };
    }
    settle(unit);
  };

  // Whether the unit (whole lines) is done: sent now, waits for a look at the next line, or
  // needs more lines (a bracket or string still open, or an operator at the end).
  const settle = (u: { text: string; peek: boolean }) => {
    if (balance(u.text).closers !== "") return;
    // A string typed over lines (its breaks read as `\n`, as the repair reads them) goes on.
    if (openQuote(u.text.replace(/\r?\n$/, "").replace(/\r?\n/g, "\\n")) !== null) return;
    // A ternary's `? then` line waits for its `: else` line.
    if (/(?:^|\n)[ \t]*\?[^\n]*\n?$/.test(u.text)) return;
    const own = inspect(u.text, library);
    if (own.broken.some((b) => b.incomplete)) return;
    if (own.broken.length === 0 && own.statements.length === 1 && own.statements[0].expr.k !== "call") {
      u.peek = true;
      return;
    }
    finishUnit(own);
  };

  // The end of the program: what only the whole program tells, repaired by statements sent now.
  const finishProgram = () => {
    finishUnit();
    if (sent.size === 0 && held.size === 0) {
      // No program at all (a plain-text answer): the model's own text, as the unrepaired one.
      for (const line of maybeProse) send(line);
      maybeProse = [];
      return;
    }
    const statements = [...sent.values(), ...held.values()];
    const program = statements.map((s) => `${s.text}\n`).join("");
    if (held.size === 0 && isValid(parse(program, library))) return;
    // The program as sent and held, repaired whole; failing that, the model's whole text repaired
    // as a non-streamed answer would be (the two can differ: lines held back, repairs made early).
    const sentProgram = [...sent.values()].map((s) => `${s.text}\n`).join("");
    for (const whole of [() => sanitize(program, library), () => sanitize(received.join(""), library)]) {
      const fixed = whole();
      if (fixed.remaining.length) continue;
      const suffix = changes(fixed.content, fixed.last.statements);
      if (suffix.length === 0 || !isValid(parse(sentProgram + suffix.map((t) => `${t}\n`).join(""), library))) continue;
      for (const e of fixed.fixed) corrected.push(e.code);
      sendProgram(`${sentText === "" || sentText.endsWith("\n") ? "" : "\n"}${suffix.join("\n")}\n`);
      return;
    }
  };

  // The statements of a repaired program (its text, its statements) that differ from those sent.
  const changes = (text: string, statements: Statement[]) => {
    const effective = new Map<string, Statement>();
    for (const s of statements) {
      effective.delete(s.id);
      effective.set(s.id, s);
    }
    const suffix: string[] = [];
    for (const s of effective.values()) {
      const t = text.slice(s.start, s.end);
      if (sent.get(s.id)?.text !== t) suffix.push(t);
    }
    return suffix;
  };

  const line = (text: string) => {
    const bare = text.replace(/\r?\n$/, "");
    if (mode === "start") {
      if (isEnvelopeHeader(text)) {
        mode = "envelope";
        send(text);
        return;
      }
      mode = "bare";
    }
    switch (mode) {
      case "after":
        send(text);
        return;
      case "envelope":
        if (isMarkerAt(text)) {
          finishProgram();
          mode = "after";
          send(text);
        } else programLine(text);
        return;
      case "between":
        if (FENCE.test(bare)) {
          send(afterBlock + text);
          afterBlock = "";
          mode = "fence";
        } else afterBlock += text;
        return;
      case "fence":
        if (FENCE.test(bare)) {
          finishUnit();
          afterBlock = text;
          mode = "between";
        } else programLine(text);
        return;
      case "bare":
        if (strayFence !== null && !/\S/.test(bare)) {
          strayFence += text;
          return;
        }
        if (strayFence === null && FENCE.test(bare) && (sent.size > 0 || held.size > 0 || unit)) {
          strayFence = text;
          return;
        }
        if (strayFence !== null || FENCE.test(bare)) {
          // Fenced after all: what came before is prose, sent as the model wrote it.
          const fence = strayFence ?? text;
          const before = unit ? [unit.text] : [];
          unit = null;
          for (const t of [...maybeProse, ...[...held.values()].map((h) => h.raw), ...before]) send(t);
          maybeProse = [];
          resetProgram();
          mode = "fence";
          send(fence);
          if (strayFence !== null) {
            strayFence = null;
            line(text);
          }
        } else programLine(text);
        return;
    }
  };

  return {
    push(chunk: string): string {
      if (ended) throw new Error("push() after end()");
      received.push(chunk);
      out = "";
      buf += chunk;
      let nl: number;
      while ((nl = buf.indexOf("\n")) !== -1) {
        const text = buf.slice(0, nl + 1);
        buf = buf.slice(nl + 1);
        line(text);
      }
      // A statement waiting to see whether its next line goes on with `?` or `:` sees it.
      if (unit?.peek && /\S/.test(buf) && !/^[ \t]*[?:]/.test(buf)) finishUnit();
      return out;
    },
    end(): StreamRepairEnd {
      if (ended) throw new Error("end() called twice");
      ended = true;
      out = "";
      if (buf) line(buf);
      buf = "";
      if (strayFence !== null) corrected.push("missing-root");
      if (mode === "envelope" || mode === "bare" || mode === "fence" || mode === "start") finishProgram();
      else if (mode === "between") {
        finishProgram();
        send(afterBlock);
      }
      const content = sentAll.join("");
      const original = received.join("");
      const outcome = content === original && isValid(parse(original, library)) ? "already_valid" : isValid(parse(content, library)) ? "fixed" : "fix_failed";
      return { text: out, content, outcome, corrected: outcome === "already_valid" ? [] : corrected };
    },
  };
}
