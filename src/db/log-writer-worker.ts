// Runs in a worker thread (log-writer.ts starts it): writes the batches of request logs and
// reliability events it is sent, each in one transaction, through a connection of its own, with
// the same queries as the server's own connection would (logs.ts: writeQueued).
import type { Kysely } from "kysely";
import { runtime } from "../runtime/index.ts";
import { BACKSTOP_PAGES } from "./checkpointer.ts";
import { writeQueued } from "./logs.ts";
import type { Database } from "./schema.ts";
import { configure, sqliteKysely } from "./sqlite.ts";
import { unpack, type PackedBatch, type WriterReply } from "./log-writer.ts";

declare const self: Worker;

let db: Kysely<Database> | null = null;

type Message = { type: "open"; path: string } | { type: "write"; id: number; batch: PackedBatch } | { type: "stop" };

const answer = (reply: WriterReply) => self.postMessage(reply);

self.onmessage = async (event: MessageEvent<Message>) => {
  const message = event.data;
  if (message.type === "open") {
    const sqlite = runtime.openSqlite(message.path);
    // Another process's lock is waited for as the server's connection waits for it (sqlite-busy.ts):
    // the server's connection is idle meanwhile (log-writer.ts). Checkpoints are the checkpointer's,
    // and the server's connection's backstop.
    sqlite.exec("PRAGMA busy_timeout = 0");
    configure(sqlite);
    sqlite.exec(`PRAGMA wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    db = sqliteKysely(sqlite);
    answer({ type: "opened" });
  } else if (message.type === "write") {
    try {
      if (!db) throw new Error("the log writer is not open");
      const batch = unpack(message.batch);
      await db.transaction().execute((tx) => writeQueued(tx, batch));
      answer({ type: "written", id: message.id });
    } catch (e) {
      const { name, message: text, code, errcode } = e as Error & { code?: unknown; errcode?: unknown };
      answer({ type: "written", id: message.id, error: { name, message: text, code, errcode } });
    }
  } else {
    await db?.destroy();
    db = null;
    answer({ type: "stopped" });
  }
};

answer({ type: "ready" });
