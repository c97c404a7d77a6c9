// tessera org create|show|credit|suspend|resume
import { adjustCredits, createOrganization, creditAmountProblem, findOrganizationByName, MAX_CREDITS, setSuspended } from "../../db/index.ts";
import { checkFlags, flagValue, parseInteger, readSubcommand } from "../args.ts";
import { requireOrg, withDb } from "../db.ts";
import { CommandFailed, out } from "../io.ts";

export const ORG_HELP = `Usage: tessera org <command>

Commands:
  org create NAME [--credits N]   create an organization (N credits to start, default 0)
  org show NAME [--json]          show name, credits and whether billing is suspended
  org credit NAME N               add N credits (a negative N removes them); recorded in the ledger
                                  (whole numbers; a balance is at most 10^15 credits)
  org suspend NAME                suspend billing: paid calls get 429 until resumed
  org resume NAME                 resume billing

The database is TESSERA_DB: a SQLite file (default ./data/tessera.db) or a postgres:// URL.`;

const HELP: Record<string, string> = {
  create: "Usage: tessera org create NAME [--credits N]\n\nCreates an organization. N (default 0) is its starting credit balance.",
  show: "Usage: tessera org show NAME [--json]\n\nShows the organization; --json prints {name, credits, suspended, created_at}.",
  credit: "Usage: tessera org credit NAME N\n\nAdds N credits; a negative N removes them (never below 0). Every change is ledgered.",
  suspend: "Usage: tessera org suspend NAME\n\nSuspends billing: Autofix answers 429 rate_limit_error until resumed.",
  resume: "Usage: tessera org resume NAME\n\nResumes billing for a suspended organization.",
};

/** A whole number of credits within ±MAX_CREDITS (digits only, so never 1e20 nor 1.5). */
function parseCredits(text: string, what: string, usage: (problem: string) => Error): number {
  const n = parseInteger(text, what);
  const problem = creditAmountProblem(n);
  if (problem) throw usage(`${what} ${problem}, got ${text}`);
  return n;
}

export async function orgCommand(argv: string[]): Promise<void> {
  const command = readSubcommand("org", argv, ORG_HELP, HELP, ["credits"], out);
  if (!command) return;
  const { sub, args, usage } = command;
  const want = sub === "credit" ? 2 : 1;
  if (args.positionals.length !== want) throw usage(`expected ${want === 2 ? "NAME and N" : "NAME"}`);
  const name = args.positionals[0];

  switch (sub) {
    case "create": {
      checkFlags(args, ["credits"]);
      const creditsText = flagValue(args, "credits");
      const credits = creditsText === undefined ? 0 : parseCredits(creditsText, "--credits", usage);
      if (credits < 0) throw usage("--credits must be 0 or more");
      if (name.trim() === "") throw usage("NAME must not be empty");
      return withDb(async (db) => {
        if (await findOrganizationByName(db, name)) throw new CommandFailed(`an organization named ${JSON.stringify(name)} already exists`);
        const org = await createOrganization(db, name, credits);
        out(`created organization ${org.name} with ${org.credits} credits`);
      });
    }
    case "show": {
      checkFlags(args, ["json"]);
      return withDb(async (db) => {
        const org = await requireOrg(db, name);
        const view = { name: org.name, credits: org.credits, suspended: org.suspended === 1, created_at: org.created_at };
        if (args.flags.has("json")) return out(JSON.stringify(view));
        out(`name:      ${view.name}\ncredits:   ${view.credits}\nsuspended: ${view.suspended ? "yes" : "no"}\ncreated:   ${view.created_at}`);
      });
    }
    case "credit": {
      checkFlags(args, []);
      const delta = parseCredits(args.positionals[1], "N", usage);
      if (delta === 0) throw usage("N must not be 0");
      return withDb(async (db) => {
        const org = await requireOrg(db, name);
        const result = await adjustCredits(db, org.id, delta, "cli credit");
        if (!result.ok && delta > 0) {
          throw new CommandFailed(`cannot add ${delta} credits: ${org.name} has ${result.credits} and a balance may be at most ${MAX_CREDITS}`);
        }
        if (!result.ok) throw new CommandFailed(`cannot remove ${-delta} credits: ${org.name} has only ${result.credits}`);
        out(`${org.name} now has ${result.credits} credits`);
      });
    }
    case "suspend":
    case "resume": {
      checkFlags(args, []);
      return withDb(async (db) => {
        const org = await requireOrg(db, name);
        await setSuspended(db, org.id, sub === "suspend");
        out(`billing for ${org.name} is ${sub === "suspend" ? "suspended" : "active"}`);
      });
    }
  }
}
