// A library as the flat tables the WebAssembly verdict reads (src/grammar/verdict.as): the
// components (and room for the verdict's hash of their names), their props, the compiled Shapes, builtin names, and a pool of
// UTF-16 strings. Made once per library and kept with it.
import { ACTION_STEPS, BUILTINS } from "./check.ts";
import type { Shape } from "./shape.ts";
import type { Library } from "./library.ts";

// Header words; the layout is read by verdict.as under the same names (T_*).
const HEADER = 10;
const COMPONENT_WORDS = 4; // name (offset, length in the pool), prop count, props at
const SHAPE_WORDS = 12; // flags, kinds, items, refs (words, at: a bit per component), branches (count, at), enum (count, at), props (count, at), refs' first word
const F_ANY = 1;
const F_CONST = 2;
const F_INTEGER = 4;
const F_REFS = 8;
const F_BRANCHES = 16;
const F_ENUM = 32;
const F_ENUM_OTHER = 64;
const P_REQUIRED = 1;
const P_DEFAULT = 2;
// Names the verdict compares against, in this order.
const NAMES = ["Query", "Mutation", "Each", "root"];

const tables = new WeakMap<Library, Uint8Array>();

/** The library's tables, as bytes to copy into the module's memory. */
export function verdictTable(library: Library): Uint8Array {
  let bytes = tables.get(library);
  if (!bytes) tables.set(library, (bytes = encode(library)));
  return bytes;
}

function encode(library: Library): Uint8Array {
  const words: number[] = new Array(HEADER).fill(0);
  const pool: string[] = [];
  let poolLength = 0;
  const strings = new Map<string, number>();
  const str = (text: string): [number, number] => {
    let at = strings.get(text);
    if (at === undefined) {
      at = poolLength;
      strings.set(text, at);
      pool.push(text);
      poolLength += text.length;
    }
    return [at, text.length];
  };
  const block = (size: number) => {
    const at = words.length;
    for (let i = 0; i < size; i++) words.push(0);
    return at;
  };

  const components = [...library.components.values()];
  const ids = new Map(components.map((c, i) => [c.name, i]));
  // Shapes get ids as they are met; their records are filled after all are known.
  const shapes: Shape[] = [];
  const shapeIds = new Map<Shape, number>();
  const shapeId = (shape: Shape) => {
    let id = shapeIds.get(shape);
    if (id === undefined) {
      id = shapes.length;
      shapeIds.set(shape, id);
      shapes.push(shape);
    }
    return id;
  };

  words[0] = components.length;
  let hashSize = 16;
  while (hashSize < 2 * components.length) hashSize *= 2;
  words[1] = hashSize;
  words[2] = block(hashSize); // filled by the verdict, which hashes names its own way
  const componentsAt = (words[3] = block(components.length * COMPONENT_WORDS));
  components.forEach((component, id) => {
    const rec = componentsAt + id * COMPONENT_WORDS;
    [words[rec], words[rec + 1]] = str(component.name);
    words[rec + 2] = component.props.length;
    const propsAt = block(component.props.length * 2);
    words[rec + 3] = propsAt;
    component.props.forEach((prop, k) => {
      words[propsAt + 2 * k] = (prop.required ? P_REQUIRED : 0) | (prop.hasDefault ? P_DEFAULT : 0);
      words[propsAt + 2 * k + 1] = shapeId(prop.shape);
    });
  });
  words[5] = library.root === undefined ? -1 : (ids.get(library.root) ?? -1);
  const builtins = [...BUILTINS, ...ACTION_STEPS];
  words[6] = builtins.length;
  const builtinsAt = (words[7] = block(builtins.length * 2));
  builtins.forEach((name, k) => ([words[builtinsAt + 2 * k], words[builtinsAt + 2 * k + 1]] = str(name)));
  const namesAt = (words[9] = block(NAMES.length * 2));
  NAMES.forEach((name, k) => ([words[namesAt + 2 * k], words[namesAt + 2 * k + 1]] = str(name)));

  // Shape records: a list grows while it is walked (items, branches and properties add shapes).
  const records: number[] = [];
  for (let id = 0; id < shapes.length; id++) {
    const shape = shapes[id];
    const rec = new Array(SHAPE_WORDS).fill(0);
    let flags = (shape.any ? F_ANY : 0) | (shape.hasConst ? F_CONST : 0) | (shape.integerOnly ? F_INTEGER : 0);
    rec[1] = shape.kinds;
    // Items or properties that accept anything are left out: nothing to check.
    rec[2] = shape.items && !shape.items.any ? shapeId(shape.items) : -1;
    if (shape.refs) {
      flags |= F_REFS;
      // A set of component ids, as bits from the word of the lowest to that of the highest (names
      // outside the library match no call it accepts): a bit per component of the library for
      // each such shape made 40,000 components with a `$ref` each 50 million words.
      const refIds = [...shape.refs].flatMap((name) => ids.get(name) ?? []);
      let low = Infinity;
      let high = -1;
      for (const id of refIds) (low = Math.min(low, id)), (high = Math.max(high, id));
      const first = high < 0 ? 0 : low >> 5;
      rec[11] = first;
      rec[3] = high < 0 ? 0 : (high >> 5) - first + 1;
      rec[4] = block(rec[3]);
      for (const id of refIds) words[rec[4] + (id >> 5) - first] |= 1 << (id & 31);
    }
    if (shape.branches) {
      flags |= F_BRANCHES;
      const branchIds = shape.branches.map(shapeId);
      rec[5] = branchIds.length;
      rec[6] = block(branchIds.length);
      branchIds.forEach((branch, k) => (words[rec[6] + k] = branch));
    }
    if (shape.enumValues) {
      flags |= F_ENUM;
      // Members with a backslash are left to the checker (the verdict compares raw text).
      const texts = [...shape.enumValues].filter((v): v is string => typeof v === "string" && !v.includes("\\"));
      if (texts.length < shape.enumValues.size) flags |= F_ENUM_OTHER;
      rec[7] = texts.length;
      rec[8] = block(texts.length * 2);
      texts.forEach((text, k) => ([words[rec[8] + 2 * k], words[rec[8] + 2 * k + 1]] = str(text)));
    }
    if (shape.properties) {
      const entries = [...shape.properties].filter(([, sub]) => !sub.any);
      rec[9] = entries.length;
      rec[10] = block(entries.length * 3);
      entries.forEach(([key, sub], k) => {
        [words[rec[10] + 3 * k], words[rec[10] + 3 * k + 1]] = str(key);
        words[rec[10] + 3 * k + 2] = shapeId(sub);
      });
    }
    rec[0] = flags;
    records.push(...rec);
  }
  words[4] = words.length;
  // One word at a time: spread as arguments, a large library's records overflowed the stack.
  for (const word of records) words.push(word);
  words[8] = words.length;

  const bytes = new Uint8Array(words.length * 4 + poolLength * 2);
  new Int32Array(bytes.buffer, 0, words.length).set(words);
  const units = new Uint16Array(bytes.buffer, words.length * 4, poolLength);
  let at = 0;
  for (const text of pool) for (let i = 0; i < text.length; i++) units[at++] = text.charCodeAt(i);
  return bytes;
}
