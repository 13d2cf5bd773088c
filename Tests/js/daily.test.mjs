import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  animalOfTheDay, dailyMissing, dayText, dailyRecord, dailyRound, dailySeed, localDateKey, shareResult, shareText, shareTextPlain,
} from "../../templates/assets/js/daily.js";
import { relativeTime, shareStatusText, summaryView } from "../../templates/assets/js/quiz-summary.js";
import { initialStats, reduce } from "../../templates/assets/js/scoring.js";
import { installFakeDocument } from "./fake-dom.mjs";
import { translator } from "../../templates/assets/js/i18n.js";
import { catalog, I18N_DIR, SPECS } from "./helpers.mjs";

const cat = catalog();
const strings = (lang) => JSON.parse(readFileSync(new URL(`${lang}.json`, I18N_DIR), "utf8"));
const en = translator({ lang: "en", strings: strings("en") });
const de = translator({ lang: "de", strings: strings("de"), fallback: strings("en") });

test("same date and fingerprint give identical questions", () => {
  const a = dailyRound(cat, "2026-11-22");
  const b = dailyRound(catalog(), "2026-11-22");
  assert.equal(a.ok, true);
  assert.equal(a.questions.length, 10);
  assert.deepEqual(a, b);
});

test("a different date or catalogue gives different questions", () => {
  const day = JSON.stringify(dailyRound(cat, "2026-11-22").questions);
  assert.notEqual(JSON.stringify(dailyRound(cat, "2026-11-23").questions), day);
  const changed = { ...cat, fingerprint: "0000beef" };
  assert.notEqual(JSON.stringify(dailyRound(changed, "2026-11-22").questions), day);
  assert.notEqual(dailySeed("2026-11-22", "a"), dailySeed("2026-11-22", "b"));
  assert.notEqual(dailySeed("2026-11-22", "a"), dailySeed("2026-11-22", "a", "animal"));
});

test("the daily uses the catalogue's counts and ignores personal settings", () => {
  const small = { ...cat, quiz: { questions: 5, choices: 3 } };
  const r = dailyRound(small, "2026-11-22");
  assert.equal(r.questions.length, 5);
  assert.ok(r.questions.every((q) => q.choices.length === 3));
  // Animals without sound are asked by picture, so the whole catalogue takes part.
  const prompts = new Set();
  for (let d = 1; d <= 28; d++) for (const q of dailyRound(cat, `2026-02-${String(d).padStart(2, "0")}`).questions) prompts.add(q.prompt);
  assert.deepEqual([...prompts].sort(), ["image", "sound"]);
});

test("animal of the day is stable for a day and changes across days", () => {
  const today = animalOfTheDay(cat, "2026-11-22");
  assert.equal(animalOfTheDay(catalog(), "2026-11-22").id, today.id);
  const month = new Set();
  for (let d = 1; d <= 30; d++) month.add(animalOfTheDay(cat, `2026-11-${String(d).padStart(2, "0")}`).id);
  assert.ok(month.size >= 5, `only ${month.size} different animals in a month`);
  assert.equal(animalOfTheDay({ ...cat, animals: [] }, "2026-11-22"), null);
});

