// The SQLite file holds conversations: it and the folder made for it are the owner's alone.
import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/db/index.ts";

const dir = mkdtempSync(join(tmpdir(), "tessera-files-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const mode = (path: string) => statSync(path).mode & 0o777;

test("a new database is 0600 (so are its -wal and -shm) in a new 0700 folder, whatever the umask", async () => {
  const old = process.umask(0o022);
  try {
    const path = join(dir, "made", "deeper", "tessera.db");
    const db = await openDatabase(path);
    await db.selectFrom("organizations").selectAll().execute();
    expect(mode(join(dir, "made"))).toBe(0o700);
    expect(mode(join(dir, "made", "deeper"))).toBe(0o700);
    for (const file of [path, `${path}-wal`, `${path}-shm`]) expect([file, mode(file)]).toEqual([file, 0o600]);
    await db.destroy();
  } finally {
    process.umask(old);
  }
});

test("an existing database file is made 0600; an existing folder keeps the mode its operator gave it", async () => {
  const folder = join(dir, "given");
  mkdirSync(folder, { mode: 0o750 });
  chmodSync(folder, 0o750);
  const path = join(folder, "tessera.db");
  writeFileSync(path, "");
  chmodSync(path, 0o644);
  const db = await openDatabase(path);
  expect(mode(path)).toBe(0o600);
  expect(mode(folder)).toBe(0o750);
  await db.destroy();
});
