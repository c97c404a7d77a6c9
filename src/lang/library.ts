// A component library (the `chatLibrary` object of the config block), checked and compiled
// into positional signatures (docs/language.md; the config block: docs/autofix.md).
import { refTarget, shapeOf, type Shape } from "./shape.ts";

/** The JSON Schema subset the checker understands. */
export interface PropSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: PropSchema;
  properties?: Record<string, PropSchema>;
  required?: string[];
  anyOf?: PropSchema[];
  oneOf?: PropSchema[];
  $ref?: string;
  default?: unknown;
  description?: string;
  [key: string]: unknown;
}

export interface Prop {
  name: string;
  schema: PropSchema;
  /** The schema compiled for the checker. */
  shape: Shape;
  required: boolean;
  hasDefault: boolean;
}

export interface Component {
  name: string;
  props: Prop[];
  description?: string;
}

export interface Library {
  id?: string;
  root?: string;
  components: Map<string, Component>;
  groups: { name: string; components: string[]; notes?: string[] }[];
  /** The config as given, for prompts and echoing back. */
  source: Record<string, unknown>;
}

/** The component named `name` whatever its case (`textcontent` → TextContent), or undefined. */
export function componentByCase(library: Library, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const c of library.components.keys()) if (c.toLowerCase() === lower) return c;
  return undefined;
}

export class LibraryError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid component library: ${problems.join("; ")}`);
    this.name = "LibraryError";
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** How many arrays and objects a library may nest inside one another (its own object included). */
export const MAX_LIBRARY_DEPTH = 64;

const TYPES = new Set(["string", "number", "integer", "boolean", "null", "array", "object"]);

/**
 * The keys down to the first value nested deeper than MAX_LIBRARY_DEPTH, or null. The walk turns
 * back at that depth, so it never recurses deeper than that, whatever it is given (a library
 * nested 20,000 deep included), and every walk after it may recurse freely.
 */
function tooDeep(value: unknown, depth: number): string[] | null {
  if (typeof value !== "object" || value === null) return null;
  if (depth > MAX_LIBRARY_DEPTH) return [];
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const keys = tooDeep(value[i], depth + 1);
      if (keys) return [`[${i}]`, ...keys];
    }
  } else {
    for (const key in value) {
      const keys = tooDeep((value as Record<string, unknown>)[key], depth + 1);
      if (keys) return [key, ...keys];
    }
  }
  return null;
}

function pathOf(keys: string[]): string {
  return keys.map((k, i) => (k.startsWith("[") || i === 0 ? k : `.${k}`)).join("");
}

/**
 * Checks a schema (a component's or a property's) against the subset the checker, the prompts and
 * the repairs read: each keyword of that subset must have the shape they assume; other keywords
 * are left alone. `at` is the path as segments, joined only for a problem (this runs on every
 * schema of every library compiled).
 */
function checkSchema(schema: unknown, at: string[], problems: string[]): void {
  const fail = (what: string, value: unknown, ...tail: string[]) => problems.push(`\`${pathOf([...at, ...tail])}\` ${what}, got ${describe(value)}`);
  if (!isObject(schema)) {
    fail("must be a JSON Schema object", schema);
    return;
  }
  const type = schema.type;
  if (type !== undefined && !(typeof type === "string" ? TYPES.has(type) : Array.isArray(type) && type.length > 0 && type.every((t) => TYPES.has(t)))) {
    fail(`must be one of ${[...TYPES].join(", ")} or a non-empty array of them`, type, "type");
  }
  if (schema.enum !== undefined && !Array.isArray(schema.enum)) fail("must be an array", schema.enum, "enum");
  if (schema.items !== undefined) {
    at.push("items");
    checkSchema(schema.items, at, problems);
    at.pop();
  }
  const properties = schema.properties;
  if (properties !== undefined) {
    if (!isObject(properties)) fail("must be an object", properties, "properties");
    else {
      at.push("properties", "");
      for (const key in properties) {
        at[at.length - 1] = key;
        checkSchema(properties[key], at, problems);
      }
      at.length -= 2;
    }
  }
  const required = schema.required;
  if (required !== undefined && !(Array.isArray(required) && required.every((r) => typeof r === "string"))) {
    fail("must be an array of property names", required, "required");
  }
  if (schema.anyOf !== undefined) checkBranches(schema.anyOf, "anyOf", at, problems, fail);
  if (schema.oneOf !== undefined) checkBranches(schema.oneOf, "oneOf", at, problems, fail);
}

function checkBranches(
  branches: unknown,
  keyword: string,
  at: string[],
  problems: string[],
  fail: (what: string, value: unknown, ...tail: string[]) => void,
): void {
  if (!Array.isArray(branches) || branches.length === 0) {
    fail("must be a non-empty array of schemas", branches, keyword);
    return;
  }
  at.push(keyword, "");
  for (let i = 0; i < branches.length; i++) {
    at[at.length - 1] = `[${i}]`;
    checkSchema(branches[i], at, problems);
  }
  at.length -= 2;
}

