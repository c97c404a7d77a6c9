// A library as the flat tables the WebAssembly verdict reads (src/grammar/verdict.as): the
// components (and room for the verdict's hash of their names), their props, the compiled Shapes, builtin names, and a pool of
// UTF-16 strings. Made once per library and kept with it.
import { ACTION_STEPS, BUILTINS } from "./check.ts";
import type { Shape } from "./shape.ts";
import type { Library } from "./library.ts";
// The layout, shared with the reader: generated from src/grammar/verdict-layout.ts.
import {
  C_NAME_AT,
  C_NAME_LENGTH,
  C_PROPS,
  C_PROPS_AT,
  COMPONENT_WORDS,
  ENTRY_KEY_AT,
  ENTRY_KEY_LENGTH,
  ENTRY_SHAPE,
  ENTRY_WORDS,
  F_ANY,
  F_BRANCHES,
  F_CONST,
  F_ENUM,
  F_ENUM_OTHER,
  F_INTEGER,
  F_REFS,
  HEADER_WORDS,
  NAMES,
  P_DEFAULT,
  P_REQUIRED,
  PROP_FLAGS,
  PROP_SHAPE,
  PROP_WORDS,
  S_BRANCHES,
  S_BRANCHES_AT,
  S_ENUM,
  S_ENUM_AT,
  S_FLAGS,
  S_ITEMS,
  S_KINDS,
  S_PROPS,
  S_PROPS_AT,
  S_REFS,
  S_REFS_AT,
  S_REFS_FROM,
  SHAPE_WORDS,
  STR_AT,
  STR_LENGTH,
  STRING_WORDS,
  T_BUILTINS,
  T_BUILTINS_AT,
  T_COMPONENTS,
  T_COMPONENTS_AT,
  T_HASH_AT,
  T_HASH_SIZE,
  T_NAMES_AT,
  T_POOL_AT,
  T_ROOT,
  T_SHAPES_AT,
} from "./generated/verdict-layout.ts";

const tables = new WeakMap<Library, Uint8Array>();

/** The library's tables, as bytes to copy into the module's memory. */
export function verdictTable(library: Library): Uint8Array {
  let bytes = tables.get(library);
  if (!bytes) tables.set(library, (bytes = encode(library)));
  return bytes;
}

function encode(library: Library): Uint8Array {
  const words: number[] = new Array(HEADER_WORDS).fill(0);
  const pool: string[] = [];
  let poolLength = 0;
  const pooled = new Map<string, number>();
  const str = (text: string): [number, number] => {
    let at = pooled.get(text);
    if (at === undefined) {
      at = poolLength;
      pooled.set(text, at);
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
  // A list of `texts` as STRING_WORDS records: where it starts.
  const strings = (texts: readonly string[]) => {
    const at = block(texts.length * STRING_WORDS);
    texts.forEach((text, k) => ([words[at + STRING_WORDS * k + STR_AT], words[at + STRING_WORDS * k + STR_LENGTH]] = str(text)));
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

  words[T_COMPONENTS] = components.length;
  let hashSize = 16;
  while (hashSize < 2 * components.length) hashSize *= 2;
  words[T_HASH_SIZE] = hashSize;
  words[T_HASH_AT] = block(hashSize); // filled by the verdict, which hashes names its own way
  const componentsAt = (words[T_COMPONENTS_AT] = block(components.length * COMPONENT_WORDS));
  components.forEach((component, id) => {
    const rec = componentsAt + id * COMPONENT_WORDS;
    [words[rec + C_NAME_AT], words[rec + C_NAME_LENGTH]] = str(component.name);
    words[rec + C_PROPS] = component.props.length;
    const propsAt = block(component.props.length * PROP_WORDS);
    words[rec + C_PROPS_AT] = propsAt;
    component.props.forEach((prop, k) => {
      words[propsAt + PROP_WORDS * k + PROP_FLAGS] = (prop.required ? P_REQUIRED : 0) | (prop.hasDefault ? P_DEFAULT : 0);
      words[propsAt + PROP_WORDS * k + PROP_SHAPE] = shapeId(prop.shape);
    });
  });
  words[T_ROOT] = library.root === undefined ? -1 : (ids.get(library.root) ?? -1);
  const builtins = [...BUILTINS, ...ACTION_STEPS];
  words[T_BUILTINS] = builtins.length;
  words[T_BUILTINS_AT] = strings(builtins);
  words[T_NAMES_AT] = strings(NAMES);

  // Shape records: a list grows while it is walked (items, branches and properties add shapes).
  const records: number[] = [];
  for (let id = 0; id < shapes.length; id++) {
    const shape = shapes[id];
    const rec = new Array(SHAPE_WORDS).fill(0);
    let flags = (shape.any ? F_ANY : 0) | (shape.hasConst ? F_CONST : 0) | (shape.integerOnly ? F_INTEGER : 0);
    rec[S_KINDS] = shape.kinds;
    // Items or properties that accept anything are left out: nothing to check.
    rec[S_ITEMS] = shape.items && !shape.items.any ? shapeId(shape.items) : -1;
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
      rec[S_REFS_FROM] = first;
      rec[S_REFS] = high < 0 ? 0 : (high >> 5) - first + 1;
      rec[S_REFS_AT] = block(rec[S_REFS]);
      for (const id of refIds) words[rec[S_REFS_AT] + (id >> 5) - first] |= 1 << (id & 31);
    }
    if (shape.branches) {
      flags |= F_BRANCHES;
      const branchIds = shape.branches.map(shapeId);
      rec[S_BRANCHES] = branchIds.length;
      rec[S_BRANCHES_AT] = block(branchIds.length);
      branchIds.forEach((branch, k) => (words[rec[S_BRANCHES_AT] + k] = branch));
    }
    if (shape.enumValues) {
      flags |= F_ENUM;
      // Members with a backslash are left to the checker (the verdict compares raw text).
      const texts = [...shape.enumValues].filter((v): v is string => typeof v === "string" && !v.includes("\\"));
      if (texts.length < shape.enumValues.size) flags |= F_ENUM_OTHER;
      rec[S_ENUM] = texts.length;
      rec[S_ENUM_AT] = strings(texts);
    }
    if (shape.properties) {
      const entries = [...shape.properties].filter(([, sub]) => !sub.any);
      rec[S_PROPS] = entries.length;
      const at = (rec[S_PROPS_AT] = block(entries.length * ENTRY_WORDS));
      entries.forEach(([key, sub], k) => {
        const entry = at + ENTRY_WORDS * k;
        [words[entry + ENTRY_KEY_AT], words[entry + ENTRY_KEY_LENGTH]] = str(key);
        words[entry + ENTRY_SHAPE] = shapeId(sub);
      });
    }
    rec[S_FLAGS] = flags;
    records.push(...rec);
  }
  words[T_SHAPES_AT] = words.length;
  // One word at a time: spread as arguments, a large library's records overflowed the stack.
  for (const word of records) words.push(word);
  words[T_POOL_AT] = words.length;

  const bytes = new Uint8Array(words.length * 4 + poolLength * 2);
  new Int32Array(bytes.buffer, 0, words.length).set(words);
  const units = new Uint16Array(bytes.buffer, words.length * 4, poolLength);
  let at = 0;
  for (const text of pool) for (let i = 0; i < text.length; i++) units[at++] = text.charCodeAt(i);
  return bytes;
}
