// The browser tests' own support: which Chromium they drive, when they are skipped (saying how to
// enable them) and when, under CI, a missing Chromium fails them instead.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execPath } from "node:process";
import { findChromium } from "../support/chromium.mjs";

const nowhere = ["/nonexistent/chromium", "/nonexistent/chrome"];

test("CHROMIUM_PATH is taken when it exists, and is an error (not a skip) when it does not", () => {
  assert.deepEqual(findChromium({ CHROMIUM_PATH: execPath }, nowhere), { path: execPath });
  const r = findChromium({ CHROMIUM_PATH: "/nonexistent/chromium" }, [execPath]);
  assert.match(r.missing, /CHROMIUM_PATH=\/nonexistent\/chromium does not exist/);
});

test("otherwise the first candidate that exists (the system's, then the package caches')", () => {
  assert.deepEqual(findChromium({}, [...nowhere, execPath]), { path: execPath });
});

test("none found: skipped with how to enable it; under CI a failure instead", () => {
  const off = findChromium({}, nowhere);
  assert.match(off.skip, /no Chromium found.*to run them: apt-get install chromium, or set CHROMIUM_PATH/);
  for (const CI of ["true", "1"]) assert.match(findChromium({ CI }, nowhere).missing, /under CI the browser tests must run/);
  for (const CI of ["false", "0", ""]) assert.ok("skip" in findChromium({ CI }, nowhere), CI);
});

test("TESSERA_SKIP_BROWSER=1 skips, saying so, even under CI and with a Chromium at hand", () => {
  assert.deepEqual(findChromium({ TESSERA_SKIP_BROWSER: "1", CI: "true" }, [execPath]), { skip: "TESSERA_SKIP_BROWSER=1 is set" });
});
