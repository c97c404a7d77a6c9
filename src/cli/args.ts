// A small argument reader: positionals, `--flag value`, `--flag=value` and boolean flags.
export class UsageError extends Error {}

export interface ParsedArgs {
  positionals: string[];
  flags: Map<string, string | true>;
}

/** `valueFlags` take a value; any other `--name` is boolean. Negative numbers stay positional. */
export function parseArgs(argv: string[], valueFlags: string[] = []): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "-h") {
      flags.set("help", true);
    } else if (arg.startsWith("--") && arg.length > 2) {
      const eq = arg.indexOf("=");
      const name = arg.slice(2, eq < 0 ? undefined : eq);
      if (valueFlags.includes(name)) {
        const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
        if (value === undefined) throw new UsageError(`--${name} needs a value`);
        flags.set(name, value);
      } else {
        if (eq >= 0) throw new UsageError(`--${name} takes no value`);
        flags.set(name, true);
      }
    } else {
      positionals.push(arg);
    }
  }
  return { positionals, flags };
}

export function flagValue(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === "string" ? v : undefined;
}

export function checkFlags(args: ParsedArgs, allowed: string[]): void {
  for (const name of args.flags.keys()) {
    if (name !== "help" && !allowed.includes(name)) throw new UsageError(`unknown option --${name}`);
  }
}

export function parseInteger(text: string, what: string): number {
  if (!/^-?\d+$/.test(text)) throw new UsageError(`${what} must be a whole number, got ${JSON.stringify(text)}`);
  return Number(text);
}

export interface Subcommand {
  sub: string;
  args: ParsedArgs;
  /** A usage error that ends with the subcommand's help. */
  usage: (problem: string) => UsageError;
}

/**
 * Reads `<group> <sub> …`: null when help was asked for (and printed by `print`), else the
 * subcommand with its parsed arguments. An unknown subcommand is a usage error.
 */
export function readSubcommand(
  group: string,
  argv: string[],
  groupHelp: string,
  help: Record<string, string>,
  valueFlags: string[],
  print: (text: string) => void,
): Subcommand | null {
  const [sub, ...rest] = argv;
  if (!sub || sub === "--help" || sub === "-h" || sub === "help") {
    print(groupHelp);
    return null;
  }
  if (!help[sub]) throw new UsageError(`unknown command: ${group} ${sub}\n\n${groupHelp}`);
  const args = parseArgs(rest, valueFlags);
  if (args.flags.has("help")) {
    print(help[sub]);
    return null;
  }
  return { sub, args, usage: (problem) => new UsageError(`${problem}\n\n${help[sub]}`) };
}
