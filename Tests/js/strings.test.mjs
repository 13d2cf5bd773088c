import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { ACHIEVEMENTS } from "../../templates/assets/js/scoring.js";
import { MODES } from "../../templates/assets/js/questions.js";
import { I18N_DIR, JS_DIR } from "./helpers.mjs";

const TEMPLATES = new URL("../../templates/", import.meta.url);
const SWIFT = new URL("../../Sources/BestiaryRender/", import.meta.url);
const readTree = (dir, ext) =>
  readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith(ext))
    .map((f) => readFileSync(new URL(f, dir), "utf8"));

const read = (lang) => JSON.parse(readFileSync(new URL(`${lang}.json`, I18N_DIR), "utf8"));
const en = read("en");
const de = read("de");
const placeholders = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test("en.json and de.json are flat maps with the same keys", () => {
  for (const strings of [en, de]) {
    for (const [key, value] of Object.entries(strings)) {
      assert.equal(typeof value, "string", key);
      assert.notEqual(value.trim(), "", key);
    }
  }
  const missingInDe = Object.keys(en).filter((k) => !(k in de));
  const missingInEn = Object.keys(de).filter((k) => !(k in en));
  assert.deepEqual({ missingInDe, missingInEn }, { missingInDe: [], missingInEn: [] });
});

test("no key is also the prefix of another (the build nests keys for templates: t.quiz.mode.sound)", () => {
  const keys = Object.keys(en);
  const clashes = keys.filter((k) => keys.some((other) => other.startsWith(k + ".")));
  assert.deepEqual(clashes, []);
});

test("translations keep every placeholder", () => {
  for (const key of Object.keys(en)) assert.deepEqual(placeholders(de[key] ?? ""), placeholders(en[key]), key);
});

test("plural families always have an 'other' form", () => {
  for (const strings of [en, de]) {
    for (const key of Object.keys(strings)) {
      const m = key.match(/^(.*)\.(zero|one|two|few|many)$/);
      if (m) assert.ok(`${m[1]}.other` in strings, `${key} without ${m[1]}.other`);
    }
  }
});

test("the German quiz strings are translated, not copied", () => {
  const mine = /^(quiz|learn|daily|stats|achievement|level|settings)\./;
  const same = Object.keys(en).filter((k) => mine.test(k) && en[k] === de[k]).sort();
  assert.deepEqual(same, ["quiz.title"], "identical in both languages");
});

test("every string key the quiz code uses exists", () => {
  const used = new Set();
  for (const file of readdirSync(JS_DIR).filter((f) => f.endsWith(".js"))) {
    const source = readFileSync(new URL(file, JS_DIR), "utf8").replace(/^\s*(\/\/|\*).*$/gm, "");
    for (const m of source.matchAll(/["'`]((?:quiz|learn|daily|stats|achievement|level|settings)\.[\w.-]+)["'`]/g)) used.add(m[1]);
  }
  // Keys built at run time, by family.
  for (const mode of MODES) used.add(`quiz.mode.${mode}`).add(`quiz.problem.noMedia.${mode}`);
  for (const id of ACHIEVEMENTS) used.add(`achievement.${id}`);
  used.add("quiz.notice.saveFailed");
  for (const reason of ["bad-catalog", "unsupported-format"]) used.add(`quiz.error.${reason}`);
  for (const d of [1, 2, 3]) used.add(`quiz.difficulty.${d}`);
  for (const theme of ["system", "light", "dark"]) used.add(`settings.theme.${theme}`);
  for (const key of ["quiz.doneTitle", "daily.doneTitle", "learn.doneTitle"]) used.add(key);
  assert.ok(used.size > 80, `found only ${used.size} keys: is the scan broken?`);
  const resolvable = (key) => key in en || `${key}.other` in en;
  assert.deepEqual([...used].filter((k) => !resolvable(k)).sort(), []);

  // And the other way round: no stale quiz strings left behind. Group names
  // are looked up by the catalogue's free-text groups (quiz.group.NAME).
  const mine = /^(quiz|learn|daily|stats|achievement|level|settings)\./;
  const stale = Object.keys(en)
    .filter((k) => mine.test(k) && !k.startsWith("quiz.group."))
    .filter((k) => !used.has(k) && !used.has(k.replace(/\.(zero|one|two|few|many|other)$/, "")));
  assert.deepEqual(stale, []);
});

test("every {{t.…}} in the templates exists, and every string is used somewhere", () => {
  const templates = [...readTree(new URL("layouts/", TEMPLATES), ".html"), ...readTree(new URL("partials/", TEMPLATES), ".html"), ...readTree(new URL("markdown/", TEMPLATES), ".md")];
  const inTemplates = new Set();
  for (const text of templates) for (const m of text.matchAll(/\{\{[#^/]?t\.([\w.-]+)\}\}/g)) inTemplates.add(m[1]);
  assert.ok(inTemplates.size > 100, `found only ${inTemplates.size}: is the scan broken?`);
  assert.deepEqual([...inTemplates].filter((k) => !(k in en)).sort(), [], "used in templates but missing from en.json");

  // Used: in a template, in the web app's code (quoted, or as a `prefix.${…}` family), or in the
  // render stage's Swift (server-side plurals, group and difficulty names).
  const code = [...readTree(JS_DIR, ".js"), ...readTree(SWIFT, ".swift")].join("\n").replace(/^\s*(\/\/|\*).*$/gm, "");
  const quoted = new Set([...code.matchAll(/["'`]([a-z][\w-]*(?:\.[\w-]+)+)["'`]/g)].map((m) => m[1]));
  const families = [...code.matchAll(/[`"]([a-z][\w.-]*)(?:\$\{|\\\()/g)].map((m) => m[1]);
  const suffixes = [...code.matchAll(/`\$\{[^}]+\}(\.[\w.-]+)`/g)].map((m) => m[1]);
  const base = (k) => k.replace(/\.(zero|one|two|few|many|other)$/, "");
  const unused = Object.keys(en).filter((k) => {
    const b = base(k);
    return !inTemplates.has(k) && !quoted.has(k) && !quoted.has(b) && !families.some((f) => k.startsWith(f)) &&
      !suffixes.some((x) => k.endsWith(x)) && !k.startsWith("quiz.group.");
  });
  assert.deepEqual(unused.sort(), [], "strings nothing uses");
});
