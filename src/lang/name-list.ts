// A set of names kept with its insertion order, whose state at any moment can be kept (a
// snapshot) for nothing and read later as a list: a stream hands one out with each result, and
// most results are never read. Adding and deleting cost the same whatever the size; a snapshot's
// list is made only when read.

interface Entry {
  readonly name: string;
  /** The version the name was added at, and the one it was deleted at (Infinity: not deleted). */
  readonly added: number;
  deleted: number;
}

/** The names of a NameList as they were when it was taken (see readNames). */
export interface NameSnapshot {
  readonly log: readonly Entry[];
  readonly version: number;
}

export class NameList {
  private entries = new Map<string, Entry>();
  // Every entry in the order added, deleted ones too until there are as many of them as live ones
  // (then a new log holds the live ones; a snapshot keeps the log it was taken with).
  private log: Entry[] = [];
  private deletedInLog = 0;
  private version = 0;
  private last: NameSnapshot | null = null;

  has(name: string): boolean {
    return this.entries.has(name);
  }

  add(name: string): void {
    if (this.entries.has(name)) return;
    const entry: Entry = { name, added: this.version++, deleted: Infinity };
    this.entries.set(name, entry);
    this.log.push(entry);
  }

  delete(name: string): void {
    const entry = this.entries.get(name);
    if (entry === undefined) return;
    entry.deleted = this.version++;
    this.entries.delete(name);
    if (++this.deletedInLog > 16 && this.deletedInLog * 2 > this.log.length) {
      this.log = this.log.filter((e) => e.deleted === Infinity);
      this.deletedInLog = 0;
    }
  }

  /** The names as they are now; the same object while nothing changes. */
  snapshot(): NameSnapshot {
    if (this.last === null || this.last.version !== this.version || this.last.log !== this.log) this.last = { log: this.log, version: this.version };
    return this.last;
  }
}

/** The names of `snapshot` in the order they were added, without those `except` has: a new array. */
export function readNames(snapshot: NameSnapshot, except: { has(name: string): boolean } | null = null): string[] {
  const out: string[] = [];
  const { log, version } = snapshot;
  for (const entry of log) {
    if (entry.added >= version) break; // added after the snapshot, as is every entry after it
    if (entry.deleted < version) continue;
    if (except === null || !except.has(entry.name)) out.push(entry.name);
  }
  return out;
}
