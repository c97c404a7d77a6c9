// A set of names kept with its insertion order as a list that is replaced, never changed in
// place: a list handed out (in a stream's result) stays as it was while the set moves on, and
// reading the list costs nothing when the set has not changed.

export class NameList {
  private names = new Set<string>();
  private current: readonly string[] = [];
  private added: string[] = []; // appended to `current` when it is next read

  has(name: string): boolean {
    return this.names.has(name);
  }

  /** The names in the order they were added. */
  get list(): readonly string[] {
    if (this.added.length) {
      this.current = this.current.concat(this.added);
      this.added = [];
    }
    return this.current;
  }

  add(name: string): void {
    if (this.names.has(name)) return;
    this.names.add(name);
    this.added.push(name);
  }

  delete(name: string): void {
    if (!this.names.delete(name)) return;
    this.current = without(this.list, name);
  }

  /** The list without `names` (the same list when it holds none of them). */
  except(names: Iterable<string>): readonly string[] {
    let out = this.list;
    for (const name of names) if (this.names.has(name)) out = without(out, name);
    return out;
  }
}

function without(list: readonly string[], name: string): readonly string[] {
  const at = list.indexOf(name);
  return at === -1 ? list : list.slice(0, at).concat(list.slice(at + 1));
}
