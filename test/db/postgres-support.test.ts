// The PostgreSQL test support itself: where it finds the server binaries, and what it says when
// they are missing (the run fails naming the package; only TESSERA_SKIP_POSTGRES=1 skips).
import { expect, test } from "bun:test";
import { postgresBinaries } from "../support/postgres.ts";

test("missing PostgreSQL binaries are named with Debian's package and the way to skip", () => {
  const r = postgresBinaries("/nonexistent/postgresql");
  expect("missing" in r && r.missing).toContain("Debian's `postgresql` package");
  expect("missing" in r && r.missing).toContain("TESSERA_SKIP_POSTGRES=1");
});

test("installed binaries are found (the newest version)", () => {
  const r = postgresBinaries();
  if ("missing" in r) return; // the runner that needs them fails on its own, saying the same
  expect(r.initdb).toMatch(/^\/usr\/lib\/postgresql\/\d+\/bin\/initdb$/);
  expect(r.pgCtl).toMatch(/\/bin\/pg_ctl$/);
});
