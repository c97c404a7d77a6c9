// The Open Responses compliance suite (../shared/conformance/openresponses, 17 tests) against the
// real server, with the agent stand-in (agentResponder) as the model behind `openai/stand-in`.
// The suite is copied to a temp dir with our devDependency zod3 (zod 3.25.76) linked in as its
// `zod`, and run as its README says: `bun bin/compliance-test.ts --base-url … --json`.
// Nothing leaves loopback. Skipped, and says so, when ../shared is absent.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { agentResponder } from "../../../support/fake-providers.ts";
import { skip } from "../../../support/harness.ts";
import { startEmbedHarness, type EmbedHarness } from "../../embed-harness.ts";

const SUITE = fileURLToPath(new URL("../../../../../shared/conformance/openresponses/", import.meta.url));
const ZOD3 = fileURLToPath(new URL("../../../../node_modules/zod3/", import.meta.url));
const MISSING = !existsSync(join(SUITE, "bin/compliance-test.ts"))
  ? `the suite is absent (looked in ${SUITE})`
  : !existsSync(join(ZOD3, "package.json"))
    ? "node_modules/zod3 (zod 3.25.76, a devDependency) is not installed: run npm ci"
    : null;
/** The suite's own test ids, read from its source (top-level templates are indented by four spaces). */
const IDS = MISSING ? [] : [...readFileSync(join(SUITE, "src/lib/compliance-tests.ts"), "utf8").matchAll(/^ {4}id: "([a-z0-9-]+)",$/gm)].map((m) => m[1]!);
const RUN_TIMEOUT_MS = 120_000;

interface SuiteResult {
  id: string;
  name: string;
  status: string;
  errors?: string[];
}
interface SuiteRun {
  summary: { passed: number; failed: number; skipped: number; total: number };
  results: SuiteResult[];
}

let eh: EmbedHarness;
let tmp: string;
let run: SuiteRun | null = null;
let runProblem = "";

async function runSuite(base: string, key: string): Promise<void> {
  tmp = mkdtempSync(join(tmpdir(), "tessera-openresponses-"));
  cpSync(SUITE, tmp, { recursive: true });
  mkdirSync(join(tmp, "node_modules"), { recursive: true });
  symlinkSync(realpathSync(ZOD3), join(tmp, "node_modules/zod"), "dir");
  const proc = Bun.spawn(
    [process.execPath, join(tmp, "bin/compliance-test.ts"), "--base-url", `${base}/v1/embed`, "--api-key", key, "--model", "openai/stand-in", "--json"],
    { cwd: tmp, stdout: "pipe", stderr: "pipe", env: { ...process.env, NO_COLOR: "1" } },
  );
  const timer = setTimeout(() => proc.kill(), RUN_TIMEOUT_MS);
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  const code = await proc.exited;
  clearTimeout(timer);
  try {
    run = JSON.parse(stdout.slice(stdout.indexOf("{")));
  } catch {
    runProblem = `the runner exited ${code} without a JSON report${proc.signalCode ? ` (killed after ${RUN_TIMEOUT_MS} ms)` : ""}\nstdout: ${stdout.slice(0, 2000)}\nstderr: ${stderr.slice(0, 2000)}`;
  }
}

if (MISSING) {
  skip("Open Responses compliance suite", MISSING);
} else {
  beforeAll(async () => {
    eh = await startEmbedHarness();
    for (const f of [eh.openai, eh.anthropic, eh.gemini, eh.aggregator, eh.local]) f.responder = agentResponder;
    await runSuite(eh.h.base, await eh.h.org("compliance", 1_000_000));
    if (run) {
      const failed = run.results.filter((r) => r.status !== "passed");
      console.log(`Open Responses compliance: ${run.summary.passed}/${IDS.length} passed`);
      for (const r of failed) console.log(`  ${r.status}: ${r.id}: ${(r.errors ?? []).join("; ").slice(0, 600)}`);
    } else console.log(runProblem);
  }, RUN_TIMEOUT_MS + 30_000);
  afterAll(async () => {
    await eh?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  test(`the suite has its 17 tests and reports on each`, () => {
    expect(IDS).toHaveLength(17);
    expect(runProblem).toBe("");
    expect(run!.results.map((r) => r.id).sort()).toEqual([...IDS].sort());
  });

  for (const id of IDS) {
    test(`compliance: ${id}`, () => {
      const r = run?.results.find((x) => x.id === id);
      expect(r ? `${r.status}${r.errors?.length ? `: ${r.errors.join("; ")}` : ""}` : `no result (${runProblem.split("\n")[0]})`).toBe("passed");
    });
  }

  test("all 17 passed", () => {
    expect(run?.summary).toEqual({ passed: 17, failed: 0, skipped: 0, total: 17 });
  });
}
