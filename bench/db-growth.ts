// Database growth: bytes the SQLite file grows by per 1,000 Autofix requests of 100k characters,
// by kind of request (accepted with a small and with a real-sized library block, rejected 400 and
// 429). Each kind runs on a fresh database through the real server over loopback HTTP; growth is
// the database's pages (page_count × page_size, WAL included) after the requests minus before.
// Bounded, loopback only, temporary files. Run: bun bench/db-growth.ts (or npm run bench)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { writeConfigBlock } from "../src/client/config-block.ts";
import { createApiKey, createOrganization, type Db } from "../src/db/index.ts";
import { serverConfig } from "../src/server/config.ts";
import { startServer } from "../src/server/main.ts";
import { bigGeneration } from "./server.ts";
import { throughput } from "./stats.ts";
import { STACK_TEXT_LIBRARY } from "../test/support/stack-text-library.ts";

const SMALL = STACK_TEXT_LIBRARY;

/** The small library plus synthetic components, to the size of the real 53-component library (~34 KB). */
function realSized(): typeof SMALL {
  const defs: Record<string, unknown> = { ...SMALL.schema.$defs };
  for (let i = 0; JSON.stringify(defs).length < 33_000; i++) {
    defs[`Widget${i}`] = {
      type: "object",
      description: `Synthetic component ${i}, as wordy as the real library's descriptions of its components.`,
      properties: {
        title: { type: "string", description: "Heading shown above the widget" },
        variant: { type: "string", enum: ["default", "outline", "ghost", "subtle"] },
        items: { type: "array", items: { $ref: "#/$defs/Text" } },
      },
      required: ["title"],
    };
  }
  return { ...SMALL, schema: { $defs: defs as typeof SMALL.schema.$defs } };
}

async function pageBytes(db: Db): Promise<number> {
  const count = await sql<{ page_count: number }>`PRAGMA page_count`.execute(db);
  const size = await sql<{ page_size: number }>`PRAGMA page_size`.execute(db);
  return count.rows[0]!.page_count * size.rows[0]!.page_size;
}

interface Kind {
  name: string;
  library: typeof SMALL;
  generation: string;
  credits: number;
  status: number;
}

async function measure(kind: Kind, requests: number, concurrency: number) {
  const dir = mkdtempSync(join(tmpdir(), "tessera-growth-"));
  const server = await startServer(serverConfig({ port: 0, dbPath: join(dir, "growth.db"), dataDir: dir }), { log: () => {} });
  try {
    const org = await createOrganization(server.db, "growth", kind.credits);
    const { key } = await createApiKey(server.db, org.id);
    const body = JSON.stringify({
      messages: [
        { role: "system", content: writeConfigBlock({ chatLibrary: kind.library }) },
        { role: "assistant", content: kind.generation },
      ],
    });
    const call = async () => {
      const res = await fetch(`${server.url}/v1/autofix`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body,
      });
      await res.arrayBuffer();
      if (res.status !== kind.status) throw new Error(`${kind.name}: expected ${kind.status}, got ${res.status}`);
    };
    await call(); // the first request makes the tables' first pages (and stores a library once)
    await server.idle();
    const before = await pageBytes(server.db);
    await throughput(call, requests, concurrency);
    await server.idle();
    const grown = (await pageBytes(server.db)) - before;
    return { bodyChars: body.length, perThousand: (grown / requests) * 1000 };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function main(opts: { requests?: number; concurrency?: number } = {}) {
  const requests = opts.requests ?? 1000;
  const concurrency = opts.concurrency ?? 8;
  const generation = bigGeneration();
  const tooLong = bigGeneration(101_000) + "\n" + "x".repeat(2_000);
  const big = realSized();
  const kinds: Kind[] = [
    { name: "accepted, small library block", library: SMALL, generation, credits: 1, status: 200 },
    { name: "accepted, 34 KB library block", library: big, generation, credits: 1, status: 200 },
    { name: "rejected 400 (generation over the limit)", library: SMALL, generation: tooLong, credits: 1, status: 400 },
    { name: "rejected 429 (no credits)", library: big, generation, credits: 0, status: 429 },
  ];
  console.log(`Database growth per 1,000 Autofix requests (${requests} sent per kind, ${concurrency} at once)`);
  const results: Record<string, number> = {};
  for (const kind of kinds) {
    const r = await measure(kind, requests, concurrency);
    results[kind.name] = r.perThousand;
    console.log(`  ${kind.name.padEnd(44)} body ${(r.bodyChars / 1000).toFixed(0).padStart(4)}k chars   ${(r.perThousand / 1e6).toFixed(2).padStart(7)} MB`);
  }
  return results;
}

if (import.meta.main) await main();
