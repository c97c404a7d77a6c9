// Artifact storage on a real SQLite file, or (TESSERA_TEST_DB=postgres) a real PostgreSQL:
// versions, the base-version check, concurrent edits, and who sees what.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { freshDatabase, type TestDatabase } from "../support/postgres.ts";
import {
  createOrganization,
  deleteArtifact,
  findArtifact,
  findArtifactVersion,
  listArtifacts,
  listArtifactVersions,
  openDatabase,
  saveArtifactVersion,
  type Db,
  type NewVersion,
} from "../../src/db/index.ts";

let fresh: TestDatabase;
let db: Db;
let orgA: number;
let orgB: number;
beforeAll(async () => {
  fresh = await freshDatabase(undefined, "artifacts");
  db = await openDatabase(fresh.target);
  orgA = (await createOrganization(db, "artifacts-a", 0)).id;
  orgB = (await createOrganization(db, "artifacts-b", 0)).id;
});
afterAll(async () => {
  await db.destroy();
  await fresh.drop();
});

const deck = (id: string, content: string, extra: Partial<NewVersion> = {}): NewVersion => ({
  id,
  kind: "slides",
  name: "Deck",
  content,
  source: "generate",
  base: "latest",
  ...extra,
});

test("a first version creates the artifact; later ones number on from the latest", async () => {
  const owner = { organizationId: orgA };
  const first = await saveArtifactVersion(db, owner, deck("d1", "v1"));
  expect(first).toMatchObject({ ok: true, version: 1 });
  const second = await saveArtifactVersion(db, owner, deck("d1", "v2", { source: "edit", base: 1, name: "Renamed" }));
  expect(second).toMatchObject({ ok: true, version: 2 });
  const row = (await findArtifact(db, owner, "d1"))!;
  expect(row).toMatchObject({ latest_version: 2, name: "Renamed", kind: "slides" });
  expect((await findArtifactVersion(db, row))!.content).toBe("v2");
  expect((await findArtifactVersion(db, row, 1))!.content).toBe("v1");
  expect(await findArtifactVersion(db, row, 3)).toBeUndefined();
  expect((await listArtifactVersions(db, row)).map((v) => [v.version, v.base_version, v.source])).toEqual([
    [1, null, "generate"],
    [2, 1, "edit"],
  ]);
});

test("an edit from a version that is no longer the latest is a conflict unless it forks; nothing is lost", async () => {
  const owner = { organizationId: orgA };
  await saveArtifactVersion(db, owner, deck("d2", "v1"));
  await saveArtifactVersion(db, owner, deck("d2", "v2", { base: 1, source: "edit" }));
  expect(await saveArtifactVersion(db, owner, deck("d2", "stale", { base: 1, source: "edit" }))).toEqual({ ok: false, reason: "conflict", latest: 2 });
  expect((await findArtifact(db, owner, "d2"))!.latest_version).toBe(2);
  const forked = await saveArtifactVersion(db, owner, deck("d2", "fork of 1", { base: 1, source: "edit", fork: true }));
  expect(forked).toMatchObject({ ok: true, version: 3 });
  const row = (await findArtifact(db, owner, "d2"))!;
  expect((await listArtifactVersions(db, row)).map((v) => [v.version, v.base_version])).toEqual([
    [1, null],
    [2, 1],
    [3, 1],
  ]);
  expect(await saveArtifactVersion(db, owner, deck("d2", "x", { base: 9, source: "edit" }))).toEqual({ ok: false, reason: "no_version", latest: 3 });
  expect(await saveArtifactVersion(db, owner, { ...deck("d2", "x"), kind: "report" })).toEqual({ ok: false, reason: "kind", kind: "slides" });
});

