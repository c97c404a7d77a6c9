// A server's request logs and reliability events, written by a worker thread through a SQLite
// connection of its own (log-writer-worker.ts), so that their inserts and their commit (the pages
// they fill: a 100k conversation is 26 log frames, two system calls each) cost the event loop
// nothing but handing the batch over. The log queue (log-queue.ts) decides what goes in a batch and
// what to do when one fails; this module only carries the batch there and the outcome back. The
// writer writes while the server's connection waits (log-queue.ts registers it so), so neither ever
// meets the other's write lock.
import { runtime } from "../runtime/index.ts";
import type { CallRecords } from "./logs.ts";
import type { NewReliabilityEvent, NewRequestLog } from "./schema.ts";

export interface LogWriter {
  /** Writes the batch in one transaction; rejects with the database's error (its code kept). */
  write(batch: CallRecords[]): Promise<void>;
  stop(): Promise<void>;
}

/** What the worker answers: an error keeps the fields troubleOf() and isSqliteBusy() read. */
export type WriterReply =
  | { type: "ready" | "opened" | "stopped" }
  | { type: "written"; id: number; error?: { name: string; message: string; code?: unknown; errcode?: unknown } };

// A batch crosses to the thread as one JSON text, each library block once, and the conversations
// beside it as they are (a 100k one would cost more to escape into the JSON than to copy): a
// structured clone of the records, object by object, cost the event loop several times as much.
const LOG_KEYS = [
  "request_id",
  "organization_id",
  "endpoint",
  "model",
  "status",
  "outcome",
  "charge",
  "duration_ms",
  "input_tokens",
  "output_tokens",
  "created_at",
] as const satisfies readonly (keyof NewRequestLog)[];
const EVENT_KEYS = [
  "organization_id",
  "model",
  "endpoint",
  "outcome",
  "corrected_codes",
  "created_at",
] as const satisfies readonly (keyof NewReliabilityEvent)[];

/**
 * A batch as sent. `text`: JSON of [the distinct library blocks as [hash, block], the calls as
 * [library hash or null, log values or null, event values or null]]; `conversations`: each call's
 * log's conversation (null without a log), in the calls' order.
 */
export interface PackedBatch {
  text: string;
  conversations: (string | null)[];
}

type Call = [string | null, unknown[] | null, unknown[] | null];

export function pack(batch: CallRecords[]): PackedBatch {
  const libraries = new Map<string, string>();
  const calls: Call[] = [];
  const conversations: (string | null)[] = [];
  for (const { log, library, event } of batch) {
    if (library) libraries.set(library.hash, library.config);
    calls.push([library?.hash ?? null, log ? LOG_KEYS.map((k) => log[k] ?? null) : null, event ? EVENT_KEYS.map((k) => event[k]) : null]);
    conversations.push(log?.conversation ?? null);
  }
  return { text: JSON.stringify([[...libraries], calls]), conversations };
}

export function unpack(packed: PackedBatch): CallRecords[] {
  const [pairs, calls] = JSON.parse(packed.text) as [[string, string][], Call[]];
  const libraries = new Map(pairs);
  return calls.map(([hash, log, event], n) => ({
    library: hash === null ? null : { hash, config: libraries.get(hash)! },
    log: log ? ({ ...Object.fromEntries(LOG_KEYS.map((k, i) => [k, log[i]])), conversation: packed.conversations[n]! } as NewRequestLog) : null,
    event: event ? (Object.fromEntries(EVENT_KEYS.map((k, i) => [k, event[i]])) as unknown as NewReliabilityEvent) : null,
  }));
}

export async function startLogWriter(path: string): Promise<LogWriter> {
  const worker = new Worker(new URL("./log-writer-worker.ts", import.meta.url).href, { type: "module" });
  const pending = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  let next = 0;
  let waiting: ((reply: WriterReply) => void) | null = null;
  const reply = () => new Promise<WriterReply>((resolve) => (waiting = resolve));
  // The worker says when it listens (its module awaits the runtime's first): a message sent before then could be lost.
  const ready = reply();
  worker.addEventListener("message", (event: MessageEvent<WriterReply>) => {
    const message = event.data;
    if (message.type !== "written") {
      const w = waiting;
      waiting = null;
      w?.(message);
      return;
    }
    const call = pending.get(message.id);
    pending.delete(message.id);
    if (!message.error) call?.resolve();
    else call?.reject(Object.assign(new Error(message.error.message), message.error));
  });
  await ready;
  const opened = reply();
  worker.postMessage({ type: "open", path });
  await opened;
  runtime.unrefWorker(worker);
  let stopped = false;
  return {
    write: (batch) =>
      stopped
        ? Promise.reject(new Error("the log writer has stopped"))
        : new Promise<void>((resolve, reject) => {
            const id = ++next;
            pending.set(id, { resolve, reject });
            worker.postMessage({ type: "write", id, batch: pack(batch) });
          }),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      const done = reply();
      worker.postMessage({ type: "stop" });
      await done;
      worker.terminate();
    },
  };
}
