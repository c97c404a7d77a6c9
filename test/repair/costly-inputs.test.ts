// Inputs that once cost the parser, the sanitizer or the Responses translation time beyond all
// proportion to their size (exponential in a nesting depth, or quadratic and cubic in a length;
// see test/support/costly-inputs.ts), read in a child process that must finish within a minute:
// as the code was, none did. What each gave is checked as well.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "../support/harness.ts";
import { PARALLEL_CALLS } from "../support/costly-inputs.ts";
import { MAX_MISMATCHES } from "../../src/lang/check.ts";

test(
  "nested action calls, unclosed strings, deep unknown components, thousands of cut-off lines, of errors in one array, of calls in a broken line, a bracket left out of a long list and of parallel tool calls, long names, references that share their parts and a library of 200,000 required props are read in proportion to their size",
  () => {
    const script = new URL("../support/costly-inputs.ts", import.meta.url).pathname;
    const child = spawnSync(process.execPath, [script], { encoding: "utf8", timeout: 60_000 });
    assert.equal(child.signal, null, "the child was still reading after a minute, and was killed");
    assert.equal(child.status, 0, child.stderr);
    const out = JSON.parse(child.stdout);
    assert.deepEqual(out["cut-off action calls"], { parse: ["incomplete"], inspect: 1, repair: "fixed", left: 0 });
    // `Action` is no component of the library: one unknown component per level, none renamed.
    for (const name of ["action calls that are component calls", "the same across lines"]) {
      assert.deepEqual(out[name], { parse: ["unknown-component"], inspect: 400, repair: "fix_failed", left: 400 }, name);
    }
    assert.deepEqual(out["a line of escaped quotes"], { parse: ["syntax"], inspect: 1, repair: "fixed", left: 0 });
    assert.deepEqual(out["single quotes"], { parse: ["syntax"], inspect: 1, repair: "fixed", left: 0 });
    assert.deepEqual(out["escaped quotes in a bracket"], { parse: ["incomplete"], inspect: 1, repair: "fixed", left: 0 });
    assert.deepEqual(out["unknown components nested to the limit"], { parse: ["unknown-component"], inspect: 20 * 599, repair: "fix_failed", left: 20 * 599 });
    assert.deepEqual(out["cut-off lines"], { parse: ["syntax", "incomplete"], inspect: 10_000, repair: "fixed", left: 0 });
    // Every reference removed; every `Txt` renamed to `Text`.
    assert.deepEqual(out["references to nothing in one array"], { parse: ["unresolved"], inspect: 100_000, repair: "fixed", left: 0 });
    // Not a misspelling of the orphan: the reference goes, then the orphan.
    assert.deepEqual(out["a long reference to nothing and a long orphan"], { parse: ["unresolved", "orphaned"], inspect: 2, repair: "fixed", left: 0 });
    assert.deepEqual(out["references to nothing and orphans spelt backwards"], { parse: ["unresolved", "orphaned"], inspect: 4_000, repair: "fixed", left: 0 });
    assert.equal(out["many required props"], 200_000);
    assert.deepEqual(out["many components that take one another"], [0, ["type-mismatch"]]);
    // The string stays: the sanitizer has no number to put in its place.
    assert.deepEqual(out["references that share their parts"], { parse: ["type-mismatch"], inspect: 1, repair: "fix_failed", left: 1 });
    assert.deepEqual(out["references that share their parts, all fitting"], { parse: [], inspect: 0, repair: "already_valid", left: 0 });
    assert.deepEqual(out["a mismatch reached in 2^30 ways"], { parse: ["type-mismatch"], inspect: MAX_MISMATCHES, repair: "fix_failed", left: MAX_MISMATCHES });
    assert.deepEqual(out["unknown components in one array"], { parse: ["unknown-component"], inspect: 100_000, repair: "fixed", left: 0 });
    assert.deepEqual(out["a bracket left out of a long list"], { parse: ["syntax", "missing-root"], inspect: 2, repair: "fixed", left: 0 });
    // Nothing reads the line (` ~`): it goes, and with it the texts, so no fix.
    assert.deepEqual(out["colons in the strings of a broken line's calls"], { parse: ["syntax"], inspect: 1, repair: "fix_failed", left: 1 });
    // The calls are one assistant turn on the chat wire, each result a tool message after it.
    assert.deepEqual(out["parallel tool calls"], ["user:0", `assistant:${PARALLEL_CALLS}`, "tool:0", String(2 + PARALLEL_CALLS)]);
  },
  // Past the child's own minute: a slow machine reports the child, not a bare time-out.
  { timeout: 90_000 },
);
