// Component schemas → one signature line each, properties in positional order (their key order),
// with types, enums, required marks and defaults, so the model can write positional calls.

type Schema = Record<string, unknown>;

const REF = /^#\/\$defs\/(.+)$/;

export function typeOf(s: Schema | undefined, depth = 0): string {
  if (!s || typeof s !== "object") return "any";
  if (depth > 4) return "…";
  if (typeof s.$ref === "string") return REF.exec(s.$ref)?.[1] ?? "any";
  if (Array.isArray(s.enum)) return s.enum.map((e) => JSON.stringify(e)).join(" | ");
  if ("const" in s) return JSON.stringify(s.const);
  const alts = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (Array.isArray(alts)) return alts.map((a) => wrap(typeOf(a, depth + 1))).join(" | ");
  const t = s.type;
  if (Array.isArray(t)) return t.map((x) => typeOf({ ...s, type: x }, depth + 1)).join(" | ");
  if (t === "array") return `${wrap(typeOf(s.items as Schema | undefined, depth + 1))}[]`;
  if (t === "object") {
    const props = s.properties as Record<string, Schema> | undefined;
    if (!props) return "object";
    const req = new Set((s.required as string[] | undefined) ?? []);
    return `{${Object.entries(props)
      .map(([k, v]) => `${k}${req.has(k) ? "" : "?"}: ${typeOf(v, depth + 1)}`)
      .join(", ")}}`;
  }
  if (t === "integer") return "integer";
  if (typeof t === "string") return t;
  return "any";
}

const wrap = (t: string) => (t.includes(" | ") ? `(${t})` : t);

export function signature(name: string, s: Schema): string {
  const props = (s.properties as Record<string, Schema> | undefined) ?? {};
  const req = new Set((s.required as string[] | undefined) ?? []);
  const args = Object.entries(props).map(([k, p]) => {
    const opt = req.has(k) ? "" : "?";
    const def = "default" in p ? ` = ${JSON.stringify(p.default)}` : "";
    return `${k}${opt}: ${typeOf(p)}${def}`;
  });
  const about = typeof s.description === "string" ? ` — ${s.description}` : "";
  return `${name}(${args.join(", ")})${about}`;
}

/** Every component of `$defs`, in the library's order. */
export function signatures(defs: Record<string, Schema>): string[] {
  return Object.entries(defs).map(([name, s]) => signature(name, s));
}