test("share texts: emoji grid and a screen-reader line", () => {
  const results = [true, true, false, true, true, false, true, true, false, true];
  assert.equal(shareText("2026-11-22", results, en), "Bestiary daily 2026-11-22: 7/10 ✅✅❌✅✅❌✅✅❌✅");
  // Named by the site's title (a school's quiz was shared as "Bestiary daily").
  assert.equal(shareText("2026-11-22", results.slice(0, 2), en, "Year 3 quiz"), "Year 3 quiz daily 2026-11-22: 2/2 ✅✅");
  assert.equal(shareText("2026-11-22", results.slice(0, 2), de, "Tierquiz"), "Tagesrätsel Tierquiz 2026-11-22: 2/2 ✅✅");
  // The date as the page's language writes it (a French teacher found the ISO date out of place).
  assert.equal(shareText("2026-12-03", results.slice(0, 2), de, "Tierquiz", "de"), "Tagesrätsel Tierquiz 3.\u00a0Dezember\u00a02026: 2/2 ✅✅");
  assert.equal(shareText("2026-12-03", results.slice(0, 2), en, "Year 3 quiz", "en"), "Year 3 quiz daily December\u00a03,\u00a02026: 2/2 ✅✅");
  assert.equal(dayText("2026-12-03", "fr"), "3\u00a0décembre\u00a02026", "in one piece: no break inside the date");
  assert.equal(dayText("2026-12-03", "it"), "3\u00a0dicembre\u00a02026");
  assert.equal(dayText("2026-12-01", "fr"), "1er\u00a0décembre\u00a02026", "French writes the first of a month 1er");
  assert.equal(dayText("2026-12-01", "fr-CA"), "1er\u00a0décembre\u00a02026");
  assert.equal(dayText("2026-12-11", "fr"), "11\u00a0décembre\u00a02026", "not the 11th");
  assert.equal(dayText("2026-12-01", "it"), "1\u00a0dicembre\u00a02026");
  assert.equal(dayText("2026-12-03", "not a language!"), "2026-12-03", "a language the browser refuses: the key");
  assert.equal(dayText("2026-12-03", "tlh"), "2026-12-03", "a language the browser lacks: the key, not its own language's date");
  assert.equal(dayText("2026-02-30", "en"), "2026-02-30", "no such day: the key, not 2 March");
  assert.equal(dayText("2026-13-01", "en"), "2026-13-01");
  assert.equal(shareTextPlain(results, en), "7 of 10 right; wrong: 3, 6, 9");
  assert.equal(shareTextPlain([true, true], en), "2 of 2 right");
  assert.equal(shareTextPlain(results, de), "7 von 10 richtig; falsch: 3, 6, 9");
  // Arabic joins the list with its own comma.
  const ar = translator({ lang: "ar", strings: strings("ar") });
  assert.match(shareTextPlain(results, ar), /3، 6، 9/u);
  assert.doesNotMatch(shareTextPlain(results, ar), /\d, /u);
  assert.doesNotMatch(shareTextPlain(results, en), /[✅❌]/u);
});

test("localDateKey uses the local calendar date", () => {
  assert.equal(localDateKey(new Date(2026, 0, 5, 23, 59)), "2026-01-05");
  assert.equal(localDateKey(new Date(2026, 10, 22, 0, 1)), "2026-11-22");
});

test("one try a day: a finished daily stays finished, an unfinished one resumes for the same catalogue", () => {
  const done = { date: "2026-11-22", fingerprint: "old", results: [true], done: true };
  assert.equal(dailyRecord(done, "2026-11-22", "new"), done);
  const half = { date: "2026-11-22", fingerprint: "abc", results: [true, false], done: false };
  assert.equal(dailyRecord(half, "2026-11-22", "abc"), half);
  assert.deepEqual(dailyRecord(half, "2026-11-22", "changed"), { date: "2026-11-22", fingerprint: "changed", results: [], done: false, soundsOnly: false });
  assert.deepEqual(dailyRecord(done, "2026-11-23", "new"), { date: "2026-11-23", fingerprint: "new", results: [], done: false, soundsOnly: false });
  assert.deepEqual(dailyRecord(null, "2026-11-23", "x").results, []);
});

/** A date of 2026 whose daily asks a picture (the fixture's giraffe, koala). */
const pictureDay = () => {
  for (let d = 1; d <= 28; d++) {
    const date = `2026-02-${String(d).padStart(2, "0")}`;
    if (dailyRound(cat, date).questions.some((q) => q.prompt === "image")) return date;
  }
  throw new Error("no daily with a picture in February");
};

