// tessera key create|list|revoke
import { createApiKey, listApiKeys, revokeApiKeys } from "../../db/index.ts";
import { checkFlags, flagValue, readSubcommand } from "../args.ts";
import { requireOrg, withDb } from "../db.ts";
import { CommandFailed, out } from "../io.ts";

export const KEY_HELP = `Usage: tessera key <command>

Commands:
  key create --org NAME   create an API key; it is shown once, on the last line
  key list --org NAME     list the organization's keys by prefix (never the key itself)
  key revoke PREFIX       revoke the key(s) with this prefix (as shown by key list)`;

const HELP: Record<string, string> = {
  create:
    "Usage: tessera key create --org NAME\n\nCreates an API key for the organization. The key is printed once, alone on the\nlast line; only its SHA-256 hash is stored, so keep it now.",
  list: "Usage: tessera key list --org NAME [--json]\n\nLists the organization's keys: prefix, created, last used, revoked.",
  revoke: "Usage: tessera key revoke PREFIX\n\nRevokes the key whose prefix (from key list) matches. Calls with it get 401.",
};

export async function keyCommand(argv: string[]): Promise<void> {
  const command = readSubcommand("key", argv, KEY_HELP, HELP, ["org"], out);
  if (!command) return;
  const { sub, args, usage } = command;

  if (sub === "revoke") {
    checkFlags(args, []);
    if (args.positionals.length !== 1) throw usage("expected PREFIX");
    return withDb(async (db) => {
      const n = await revokeApiKeys(db, args.positionals[0]);
      if (n === 0) throw new CommandFailed(`no live key with prefix ${args.positionals[0]}`);
      out(`revoked ${n} key${n === 1 ? "" : "s"} with prefix ${args.positionals[0]}`);
    });
  }

  checkFlags(args, sub === "list" ? ["org", "json"] : ["org"]);
  const orgName = flagValue(args, "org");
  if (!orgName) throw usage("--org NAME is required");
  if (args.positionals.length) throw usage(`unexpected argument ${args.positionals[0]}`);
  return withDb(async (db) => {
    const org = await requireOrg(db, orgName);
    if (sub === "create") {
      const { key, prefix } = await createApiKey(db, org.id);
      out(`created key ${prefix}… for ${org.name}; it is shown only once:`);
      out(key);
      return;
    }
    const keys = await listApiKeys(db, org.id);
    const rows = keys.map((k) => ({ prefix: k.prefix, created_at: k.created_at, last_used_at: k.last_used_at, revoked_at: k.revoked_at }));
    if (args.flags.has("json")) return out(JSON.stringify(rows));
    if (!rows.length) return out(`${org.name} has no keys`);
    out("PREFIX        CREATED                   LAST USED                 STATUS");
    for (const r of rows) {
      out(`${r.prefix.padEnd(13)} ${r.created_at.padEnd(25)} ${(r.last_used_at ?? "never").padEnd(25)} ${r.revoked_at ? `revoked ${r.revoked_at}` : "active"}`);
    }
  });
}
