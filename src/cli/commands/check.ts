// tessera validate FILE --library LIB.json · tessera fix FILE --library LIB.json
import { loadLanguage } from "../../lang/index.ts";
import { checkGeneration, runFix } from "../../repair/autofix.ts";
import { checkFlags, flagValue, parseArgs, UsageError } from "../args.ts";
import { formatError } from "../format.ts";
import { CommandFailed, err, out } from "../io.ts";
import { loadLibraryFile, readGenerationFile } from "../library-file.ts";

export const VALIDATE_HELP = `Usage: tessera validate FILE --library LIB.json [--json]

Checks a generation (bare program, fenced, or an ]]>openui:content / ]]>service:content envelope)
against a component library and prints every error. FILE may be - for standard input.
LIB.json holds {"root": "...", "schema": {"$defs": {...}}} (or a bare JSON Schema with $defs), or
is a config block (]]>openui:config or ]]>service:config, then its JSON line). --library may also
name a built-in library: 0.1.0, thesys/chat, react-ui/openui-chat, ... (docs/libraries.md).
Exit code: 0 valid, 1 invalid, 2 usage error.`;

export const FIX_HELP = `Usage: tessera fix FILE --library LIB.json [--json]

Runs the sanitizer (Autofix attempt 1, no model) on a generation and prints the result: the whole
corrected generation in its original wrapping on standard output, then the summary (status, what
was fixed, what remains) on standard error. --json prints {status, content, fixed_errors,
unfixed_errors} instead. Exit code: 0 already valid or fixed, 1 fix failed, 2 usage error.`;

function readInputs(argv: string[], help: string) {
  const args = parseArgs(argv, ["library"]);
  if (args.flags.has("help")) return null;
  checkFlags(args, ["library", "json"]);
  if (args.positionals.length !== 1) throw new UsageError(`expected one FILE\n\n${help}`);
  const libPath = flagValue(args, "library");
  if (!libPath) throw new UsageError(`--library LIB.json is required\n\n${help}`);
  return { args, generation: readGenerationFile(args.positionals[0]), ...loadLibraryFile(libPath) };
}

export async function validateCommand(argv: string[]): Promise<void> {
  const input = readInputs(argv, VALIDATE_HELP);
  if (!input) return out(VALIDATE_HELP);
  await loadLanguage();
  const { result, valid } = checkGeneration(input.generation, input.library);
  if (input.args.flags.has("json")) out(JSON.stringify({ valid, errors: result.errors }));
  else if (valid) out("valid");
  else {
    out(`invalid: ${result.errors.length} error${result.errors.length === 1 ? "" : "s"}`);
    for (const e of result.errors) out(`  ${formatError(e)}`);
  }
  if (!valid) throw new CommandFailed("", 1);
}

export async function fixCommand(argv: string[]): Promise<void> {
  const input = readInputs(argv, FIX_HELP);
  if (!input) return out(FIX_HELP);
  await loadLanguage();
  const checked = checkGeneration(input.generation, input.library);
  const outcome = checked.valid
    ? { status: "already_valid" as const, content: input.generation, fixed_errors: [], unfixed_errors: [] }
    : await runFix({ checked, library: input.library, source: input.source, context: [], instructions: "", complete: null });
  if (input.args.flags.has("json")) {
    const { status, content, fixed_errors, unfixed_errors } = outcome;
    out(JSON.stringify({ status, content, fixed_errors, unfixed_errors }));
  } else {
    if (outcome.content !== null) process.stdout.write(outcome.content.endsWith("\n") ? outcome.content : outcome.content + "\n");
    err(`status: ${outcome.status}`);
    if (outcome.fixed_errors.length) err(`fixed (${outcome.fixed_errors.length}):`);
    for (const e of outcome.fixed_errors) err(`  ${formatError(e)}`);
    if (outcome.unfixed_errors.length) err(`not fixed (${outcome.unfixed_errors.length}):`);
    for (const e of outcome.unfixed_errors) err(`  ${formatError(e)}`);
  }
  if (outcome.status === "fix_failed") throw new CommandFailed("", 1);
}
