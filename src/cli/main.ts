// `tessera`: the admin and local-check CLI. Run through bin.js (npx tessera …) or `bun src/cli/main.ts`.
import { UsageError } from "./args.ts";
import { fixCommand, FIX_HELP, validateCommand, VALIDATE_HELP } from "./commands/check.ts";
import { initCommand, INIT_HELP } from "./commands/init.ts";
import { keyCommand, KEY_HELP } from "./commands/key.ts";
import { orgCommand, ORG_HELP } from "./commands/org.ts";
import { tokenCommand, TOKEN_HELP } from "./commands/token.ts";
import { CommandFailed, err, out } from "./io.ts";

const HELP = `tessera: manage a Tessera service and check UI programs locally

Usage: tessera <command> [options]

Database:
  init                            create the database TESSERA_DB names (or bring it up to date)
Organizations and billing:
  org create NAME [--credits N]   org show NAME [--json]   org credit NAME N
  org suspend NAME                org resume NAME
API keys:
  key create --org NAME           key list --org NAME      key revoke PREFIX
Frontend tokens:
  token revoke --org NAME USER    end every token of USER minted so far
Programs:
  validate FILE --library LIB.json    print the errors; exit 1 when invalid
  fix FILE --library LIB.json         run the sanitizer; print the result and the summary

Run tessera <command> --help for details. The database is TESSERA_DB: a SQLite file (default ./data/tessera.db) or a postgres:// URL;
only init (or the server's first start) creates a SQLite file in a folder that does not exist.`;

const COMMANDS: Record<string, { run: (argv: string[]) => Promise<void>; help: string }> = {
  init: { run: initCommand, help: INIT_HELP },
  org: { run: orgCommand, help: ORG_HELP },
  key: { run: keyCommand, help: KEY_HELP },
  token: { run: tokenCommand, help: TOKEN_HELP },
  validate: { run: validateCommand, help: VALIDATE_HELP },
  fix: { run: fixCommand, help: FIX_HELP },
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    out(HELP);
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    err(`tessera: unknown command ${JSON.stringify(name)}\n\n${HELP}`);
    return 2;
  }
  try {
    await command.run(rest);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      err(`tessera ${name}: ${e.message}`);
      return 2;
    }
    if (e instanceof CommandFailed) {
      if (e.message) err(`tessera ${name}: ${e.message}`);
      return e.exitCode;
    }
    err(`tessera ${name}: unexpected error: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

if (import.meta.main) process.exit(await main(process.argv.slice(2)));
