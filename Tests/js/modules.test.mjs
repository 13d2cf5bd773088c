// Every module parses, and the ones without DOM access load in node, so a
// syntax error in the page's own modules (which no unit test imports)
// cannot slip through.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { JS_DIR } from "./helpers.mjs";

const files = readdirSync(JS_DIR).filter((f) => f.endsWith(".js")).sort();

test("every module in templates/assets/js parses", () => {
  assert.ok(files.includes("quiz-page.js"));
  for (const file of files) {
    // Through stdin with an explicit module type: `node --check FILE` skips
    // ES module files in node 20. Throws (failing the test) on a syntax error.
    const source = readFileSync(new URL(file, JS_DIR), "utf8");
    try {
      execFileSync(process.execPath, ["--input-type=module", "--check"], { input: source, stdio: "pipe" });
    } catch (error) {
      assert.fail(`${file}: ${error.stderr}`);
    }
  }
});

// Entry modules (one per page kind: `*-page.js`, and `site.js` on every page) run at import time.
const isEntry = (file) => file.endsWith("-page.js") || file === "site.js";

test("view modules load without a DOM (no work at import time except in the entry modules)", async () => {
  for (const file of files.filter((f) => !isEntry(f))) {
    const module = await import(new URL(file, JS_DIR));
    assert.ok(Object.keys(module).length > 0, `${file} exports nothing`);
  }
});
