// The end of a round: the animals to practise again, and what comes next in learn mode.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { caughtUpView, learnNextText, summaryView } from "../../templates/assets/js/quiz-summary.js";
import { initialStats } from "../../templates/assets/js/scoring.js";
import { translator } from "../../templates/assets/js/i18n.js";
import { installFakeDocument } from "./fake-dom.mjs";
import { catalog, I18N_DIR } from "./helpers.mjs";

const strings = (lang) => JSON.parse(readFileSync(new URL(`${lang}.json`, I18N_DIR), "utf8"));
const en = translator({ lang: "en", strings: strings("en") });
const de = translator({ lang: "de", strings: strings("de"), fallback: strings("en") });
const view = (tr = en, lang = "en") => ({ tr, lang, chain: [lang], root: "../", langRoot: "./" });
const byId = new Map(catalog().animals.map((a) => [a.id, a]));

function summary(options) {
  installFakeDocument();
  const stats = initialStats();
  return summaryView(view(), { mode: "sound", results: [], date: "2026-11-22", start: stats, stats, replay: false, onRestart: () => {}, onShare: async () => "shared", ...options });
}

test("the summary names the animals missed, each a link to its page", () => {
  const missed = ["robin", "giraffe"].map((id) => byId.get(id));
  const el = summary({ results: [false, true, false], missed }).el;
  const list = el.find("quizMissed");
  assert.ok(list, "a list of the animals to practise");
  assert.match(list.textContent, /^Practise these again/);
  const links = list.findAll((e) => e.tagName === "A");
  assert.deepEqual(links.map((a) => [a.textContent, a.getAttribute("href")]), [["Robin", "./animals/robin/"], ["Giraffe", "./animals/giraffe/"]]);
});

test("a round whose every question was skipped says so, not \"0 of 0\"", () => {
  const result = (view) => view.el.findAll((e) => e.className === "quiz-result")[0].textContent;
  const none = summary({ results: [] });
  assert.equal(result(none), "No question was answered: each one was skipped.");
  assert.match(none.announcement, /^No question was answered/);
  assert.equal(result(summary({ results: [true, false] })), "You got 1 of 2 right.");
});

test("the summary lists the round's achievements without saying them again: each was said with its answer", () => {
  const start = initialStats();
  const stats = { ...start, points: 10, right: ["robin"], achievements: { "first-right": "2026-11-22" } };
  const done = summary({ results: [true], start, stats });
  assert.match(done.el.textContent, /First right answer/, "listed");
  assert.equal(done.announcement, "You got 1 of 1 right.");
});

test("a round with nothing missed lists nothing", () => {
  assert.equal(summary({ results: [true, true], missed: [] }).el.find("quizMissed"), null);
  assert.equal(summary({ results: [true, true] }).el.find("quizMissed"), null);
});

test("an animal without a page is named without a link", () => {
  const el = summary({ results: [false], missed: [{ ...byId.get("wren"), page: null }] }).el.find("quizMissed");
  assert.deepEqual(el.findAll((e) => e.tagName === "A"), []);
  assert.equal(el.findAll((e) => e.tagName === "STRONG")[0].textContent, "Wren");
});

test("learn mode's summary says what comes next, not the header's progress counts again", () => {
  const now = Date.now();
  const ready = summary({ mode: "learn", results: [true], learnNext: { ready: 3, nextDue: null } }).el.textContent;
  assert.match(ready, /3 more animals are ready for another session now\./);
  assert.doesNotMatch(ready, / due · /);
  const one = learnNextText(view(), { ready: 1, nextDue: now + 3600_000 }, now);
  assert.equal(one, "One more animal is ready for another session now.");
  assert.equal(learnNextText(view(), { ready: 0, nextDue: now + 10 * 60000 }, now), "Next review in 10 minutes.");
  assert.equal(learnNextText(view(de, "de"), { ready: 0, nextDue: now + 10 * 60000 }, now), "Nächste Wiederholung in 10 Minuten.");
  assert.equal(learnNextText(view(de, "de"), { ready: 2, nextDue: null }, now), "2 weitere Tiere sind jetzt für eine Lerneinheit bereit.");
  assert.equal(learnNextText(view(), { ready: 0, nextDue: null }, now), "Nothing is due right now.");
  // Other modes say nothing of it.
  assert.doesNotMatch(summary({ results: [true] }).el.textContent, /ready|review/i);
});

test("all caught up says when the next review is, once", () => {
  installFakeDocument();
  const now = Date.now();
  const el = caughtUpView(view(), { nextDue: now + 2 * 3600_000, now, onCheck: () => {} }).el;
  assert.equal(el.textContent.match(/Next review in 2 hours\./g).length, 1);
  assert.doesNotMatch(el.textContent, / due · /);
});
