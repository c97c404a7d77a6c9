// What Bun reads only as a process starts: the server sets it by starting itself again (execve),
// keeping an operator's own allocator setting.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ALLOCATOR_PURGE_DELAY_MS, bunStartEnv, MAX_FETCH_LIMIT } from "../../src/server/bun-start-env.ts";
import { startServerProcess } from "../support/server-process.ts";

const dir = mkdtempSync(join(tmpdir(), "tessera-start-env-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the fetch limit is the configured one within Bun's bounds; the allocator's delay is ours unless the operator set one", () => {
  expect(bunStartEnv(4096, {})).toEqual({ BUN_CONFIG_MAX_HTTP_REQUESTS: "4096", MIMALLOC_PURGE_DELAY: String(ALLOCATOR_PURGE_DELAY_MS) });
  expect(bunStartEnv(0, { MIMALLOC_PURGE_DELAY: "" }).BUN_CONFIG_MAX_HTTP_REQUESTS).toBe("1");
  expect(bunStartEnv(10 ** 6, {}).BUN_CONFIG_MAX_HTTP_REQUESTS).toBe(String(MAX_FETCH_LIMIT));
  expect(bunStartEnv(4096, { MIMALLOC_PURGE_DELAY: "0" }).MIMALLOC_PURGE_DELAY).toBe("0");
});

/** The environment the process runs with now (Linux: after an execve, the new one). */
function environOf(pid: number): Record<string, string> {
  const pairs = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean);
  return Object.fromEntries(pairs.map((p) => [p.slice(0, p.indexOf("=")), p.slice(p.indexOf("=") + 1)]));
}

test.skipIf(!existsSync("/proc/self/environ"))(
  "a server started without them runs with them, in the same process; an operator's allocator setting stays",
  async () => {
    for (const [given, expected] of [
      ["", String(ALLOCATOR_PURGE_DELAY_MS)],
      ["250", "250"],
    ]) {
      const server = await startServerProcess({
        TESSERA_DB: join(dir, `t${given}.db`),
        TESSERA_DATA_DIR: dir,
        TESSERA_MAX_PROVIDER_CALLS: "300",
        BUN_CONFIG_MAX_HTTP_REQUESTS: "",
        MIMALLOC_PURGE_DELAY: given,
      });
      try {
        // The process the test started is the one serving: execve kept its id.
        expect((await fetch(`${server.base}/health/live`)).status).toBe(200);
        const env = environOf(server.proc.pid);
        expect(env.BUN_CONFIG_MAX_HTTP_REQUESTS).toBe("300");
        expect(env.MIMALLOC_PURGE_DELAY).toBe(expected);
      } finally {
        await server.stop();
      }
    }
  },
  30_000,
);
