// The daily challenge and the animal of the day. Both are seeded by the
// learner's local calendar date and the catalogue's fingerprint, so everyone
// with the same site on the same day gets the same questions (and can
// compare results), while a changed catalogue gets a fresh, valid set.
import { buildRound } from "./questions.js";
import { createRng, hashString } from "./rng.js";

/**
 * The local calendar date as YYYY-MM-DD (not UTC: the day changes at the
 * learner's midnight).
 * @param {Date} [date]
 */
export function localDateKey(date = new Date()) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * The seed for one purpose on one day: `purpose` keeps the animal of the day
 * independent of the daily questions.
 * @param {string} date YYYY-MM-DD
 * @param {string} fingerprint the catalogue's fingerprint
 * @param {string} [purpose]
 */
export function dailySeed(date, fingerprint, purpose = "quiz") {
  return hashString(`bestiary|${purpose}|${date}|${fingerprint}`);
}

/**
 * Today's round: the catalogue's question and choice counts, no personal
 * filters or level caps (it must be the same for everyone).
 * @param {import("./catalog.js").Catalog} catalog
 * @param {string} date YYYY-MM-DD
 * @param {boolean} [soundsOnly] only animals with a sound, by the same seed (the same for all who ask so)
 * @returns {import("./questions.js").RoundResult}
 */
export function dailyRound(catalog, date, soundsOnly = false) {
  return buildRound({
    animals: catalog.animals,
    mode: "daily",
    questions: catalog.quiz.questions,
    choices: catalog.quiz.choices,
    languages: catalog.languages,
    rng: createRng(dailySeed(date, catalog.fingerprint)),
    filters: { soundsOnly },
  });
}

/**
 * The animals of today's questions from `start` on whose prompt is not
 * cached (`askable`: ids with a cached prompt, offline; null online). While
 * any is missing the daily waits, so the day's one try is not used up.
 * @param {readonly {id: string}[]} questions
 * @param {number} start the first unanswered question
 * @param {Set<string>|null} askable
 * @returns {string[]}
 */
export function dailyMissing(questions, start, askable) {
  if (!askable) return [];
  return questions.slice(start).map((q) => q.id).filter((id) => !askable.has(id));
}

/**
 * The animal of the day (any animal, media or not), or null for an empty catalogue.
 * @param {import("./catalog.js").Catalog} catalog
 * @param {string} date YYYY-MM-DD
 */
export function animalOfTheDay(catalog, date) {
  if (!catalog.animals.length) return null;
  const sorted = catalog.animals.slice().sort((a, b) => (a.id < b.id ? -1 : 1));
  const rng = createRng(dailySeed(date, catalog.fingerprint, "animal"));
  return sorted[Math.floor(rng() * sorted.length)];
}

/**
 * The shareable result, Wordle-style: "Bird quiz daily December 3, 2026: 7/10 ✅✅❌…".
 * @param {string} date the day's key (localDateKey)
 * @param {readonly boolean[]} results one per question, in order
 * @param {(key: string, params?: object) => string} tr a translator (i18n.js)
 * @param {string} [site] the site's title (a school's quiz shared as "Bestiary daily")
 * @param {string} [lang] the page's language, for the date (without one, the key as it is)
 * @param {boolean} [soundsOnly] the sounds-only daily was played (said: its questions differ)
 */
export function shareText(date, results, tr, site = "Bestiary", lang = "", soundsOnly = false) {
  const right = results.filter(Boolean).length;
  const grid = results.map((ok) => (ok ? "✅" : "❌")).join("");
  return tr(soundsOnly ? "daily.shareSoundsOnly" : "daily.share", { site, date: dayText(date, lang), right, total: results.length, grid });
}

/**
 * A day key ("2026-12-03") as the language writes a date ("3 décembre 2026": a French teacher
 * found the ISO date out of place in a sentence); the key itself without a language, or when
 * the browser does not know it.
 */
export function dayText(date, lang) {
  const [year, month, day] = date.split("-").map(Number);
  const time = new Date(Date.UTC(year, month - 1, day));
  // Not a real day (it would roll over into the next month), or a language this browser lacks
  // (it would write the date in its own).
  if (!lang || time.getUTCDate() !== day || time.getUTCMonth() !== month - 1) return date;
  try {
    if (!Intl.DateTimeFormat.supportedLocalesOf(lang).length) return date;
    // In one piece: "4 décembre 2026" broke between the day and the month on a phone.
    const text = new Intl.DateTimeFormat(lang, { dateStyle: "long", timeZone: "UTC" }).format(time).replace(/ /g, "\u00a0");
    // French writes the first of a month "1er", which Intl does not.
    return /^fr\b/.test(lang) ? text.replace(/^1\u00a0/, "1er\u00a0") : text;
  } catch {
    return date;
  }
}

/**
 * The same result for screen readers, without emoji: "7 of 10 right; wrong: 3, 6, 9".
 * @param {readonly boolean[]} results
 * @param {(key: string, params?: object) => string} tr
 */
export function shareTextPlain(results, tr) {
  const right = results.filter(Boolean).length;
  const wrong = results.flatMap((ok, i) => (ok ? [] : [i + 1]));
  const params = { right, total: results.length, wrong: wrong.join(tr("punctuation.listSeparator")) };
  return tr(wrong.length ? "daily.sharePlain" : "daily.sharePlainPerfect", params);
}

/**
 * Shares the result: through the system's share sheet where there is one, else (or when it
 * fails) by copying it to the clipboard. Never throws.
 * @param {string} text
 * @param {{share?: (data: {text: string}) => Promise<void>, clipboard?: {writeText: (text: string) => Promise<void>}}} nav
 *   the browser's `navigator`
 * @returns {Promise<"shared"|"copied"|"cancelled"|"failed">} "cancelled": the learner closed
 *   the share sheet (nothing to say); "failed": neither way worked
 */
export async function shareResult(text, nav) {
  if (typeof nav.share === "function") {
    try {
      await nav.share({ text });
      return "shared";
    } catch (error) {
      if (error && error.name === "AbortError") return "cancelled";
      // Refused (no user gesture, a type the system cannot share): the clipboard may still work.
    }
  }
  try {
    await nav.clipboard.writeText(text);
    return "copied";
  } catch {
    return "failed";
  }
}

/**
 * The stored record of today's daily, or a fresh one. A finished daily of
 * today counts even if the catalogue changed since (one try a day, sounds
 * only or not); an unfinished one is resumed only for the same catalogue,
 * since its answers belong to those questions, and goes on sounds only or
 * not as begun (switching would be a second try at its first questions).
 * @param {{date: string, fingerprint: string, results: boolean[], done: boolean, soundsOnly?: boolean}|null} stored
 * @param {string} date
 * @param {string} fingerprint
 * @param {boolean} [soundsOnly] the learner's setting: the variant of a daily not begun
 */
export function dailyRecord(stored, date, fingerprint, soundsOnly = false) {
  const resumable = stored?.fingerprint === fingerprint && (stored.results.length || !!stored.soundsOnly === soundsOnly);
  if (stored && stored.date === date && (stored.done || resumable)) return stored;
  return { date, fingerprint, results: [], done: false, soundsOnly };
}