/** A JSON value as it appears in a message: never longer than a line, whatever was sent. */
function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** What kind of JSON value this is, for "must be …, got …" messages. */
function describe(value: unknown): string {
  if (Array.isArray(value)) return value.length ? "an array" : "an empty array";
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  return `the ${typeof value} ${short(value)}`;
}

/** Checks and compiles a library; throws a LibraryError listing every problem, for any value at all. */
export function compileLibrary(config: unknown): Library {
  const problems: string[] = [];
  if (!isObject(config)) throw new LibraryError(["the library must be a JSON object"]);
  const deep = tooDeep(config, 1);
  if (deep !== null) throw new LibraryError([`\`${pathOf(deep)}\` nests arrays and objects more than ${MAX_LIBRARY_DEPTH} deep`]);
  const schema = config.schema;
  const defs = isObject(schema) ? schema.$defs : undefined;
  if (!isObject(schema)) problems.push("`schema` must be an object");
  else if (!isObject(defs) || Object.keys(defs).length === 0) problems.push("`schema.$defs` must be a non-empty object");
  const checked: [string, Record<string, unknown>, Record<string, unknown>, string[]][] = [];
  if (isObject(defs)) {
    for (const [name, def] of Object.entries(defs)) {
      if (!/^[A-Z][A-Za-z0-9_]*$/.test(name)) problems.push(`component name \`${name}\` must start with an upper-case letter and be a name`);
      if (!isObject(def)) {
        problems.push(`\`$defs.${name}\` must be a JSON Schema object, got ${describe(def)}`);
        continue;
      }
      const before = problems.length;
      checkSchema(def, ["$defs", name], problems);
      if (problems.length > before) continue;
      const properties = (def.properties ?? {}) as Record<string, unknown>;
      const required = (def.required ?? []) as string[];
      for (const r of required) {
        if (!Object.hasOwn(properties, r)) problems.push(`\`$defs.${name}.required\` names \`${r}\`, which is not a property`);
      }
      checked.push([name, def, properties, required]);
    }
    // Every $ref, at any depth, must point at a component.
    const names = new Set(Object.keys(defs));
    const visit = (node: unknown, where: string) => {
      if (Array.isArray(node)) node.forEach((n, i) => visit(n, `${where}/${i}`));
      else if (isObject(node)) {
        for (const [key, value] of Object.entries(node)) {
          if (key === "$ref") {
            const target = typeof value === "string" ? refTarget(value) : null;
            if (target === null || !names.has(target) || !isObject(defs[target]))
              problems.push(`\`${where}\` has $ref ${short(value)}, which is not #/$defs/<a component>`);
          } else visit(value, `${where}/${key}`);
        }
      }
    };
    visit(defs, "$defs");
  }
  // Shapes are compiled only from schemas that passed every check above.
  const components = new Map<string, Component>();
  if (!problems.length) {
    for (const [name, def, properties, required] of checked) {
      // A set: a list looked up once per prop made 40,000 required props take seconds.
      const requiredSet = new Set(required);
      const props: Prop[] = Object.entries(properties).map(([prop, s]) => {
        const schema = s as PropSchema;
        return { name: prop, schema, shape: shapeOf(schema), required: requiredSet.has(prop), hasDefault: "default" in schema };
      });
      components.set(name, { name, props, description: typeof def.description === "string" ? def.description : undefined });
    }
  }
  const known = (c: unknown) => typeof c === "string" && isObject(defs) && Object.hasOwn(defs, c);
  const root = config.root;
  if (root !== undefined && !known(root)) {
    problems.push(`\`root\` ${short(root)} is not a component of \`schema.$defs\``);
  }
  const groups: Library["groups"] = [];
  if (config.componentGroups !== undefined) {
    if (!Array.isArray(config.componentGroups)) problems.push("`componentGroups` must be an array");
    else {
      config.componentGroups.forEach((g, i) => {
        if (!isObject(g) || !Array.isArray(g.components)) {
          problems.push(`\`componentGroups[${i}]\` must have a \`components\` array`);
          return;
        }
        for (const c of g.components) {
          if (!known(c)) problems.push(`\`componentGroups[${i}]\` names ${short(c)}, which is not a component`);
        }
        groups.push({
          name: typeof g.name === "string" ? g.name : `Group ${i + 1}`,
          components: g.components.filter((c): c is string => typeof c === "string"),
          notes: Array.isArray(g.notes) ? g.notes.filter((n): n is string => typeof n === "string") : undefined,
        });
      });
    }
  }
  if (config.id !== undefined && typeof config.id !== "string") problems.push("`id` must be a string");
  if (problems.length) throw new LibraryError(problems);
  return { id: config.id as string | undefined, root: root as string | undefined, components, groups, source: config };
}
