// The one Bun.serve entry: `bun src/server/main.ts` (npm start) reads the environment and serves.
// Tests and the benchmark import startServer and call it with port 0 and a temporary database.
import { openDatabase, returnOpenHolds, startHoldSweep, startRetention, type Db } from "../db/index.ts";
import { loadLanguage } from "../lang/index.ts";
import { createApp, type FetchHandler } from "./app.ts";
import { Background } from "./background.ts";
import { configFromEnv, type ServerConfig } from "./config.ts";
import type { AppDeps } from "./context.ts";
import { providerFixingModel } from "./fixing-model.ts";

/**
 * How long a stopping server lets requests in flight finish. An Autofix call that waits on the
 * fixing model can take up to its 60 s timeout; process managers kill after their own grace
 * (Kubernetes 30 s, systemd 90 s, Docker 10 s unless told), so the default stays under
 * Kubernetes'. Requests still running then are cut and their credit holds returned.
 * TESSERA_SHUTDOWN_GRACE_MS sets another bound.
 */
export const SHUTDOWN_GRACE_MS = 25_000;

export interface RunningServer {
  url: string;
  port: number;
  db: Db;
  fetch: FetchHandler;
  /** Resolves when every write that runs after a response (request logs) has been made. */
  idle(): Promise<void>;
  /**
   * Stops accepting, lets requests in flight finish (up to `graceMs`), waits for the writes after
   * responses, returns the holds of requests still running, closes the database.
   */
  stop(graceMs?: number): Promise<void>;
}

export async function startServer(config: ServerConfig, opts: { log?: (line: string) => void } = {}): Promise<RunningServer> {
  await loadLanguage();
  const db = await openDatabase(config.dbPath);
  const log = opts.log ?? ((line: string) => console.log(line));
  const stopRetention = await startRetention(db, config.retentionDays);
  // Holds left by a server that died (kill -9, power loss) come back once they are expired.
  const stopHoldSweep = await startHoldSweep(db, log);
  const background = new Background(log);
  const deps: AppDeps = {
    db,
    config,
    fixingModel: config.fixingModel ? providerFixingModel(config.fixingModel) : null,
    log,
    background,
  };
  const fetch = createApp(deps);
  // body.ts caps JSON bodies at 1 MB with a wire-format 413 (it stops reading there, so memory
  // stays bounded); Bun's own cap sits far above so that its plain-text 413 is never the answer.
  const server = Bun.serve({ port: config.port, fetch, maxRequestBodySize: 256 * 1024 * 1024 });
  let stopping: Promise<void> | null = null;
  const stop = async (graceMs: number) => {
    stopRetention();
    stopHoldSweep();
    // stop(false) refuses new connections at once and resolves when the requests in flight end.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const drained = await Promise.race([
      server.stop(false).then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs))),
    ]);
    clearTimeout(timer);
    await background.idle();
    const returned = await returnOpenHolds(db, "the server stopped before the request ended");
    if (!drained) log(`stopped after ${graceMs} ms with requests still running; ${returned} credit hold(s) returned`);
    await server.stop(true);
    await background.idle();
    await db.destroy();
  };
  return {
    url: `http://127.0.0.1:${server.port}`,
    port: server.port!,
    db,
    fetch,
    idle: () => background.idle(),
    stop(graceMs = SHUTDOWN_GRACE_MS) {
      stopping ??= stop(graceMs);
      return stopping;
    },
  };
}

if (import.meta.main) {
  const config = configFromEnv();
  const server = await startServer(config);
  console.log(
    `tessera listening on ${server.url} (db ${config.dbPath}, fixing model ${config.fixingModel?.model ?? "none"})`,
  );
  const grace = Number(process.env.TESSERA_SHUTDOWN_GRACE_MS || SHUTDOWN_GRACE_MS);
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      console.log(`${signal}: no new requests; finishing those in flight (up to ${grace} ms)`);
      server.stop(Number.isFinite(grace) && grace >= 0 ? grace : SHUTDOWN_GRACE_MS).then(
        () => {
          console.log("stopped: requests settled, logs written, database closed");
          process.exit(0);
        },
        (e) => {
          console.error(`shutdown failed: ${e instanceof Error ? e.message : String(e)}`);
          process.exit(1);
        },
      );
    });
  }
}
