// A stream's cut statement (the last one, a bracket still open) closed for display, read by
// parts. The items of its open brackets that the parser has read whole (OpenScan's confirmed
// items, each followed by its comma) are parsed once and kept; each read parses only the rest,
// with those items left out (`name = Stack([a, b, c` is read as `name = Stack([c])`), and puts
// them back in front of what it read. With them goes what they built (KeptItems), so reading
// `root` after every chunk of a long statement costs what the chunk added, not the statement.
//
// An item read whole reads the same wherever it stands in its list (the scan's confirmation
// rests on that too), so the statement put together is the one a reading of the whole closed
// text gives. Anything that does not line up (a bracket whose list is not found where the scan
// says it opens, items that do not end at the confirmed commas) gives null: the caller then
// closes the statement whole, as it always may.
import { setScratch } from "./engine.ts";
import { splitProgram } from "./program.ts";
import { children } from "./expr-children.ts";
import { KeptItems } from "./materialize.ts";
import type { OpenScan } from "./open-scan.ts";
import type { Expr, Statement } from "./types.ts";

type Entry = { key: string; value: Expr };
type List = Extract<Expr, { k: "arr" | "obj" | "call" | "builtin" }>;

/** An open bracket's items kept so far (`values.items`): those before `keep`, where the text read again starts. */
interface Kept {
  opener: number;
  keep: number;
  values: KeptItems;
}

/** The cut statement closed: its offsets are the stream's, its closers stand from `at` on (the text from there is left out). */
export interface CutView {
  statement: Statement;
  at: number;
  closers: string;
  /** What each list holding kept items has kept: they stand before its own (for the display tree). */
  kept: Map<Expr, KeptItems>;
}

const itemsOf = (list: List): (Expr | Entry)[] => (list.k === "arr" ? list.items : list.k === "obj" ? list.entries : list.args);
const endOf = (item: Expr | Entry): number => ("k" in item ? item.end : item.value.end);
const startOf = (item: Expr | Entry): number => ("k" in item ? item.start : item.value.start);

export class CutTree {
  private scan: OpenScan | null = null;
  private levels = new Map<number, Kept>(); // by where the bracket opens

  /**
   * The statement from `start` to `at` of the stream (`at`: where its trailing commas and
   * operators start), followed by `scan`, closed; `slice` gives the stream's text between two
   * offsets. Its scratch copy is put at `after` or past it. Null when it cannot be read by parts
   * (the caller closes it whole).
   */
  read(slice: (from: number, to: number) => string, start: number, at: number, scan: OpenScan, after: number): CutView | null {
    if (scan !== this.scan) {
      this.scan = scan;
      this.levels = new Map();
    }
    const closers = scan.closers(slice(Math.max(start, at - 2), at));
    // The levels open now, with what each kept; the text to read: the statement with each
    // level's kept items left out.
    const levels: Kept[] = [];
    const pieces: number[] = []; // [from, to) of the stream, in order
    let from = start;
    for (const level of scan.levels) {
      let kept = this.levels.get(level.opener);
      if (kept === undefined) kept = { opener: level.opener, keep: level.opener + 1, values: new KeptItems() };
      levels.push(kept);
      if (kept.keep > kept.opener + 1) {
        pieces.push(from, kept.opener + 1);
        from = kept.keep;
      }
    }
    this.levels = new Map(levels.map((kept) => [kept.opener, kept]));
    // Trailing commas and operators left out may reach back before the last kept items' comma.
    pieces.push(Math.min(from, at), at);
    let skeleton = "";
    for (let i = 0; i < pieces.length; i += 2) skeleton += slice(pieces[i], pieces[i + 1]);
    const kept = skeleton.length;
    skeleton += closers;
    const scratch = setScratch(skeleton, after);
    const parts = splitProgram(skeleton, scratch, scratch, scratch + skeleton.length);
    if (parts.broken.length !== 0 || parts.statements.length !== 1) return null;
    const read = parts.statements[0];
    // Offsets into the skeleton made the stream's; past the text read, the closers stand from `at`.
    const place = (p: number, isEnd: boolean): number => {
      let q = p - scratch;
      if (q >= kept && !(isEnd && q === kept)) return at + (q - kept);
      for (let i = 0; i < pieces.length; i += 2) {
        const length = pieces[i + 1] - pieces[i];
        if (q < length || (isEnd && q === length)) return pieces[i] + q;
        q -= length;
      }
      return at;
    };
    // The lists by where their bracket opens.
    const lists = new Map<number, List>();
    const walk = (e: Expr): void => {
      const from = e.start;
      e.start = place(from, false);
      e.end = place(e.end, true);
      if (e.k === "arr" || e.k === "obj") lists.set(e.start, e);
      else if (e.k === "call" || e.k === "builtin") {
        // Where its argument list opens (the closers open none): before its offsets are the stream's.
        const paren = skeleton.indexOf("(", (e.k === "call" ? e.nameEnd : from) - scratch);
        if (paren !== -1 && paren < kept) lists.set(place(paren + scratch, false), e);
        if (e.k === "call") e.nameEnd = place(e.nameEnd, true);
      }
      for (const child of children(e)) walk(child);
    };
    walk(read.expr);
    const views = new Map<Expr, KeptItems>();
    for (let i = 0; i < levels.length; i++) {
      const level = levels[i];
      const kept = level.values;
      const list = lists.get(level.opener);
      if (list === undefined) {
        if (kept.items.length !== 0) return null;
        continue;
      }
      // The items the parser has read whole since are kept from now on: those that end before
      // the confirmed comma, the next one (if any) after it.
      const items = itemsOf(list);
      const seg = scan.levels[i].seg;
      let n = 0;
      if (seg > level.keep) {
        while (n < items.length && endOf(items[n]) < seg) n++;
        if (n > 0 && (n === items.length || startOf(items[n]) >= seg)) {
          for (let j = 0; j < n; j++) kept.items.push(items[j]);
          level.keep = seg;
        } else n = 0;
      }
      kept.skip = n;
      if (kept.items.length !== 0) views.set(list, kept);
    }
    const statement: Statement = { id: read.id, kind: read.kind, expr: read.expr, start: place(read.start, false), end: place(read.end, true) };
    return { statement, at, closers, kept: views };
  }
}
