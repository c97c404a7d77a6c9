// A fresh database on the tests' throwaway PostgreSQL (postgres.ts), for a test that is not a Bun
// process (the Deno service suite): `bun test/support/postgres-server.ts` prints its postgres://
// URL on one line and keeps the server until its stdin closes; then the server stops and goes.
import { freshDatabase } from "./postgres.ts";

const db = await freshDatabase("postgres", "deno");
console.log(db.target);
process.stdin.on("end", () => {
  db.drop().finally(() => process.exit(0));
});
process.stdin.resume();
