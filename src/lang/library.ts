// A component library (the `chatLibrary` object of the config block), checked and compiled
// into positional signatures. See wire-formats.md ("Config block") and ui-language.md §5.
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

export class LibraryError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid component library: ${problems.join("; ")}`);
    this.name = "LibraryError";
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Checks and compiles a library; throws a LibraryError listing every problem. */
export function compileLibrary(config: unknown): Library {
  const problems: string[] = [];
  if (!isObject(config)) throw new LibraryError(["the library must be a JSON object"]);
  const schema = config.schema;
  const defs = isObject(schema) ? schema.$defs : undefined;
  if (!isObject(schema)) problems.push("`schema` must be an object");
  else if (!isObject(defs) || Object.keys(defs).length === 0) problems.push("`schema.$defs` must be a non-empty object");
  const components = new Map<string, Component>();
  if (isObject(defs)) {
    for (const [name, def] of Object.entries(defs)) {
      if (!/^[A-Z][A-Za-z0-9_]*$/.test(name)) problems.push(`component name \`${name}\` must start with an upper-case letter and be a name`);
      if (!isObject(def)) {
        problems.push(`\`$defs.${name}\` must be a JSON Schema object`);
        continue;
      }
      const properties = def.properties ?? {};
      if (!isObject(properties)) {
        problems.push(`\`$defs.${name}.properties\` must be an object`);
        continue;
      }
      const required = Array.isArray(def.required) ? def.required : [];
      for (const r of required) {
        if (typeof r !== "string" || !(r in properties)) problems.push(`\`$defs.${name}.required\` names \`${String(r)}\`, which is not a property`);
      }
      const props: Prop[] = Object.entries(properties).map(([prop, s]) => {
        const schema = (isObject(s) ? s : {}) as PropSchema;
        return { name: prop, schema, shape: shapeOf(schema), required: required.includes(prop), hasDefault: "default" in schema };
      });
      components.set(name, { name, props, description: typeof def.description === "string" ? def.description : undefined });
    }
    // Every $ref, at any depth, must point at a component.
    const visit = (node: unknown, where: string) => {
      if (Array.isArray(node)) node.forEach((n, i) => visit(n, `${where}/${i}`));
      else if (isObject(node)) {
        for (const [key, value] of Object.entries(node)) {
          if (key === "$ref") {
            const target = typeof value === "string" ? refTarget(value) : null;
            if (target === null || !components.has(target)) problems.push(`\`${where}\` has $ref ${JSON.stringify(value)}, which is not #/$defs/<a component>`);
          } else visit(value, `${where}/${key}`);
        }
      }
    };
    visit(defs, "$defs");
  }
  const root = config.root;
  if (root !== undefined && (typeof root !== "string" || !components.has(root))) {
    problems.push(`\`root\` ${JSON.stringify(root)} is not a component of \`schema.$defs\``);
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
          if (typeof c !== "string" || !components.has(c)) problems.push(`\`componentGroups[${i}]\` names ${JSON.stringify(c)}, which is not a component`);
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
