// Lazy statements of long programs share one copy of their tree: a fix of a 100k program does not
// allocate one, and statements of a program whose copy another split wrote over read the same.
import { expect, test } from "bun:test";
import { compileLibrary, inspect, loadLanguage, parseAndInspect } from "../../src/lang/index.ts";
import { checkedInspect } from "../../src/lang/parse.ts";
import { unitsParsed } from "../../src/lang/engine.ts";
import { treeCopiesMade } from "../../src/lang/program.ts";
import { bigGeneration } from "../../bench/server.ts";
import { STACK_TEXT_LIBRARY } from "../support/stack-text-library.ts";

await loadLanguage();
const lib = compileLibrary(STACK_TEXT_LIBRARY);

/** The 100k benchmark program with the component of statement `t<n>` misspelt. */
function broken(n: number): string {
  const valid = bigGeneration();
  const at = valid.indexOf(`\nt${n} = Text(`) + `\nt${n} = `.length;
  return `${valid.slice(0, at)}Txt(${valid.slice(at + 5)}`;
}

const json = (x: unknown) => JSON.parse(JSON.stringify(x));

test("checks of long programs with an error share one tree copy", () => {
  parseAndInspect(broken(10), lib); // the shared copy made, if no earlier test made it
  const before = treeCopiesMade();
  for (let n = 20; n < 30; n++) {
    const { inspection } = parseAndInspect(broken(n), lib);
    expect(inspection?.statements[n + 1].expr).toMatchObject({ k: "call", name: "Txt" });
  }
  expect(treeCopiesMade()).toBe(before);
});

test("statements whose copy another split wrote over parse their program again, once, and read the same", () => {
  const a = broken(100);
  const first = parseAndInspect(a, lib).inspection!;
  // Nothing of `first` read yet: the next long check writes over its copy.
  const second = parseAndInspect(broken(200), lib).inspection!;
  const units = unitsParsed();
  const whole = checkedInspect(a, lib);
  const afterWhole = unitsParsed();
  expect(first.statements.map(json)).toEqual(whole.statements.map(json));
  // Every statement read, for the price of one parse of the program.
  expect(unitsParsed() - afterWhole).toBeLessThanOrEqual(a.length);
  expect(afterWhole - units).toBeGreaterThan(0);
  // And the later check's statements still read from the shared copy, unchanged.
  const b = checkedInspect(broken(200), lib);
  expect(second.statements.slice(190, 210).map(json)).toEqual(b.statements.slice(190, 210).map(json));
});

test("an inspection that is not a check (a sanitizer round reading a long text whole) copies for itself", () => {
  const a = broken(300);
  const first = parseAndInspect(a, lib).inspection!;
  const copies = treeCopiesMade();
  const round = inspect(broken(400), lib);
  expect(treeCopiesMade()).toBe(copies + 1);
  // The check's statements still read from the shared copy: nothing parsed again.
  const units = unitsParsed();
  expect(first.statements[301].expr).toMatchObject({ k: "call", name: "Txt" });
  expect(first.statements[500].expr).toMatchObject({ k: "call", name: "Text" });
  expect(unitsParsed()).toBe(units);
  expect(round.statements[401].expr).toMatchObject({ k: "call", name: "Txt" });
});
