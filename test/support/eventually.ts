// Waiting for something the code under test does not announce (a row written after the answer,
// a status another process sets): `get` is asked again, a few milliseconds apart, until `check`
// holds, and the test goes on at once; past `ms` it fails saying what it last saw. Where the code
// does announce it (server.idle(), a stream's end), tests await that instead.
export async function eventually<T>(get: () => T | Promise<T>, check: (value: T) => boolean = Boolean, opts: { ms?: number; what?: string } = {}): Promise<T> {
  const end = Date.now() + (opts.ms ?? 10_000);
  for (let wait = 1; ; wait = Math.min(wait * 2, 25)) {
    const value = await get();
    if (check(value)) return value;
    if (Date.now() > end) {
      throw new Error(`timed out waiting${opts.what ? ` for ${opts.what}` : ""}; last value: ${JSON.stringify(value)?.slice(0, 500)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
