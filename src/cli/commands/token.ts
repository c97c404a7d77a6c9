// tessera token revoke --org NAME USER
import { revokeUserTokens } from "../../db/index.ts";
import { checkFlags, flagValue, readSubcommand } from "../args.ts";
import { requireOrg, withDb } from "../db.ts";
import { out } from "../io.ts";

export const TOKEN_HELP = `Usage: tessera token <command>

Commands:
  token revoke --org NAME USER   end every frontend token of USER minted so far (new ones still work)`;

const HELP: Record<string, string> = {
  revoke:
    "Usage: tessera token revoke --org NAME USER\n\nEnds every frontend token the organization minted for USER so far, on every\nserver at once: calls with them get 401 token_revoked. Tokens minted later work.",
};

export async function tokenCommand(argv: string[]): Promise<void> {
  const command = readSubcommand("token", argv, TOKEN_HELP, HELP, ["org"], out);
  if (!command) return;
  const { args, usage } = command;
  checkFlags(args, ["org"]);
  const orgName = flagValue(args, "org");
  if (!orgName) throw usage("--org NAME is required");
  if (args.positionals.length !== 1) throw usage("expected USER");
  const user = args.positionals[0]!;
  return withDb(async (db) => {
    const org = await requireOrg(db, orgName);
    await revokeUserTokens(db, org.id, user);
    out(`revoked every frontend token of ${JSON.stringify(user)} in ${org.name} minted so far`);
  });
}
