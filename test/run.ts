// `npm test`: every suite, on every runtime the project supports, then one closing line.
//   Bun:      unit, conformance, integration (real HTTP, real SQLite, the openai client)
//   Node 20:  the built bundle and the package entry points with the README's examples (test/node),
//             and headless Chromium parity (test/browser)
//   Deno:     the conformance suite (deno task test)
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = (name: string) => `${root}node_modules/.bin/${name}`;

interface Step {
  name: string;
  cmd: string[];
  // Reads passed/failed counts from the runner's own summary.
  count(output: string): { passed: number; failed: number };
}

const last = (output: string, re: RegExp) => {
  const all = [...output.matchAll(re)];
  return all.length ? Number(all[all.length - 1][1]) : 0;
};

const BUN_SUITES = ["test/lang", "test/conformance", "test/grammar", "test/repair", "test/server", "test/db", "test/cli", "test/client", "test/providers", "test/responses"];

const steps: Step[] = [
  {
    name: "bun",
    cmd: [bin("bun"), "test", "--timeout", "60000", ...BUN_SUITES],
    count: (o) => ({ passed: last(o, /^\s*(\d+) pass$/gm), failed: last(o, /^\s*(\d+) fail$/gm) }),
  },
  { name: "build", cmd: [bin("bun"), "src/lang/bundle.ts"], count: () => ({ passed: 0, failed: 0 }) },
  // tessera/client and tessera/lang (dist/), which test/node/readme.test.mjs imports by name.
  { name: "build:package", cmd: [bin("bun"), "src/client/build.ts"], count: () => ({ passed: 0, failed: 0 }) },
  {
    name: "node",
    cmd: ["node", "--test", "test/node/", "test/browser/"],
    count: (o) => ({ passed: last(o, /^# pass (\d+)$/gm), failed: last(o, /^# fail (\d+)$/gm) }),
  },
  {
    name: "deno",
    cmd: [bin("deno"), "task", "test"],
    count: (o) => ({ passed: last(o, /(\d+) passed/g), failed: last(o, /(\d+) failed/g) }),
  },
];

let passed = 0;
let failed = 0;
const broken: string[] = [];
for (const step of steps) {
  console.log(`\n=== ${step.name}: ${step.cmd.map((c) => c.replace(root, "")).join(" ")}`);
  const proc = Bun.spawn(step.cmd, { cwd: root, stdout: "pipe", stderr: "pipe", env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" } });
  const decoder = new TextDecoder();
  let output = "";
  const pump = async (stream: ReadableStream<Uint8Array>, sink: NodeJS.WriteStream) => {
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
  if (code !== 0) broken.push(`${step.name} exited ${code}`);
}

console.log("");
if (broken.length) console.log(`failed steps: ${broken.join(", ")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(broken.length || failed ? 1 : 0);
