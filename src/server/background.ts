// Work that runs after the response has gone out (request logs that are not part of a paid
// transaction). Each task is kept until it ends, so a stopping server can wait for all of them:
// what was answered is also logged.
export class Background {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly log: (line: string) => void) {}

  /** Runs `task` after the current request's response has been handed back; a failure is logged. */
  later(label: string, task: () => Promise<unknown>): void {
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .then(
        () => {},
        (e) => this.log(`${label} failed: ${e instanceof Error ? e.message : String(e)}`),
      )
      .finally(() => this.pending.delete(run));
    this.pending.add(run);
  }

  /** Tracks a task that has already started (e.g. a stream's settlement). */
  track<T>(task: Promise<T>): Promise<T> {
    const run = task
      .then(
        () => {},
        () => {},
      )
      .finally(() => this.pending.delete(run));
    this.pending.add(run);
    return task;
  }

  get size(): number {
    return this.pending.size;
  }

  /** Resolves when no task is pending, including tasks started while waiting. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
