// `npm test`: every suite, on every runtime the project supports, then one closing line.
//   First:    the sources' types (tsc --noEmit, tsconfig.json: strict), lint and format (Biome, biome.json)
//   Bun:      unit, conformance, integration (real HTTP, real SQLite, the openai client)
//   Faults:   real server processes under faults (test/faults), when PostgreSQL is present
//   Bun on PostgreSQL: the database and service suites again, on a throwaway PostgreSQL (the
//             system's binaries or npm's, test/support/postgres.ts; TESSERA_SKIP_POSTGRES=1 skips
//             them, saying so; no binaries at all fail the run, saying how to get them)
//   Node 20:  the built bundle and the package entry points with the README's examples and its
//             quickstart (test/node), and headless Chromium (test/browser; without a Chromium,
//             skipped saying how to enable it, except under CI: test/support/chromium.mjs)
//   Deno:     the conformance suite (deno task test), and the service as `deno task start` runs it,
//             on SQLite and PostgreSQL (deno task test:service, test/runtime)
import { fileURLToPath } from "node:url";
import { postgresBinaries, SKIP_POSTGRES } from "./support/postgres.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = (name: string) => `${root}node_modules/.bin/${name}`;

interface Step {
  name: string;
  cmd: string[];
  env?: Record<string, string>;
  /** Why this step does not run (printed as a `skipped:` line), or undefined. */
  skip?: string;
  /** Why this step cannot run: it fails with this message. */
  unable?: string;
  /** A line printed before the step runs. */
  note?: string;
  // Reads passed/failed (and skipped) counts from the runner's own summary.
  count(output: string): { passed: number; failed: number; skipped?: number };
}

const last = (output: string, re: RegExp) => {
  const all = [...output.matchAll(re)];
  return all.length ? Number(all[all.length - 1][1]) : 0;
};

/** The suites that read and write the database: they run on SQLite and again on PostgreSQL. */
const DATABASE_SUITES = ["test/server", "test/db", "test/cli"];
const pgBins = postgresBinaries();

const BUN_SUITES = [
  "test/lang",
  "test/artifacts",
  "test/conformance",
  "test/grammar",
  "test/repair",
  "test/prompt",
  "test/library",
  "test/server",
  "test/db",
  "test/cli",
  "test/client",
  "test/providers",
  "test/responses",
];

const steps: Step[] = [
  // Each error is a failure; a run with any fails.
  { name: "types", cmd: [bin("tsc"), "--noEmit", "-p", "tsconfig.json"], count: (o) => ({ passed: 0, failed: (o.match(/error TS\d+/g) ?? []).length }) },
  // Lint and format (biome.json): a finding, or a file not as `npx biome format --write` writes it, fails the run.
  { name: "lint and format", cmd: [bin("biome"), "check", "--error-on-warnings"], count: () => ({ passed: 0, failed: 0 }) },
  {
    name: "bun",
    cmd: [bin("bun"), "test", "--timeout", "60000", ...BUN_SUITES],
    env: { TESSERA_TEST_DB: "sqlite" },
    count: (o) => ({ passed: last(o, /^\s*(\d+) pass$/gm), failed: last(o, /^\s*(\d+) fail$/gm), skipped: last(o, /^\s*(\d+) skip$/gm) }),
  },
  {
    name: "bun on PostgreSQL",
    cmd: [bin("bun"), "test", "--timeout", "60000", ...DATABASE_SUITES],
    env: { TESSERA_TEST_DB: "postgres" },
    skip: SKIP_POSTGRES ? `${DATABASE_SUITES.join(" ")} on PostgreSQL (TESSERA_SKIP_POSTGRES=1)` : undefined,
    unable: "missing" in pgBins ? pgBins.missing : undefined,
    note: "from" in pgBins ? `PostgreSQL binaries: ${pgBins.from}` : undefined,
    count: (o) => ({ passed: last(o, /^\s*(\d+) pass$/gm), failed: last(o, /^\s*(\d+) fail$/gm), skipped: last(o, /^\s*(\d+) skip$/gm) }),
  },
  {
    // Real server processes under faults: PostgreSQL restarted, kill -9, clients hanging up (npm run test:faults).
    name: "faults",
    cmd: [bin("bun"), "test", "--timeout", "60000", "test/faults"],
    skip: SKIP_POSTGRES ? "test/faults (TESSERA_SKIP_POSTGRES=1)" : "missing" in pgBins ? `test/faults: ${pgBins.missing}` : undefined,
    count: (o) => ({ passed: last(o, /^\s*(\d+) pass$/gm), failed: last(o, /^\s*(\d+) fail$/gm) }),
  },
  { name: "build", cmd: [bin("bun"), "src/build/lang-bundle.ts"], count: () => ({ passed: 0, failed: 0 }) },
  // @tessera-ui/tessera/client and @tessera-ui/tessera/lang (dist/), which test/node/readme.test.mjs imports by name.
  { name: "build:package", cmd: [bin("bun"), "src/client/build.ts"], count: () => ({ passed: 0, failed: 0 }) },
  {
    name: "node",
    cmd: ["node", "--test", "test/node/", "test/browser/"],
    count: (o) => ({ passed: last(o, /^# pass (\d+)$/gm), failed: last(o, /^# fail (\d+)$/gm), skipped: last(o, /^# skipped (\d+)$/gm) }),
  },
  {
    name: "deno",
    cmd: [bin("deno"), "task", "test"],
    count: (o) => ({ passed: last(o, /(\d+) passed/g), failed: last(o, /(\d+) failed/g), skipped: last(o, /(\d+) ignored/g) }),
  },
  {
    name: "deno service",
    cmd: [bin("deno"), "task", "test:service"],
    count: (o) => ({ passed: last(o, /(\d+) passed/g), failed: last(o, /(\d+) failed/g), skipped: last(o, /(\d+) ignored/g) }),
  },
];

let passed = 0;
let failed = 0;
let skipped = 0;
const broken: string[] = [];
for (const step of steps) {
  const envText = Object.entries(step.env ?? {})
    .map(([k, v]) => `${k}=${v} `)
    .join("");
  console.log(`\n=== ${step.name}: ${envText}${step.cmd.map((c) => c.replace(root, "")).join(" ")}`);
  if (step.skip) {
    console.log(`skipped: ${step.skip}`);
    continue;
  }
  if (step.note) console.log(step.note);
  if (step.unable) {
    console.log(step.unable);
    broken.push(`${step.name} could not run`);
    continue;
  }
  const proc = Bun.spawn(step.cmd, { cwd: root, stdout: "pipe", stderr: "pipe", env: { ...process.env, ...step.env, FORCE_COLOR: "0", NO_COLOR: "1" } });
  let output = "";
  const pump = async (stream: ReadableStream<Uint8Array>, sink: NodeJS.WriteStream) => {
    // One decoder per stream: a shared one would join a character cut between two reads of
    // stdout with the bytes of stderr read in between.
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      const text = decoder.decode(chunk, { stream: true });
      output += text;
      sink.write(text);
    }
  };
  await Promise.all([pump(proc.stdout, process.stdout), pump(proc.stderr, process.stderr)]);
  const code = await proc.exited;
  const counts = step.count(output);
  passed += counts.passed;
  failed += counts.failed;
  skipped += counts.skipped ?? 0;
  if (code !== 0) broken.push(`${step.name} exited ${code}`);
}

console.log("");
if (broken.length) console.log(`failed steps: ${broken.join(", ")}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(broken.length || failed ? 1 : 0);
