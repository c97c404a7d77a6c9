// Ohm's reading of grammar/ui.ohm, reduced the way the compiled parser records its tree (see
// src/grammar/compile.ts): applications from syntactic rules only, no zero-width nodes, and a
// node whose only child covers the same span replaced by that child. Output is postorder
// [rule, start, end, size] tuples, directly comparable with the WebAssembly parser's buffer.
import * as ohm from "ohm-js";
import { isSyntactic } from "../../src/grammar/compile.ts";

export type Node = [rule: string, start: number, end: number, size: number];

export function loadOhm(source: string) {
  const grammar = ohm.grammar(source);
  return grammar;
}

/** Ohm's tree for `text` from `startRule` as a prefix match, or null when it does not match. */
export function ohmTree(grammar: ohm.Grammar, text: string, startRule: string, from = 0): { end: number; nodes: Node[] } | null {
  // Ohm matches whole inputs only; a prefix is matched by a start rule that ends with `any*`.
  const m = (grammar as any).match(text.slice(from), startRule);
  let cst: any;
  let end: number;
  if (m.succeeded()) {
    cst = m._cst;
    end = text.length;
  } else return null;
  const nodes: Node[] = [];
  // The start rule itself is recorded, as the compiled parser's entry records it.
  const start = from + (m._cstOffset ?? 0);
  for (const sub of collect(cst, start, start, true)) flatten(sub, nodes);
  return { end, nodes };
}

interface Sub {
  rule: string;
  start: number;
  end: number;
  children: Sub[];
}

// The nonterminals below `node` that the reduced tree keeps, in source order. Offsets in Ohm's
// tree are relative to the enclosing application, iterations included.
function collect(node: any, start: number, appStart: number, record: boolean): Sub[] {
  if (node.isTerminal()) return [];
  if (node.isIteration()) {
    return node.children.flatMap((child: any, i: number) => collect(child, appStart + node.childOffsets[i], appStart, record));
  }
  const inner = isSyntactic(node.ctorName);
  const children = node.children
    .flatMap((child: any, i: number) => collect(child, start + node.childOffsets[i], start, inner))
    .sort((a: Sub, b: Sub) => a.start - b.start);
  if (!record) return [];
  const end = start + node.matchLength;
  if (end === start) return [];
  if (children.length === 1 && children[0].start === start && children[0].end === end) return children;
  return [{ rule: node.ctorName, start, end, children }];
}

function flatten(sub: Sub, out: Node[]): void {
  const mark = out.length;
  for (const child of sub.children) flatten(child, out);
  out.push([sub.rule, sub.start, sub.end, out.length - mark + 1]);
}
