// Programs written against SMALL_LIBRARY (library-fixture.ts), from a seed.

// A deterministic stream of numbers in [0, 1) from a seed (mulberry32).
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A program written against SMALL_LIBRARY: mostly right, now and then wrong in one of the ways
 * the checker reports (a wrong type or enum member, a missing or extra argument, an unknown
 * component or name, an orphan, a cycle, a name defined twice), and using what the verdict
 * leaves to the checker (escapes, `Each`, fractions where integers are wanted).
 */
export function libraryProgram(seed: number): string {
  const r = random(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)];
  const wrong = () => r() < 0.05;
  const some = (max: number, make: () => string) => Array.from({ length: Math.floor(r() * (max + 1)) }, make).join(", ");
  const names = Array.from({ length: 1 + Math.floor(r() * 6) }, (_, i) => `s${i}`);
  const kinds = names.map(() => pick(["Text", "Button", "Card", "Table", "Col", "cols", "title", "count"]));
  const refTo = (...want: string[]) => {
    const fitting = names.filter((_, i) => want.includes(kinds[i]));
    return fitting.length && r() < 0.4 ? pick(fitting) : null;
  };
  const string = () => (wrong() ? pick(["1", "true", "[]", 'Text("x")', "ghost"]) : (refTo("title") ?? pick(['"a"', "'b c'", '"q\\"uote"', '""', "$title"])));
  const text = () => `Text(${string()}${r() < 0.6 ? `, ${wrong() ? '"xl"' : pick(['"s"', '"m"', "'l'", "null"])}${wrong() ? ", 1" : ""}` : ""})`;
  const count = () => (wrong() ? pick(["2.5", '"3"']) : pick(["3", "-1", "1e2", "4.0", "0", "(7)"]));
  const button = () => `Button(${string()}${r() < 0.5 ? `, ${string()}` : ""}${r() < 0.4 ? `, ${count()}` : ""}${wrong() ? ", 1, 2" : ""})`;
  // @Each over a list: its loop variable (now and then named like a statement, escaped, not a
  // string, or missing) in templates that use it as a value, a member, or another list.
  const each = (): string => {
    const [variable, used] = pick([
      ['"r"', "r"],
      ["'r'", "r"],
      ['"r"', "r"],
      [`"${pick(names)}"`, null],
      ['"\\u0072"', "r"],
      ["r", "r"],
    ]);
    const v = used ?? variable.slice(1, -1);
    const other = () => (wrong() ? "ghost" : pick([...names, "$title", '"a"']));
    const template = pick([
      `Text(${v})`,
      `Text(${v}.name, "s")`,
      `Button(${v}, "go")`,
      `Card(${v}, [Text(${v})])`,
      `[Text(${v}), ${v}]`,
      `@Each(${v}, "w", Text(w, ${v}))`,
      `Text(${other()})`,
      `[Text(${v}), ${other()}]`,
      `Button(${other()}, ${v})`,
    ]);
    return `@Each(${pick(["rows", "[1, 2]", pick(names)])}, ${variable}${r() < 0.9 ? `, ${template}` : ""})`;
  };
  const child = () =>
    refTo("Text", "Button") ?? (wrong() ? pick(['Col("x")', "Nope()", "ghost", "null"]) : r() < 0.15 ? each() : r() < 0.5 ? text() : button());
  const col = () => `Col(${string()}${r() < 0.4 ? `, {width: ${wrong() ? '"w"' : pick(["3", "1.5", "count"])}${r() < 0.3 ? ", extra: 1" : ""}}` : ""})`;
  const cols = () => refTo("cols") ?? `[${some(2, () => refTo("Col") ?? col())}]`;
  const valueOf = (kind: string): string => {
    switch (kind) {
      case "Text":
        return text();
      case "Button":
        return button();
      case "Card":
        return wrong() ? "Card()" : `Card(${string()}${r() < 0.7 ? `, [${some(3, child)}]` : ""})`;
      case "Table":
        return `Table(${cols()}, ${wrong() ? '"rows"' : pick(['[[1, "a"], [true]]', "[]", '@Each(rows, "r", [r])', "rows"])})`;
      case "Col":
        return col();
      case "cols":
        return `[${some(2, col)}]`;
      case "title":
        return pick(['"T"', '"T" + "x"', "$title", "@Count([1])", "Action([@Run(q)])", "@Nope(1)"]);
      default:
        return pick(["1", "2 + 3", "-5", "$title.length", "q.rows", "(4)"]);
    }
  };
  const lines = names.map((name, i) => `${name} = ${valueOf(kinds[i])}`);
  const listed = [...names, "rows"].filter(() => !wrong());
  lines.push(`root = Stack([${listed.join(", ")}]${r() < 0.3 ? ', "row"' : ""})`);
  lines.push('$title = "T"', 'q = Query("orders", {}, {rows: []})', "rows = q.rows");
  if (wrong()) lines.push(`${pick(names)} = ${pick(['Text("again")', `[${pick(names)}]`])}`);
  if (wrong()) lines.push("x = 1");
  // Top-down, bottom-up or mixed.
  const order = r();
  if (order < 0.3) lines.reverse();
  else if (order < 0.5) lines.sort(() => r() - 0.5);
  return lines.join(pick(["\n", "\n\n", "\n// note\n"])) + "\n";
}
