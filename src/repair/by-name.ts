// Values given by property name (props as one object, named arguments, an object where a
// component goes) put in their places among a component's properties.
import type { Component, Expr } from "../lang/index.ts";
import { nearest } from "./nearest.ts";

/** Where `key` stands among property `names`: its own place, else the nearest name's; -1 when none is near. */
function propertyIndex(names: readonly string[], key: string): number {
  const exact = names.indexOf(key);
  return exact !== -1 ? exact : names.indexOf(nearest(key, names) ?? "");
}

/**
 * Keys of presentation or identity that React and HTML give every element (`className: "mt-4"`):
 * unless a property is so named, they say nothing the component takes, and fill no place.
 */
const ELEMENT_KEYS = new Set(["className", "class", "style", "sx", "key", "id", "ref"]);
// An entry that takes no place, not even a free one its value fits: -1 in the answer.
const NO_PLACE = -2;

/** What a kind of value may fill: the property types it fits. */
const FITS: Partial<Record<Expr["k"], string[]>> = { str: ["string"], num: ["number", "integer"], bool: ["boolean"], arr: ["array"], obj: ["object"] };

/**
 * The property each entry goes to, in entry order, the first `taken` properties being given by
 * position: the one its key names (propertyIndex); for a key that names none, the free property
 * whose listed values hold its value, else the first free one of its value's type (a value given by
 * position whose kind says nothing: the next free one after the entry before it); -1 when none
 * is free, or the key is one every element has (ELEMENT_KEYS). Null when two entries name one
 * property, or one names a taken one: which was meant cannot be told.
 */
export function placesByName(component: Component, entries: readonly { key: string; value: Expr }[], taken = 0): number[] | null {
  const props = component.props;
  const names = props.map((p) => p.name);
  const filled = props.map((_, i) => i < taken);
  const out = entries.map(({ key }) => (ELEMENT_KEYS.has(key) && !names.includes(key) ? NO_PLACE : propertyIndex(names, key)));
  for (const i of out) {
    if (i < 0) continue;
    if (filled[i]) return null;
    filled[i] = true;
  }
  out.forEach((at, k) => {
    if (at !== -1) return;
    const v = entries[k].value;
    const free = [...filled.keys()].filter((i) => !filled[i]);
    const listed = free.find((i) => v.k === "str" && props[i].shape.enumValues?.has(v.v));
    const typed = free.find((i) => {
      const t = props[i].schema.type;
      return !props[i].shape.enumValues && (FITS[v.k] ?? []).some((kind) => (Array.isArray(t) ? t.includes(kind) : t === kind));
    });
    // A value given by position among named ones whose kind says nothing (a reference, a call,
    // `Form(name: "f", fields: [c], b)`): the next free place after the argument before it.
    const after = k > 0 ? out[k - 1] : taken - 1;
    const next = entries[k].key === "" && FITS[v.k] === undefined ? free.find((i) => i > after) : undefined;
    const place = listed ?? typed ?? next ?? -1;
    if (place !== -1) filled[place] = true;
    out[k] = place;
  });
  return out.map((i) => Math.max(i, -1));
}
