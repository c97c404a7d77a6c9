// The one Bun.serve entry: `bun src/server/main.ts` (npm start) reads the environment and serves.
// Tests and the benchmark import startServer and call it with port 0 and a temporary database.
import { describeTarget, openDatabase, startRetention, type Db } from "../db/index.ts";
import { loadLanguage } from "../lang/index.ts";
import { createApp, type FetchHandler } from "./app.ts";
import { configFromEnv, type ServerConfig } from "./config.ts";
import type { AppDeps } from "./context.ts";
import { providerFixingModel } from "./fixing-model.ts";
import { DEFAULT_LEASE_SECONDS, startSweeper } from "./responses/background.ts";
import { isSocketUpgrade, socketHandler, upgradeSocket } from "./responses/websocket.ts";
import { serve } from "./serve.ts";

export interface RunningServer {
  url: string;
  port: number;
  db: Db;
  /** The settings it runs with (tests change prices on a running server through this). */
  config: ServerConfig;
  fetch: FetchHandler;
  stop(): Promise<void>;
}

/** A URL that reaches the server: a wildcard bind is reached on loopback; IPv6 goes in brackets. */
function urlFor(hostname: string, port: number): string {
  const host = hostname === "0.0.0.0" ? "127.0.0.1" : hostname === "::" ? "[::1]" : hostname.includes(":") ? `[${hostname}]` : hostname;
  return `http://${host}:${port}`;
}

export async function startServer(config: ServerConfig, opts: { log?: (line: string) => void } = {}): Promise<RunningServer> {
  await loadLanguage();
  const db = await openDatabase(config.dbPath, { poolSize: config.dbPoolSize });
  const stopRetention = await startRetention(db, config.retentionDays);
  const log = opts.log ?? ((line: string) => console.log(line));
  const deps: AppDeps = {
    db,
    config,
    fixingModel: config.fixingModel ? providerFixingModel(config.fixingModel) : null,
    log,
  };
  // Background jobs whose server stopped: queued ones are run here, running ones failed.
  const stopSweeper = await startSweeper(db, log, config.leaseSeconds ?? DEFAULT_LEASE_SECONDS, deps);
  const fetch = createApp(deps);
  const server = serve({
    port: config.port,
    hostname: config.host ?? "127.0.0.1",
    // WebSocket mode of the Responses API needs the server for its upgrade; everything else is the app.
    fetch: (req, srv) => (isSocketUpgrade(req) ? upgradeSocket(req, srv, deps) : fetch(req)),
    websocket: socketHandler(deps),
    log: deps.log,
  });
  return {
    url: urlFor(server.hostname ?? "127.0.0.1", server.port!),
    port: server.port!,
    db,
    config,
    fetch,
    async stop() {
      stopRetention();
      stopSweeper();
      await server.stop(true);
      await db.destroy();
    },
  };
}

if (import.meta.main) {
  const config = configFromEnv();
  const server = await startServer(config);
  // The address as bound (HOST), not the one tests connect to: 0.0.0.0 or :: is every interface.
  const bound = config.host!.includes(":") ? `[${config.host}]` : config.host;
  const everywhere = config.host === "0.0.0.0" || config.host === "::" ? " (every interface)" : "";
  console.log(
    `tessera listening on http://${bound}:${server.port}${everywhere} (db ${describeTarget(config.dbPath)}, fixing model ${config.fixingModel?.model ?? "none"})`,
  );
}