test("sounds only: the daily asks only animals with a sound, the same for everyone that day", () => {
  const date = pictureDay();
  const sounds = dailyRound(cat, date, true);
  assert.equal(sounds.ok, true);
  assert.equal(sounds.questions.length, 10);
  for (const q of sounds.questions) {
    assert.equal(q.prompt, "sound");
    assert.ok(cat.animals.find((a) => a.id === q.id).sound, q.id);
    assert.equal(q.choices.length, 4);
  }
  // Deterministic for the date and catalogue, whatever its order; another day differs.
  assert.deepEqual(dailyRound(catalog(), date, true), sounds);
  assert.deepEqual(dailyRound({ ...cat, animals: cat.animals.slice().reverse() }, date, true), sounds);
  assert.notDeepEqual(dailyRound(cat, "2026-03-01", true).questions, sounds.questions);
  // Not the everyone's daily, which asked a picture that day; that one is as it was.
  assert.notDeepEqual(sounds.questions, dailyRound(cat, date).questions);
  assert.deepEqual(dailyRound(cat, date, false), dailyRound(cat, date));
});

test("sounds only: a site without sounds has no daily, said as such, never pictures instead", () => {
  const silent = catalog(SPECS.map(([id, en, de, g, d, , img]) => [id, en, de, g, d, false, img]));
  assert.deepEqual(dailyRound(silent, "2026-11-22", true), { ok: false, reason: "no-media", needed: 1, have: 0 });
  assert.equal(dailyRound(silent, "2026-11-22").ok, true);
});

test("one try a day, sounds only or not: a daily begun goes on as begun, one not begun follows the setting", () => {
  const done = { date: "2026-11-22", fingerprint: "abc", results: [true, false], done: true, soundsOnly: true };
  assert.equal(dailyRecord(done, "2026-11-22", "abc", false), done, "a sounds-only daily done is today's try");
  const old = { date: "2026-11-22", fingerprint: "abc", results: [true], done: true };
  assert.equal(dailyRecord(old, "2026-11-22", "abc", true), old, "as is one done before the setting existed");
  const begun = { date: "2026-11-22", fingerprint: "abc", results: [true], done: false, soundsOnly: false };
  assert.equal(dailyRecord(begun, "2026-11-22", "abc", true), begun, "switching is no second try at its first questions");
  assert.equal(dailyRecord({ ...begun, soundsOnly: undefined }, "2026-11-22", "abc", true).results.length, 1);
  const fresh = { date: "2026-11-22", fingerprint: "abc", results: [], done: false, soundsOnly: false };
  assert.deepEqual(dailyRecord(fresh, "2026-11-22", "abc", true), { ...fresh, soundsOnly: true });
  assert.equal(dailyRecord(fresh, "2026-11-22", "abc", false), fresh);
  assert.deepEqual(dailyRecord(null, "2026-11-22", "abc", true), { ...fresh, soundsOnly: true });
});

test("the share text says the daily was sounds only, in every language", () => {
  const results = [true, false, true];
  assert.equal(shareText("2026-11-22", results, en, "Bestiary", "", true), "Bestiary daily 2026-11-22 (sounds only): 2/3 ✅❌✅");
  assert.equal(shareText("2026-11-22", results, de, "Tierquiz", "", true), "Tagesrätsel Tierquiz 2026-11-22 (nur Tierstimmen): 2/3 ✅❌✅");
  for (const lang of ["en", "de", "fr", "it", "es", "ar"]) {
    const tr = translator({ lang, strings: strings(lang) });
    const plain = shareText("2026-11-22", results, tr, "X", lang);
    const sounds = shareText("2026-11-22", results, tr, "X", lang, true);
    assert.notEqual(sounds, plain, lang);
    assert.ok(sounds.endsWith("2/3 ✅❌✅") && sounds.includes("X"), sounds);
  }
});

