// The verdict tables read back through the WebAssembly reader: a library's table written by
// src/lang/verdict-table.ts, every field of it read by verdict.as's own accessors under the
// reader's constants (a probe compiled into the module), and compared with the library it was
// written from. With the layout the writer was generated from, every field reads back; with a
// reader built from another layout, the mismatch shows.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "bun:test";
import { buildGrammar } from "../../src/grammar/wasm.ts";
import { VERDICT_LAYOUT, type VerdictLayout } from "../../src/grammar/verdict-layout.ts";
import { ACTION_STEPS, BUILTINS } from "../../src/lang/check.ts";
import { NAMES } from "../../src/lang/generated/verdict-layout.ts";
import { compileLibrary, type Library } from "../../src/lang/library.ts";
import type { Shape } from "../../src/lang/shape.ts";
import { verdictTable } from "../../src/lang/verdict-table.ts";
import { SMALL_LIBRARY } from "../lang/library-fixture.ts";

// Appended after verdict.as: each export reads one field the way the verdict does.
const PROBE = `
export function probeOpen(): void {
  pool = table + (<usize>word(T_POOL_AT) << 2);
  shapes = table + (<usize>word(T_SHAPES_AT) << 2);
  components = table + (<usize>word(T_COMPONENTS_AT) << 2);
}
function probeComponent(id: i32): usize { return components + <usize>id * (COMPONENT_WORDS << 2); }
function probeShape(s: i32): usize { return shapes + <usize>s * (SHAPE_WORDS << 2); }
function probeUnit(at: i32, i: i32): i32 { return <i32>load<u16>(pool + (<usize>(at + i) << 1)); }
export function probeComponents(): i32 { return word(T_COMPONENTS); }
export function probeHashSize(): i32 { return word(T_HASH_SIZE); }
export function probeRoot(): i32 { return word(T_ROOT); }
export function probeNameLength(id: i32): i32 { return field(probeComponent(id), C_NAME_LENGTH); }
export function probeNameUnit(id: i32, i: i32): i32 { return probeUnit(field(probeComponent(id), C_NAME_AT), i); }
export function probeProps(id: i32): i32 { return field(probeComponent(id), C_PROPS); }
export function probePropFlags(id: i32, k: i32): i32 { return word(field(probeComponent(id), C_PROPS_AT) + PROP_WORDS * k + PROP_FLAGS); }
export function probePropShape(id: i32, k: i32): i32 { return word(field(probeComponent(id), C_PROPS_AT) + PROP_WORDS * k + PROP_SHAPE); }
export function probeBuiltins(): i32 { return word(T_BUILTINS); }
// A string of a list: list 0 the builtins, 1 the names, 2 + s the enum members of shape s.
function probeString(list: i32, k: i32): i32 {
  const at = list == 0 ? word(T_BUILTINS_AT) : list == 1 ? word(T_NAMES_AT) : field(probeShape(list - 2), S_ENUM_AT);
  return at + STRING_WORDS * k;
}
export function probeStringLength(list: i32, k: i32): i32 { return word(probeString(list, k) + STR_LENGTH); }
export function probeStringUnit(list: i32, k: i32, i: i32): i32 { return probeUnit(word(probeString(list, k) + STR_AT), i); }
export function probeNameIndex(which: i32): i32 {
  return which == 0 ? N_QUERY : which == 1 ? N_MUTATION : which == 2 ? N_EACH : N_ROOT;
}
export function probeFlags(s: i32): i32 { return field(probeShape(s), S_FLAGS); }
export function probeKinds(s: i32): i32 { return field(probeShape(s), S_KINDS); }
export function probeItems(s: i32): i32 { return field(probeShape(s), S_ITEMS); }
export function probeBranches(s: i32): i32 { return field(probeShape(s), S_BRANCHES); }
export function probeBranch(s: i32, k: i32): i32 { return word(field(probeShape(s), S_BRANCHES_AT) + k); }
export function probeEnum(s: i32): i32 { return field(probeShape(s), S_ENUM); }
export function probeEntries(s: i32): i32 { return field(probeShape(s), S_PROPS); }
function probeEntry(s: i32, k: i32): i32 { return field(probeShape(s), S_PROPS_AT) + ENTRY_WORDS * k; }
export function probeKeyLength(s: i32, k: i32): i32 { return word(probeEntry(s, k) + ENTRY_KEY_LENGTH); }
export function probeKeyUnit(s: i32, k: i32, i: i32): i32 { return probeUnit(word(probeEntry(s, k) + ENTRY_KEY_AT), i); }
export function probeEntryShape(s: i32, k: i32): i32 { return word(probeEntry(s, k) + ENTRY_SHAPE); }
export function probeRefsHold(s: i32, id: i32): i32 { return refsHold(probeShape(s), id) ? 1 : 0; }
export function probeFlagBits(which: i32): i32 {
  return which == 0 ? F_ANY : which == 1 ? F_CONST : which == 2 ? F_INTEGER : which == 3 ? F_REFS : which == 4 ? F_BRANCHES : which == 5 ? F_ENUM : which == 6 ? F_ENUM_OTHER : which == 7 ? P_REQUIRED : P_DEFAULT;
}
`;

