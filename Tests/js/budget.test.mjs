// Size budget and import rules for the quiz page's assets.
//
// Budget (BUDGET below): uncompressed bytes as stored, and gzip -9 per file since each
// module is served as its own file; JS is quiz-page.js and every module it imports,
// transitively, CSS is quiz.css. The JS is unminified, readable source with doc comments
// (no bundler or minifier by design), which is why the raw figure is roughly three times
// what goes over the wire. README.md ("The quiz's size budget") states the budget, the latest
// measured sizes, and each time the budget was raised and why.
//
// Import rules: the build fingerprints asset names by rewriting import
// specifiers, so modules may only use static imports of the exact form
// `import { a, b } from "./name.js";` and no dynamic import().
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { CSS_FILE, JS_DIR } from "./helpers.mjs";

const KiB = 1024;
const BUDGET = { jsRaw: 150 * KiB, jsGzip: 53 * KiB, cssRaw: 10 * KiB, cssGzip: 3.25 * KiB };
const IMPORT = /^import \{ [A-Za-z_$][\w$]*(?:, [A-Za-z_$][\w$]*)* \} from "\.\/([a-z][a-z0-9-]*\.js)";$/;

/** The module graph of the quiz page, following static imports. */
function quizModules() {
  const seen = new Map();
  const visit = (name) => {
    if (seen.has(name)) return;
    const source = readFileSync(new URL(name, JS_DIR), "utf8");
    seen.set(name, source);
    for (const line of source.split("\n")) {
      const m = line.match(IMPORT);
      if (m) visit(m[1]);
    }
  };
  visit("quiz-page.js");
  return seen;
}

test("every module uses only fingerprint-friendly static imports", () => {
  for (const file of readdirSync(JS_DIR).filter((f) => f.endsWith(".js"))) {
    const source = readFileSync(new URL(file, JS_DIR), "utf8");
    const code = source.replace(/^\s*(\/\/|\*|\/\*).*$/gm, "");
    for (const line of code.split("\n").filter((l) => /^\s*(import|export)\b.*\bfrom\b/.test(l) || /^\s*import\b/.test(l))) {
      assert.match(line, IMPORT, `${file}: ${line}`);
    }
    assert.doesNotMatch(code, /\bimport\s*\(/, `${file} uses dynamic import()`);
    assert.doesNotMatch(code, /\brequire\s*\(/, `${file} uses require()`);
    assert.doesNotMatch(code, /fetch\([^)]*\.(js|css)\b/, `${file} fetches an asset by a fixed name`);
  }
});

test("the quiz page's module graph resolves and includes the core modules", () => {
  const graph = quizModules();
  assert.ok(graph.size >= 10, `only ${graph.size} modules found: is the import scan broken?`);
  for (const name of ["questions.js", "fsrs.js", "storage.js", "daily.js", "learn.js", "scoring.js", "i18n.js", "rng.js"]) {
    assert.ok(graph.has(name), `${name} not reached from quiz-page.js`);
  }
});

test(`quiz JS stays within ${BUDGET.jsRaw / KiB} KiB raw and ${BUDGET.jsGzip / KiB} KiB gzip`, () => {
  let raw = 0;
  let gzip = 0;
  for (const source of quizModules().values()) {
    const bytes = Buffer.from(source, "utf8");
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  assert.ok(raw <= BUDGET.jsRaw, `JS is ${raw} bytes, budget ${BUDGET.jsRaw}`);
  assert.ok(gzip <= BUDGET.jsGzip, `JS is ${gzip} bytes gzipped, budget ${BUDGET.jsGzip}`);
});

test(`quiz.css stays within ${BUDGET.cssRaw / KiB} KiB raw and ${BUDGET.cssGzip / KiB} KiB gzip`, () => {
  const bytes = readFileSync(CSS_FILE);
  assert.ok(bytes.length <= BUDGET.cssRaw, `CSS is ${bytes.length} bytes, budget ${BUDGET.cssRaw}`);
  assert.ok(gzipSync(bytes, { level: 9 }).length <= BUDGET.cssGzip);
});