test("the summary of a sounds-only daily shares a text that says so", async () => {
  installFakeDocument();
  const shared = [];
  const summary = (soundsOnly) => summaryView({ tr: en, lang: "en", chain: ["en"], root: "./", langRoot: "./" }, {
    mode: "daily", results: [true], date: "2026-11-22", soundsOnly, start: initialStats(), stats: initialStats(),
    replay: true, onRestart: () => {}, onShare: async (text) => (shared.push(text), "copied"),
  });
  await summary(true).el.find("quizShare").fire("click");
  await summary(false).el.find("quizShare").fire("click");
  const day = "November\u00a022,\u00a02026";
  assert.deepEqual(shared, [`Bestiary daily ${day} (sounds only): 1/1 ✅`, `Bestiary daily ${day}: 1/1 ✅`]);
});

test("offline, the daily waits until every remaining question's media is saved, without changing the questions", () => {
  const { questions } = dailyRound(cat, "2026-11-22");
  const ids = questions.map((q) => q.id);
  assert.deepEqual(dailyMissing(questions, 0, null), [], "online nothing is missing");
  assert.deepEqual(dailyMissing(questions, 0, new Set(ids)), []);
  const allButFirst = new Set(ids.slice(1));
  assert.deepEqual(dailyMissing(questions, 0, allButFirst), [ids[0]]);
  assert.deepEqual(dailyMissing(questions, 1, allButFirst), [], "questions already answered need nothing");
  assert.deepEqual(dailyMissing(questions, 0, new Set()), ids);
  // The questions are the same whatever is saved: the daily stays identical for everyone.
  assert.deepEqual(dailyRound(cat, "2026-11-22").questions, questions);
});

/** A navigator whose share sheet and clipboard do what they are told, and say what they got. */
function fakeNavigator({ share, clipboard }) {
  const calls = { share: [], clipboard: [] };
  const nav = { calls };
  const run = (how) => (how === "ok" ? Promise.resolve() : Promise.reject(Object.assign(new Error(how), { name: how })));
  if (share) nav.share = (data) => (calls.share.push(data), run(share));
  if (clipboard) nav.clipboard = { writeText: (text) => (calls.clipboard.push(text), run(clipboard)) };
  return nav;
}

test("sharing: the share sheet where there is one, else or after its failure the clipboard", async () => {
  let nav = fakeNavigator({ share: "ok", clipboard: "ok" });
  assert.equal(await shareResult("7/10", nav), "shared");
  assert.deepEqual(nav.calls, { share: [{ text: "7/10" }], clipboard: [] });
  nav = fakeNavigator({ clipboard: "ok" });
  assert.equal(await shareResult("7/10", nav), "copied");
  assert.deepEqual(nav.calls.clipboard, ["7/10"]);
  nav = fakeNavigator({ share: "NotAllowedError", clipboard: "ok" });
  assert.equal(await shareResult("7/10", nav), "copied", "a refused share sheet falls back to the clipboard");
  // Closing the sheet is the learner's choice: nothing is copied behind their back.
  nav = fakeNavigator({ share: "AbortError", clipboard: "ok" });
  assert.equal(await shareResult("7/10", nav), "cancelled");
  assert.deepEqual(nav.calls.clipboard, []);
  assert.equal(await shareResult("7/10", fakeNavigator({ share: "NotAllowedError", clipboard: "NotAllowedError" })), "failed");
  assert.equal(await shareResult("7/10", fakeNavigator({})), "failed", "no share sheet and no clipboard (not a secure context)");
});

test("each outcome has a status text in every language, none for a cancelled share", () => {
  for (const tr of [en, de]) {
    for (const outcome of ["shared", "copied", "failed"]) {
      const text = shareStatusText(tr, outcome);
      assert.ok(text && !text.startsWith("daily."), `${tr === en ? "en" : "de"} ${outcome}: ${text}`);
    }
    assert.equal(shareStatusText(tr, "cancelled"), "");
  }
  assert.notEqual(shareStatusText(de, "copied"), shareStatusText(en, "copied"));
});

