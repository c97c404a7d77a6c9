// Output and failure helpers shared by the commands; exit codes: 0 ok, 1 failed, 2 usage error.
export class CommandFailed extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export function out(line = ""): void {
  process.stdout.write(line + "\n");
}

export function err(line = ""): void {
  process.stderr.write(line + "\n");
}
