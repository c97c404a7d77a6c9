// A SQLite database file for a bench's server process: migrated, with one organization holding
// `credits` and an API key for it. Resolves to the key.
import { createApiKey, createOrganization, openDatabase } from "../src/db/index.ts";

export async function keyedDatabase(path: string, credits: number, name = "bench"): Promise<string> {
  const db = await openDatabase(path);
  try {
    const org = await createOrganization(db, name, credits);
    return (await createApiKey(db, org.id)).key;
  } finally {
    await db.destroy();
  }
}
