// Every way the language nests, for the nesting tests under Bun (test/lang), Deno
// (test/conformance) and Node (test/node): plain JavaScript, so that each runtime imports it.
// A program is `root = Stack([` (two levels) around `open` repeated, `inner`, `close` repeated;
// `per` is the levels one repetition counts: each bracket, call, prefix operator, binary
// operator's right operand and ternary tail one, a component call with its child list two, an
// object with its entry two.
export const NESTINGS = [
  { name: "component calls", per: 2, open: "Stack([", inner: "", close: "])" },
  { name: "arrays", per: 1, open: "[", inner: "", close: "]" },
  { name: "objects", per: 2, open: "{a: ", inner: "1", close: "}" },
  { name: "objects in a later entry", per: 2, open: "{a: 1, b: ", inner: "1", close: "}" },
  { name: "component calls in a later item", per: 2, open: "Stack([a, ", inner: "", close: "])" },
  { name: "parentheses", per: 1, open: "(", inner: '"x"', close: ")" },
  { name: "+ through parentheses", per: 2, open: "1 + (", inner: "1", close: ")" },
  { name: "every binary operator through parentheses", per: 7, open: "1 || 1 && 1 == 1 < 1 + 1 * (", inner: "1", close: ")" },
  { name: "+ in component calls", per: 3, open: "Stack([1 + ", inner: "1", close: "])" },
  { name: "+ in objects", per: 3, open: "{a: 1 + ", inner: "1", close: "}" },
  { name: "later array items", per: 1, open: "[1, ", inner: "1", close: "]" },
  { name: "later call arguments", per: 1, open: "Stack(1, ", inner: "1", close: ")" },
  { name: "builtin calls", per: 1, open: "@Each(", inner: "1", close: ")" },
  { name: "later builtin arguments", per: 1, open: "@Each(x, ", inner: "1", close: ")" },
  { name: "action calls", per: 2, open: "Action([", inner: "", close: "])" },
  // Not actions (`+` follows the array): calls of a component named Action, each read once; the
  // `+` above each array is a level too (the tree's height, see HEIGHT_RULES in src/grammar/wasm.ts).
  { name: "action calls that are component calls", per: 3, open: "Action([", inner: "1", close: "] + 1)" },
  // An operator, member access, index or ternary above a nested first operand: a level each.
  { name: "arrays as first operands", per: 2, open: "[", inner: "1", close: "] + 1" },
  { name: "calls as first operands", per: 3, open: "Stack([", inner: "", close: "]) * 2" },
  { name: "member access on arrays", per: 2, open: "[", inner: "1", close: "].a" },
  { name: "indexes on arrays", per: 2, open: "[", inner: "1", close: "][0]" },
  { name: "arrays as ternary conditions", per: 2, open: "[", inner: "1", close: "] ? 1 : 2" },
  { name: "indexes", per: 1, open: "x[", inner: "0", close: "]" },
  { name: "member access through parentheses", per: 1, open: "(", inner: "x", close: ").a" },
  { name: "unary minus", per: 1, open: "-", inner: "x", close: "" },
  { name: "not", per: 1, open: "!", inner: "$a", close: "" },
  { name: "minus through parentheses", per: 2, open: "-(", inner: "x", close: ")" },
  { name: "ternaries in the else branch", per: 1, open: "$a ? 1 : ", inner: "2", close: "" },
  { name: "ternaries in the then branch", per: 1, open: "$a ? ", inner: "1", close: " : 2" },
  { name: "ternaries through parentheses", per: 2, open: "$a ? 1 : (", inner: "2", close: ")" },
];

/** The most repetitions of `kind` that nest at most `max` levels in all. */
export function repetitionsWithin(kind, max) {
  return Math.floor((max - 2) / kind.per);
}

/** The program with `repetitions` of `kind`. */
export function nestedProgram(kind, repetitions) {
  return "root = Stack([" + kind.open.repeat(repetitions) + kind.inner + kind.close.repeat(repetitions) + "])";
}
