// The outbound guard on real loopback servers: refused unless allowed, each redirect hop checked
// again, credentials dropped across origins, bodies and waits bounded. Nothing leaves loopback.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { parseAllowedHosts } from "../../../src/server/hosted/address.ts";
import { DEFAULT_OUTBOUND, guardedFetch, OutboundRefused, type OutboundPolicy } from "../../../src/server/hosted/outbound.ts";

let a: ReturnType<typeof Bun.serve>;
let b: ReturnType<typeof Bun.serve>;
let hang: ReturnType<typeof Bun.serve>;
const seen: { path: string; auth: string | null }[] = [];
const never = Promise.withResolvers<void>();

beforeAll(() => {
  const handler = (req: Request) => {
    const url = new URL(req.url);
    seen.push({ path: url.pathname, auth: req.headers.get("authorization") });
    if (url.pathname === "/ok") return new Response("fine");
    if (url.pathname === "/big")
      return new Response(
        new ReadableStream({
          pull(c) {
            c.enqueue(new Uint8Array(64 * 1024));
          },
        }),
      );
    if (url.pathname === "/to-b") return Response.redirect(`http://127.0.0.1:${b.port}/ok`, 302);
    if (url.pathname === "/to-self") return Response.redirect(`/ok`, 307);
    if (url.pathname === "/loop") return Response.redirect(`/loop`, 302);
    return new Response("no", { status: 404 });
  };
  a = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: handler });
  b = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: handler });
  hang = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => never.promise.then(() => new Response("late")) });
});
afterAll(() => {
  never.resolve();
  for (const s of [a, b, hang]) s.stop(true);
});

const policy = (allowed: string, extra: Partial<OutboundPolicy> = {}): OutboundPolicy => ({
  ...DEFAULT_OUTBOUND,
  allowed: parseAllowedHosts(allowed),
  ...extra,
});
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e) => e,
  );

describe("guardedFetch", () => {
  test("loopback is refused unless allowed, in any spelling", async () => {
    const f = guardedFetch(policy(""));
    for (const host of ["127.0.0.1", "2130706433", "0x7f.1", "127.1", "[::ffff:127.0.0.1]", "[::1]", "localhost"]) {
      const e = await refusal(f(`http://${host}:${a.port}/ok`));
      expect(e).toBeInstanceOf(OutboundRefused);
    }
    expect(seen.length).toBe(0);
    const ok = await guardedFetch(policy(`127.0.0.1:${a.port}`))(`http://127.0.0.1:${a.port}/ok`);
    expect(await ok.text()).toBe("fine");
  });

  test("a name that resolves to a private address is refused", async () => {
    const f = guardedFetch(policy("", { resolve: async () => ["93.184.216.34", "10.0.0.7"] }));
    const e = await refusal(f("http://mixed.example/ok"));
    expect(String(e.message)).toContain("private address (10.0.0.0/8)");
  });

  test("schemes other than http(s) and URLs with credentials are refused", async () => {
    const f = guardedFetch(policy(`127.0.0.1:${a.port}`));
    expect(await refusal(f("file:///etc/passwd"))).toBeInstanceOf(OutboundRefused);
    expect(await refusal(f(`http://u:p@127.0.0.1:${a.port}/ok`))).toBeInstanceOf(OutboundRefused);
  });

  test("each redirect hop is checked again", async () => {
    seen.length = 0;
    const onlyA = guardedFetch(policy(`127.0.0.1:${a.port}`));
    const e = await refusal(onlyA(`http://127.0.0.1:${a.port}/to-b`));
    expect(e).toBeInstanceOf(OutboundRefused);
    expect(seen.some((s) => s.path === "/ok")).toBe(false);
    const self = await onlyA(`http://127.0.0.1:${a.port}/to-self`);
    expect(await self.text()).toBe("fine");
    expect(await refusal(onlyA(`http://127.0.0.1:${a.port}/loop`))).toBeInstanceOf(OutboundRefused);
  });

  test("a redirect to another origin drops the authorization header; manual redirects come back as they are", async () => {
    seen.length = 0;
    const both = guardedFetch(policy(`127.0.0.1:${a.port},127.0.0.1:${b.port}`));
    const r = await both(`http://127.0.0.1:${a.port}/to-b`, { headers: { authorization: "Bearer secret-token" } });
    expect(await r.text()).toBe("fine");
    expect(seen.map((s) => s.auth)).toEqual(["Bearer secret-token", null]);
    const manual = await both(`http://127.0.0.1:${a.port}/to-b`, { redirect: "manual" });
    expect(manual.status).toBe(302);
  });

  test("a body past the bound ends in an error", async () => {
    const f = guardedFetch(policy(`127.0.0.1:${a.port}`, { maxBodyBytes: 256 * 1024 }));
    const r = await f(`http://127.0.0.1:${a.port}/big`);
    expect(await refusal(r.arrayBuffer())).toBeInstanceOf(Error);
  });

  test("a server that never answers is given up on", async () => {
    const f = guardedFetch(policy(`127.0.0.1:${hang.port}`, { headersTimeoutMs: 200 }));
    const e = await refusal(f(`http://127.0.0.1:${hang.port}/`));
    expect(e).toBeInstanceOf(OutboundRefused);
    expect(e.message).toContain("did not answer");
  });
});
