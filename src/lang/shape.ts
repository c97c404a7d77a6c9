// A prop's JSON Schema compiled once into a Shape: the facts the checker asks about on every
// value (which component names, which value kinds, which enum members), precomputed, so that
// checking a value is a few bit tests instead of re-reading the schema.
import { K_ARR, K_BOOL, K_CALL, K_NULL, K_NUM, K_OBJ, K_STR } from "./generated/verdict-layout.ts";
import type { PropSchema } from "./library.ts";
import type { Expr } from "./types.ts";

// Kinds of static values, as bits: the verdict's tables carry them (a shape's K_* kinds).
export const STR = K_STR;
export const NUM = K_NUM;
export const BOOL = K_BOOL;
export const NULL = K_NULL;
export const ARR = K_ARR;
export const OBJ = K_OBJ;
export const CALL = K_CALL;
const ANY = STR | NUM | BOOL | NULL | ARR | OBJ | CALL;

export function kindBit(value: Expr): number {
  switch (value.k) {
    case "str":
      return STR;
    case "num":
      return NUM;
    case "bool":
      return BOOL;
    case "null":
      return NULL;
    case "arr":
      return ARR;
    case "obj":
      return OBJ;
    default:
      return CALL;
  }
}

const REF_PREFIX = "#/$defs/";

/** The component a `$ref` names, or null when it is not `#/$defs/<name>`. */
export function refTarget(ref: string): string | null {
  return ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : null;
}

const TYPE_BITS: Record<string, number> = { string: STR, number: NUM, boolean: BOOL, null: NULL, array: ARR, object: OBJ };

export interface Shape {
  schema: PropSchema;
  /** Accepts every value (`{}`, or only keys outside the subset): nothing to resolve or test. */
  any: boolean;
  /** A `$ref`, or an anyOf/oneOf of `$ref`s only: the component names accepted. */
  refs: Set<string> | null;
  branches: Shape[] | null;
  enumValues: Set<unknown> | null;
  hasConst: boolean;
  /** Kinds `type` allows (all when it has none, or names a type outside the subset). */
  kinds: number;
  /** `type` allows integers but not every number. */
  integerOnly: boolean;
  items: Shape | null;
  properties: Map<string, Shape> | null;
}

function typeOnly(shape: Shape): boolean {
  return !shape.refs && !shape.branches && !shape.enumValues && !shape.hasConst && !shape.integerOnly && !shape.items && !shape.properties;
}

const shapes = new WeakMap<PropSchema, Shape>();

/** The Shape of `schema`, compiled on first use and kept as long as the schema lives. */
export function shapeOf(schema: PropSchema): Shape {
  const known = shapes.get(schema);
  if (known) return known;
  const shape: Shape = {
    schema,
    any: false,
    refs: null,
    branches: null,
    enumValues: null,
    hasConst: "const" in schema,
    kinds: ANY,
    integerOnly: false,
    items: null,
    properties: null,
  };
  shapes.set(schema, shape); // before the parts: a schema that contains itself ends here
  const branches = schema.$ref ? [schema] : (schema.anyOf ?? schema.oneOf);
  if (branches && branches.length && branches.every((b) => (typeof b.$ref === "string" && Object.keys(b).length === 1) || b === schema)) {
    shape.refs = new Set(branches.map((b) => refTarget(b.$ref!) ?? ""));
    return shape;
  }
  if (branches) shape.branches = branches.map(shapeOf);
  if (schema.enum) shape.enumValues = new Set(schema.enum);
  if (schema.type !== undefined) {
    let kinds = 0;
    let integer = false;
    for (const t of Array.isArray(schema.type) ? schema.type : [schema.type]) {
      if (t === "integer") integer = true;
      else kinds |= Object.hasOwn(TYPE_BITS, t) ? TYPE_BITS[t] : ANY;
    }
    shape.integerOnly = integer && (kinds & NUM) === 0;
    shape.kinds = integer ? kinds | NUM : kinds;
  }
  if (schema.items) shape.items = shapeOf(schema.items);
  if (schema.properties) {
    shape.properties = new Map();
    for (const [key, sub] of Object.entries(schema.properties)) shape.properties.set(key, shapeOf(sub));
  }
  // Branches that only name types (`anyOf: [{type: "string"}, {type: "number"}]`) are one set
  // of kinds: a value fits one of them exactly when its kind is in their union.
  if (shape.branches && !shape.hasConst && shape.branches.every(typeOnly)) {
    shape.kinds &= shape.branches.reduce((kinds, b) => kinds | b.kinds, 0);
    shape.branches = null;
  }
  shape.any = !shape.branches && !shape.enumValues && !shape.hasConst && shape.kinds === ANY && !shape.integerOnly && !shape.items && !shape.properties;
  return shape;
}
