// Autofix with the real OpenUI component library and real model outputs from ../shared/fixtures.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { libraryConfig } from "../../../../src/client/index.ts";
import { post, startHarness, type Harness } from "../../harness.ts";

const fixtures = join(import.meta.dir, "../../../../../shared/fixtures");
const present = existsSync(fixtures);
if (!present) console.log("skipped real-library tests: ../shared/fixtures is absent");

let h: Harness;
let key: string;
let config: string;
beforeAll(async () => {
  if (!present) return;
  h = await startHarness();
  key = await h.org("real", 100);
  const schema = JSON.parse(readFileSync(join(fixtures, "libraries/openui-default.schema.json"), "utf8"));
  config = libraryConfig({ root: "Stack", schema });
});
afterAll(() => h?.close());

const samples = present ? readdirSync(join(fixtures, "samples")).filter((f) => f.endsWith(".oui")) : [];
const read = (f: string) => readFileSync(join(fixtures, "samples", f), "utf8");
const call = async (generation: string) => {
  const res = await post(h.base, "/v1/autofix", key, {
    messages: [
      { role: "system", content: config },
      { role: "assistant", content: generation },
    ],
  });
  expect(res.status).toBe(200);
  return res.json();
};

test.skipIf(!present)("every sample comes back either already_valid and unchanged, or with a summary", async () => {
  for (const f of samples) {
    const body = await call(read(f));
    if (body.fix_summary.status === "already_valid") expect(body.choices[0].message.content).toBe(read(f));
    else expect(body.fix_summary.fixed_errors.length + body.fix_summary.unfixed_errors.length).toBeGreaterThan(0);
  }
});

test.skipIf(!present)("a real sample with a wrongly cased component is fixed inside its envelope, byte for byte", async () => {
  const sample = read("simple-table.oui");
  const broken = sample.replace("Table(cols", "TABLE(cols");
  expect(broken).not.toBe(sample);
  const wrap = (p: string) => `]]>service:content?libraryVersion=0.1.0\n${p}]]>service:context\n[{"form":{}}]\n]]>service:end\n`;
  const body = await call(wrap(broken.endsWith("\n") ? broken : broken + "\n"));
  expect(body.fix_summary.status).toBe("fixed");
  expect(body.choices[0].message.content).toBe(wrap(sample.endsWith("\n") ? sample : sample + "\n"));
  expect(body.fix_summary.fixed_errors.map((e: { code: string }) => e.code)).toContain("unknown-component");
});
