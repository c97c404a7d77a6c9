// The CLI reads both marker families: a generation in an ]]>openui:content or ]]>service:content
// envelope, a library given as a config block of either family, or a built-in library by name;
// `fix` gives the envelope back as it came, byte for byte.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHAT_ORDERS } from "../support/openui-programs.ts";

const BIN = join(import.meta.dir, "../../src/cli/bin.js");
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tessera-cli-markers-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tessera(...args: string[]) {
  const r = Bun.spawnSync(["node", BIN, ...args], { cwd: dir, env: { ...(process.env as Record<string, string>), TESSERA_DB: join(dir, "unused.db") } });
  return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

const BROKEN = CHAT_ORDERS.replace("Header(", "Heder(");
const families = ["]]>openui:", "]]>service:"];
const wrap = (m: string, p: string) => `${m}content?libraryVersion=0.1.0\r\n${p.split("\n").join("\r\n")}\r\n${m}context\r\n[{"f":{}}]\r\n${m}end\r\n`;

test("validate and fix: either family's envelope, with the library as a config block of either family or a built-in name", () => {
  for (const m of families) {
    writeFileSync(join(dir, `config-${m.slice(3, -1)}.txt`), `${m}config\n{"libraryVersion":"0.1.0"}\nSome instructions.`);
    writeFileSync(join(dir, `valid-${m.slice(3, -1)}.oui`), wrap(m, CHAT_ORDERS));
    writeFileSync(join(dir, `broken-${m.slice(3, -1)}.oui`), wrap(m, BROKEN));
  }
  // Each library form once with each envelope family, validate on one and fix on the other.
  const libraries = ["config-openui.txt", "config-service.txt", "0.1.0", "thesys/chat"];
  for (const [i, library] of libraries.entries()) {
    const [v, f] = i % 2 ? ["openui", "service"] : ["service", "openui"];
    const ok = tessera("validate", `valid-${v}.oui`, "--library", library);
    expect(`${library} ${ok.stdout}${ok.stderr}`).toBe(`${library} valid\n`);
    const fix = tessera("fix", `broken-${f}.oui`, "--library", library);
    expect(fix.code).toBe(0);
    expect(fix.stdout).toBe(wrap(`]]>${f}:`, CHAT_ORDERS));
  }
}, 120_000);

test("a library that is no built-in name and no file, or a malformed block, fails naming it", () => {
  writeFileSync(join(dir, "valid.oui"), CHAT_ORDERS);
  const none = tessera("validate", "valid.oui", "--library", "9.9.9");
  expect(none.code).toBe(1);
  expect(none.stderr).toContain("no such file");
  writeFileSync(join(dir, "bad-block.txt"), "]]>openui:config\n{nope");
  const bad = tessera("validate", "valid.oui", "--library", "bad-block.txt");
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain("malformed config block");
  writeFileSync(join(dir, "unknown.json"), '{"libraryVersion":"9.9.9"}');
  const unknown = tessera("validate", "valid.oui", "--library", "unknown.json");
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain('no built-in library "9.9.9"');
}, 120_000);
