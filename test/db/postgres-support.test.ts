// The PostgreSQL test support itself: where it finds the server binaries (TESSERA_POSTGRES_BIN,
// the system's, the npm package's), and what it says when there are none (the run fails saying
// how to get them; only TESSERA_SKIP_POSTGRES=1 skips).
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { POSTGRES_PACKAGE, postgresBinaries } from "../support/postgres.ts";

const nowhere = "/nonexistent/postgresql";

test("with no binaries anywhere, the message names the npm package, Debian's package and the way to skip", () => {
  const r = postgresBinaries({ choice: "", systemRoot: nowhere, packageDir: nowhere });
  expect("missing" in r).toBe(true);
  const says = "missing" in r ? r.missing : "";
  expect(says).toContain(POSTGRES_PACKAGE);
  expect(says).toContain("Debian's `postgresql` package");
  expect(says).toContain("TESSERA_POSTGRES_BIN");
  expect(says).toContain("TESSERA_SKIP_POSTGRES=1");
});

test("the system's binaries come first when there are some (the newest version)", () => {
  const r = postgresBinaries({ choice: "" });
  if ("missing" in r || !r.from.startsWith("the system's")) return; // no system PostgreSQL here: the next test covers the package
  expect(r.initdb).toMatch(/^\/usr\/lib\/postgresql\/\d+\/bin\/initdb$/);
  expect(r.pgCtl).toMatch(/\/bin\/pg_ctl$/);
});

test("without a system PostgreSQL, npm install's package provides runnable binaries", () => {
  for (const r of [postgresBinaries({ choice: "", systemRoot: nowhere }), postgresBinaries({ choice: "npm" })]) {
    if ("missing" in r) throw new Error(r.missing);
    expect(r.from).toBe(`the npm package ${POSTGRES_PACKAGE}`);
    expect(r.initdb).toContain(`node_modules/${POSTGRES_PACKAGE}/native/bin/initdb`);
    const version = Bun.spawnSync([r.initdb, "--version"]);
    expect(version.exitCode).toBe(0);
    expect(version.stdout.toString()).toMatch(/^initdb \(PostgreSQL\) \d+/);
  }
});

test("TESSERA_POSTGRES_BIN names a folder; one without initdb and pg_ctl is refused, not passed over", () => {
  const empty = mkdtempSync(join(tmpdir(), "tessera-pgbin-"));
  try {
    const r = postgresBinaries({ choice: empty });
    expect("missing" in r && r.missing).toContain(`TESSERA_POSTGRES_BIN=${empty} holds no initdb and pg_ctl`);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
  const pkg = postgresBinaries({ choice: "npm" });
  if ("missing" in pkg) throw new Error(pkg.missing);
  const chosen = postgresBinaries({ choice: join(pkg.initdb, "..") });
  expect("missing" in chosen ? chosen.missing : chosen.initdb).toBe(pkg.initdb);
});
