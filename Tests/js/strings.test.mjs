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

// Every language the default theme speaks: en.json is the reference the others follow.
const LANGS = readdirSync(I18N_DIR).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5)).sort();
const tables = Object.fromEntries(LANGS.map((lang) => [lang, read(lang)]));
const FORMS = /^(.*)\.(zero|one|two|few|many|other)$/;
// The plural categories a language's texts need for the counts a page shows (0 to 200): a
// category only millions take (French and Spanish `many`) falls back to `.other`.
const categoriesFor = (lang) => {
  const rules = new Intl.PluralRules(lang);
  return new Set(Array.from({ length: 201 }, (_, n) => rules.select(n)));
};

test("the default theme speaks at least English, German, French, Italian, Spanish and Arabic", () => {
  for (const lang of ["en", "de", "fr", "it", "es", "ar"]) assert.ok(LANGS.includes(lang), lang);
});

test("every table is a flat map with English's keys, each plural family in its language's forms", () => {
  const families = new Set(Object.keys(en).map((k) => k.match(FORMS)?.[1]).filter(Boolean));
  for (const [lang, strings] of Object.entries(tables)) {
    for (const [key, value] of Object.entries(strings)) {
      assert.equal(typeof value, "string", `${lang}: ${key}`);
      assert.notEqual(value.trim(), "", `${lang}: ${key}`);
    }
    const plain = (keys) => keys.filter((k) => !families.has(k.match(FORMS)?.[1]));
    const missing = plain(Object.keys(en)).filter((k) => !(k in strings));
    const extra = plain(Object.keys(strings)).filter((k) => !(k in en));
    assert.deepEqual({ lang, missing, extra }, { lang, missing: [], extra: [] });
    const needed = categoriesFor(lang);
    for (const family of families) {
      const forms = Object.keys(strings).filter((k) => k.match(FORMS)?.[1] === family).map((k) => k.match(FORMS)[2]);
      const lacking = [...needed].filter((c) => !forms.includes(c));
      const foreign = forms.filter((c) => c !== "other" && !needed.has(c));
      assert.deepEqual({ lang, family, lacking, foreign }, { lang, family, lacking: [], foreign: [] });
    }
  }
});

test("no key is also the prefix of another (the build nests keys for templates: t.quiz.mode.sound)", () => {
  const keys = Object.keys(en);
  const clashes = keys.filter((k) => keys.some((other) => other.startsWith(k + ".")));
  assert.deepEqual(clashes, []);
});

test("translations keep every placeholder, in every plural form", () => {
  for (const [lang, strings] of Object.entries(tables)) {
    for (const [key, value] of Object.entries(strings)) {
      const family = key.match(FORMS)?.[1];
      const english = en[key] ?? (family ? en[`${family}.other`] : undefined);
      assert.deepEqual(placeholders(value), placeholders(english ?? ""), `${lang}: ${key}`);
    }
  }
});

test("every table is translated: a text the same as English's is a word both languages share", () => {
  // French "Collection", "Habitat", "Date"; Italian "Home"; German "Quiz": 6 to 15 of 400 each.
  const words = (text) => /[A-Za-z]{4,}/.test(text.replace(/\{\w+\}/g, ""));
  for (const [lang, strings] of Object.entries(tables)) {
    if (lang === "en") continue;
    const same = Object.keys(en).filter((k) => strings[k] === en[k] && words(en[k]));
    assert.ok(same.length <= 20, `${lang}: ${same.length} texts as in English, as ${same.slice(0, 8).join(", ")}`);
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
