// The seven real model outputs against the real 53-component library (root component Stack).
import assert from "node:assert/strict";
import { test } from "../support/harness.ts";
import { compileLibrary, isValid, loadLanguage, parse } from "../../src/lang/index.ts";
import { FIXTURES_MISSING, realLibraryConfig, realSamples } from "../support/fixtures.ts";

await loadLanguage();

test("six real samples are valid; settings-panel breaks the schema exactly five times", () => {
  if (FIXTURES_MISSING) return console.log(`skipped: ${FIXTURES_MISSING}`);
  const lib = compileLibrary(realLibraryConfig());
  const samples = realSamples();
  assert.equal(Object.keys(samples).length, 7);
  for (const [name, text] of Object.entries(samples)) {
    const result = parse(text, lib);
    if (name === "settings-panel.oui") continue;
    assert.ok(isValid(result), `${name}: ${JSON.stringify(result.errors)}`);
    assert.equal(result.root?.component, "Stack");
  }
  const errors = parse(samples["settings-panel.oui"], lib).errors.map(({ message: _, ...rest }) => rest);
  assert.deepEqual(errors, [
    { code: "type-mismatch", component: "TabItem", path: "/content/0", statementId: "tabProfile" },
    { code: "type-mismatch", component: "TabItem", path: "/content/0", statementId: "tabSecurity" },
    { code: "type-mismatch", component: "Card", path: "/children/1", statementId: "securityCard" },
    { code: "type-mismatch", component: "TabItem", path: "/content/0", statementId: "tabNotifications" },
    { code: "type-mismatch", component: "Card", path: "/children/1", statementId: "notificationsCard" },
  ]);
});