test("the daily's summary shows the share outcome in a visible polite status line", async () => {
  installFakeDocument();
  let outcome = "copied";
  const shared = [];
  const view = summaryView({ tr: en, lang: "en", chain: ["en"], root: "./", langRoot: "./" }, {
    mode: "daily", results: [true, false, true], date: "2026-11-22", start: initialStats(), stats: initialStats(),
    replay: true, onRestart: () => {},
    onShare: async (text) => (shared.push(text), outcome),
  });
  const status = view.el.find("quizShareStatus");
  const share = view.el.find("quizShare");
  assert.ok(status && share, "a status line next to the share button");
  assert.equal(status.getAttribute("role"), "status", "a polite live region");
  assert.equal(status.getAttribute("aria-hidden"), null);
  assert.equal(status.textContent, "");
  await share.fire("click");
  assert.deepEqual(shared, ["Bestiary daily November\u00a022,\u00a02026: 2/3 ✅❌✅"]);
  assert.equal(status.textContent, "Result copied to the clipboard.");
  assert.equal(status.classList.contains("is-error"), false);
  outcome = "failed";
  await share.fire("click");
  assert.equal(status.textContent, en("daily.copyFailed"));
  assert.equal(status.classList.contains("is-error"), true);
  // Not copied: the emoji line is no longer hidden, and it takes the focus to be copied from.
  const text = view.el.find("quizShareText");
  assert.equal(text.getAttribute("aria-hidden"), null);
  assert.equal(text.focused, true);
  outcome = "shared";
  await share.fire("click");
  assert.equal(status.textContent, "Result shared.");
  outcome = "cancelled";
  await share.fire("click");
  assert.equal(status.textContent, "");
});

test("the next review is named in calendar days, as reviews fall due", () => {
  const evening = new Date(2026, 10, 22, 20, 0).getTime();
  // Learnt at 20:00, due from 4:00 four days later: "in 4 days", not "in 3" (80 hours).
  assert.equal(relativeTime("en", new Date(2026, 10, 26, 4, 0).getTime() - evening, evening), "in 4 days");
  assert.equal(relativeTime("en", new Date(2026, 10, 23, 4, 0).getTime() - evening, evening), "in 8 hours");
  assert.equal(relativeTime("en", 20 * 60000, evening), "in 20 minutes");
});

test("a level-up says harder animals now appear only when they do, and says it to screen readers", () => {
  installFakeDocument();
  const v = { tr: en, lang: "en", chain: ["en"], root: "./", langRoot: "./" };
  const start = { ...initialStats(), points: 90 };
  const stats = { ...initialStats(), points: 110 };
  const asked = [];
  const summary = (unlocks) =>
    summaryView(v, { mode: "sound", results: [true], date: "2026-11-22", start, stats, replay: false, onRestart: () => {}, onShare: async () => "shared",
      unlocks: (before, after) => (asked.push([before, after]), unlocks) });
  const none = summary(false);
  assert.deepEqual(asked, [[1, 2]], "asked from level 1's cap to level 2's");
  assert.match(none.el.textContent, /You reached level 2!/);
  assert.doesNotMatch(none.el.textContent, /harder animals/);
  const some = summary(true);
  assert.match(some.el.textContent, /You reached level 2: harder animals now appear in your quizzes\./);
  assert.match(some.announcement, /You reached level 2: harder animals/, "said to screen readers too");
});

test("a best score of none right is not shown; one right is", () => {
  installFakeDocument();
  const v = { tr: en, lang: "en", chain: ["en"], root: "./", langRoot: "./" };
  const after = (correct) => reduce(initialStats(), { type: "round", mode: "sound", date: "2026-11-22", correct, total: 10 });
  const text = (correct) =>
    summaryView(v, { mode: "sound", results: [], date: "2026-11-22", start: after(correct), stats: after(correct), replay: true, onRestart: () => {}, onShare: async () => "shared" }).el.textContent;
  assert.doesNotMatch(text(0), /Best/, "a first round of none right");
  assert.match(text(3), /Best score: 3 \/ 10/);
});
