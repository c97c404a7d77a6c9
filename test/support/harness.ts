// One test API for Bun and Deno, so the conformance suite runs under both runtimes.
type Fn = () => void | Promise<void>;

declare const Deno: { test(options: { name: string; fn: Fn; ignore?: boolean }): void } | undefined;

const bun = (globalThis as { Bun?: unknown }).Bun ? await import("bun:test") : null;

export function test(name: string, fn: Fn, options: { timeout?: number } = {}): void {
  if (bun) bun.test(name, fn, options.timeout ?? 30_000);
  else Deno!.test({ name, fn });
}

/** Registers a test that is skipped, saying why (shown by both runners). */
export function skip(name: string, reason: string): void {
  console.log(`skipped: ${name}: ${reason}`);
  if (bun) bun.test.skip(`${name} (skipped: ${reason})`, () => {});
  else Deno!.test({ name: `${name} (skipped: ${reason})`, ignore: true, fn: () => {} });
}
