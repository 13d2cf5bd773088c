import { test } from "node:test";
import assert from "node:assert/strict";
import { t, translator } from "../../templates/assets/js/i18n.js";

const en = { "quiz.hello": "Hello, {name}!", "quiz.left.one": "{count} question left", "quiz.left.other": "{count} questions left", "quiz.only": "English only" };
const de = { "quiz.hello": "Hallo, {name}!", "quiz.left.one": "Noch {count} Frage", "quiz.left.other": "Noch {count} Fragen" };

test("placeholders are filled; unknown ones stay visible", () => {
  assert.equal(t(en, "quiz.hello", { name: "Ada" }), "Hello, Ada!");
  assert.equal(t(en, "quiz.hello"), "Hello, {name}!");
  assert.equal(t({ k: "{a} and {a}, {b}" }, "k", { a: 1 }), "1 and 1, {b}");
});

test("plural forms follow Intl.PluralRules of the language", () => {
  assert.equal(t(en, "quiz.left", { count: 1 }), "1 question left");
  assert.equal(t(en, "quiz.left", { count: 0 }), "0 questions left");
  assert.equal(t(de, "quiz.left", { count: 1 }, { lang: "de" }), "Noch 1 Frage");
  assert.equal(t(de, "quiz.left", { count: 3 }, { lang: "de" }), "Noch 3 Fragen");
  // Polish has a "few" form; without it in the table, "other" is used.
  assert.equal(t({ "k.one": "1 pytanie", "k.few": "{count} pytania", "k.other": "{count} pytań" }, "k", { count: 3 }, { lang: "pl" }), "3 pytania");
  assert.equal(t({ "k.one": "1 pytanie", "k.other": "{count} pytań" }, "k", { count: 3 }, { lang: "pl" }), "3 pytań");
});

test("missing strings fall back to English, then to the key", () => {
  assert.equal(t(de, "quiz.only", {}, { lang: "de", fallback: en }), "English only");
  assert.equal(t(de, "quiz.nowhere", {}, { lang: "de", fallback: en }), "quiz.nowhere");
  const tr = translator({ lang: "de", strings: { "quiz.left.other": "Noch {count} Fragen" }, fallback: en });
  assert.equal(tr("quiz.left", { count: 1 }), "Noch 1 Fragen", "a German 'other' beats an English 'one'");
  assert.equal(tr("quiz.hello", { name: "Ada" }), "Hello, Ada!");
  assert.equal(t(en, "quiz.left", { count: 2 }, { lang: "xx-invalid-tag-" }), "2 questions left", "a bad language tag does not throw");
});