type Probe = Record<string, (...args: number[]) => number> & { memory: WebAssembly.Memory };

async function reader(layout: VerdictLayout): Promise<Probe> {
  const built = await buildGrammar(readFileSync(new URL("../../grammar/ui.ohm", import.meta.url), "utf8"), { layout, extra: PROBE });
  const { instance } = await WebAssembly.instantiate(built.wasm, { env: { abort: () => assert.fail("ui.wasm aborted") } });
  return instance.exports as unknown as Probe;
}

/** Every field of `library`'s table as `w` reads it, against the library: the fields that differ. */
function readBack(w: Probe, library: Library): string[] {
  const bytes = verdictTable(library);
  w.prepare(4096);
  const at = w.verdictTable(bytes.length);
  new Uint8Array(w.memory.buffer, at, bytes.length).set(bytes);
  w.probeOpen();
  const wrong: string[] = [];
  const same = (what: string, got: unknown, want: unknown) => {
    if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push(`${what}: read ${JSON.stringify(got)}, written ${JSON.stringify(want)}`);
  };
  const text = (length: number, unit: (i: number) => number) =>
    length < 0 || length > 10_000 ? `<length ${length}>` : String.fromCharCode(...Array.from({ length }, (_, i) => unit(i)));
  const [F_ANY, F_CONST, F_INTEGER, F_REFS, F_BRANCHES, F_ENUM, F_ENUM_OTHER, P_REQUIRED, P_DEFAULT] = Array.from({ length: 9 }, (_, k) => w.probeFlagBits(k));
  const components = [...library.components.values()];
  same("component count", w.probeComponents(), components.length);
  assert.ok(w.probeHashSize() >= 2 * components.length, "room for the hash of the names");
  same("root", w.probeRoot(), library.root === undefined ? -1 : components.findIndex((c) => c.name === library.root));
  const builtins = [...BUILTINS, ...ACTION_STEPS];
  same("builtin count", w.probeBuiltins(), builtins.length);
  if (w.probeBuiltins() === builtins.length) {
    same(
      "builtins",
      builtins.map((_, k) => text(w.probeStringLength(0, k), (i) => w.probeStringUnit(0, k, i))),
      builtins,
    );
  }
  same(
    "names, by N_*",
    [0, 1, 2, 3].map((which) => {
      const k = w.probeNameIndex(which);
      return text(w.probeStringLength(1, k), (i) => w.probeStringUnit(1, k, i));
    }),
    ["Query", "Mutation", "Each", "root"],
  );
  const seen = new Map<number, Shape>();
  const shape = (where: string, s: number, want: Shape) => {
    if (seen.get(s) === want) return;
    if (seen.has(s) || seen.size > 10_000) return void wrong.push(`${where}: shape ${s} is read for two shapes`);
    seen.set(s, want);
    const flags = w.probeFlags(s);
    same(
      `${where} flags`,
      [flags & F_ANY, flags & F_CONST, flags & F_INTEGER, flags & F_REFS, flags & F_BRANCHES, flags & F_ENUM],
      [
        want.any ? F_ANY : 0,
        want.hasConst ? F_CONST : 0,
        want.integerOnly ? F_INTEGER : 0,
        want.refs ? F_REFS : 0,
        want.branches ? F_BRANCHES : 0,
        want.enumValues ? F_ENUM : 0,
      ],
    );
    same(`${where} kinds`, w.probeKinds(s), want.kinds);
    const items = w.probeItems(s);
    if (want.items && !want.items.any) shape(`${where} items`, items, want.items);
    else same(`${where} items`, items, -1);
    if (want.refs) {
      components.forEach((c, id) => {
        same(`${where} refs ${c.name}`, w.probeRefsHold(s, id), want.refs!.has(c.name) ? 1 : 0);
      });
    }
    if (want.branches) {
      same(`${where} branch count`, w.probeBranches(s), want.branches.length);
      want.branches.forEach((b, k) => shape(`${where} branch ${k}`, w.probeBranch(s, k), b));
    }
    if (want.enumValues) {
      const texts = [...want.enumValues].filter((v): v is string => typeof v === "string" && !v.includes("\\"));
      same(`${where} enum other`, flags & F_ENUM_OTHER, texts.length < want.enumValues.size ? F_ENUM_OTHER : 0);
      same(`${where} enum count`, w.probeEnum(s), texts.length);
      if (w.probeEnum(s) === texts.length) {
        same(
          `${where} enum`,
          texts.map((_, k) => text(w.probeStringLength(2 + s, k), (i) => w.probeStringUnit(2 + s, k, i))),
          texts,
        );
      }
    }
    if (want.properties) {
      const entries = [...want.properties].filter(([, sub]) => !sub.any);
      same(`${where} property count`, w.probeEntries(s), entries.length);
      if (w.probeEntries(s) === entries.length) {
        entries.forEach(([key, sub], k) => {
          same(
            `${where} property ${k}`,
            text(w.probeKeyLength(s, k), (i) => w.probeKeyUnit(s, k, i)),
            key,
          );
          shape(`${where}.${key}`, w.probeEntryShape(s, k), sub);
        });
      }
    }
  };
  components.forEach((c, id) => {
    same(
      `component ${id} name`,
      text(w.probeNameLength(id), (i) => w.probeNameUnit(id, i)),
      c.name,
    );
    same(`${c.name} prop count`, w.probeProps(id), c.props.length);
    if (w.probeProps(id) !== c.props.length) return;
    c.props.forEach((p, k) => {
      same(`${c.name}.${p.name} flags`, w.probePropFlags(id, k), (p.required ? P_REQUIRED : 0) | (p.hasDefault ? P_DEFAULT : 0));
      shape(`${c.name}.${p.name}`, w.probePropShape(id, k), p.shape);
    });
  });
  return wrong;
}