test("concurrent edits of one version: exactly one wins, the rest conflict; with fork all are kept", async () => {
  const owner = { organizationId: orgA };
  for (let round = 0; round < 5; round++) {
    const id = `race-${round}`;
    await saveArtifactVersion(db, owner, deck(id, "v1"));
    const edits = await Promise.all(Array.from({ length: 6 }, (_, i) => saveArtifactVersion(db, owner, deck(id, `edit ${i}`, { base: 1, source: "edit" }))));
    const won = edits.filter((e) => e.ok);
    expect(won).toHaveLength(1);
    expect(edits.filter((e) => !e.ok && e.reason === "conflict")).toHaveLength(5);
    const row = (await findArtifact(db, owner, id))!;
    expect(row.latest_version).toBe(2);
    expect((await findArtifactVersion(db, row))!.content).toBe(`edit ${edits.indexOf(won[0])}`);

    const forks = await Promise.all(
      Array.from({ length: 6 }, (_, i) => saveArtifactVersion(db, owner, deck(id, `fork ${i}`, { base: 2, source: "edit", fork: true }))),
    );
    expect(forks.every((f) => f.ok)).toBe(true);
    expect(forks.map((f) => (f.ok ? f.version : 0)).sort((a, b) => a - b)).toEqual([3, 4, 5, 6, 7, 8]);
    const versions = await listArtifactVersions(db, (await findArtifact(db, owner, id))!);
    expect(versions.map((v) => v.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  }
  // Concurrent first generations of one id: one creates it, the others add versions to it.
  const firsts = await Promise.all(Array.from({ length: 4 }, (_, i) => saveArtifactVersion(db, owner, deck("race-new", `gen ${i}`))));
  expect(firsts.map((f) => (f.ok ? f.version : 0)).sort()).toEqual([1, 2, 3, 4]);
});

test("organizations and users see only their own artifacts; the same id may exist in two organizations", async () => {
  await saveArtifactVersion(db, { organizationId: orgA }, deck("shared-id", "a's"));
  await saveArtifactVersion(db, { organizationId: orgB }, deck("shared-id", "b's"));
  expect((await findArtifactVersion(db, (await findArtifact(db, { organizationId: orgB }, "shared-id"))!))!.content).toBe("b's");
  expect(await findArtifact(db, { organizationId: orgB }, "d1")).toBeUndefined();
  expect(await deleteArtifact(db, { organizationId: orgB }, "d1")).toBe(false);

  const ada = { organizationId: orgB, userId: "ada" };
  const bob = { organizationId: orgB, userId: "bob" };
  await saveArtifactVersion(db, ada, deck("ada-deck", "ada's"));
  expect(await findArtifact(db, bob, "ada-deck")).toBeUndefined();
  expect(await findArtifact(db, { organizationId: orgB }, "ada-deck")).toMatchObject({ user_id: "ada" });
  expect(await saveArtifactVersion(db, bob, deck("ada-deck", "bob's"))).toEqual({ ok: false, reason: "taken" });
  expect((await listArtifacts(db, bob, { limit: 10 }))!.rows).toEqual([]);
  expect((await listArtifacts(db, ada, { limit: 10 }))!.rows.map((r) => r.id)).toEqual(["ada-deck"]);
});

test("listing: newest first, by kind and by part of the name (any case, % and _ literal), paged by `after`", async () => {
  const owner = { organizationId: orgB, userId: "lister" };
  for (let i = 0; i < 5; i++)
    await saveArtifactVersion(db, owner, { ...deck(`l${i}`, "x"), kind: i % 2 ? "report" : "slides", name: i === 3 ? "Q3 100%_done" : `Deck ${i}` });
  const all = (await listArtifacts(db, owner, { limit: 10 }))!;
  expect(all.rows.map((r) => r.id)).toEqual(["l4", "l3", "l2", "l1", "l0"]);
  expect((await listArtifacts(db, owner, { limit: 10, kinds: ["report"] }))!.rows.map((r) => r.id)).toEqual(["l3", "l1"]);
  expect((await listArtifacts(db, owner, { limit: 10, kinds: ["report", "slides"] }))!.rows).toHaveLength(5);
  expect((await listArtifacts(db, owner, { limit: 10, name: "deck" }))!.rows.map((r) => r.id)).toEqual(["l4", "l2", "l1", "l0"]);
  expect((await listArtifacts(db, owner, { limit: 10, name: "0%_" }))!.rows.map((r) => r.id)).toEqual(["l3"]);
  expect((await listArtifacts(db, owner, { limit: 10, name: "%" }))!.rows.map((r) => r.id)).toEqual(["l3"]);
  const first = (await listArtifacts(db, owner, { limit: 2 }))!;
  expect([first.rows.map((r) => r.id), first.hasMore]).toEqual([["l4", "l3"], true]);
  const next = (await listArtifacts(db, owner, { limit: 2, after: "l3" }))!;
  expect(next.rows.map((r) => r.id)).toEqual(["l2", "l1"]);
  expect(await listArtifacts(db, owner, { limit: 2, after: "nope" })).toBeNull();
  expect(await deleteArtifact(db, owner, "l0")).toBe(true);
  expect(await findArtifact(db, owner, "l0")).toBeUndefined();
});
