// The server's entry: `bun src/server/main.ts` (npm start) or `deno task start` reads the environment
// once, into a ServerConfig (config.ts), and serves, on the runtime it runs on (src/runtime).
// Tests and the benchmark import startServer and call it with a config of their own
// (serverConfig({...})): port 0 and a temporary database.
import { describeTarget, flushLogs, openDatabase, returnOpenHolds, startHoldSweep, startOwnerLease, startRetention, type Db } from "../db/index.ts";
import { setCallLimits } from "../providers/call.ts";
import { loadLanguage } from "../lang/index.ts";
import { createApp, type FetchHandler } from "./app.ts";
import { Background } from "./background.ts";
import { ConfigError, configFromEnv, SETTINGS, type ServerConfig } from "./config.ts";
import { Keyring } from "./crypto/keyring.ts";
import { bunStartEnv, ensureBunStartEnv } from "./bun-start-env.ts";
import type { AppDeps } from "./context.ts";
import { providerFixingModel } from "./surfaces/autofix/fixing-model.ts";
import { serve } from "./serve.ts";
import type { RunningJob, SocketSpec, Surface } from "./surface.ts";
import { SURFACES } from "./surfaces/index.ts";

/** How long a stopping server lets requests in flight finish, unless TESSERA_SHUTDOWN_GRACE_MS says (config.ts). */
export const SHUTDOWN_GRACE_MS = SETTINGS.shutdownGraceMs.fallback;

export interface RunningServer {
  url: string;
  port: number;
  db: Db;
  /** The settings it runs with (tests change prices on a running server through this). */
  config: ServerConfig;
  /** The master keys it seals and signs with (tests mint tokens with them). */
  keys: Keyring;
  fetch: FetchHandler;
  /** Resolves when every write that runs after a response (request logs) has been made. */
  idle(): Promise<void>;
  /**
   * Stops accepting, lets requests in flight finish (up to `graceMs`), waits for the writes after
   * responses, returns the holds of requests still running, closes the database.
   */
  stop(graceMs?: number): Promise<void>;
}

/** A URL that reaches the server: a wildcard bind is reached on loopback; IPv6 goes in brackets. */
function urlFor(hostname: string, port: number): string {
  const host = hostname === "0.0.0.0" ? "127.0.0.1" : hostname === "::" ? "[::1]" : hostname.includes(":") ? `[${hostname}]` : hostname;
  return `http://${host}:${port}`;
}

export async function startServer(config: ServerConfig, opts: { log?: (line: string) => void; surfaces?: readonly Surface[] } = {}): Promise<RunningServer> {
  const surfaces = opts.surfaces ?? SURFACES;
  await loadLanguage();
  setCallLimits({ connectMs: config.providerConnectTimeoutMs, idleMs: config.providerIdleTimeoutMs });
  // Before the database: a bad master key stops the start without touching anything.
  const keys = await Keyring.open(config);
  const log = opts.log ?? ((line: string) => console.log(line));
  const db = await openDatabase(config.dbPath, {
    poolSize: config.dbPoolSize,
    checkpointer: true,
    onBusyWait: (ms) => log(`database locked by another process: waiting for it, up to ${ms} ms (other requests go on)`),
  });
  const stopRetention = await startRetention(db, config.retentionDays);
  // This process under a lease: what a stopped server left running (its holds, its responses) is
  // released at start-up and once a lease period after it stopped (owners.ts).
  const ownerLease = await startOwnerLease(db, config.leaseSeconds, log);
  // Holds left by a server that died (kill -9, power loss) come back once they are expired.
  const stopHoldSweep = await startHoldSweep(db, log);
  const background = new Background(log);
  const deps: AppDeps = {
    db,
    config,
    keys,
    fixingModel: config.fixingModel ? providerFixingModel(config.fixingModel) : null,
    log,
    background,
  };
  const jobs: RunningJob[] = [];
  for (const surface of surfaces) for (const job of surface.jobs ?? []) jobs.push(await job.start(deps));
  const fetch = createApp(deps, surfaces);
  const sockets = surfaces.flatMap((s) => (s.socket ? [s.socket] : []));
  if (sockets.length > 1) throw new Error("one surface at most may have a WebSocket mode (the server takes one handler)");
  const socket = sockets[0] as SocketSpec<unknown> | undefined;
  const server = serve<unknown>({
    port: config.port,
    hostname: config.host,
    // A WebSocket mode needs the server for its upgrade; everything else is the app.
    fetch: socket ? (req, srv) => (socket.matches(req) ? socket.upgrade(req, srv, deps) : fetch(req)) : fetch,
    websocket: socket?.handler(deps),
    log: deps.log,
  });
  let stopping: Promise<void> | null = null;
  const stop = async (graceMs: number) => {
    deps.draining = true;
    stopRetention();
    stopHoldSweep();
    for (const job of jobs) job.stop();
    // stop(false) refuses new connections at once and resolves when the requests in flight end.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const drained = await Promise.race([
      server.stop(false).then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs))),
    ]);
    clearTimeout(timer);
    // Background work would outlive any grace: ended now, saying why, its holds handed back.
    for (const job of jobs) await job.abandon?.();
    await background.idle();
    const returned = await returnOpenHolds(db, "the server stopped before the request ended");
    await ownerLease.stop();
    if (!drained) log(`stopped after ${graceMs} ms with requests still running; ${returned} credit hold(s) returned`);
    await server.stop(true);
    await background.idle();
    await flushLogs(db);
    await db.destroy();
  };
  return {
    url: urlFor(server.hostname, server.port),
    port: server.port,
    db,
    config,
    keys,
    fetch,
    // Background work done and the logs it queued written: what tests wait for before reading them.
    idle: async () => {
      await background.idle();
      await flushLogs(db);
    },
    stop(graceMs = config.shutdownGraceMs) {
      stopping ??= stop(graceMs);
      return stopping;
    },
  };
}

if (import.meta.main) {
  let config: ServerConfig;
  try {
    config = configFromEnv(process.env);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    console.error(`tessera: ${e.message}`);
    process.exit(1);
  }
  if (!ensureBunStartEnv(config.maxProviderCalls, process.env)) {
    const want = Object.entries(bunStartEnv(config.maxProviderCalls, process.env)).map(([name, value]) => `${name}=${value}`);
    console.error(`this runtime cannot restart the server with what Bun reads only at start: set ${want.join(" ")} before starting it`);
  }
  const server = await startServer(config);
  // The address as bound (HOST), not the one tests connect to: 0.0.0.0 or :: is every interface.
  const bound = config.host.includes(":") ? `[${config.host}]` : config.host;
  const everywhere = config.host === "0.0.0.0" || config.host === "::" ? " (every interface)" : "";
  console.log(
    `tessera listening on http://${bound}:${server.port}${everywhere} (db ${describeTarget(config.dbPath)}, fixing model ${config.fixingModel?.model ?? "none"})`,
  );
  const grace = config.shutdownGraceMs;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      console.log(`${signal}: no new requests; finishing those in flight (up to ${grace} ms)`);
      // The stop waits on things that hold no reference (the SQLite checkpointer's unref'd worker):
      // without one of its own the process could run out of work and exit before its last line.
      setInterval(() => {}, 60_000);
      server.stop(grace).then(
        () => {
          // Exits once the line is written: console.log to a pipe is asynchronous, and exit() dropped it.
          process.stdout.write("stopped: requests settled, logs written, database closed\n", () => process.exit(0));
        },
        (e) => {
          console.error(`shutdown failed: ${e instanceof Error ? e.message : String(e)}`);
          process.exit(1);
        },
      );
    });
  }
}