// The small library, and one component with what it lacks: branches of plain types, const, an
// enum with members the table leaves out, refs far apart, an object with a property of any value.
const library = compileLibrary({
  ...SMALL_LIBRARY,
  schema: {
    $defs: {
      ...SMALL_LIBRARY.schema.$defs,
      Odd: {
        properties: {
          either: { anyOf: [{ type: "string" }, { type: "array", items: { type: "number" } }] },
          fixed: { const: "x" },
          picked: { enum: ["a", "b\\c", 3, null] },
          target: { anyOf: [{ $ref: "#/$defs/Stack" }, { $ref: "#/$defs/Odd" }] },
          box: { type: "object", properties: { any: {}, n: { type: "integer" }, nested: { type: "object", properties: { s: { type: "string" } } } } },
        },
        required: ["either"],
      },
    },
  },
});

test("every field of a table written in TypeScript reads back through the WebAssembly reader", async () => {
  const w = await reader(VERDICT_LAYOUT);
  assert.deepEqual(readBack(w, library), []);
  assert.deepEqual(NAMES, VERDICT_LAYOUT.names);
}, 120_000);

test("a reader built from another layout than the writer's reads wrong fields, and the read-back says which", async () => {
  // The shape's items and refs' words swapped: the committed writer still writes the old order.
  const records = VERDICT_LAYOUT.records.map((r) =>
    r.prefix === "S" ? { ...r, fields: r.fields.map((f) => (f === "ITEMS" ? "REFS" : f === "REFS" ? "ITEMS" : f)) } : r,
  );
  const wrong = readBack(await reader({ ...VERDICT_LAYOUT, records }), library);
  assert.ok(
    wrong.some((w) => w.includes("items")),
    wrong.join("\n"),
  );
}, 120_000);
