// The learner's persisted state: stats, spaced-repetition cards, today's
// daily challenge and settings, stored as one JSON value with a schema
// version. Loading never throws and always yields a state the UI can render:
// stored data can be edited by hand, written by an older or newer version of
// the site, or cut short by a full disk.
import { initialStats } from "./scoring.js";

/** The schema version save() writes. */
export const VERSION = 1;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const CARD_STATES = ["new", "learning", "review", "relearning"];
const THEMES = ["system", "light", "dark"];

/** Settings of a new learner: feedback sounds and vibration are off by default. */
export function defaultSettings() {
  return { feedbackSound: false, vibration: false, theme: "system", groups: [], difficultyMin: 1, difficultyMax: 3 };
}

/** The state of a learner who has never played. */
export function initialState() {
  return { version: VERSION, stats: initialStats(), cards: {}, daily: null, settings: defaultSettings() };
}

/**
 * Parses and checks stored state.
 *
 * notice: null when all was well (including a silent migration), "repaired"
 * when some fields were invalid and were reset to defaults, "reset" when
 * nothing could be read. `migratedFrom` names the old version, if any.
 * @param {string|null|undefined} raw what the backend returned
 * @returns {{state: ReturnType<typeof initialState>, notice: null|"repaired"|"reset", migratedFrom: number|null}}
 */
export function load(raw) {
  if (raw === null || raw === undefined || raw === "") return { state: initialState(), notice: null, migratedFrom: null };
  let data;
  try {
    data = JSON.parse(raw);
  } catch {
    return { state: initialState(), notice: "reset", migratedFrom: null };
  }
  if (!isObject(data)) return { state: initialState(), notice: "reset", migratedFrom: null };
  let migratedFrom = null;
  if (data.version === undefined) {
    data = migrateV0(data);
    migratedFrom = 0;
  } else if (!Number.isInteger(data.version) || data.version < 1) {
    return { state: initialState(), notice: "reset", migratedFrom: null };
  }
  // A newer version's data is read as far as this version understands it.
  const fix = { count: 0 };
  const state = {
    version: VERSION,
    stats: sanitizeStats(data.stats, fix),
    cards: sanitizeCards(data.cards, fix),
    daily: sanitizeDaily(data.daily, fix),
    settings: sanitizeSettings(data.settings, fix),
  };
  return { state, notice: fix.count ? "repaired" : null, migratedFrom };
}

/**
 * Serialises a state for the backend.
 * @param {ReturnType<typeof initialState>} state
 * @returns {string}
 */
export function save(state) {
  return JSON.stringify({ ...state, version: VERSION });
}

/**
 * Version 0, the prototype's flat shape (no `version` key):
 * `{score, streak, bestStreak, highscores: {MODE: correct}, known: [ID…],
 *   sfx: bool, lastPlayed: "YYYY-MM-DD"}`. Moved into the v1 sections;
 * values are still checked by the v1 sanitisers afterwards.
 */
export function migrateV0(old) {
  const stats = initialStats();
  if (Number.isFinite(old.score)) stats.points = old.score;
  if (Number.isFinite(old.streak)) stats.streak = old.streak;
  if (Number.isFinite(old.bestStreak)) stats.bestStreak = old.bestStreak;
  if (Array.isArray(old.known)) stats.right = old.known;
  if (typeof old.lastPlayed === "string" && DATE.test(old.lastPlayed)) {
    stats.lastDay = old.lastPlayed;
    stats.days = 1;
  }
  if (isObject(old.highscores)) {
    for (const [mode, correct] of Object.entries(old.highscores)) {
      if (Number.isInteger(correct)) stats.best[mode] = { correct, total: null, date: null };
    }
  }
  const settings = defaultSettings();
  if (typeof old.sfx === "boolean") settings.feedbackSound = old.sfx;
  return { version: 1, stats, cards: {}, daily: null, settings };
}

/**
 * A store over a backend with getItem/setItem (localStorage in the browser,
 * memoryBackend() in tests or when storage is blocked), under the key
 * `bestiary:<siteId>:learner` so several Bestiary sites on one origin do not
 * share progress.
 * @param {{getItem(k: string): string|null, setItem(k: string, v: string): void}} backend
 * @param {string} siteId
 */
export function openStore(backend, siteId) {
  const key = storageKey(siteId, "learner");
  return {
    key,
    /** @returns {ReturnType<typeof load> | {state: any, notice: "unavailable", migratedFrom: null}} */
    load() {
      try {
        return load(backend.getItem(key));
      } catch {
        return { state: initialState(), notice: "unavailable", migratedFrom: null };
      }
    },
    /** @returns {boolean} false when the backend refused (full, blocked) */
    save(state) {
      try {
        backend.setItem(key, save(state));
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** `bestiary:<siteId>:<name>`. */
export function storageKey(siteId, name) {
  return `bestiary:${siteId || "site"}:${name}`;
}

/** A backend kept in memory: for tests, and when localStorage is unavailable. */
export function memoryBackend(map = new Map()) {
  return {
    getItem: (k) => (map.has(k) ? map.get(k) : null),
    setItem: (k, v) => void map.set(k, String(v)),
    removeItem: (k) => void map.delete(k),
  };
}

// ---- sanitisers: a missing field takes its default quietly; a wrong one counts as a repair.

function field(value, fallback, ok, fix) {
  if (value === undefined) return fallback;
  if (ok(value)) return value;
  fix.count++;
  return fallback;
}

const isCount = (x) => Number.isInteger(x) && x >= 0;
const isDateOrNull = (x) => x === null || (typeof x === "string" && DATE.test(x));

function sanitizeStats(raw, fix) {
  const base = initialStats();
  if (raw === undefined) return base;
  if (!isObject(raw)) return fix.count++, base;
  const s = {};
  for (const key of ["points", "answered", "correct", "streak", "bestStreak", "rounds", "days"]) {
    s[key] = field(raw[key], 0, isCount, fix);
  }
  if (s.correct > s.answered) (s.answered = s.correct), fix.count++;
  if (s.bestStreak < s.streak) (s.bestStreak = s.streak), fix.count++;
  s.lastDay = field(raw.lastDay, null, isDateOrNull, fix);
  const today = field(raw.today, base.today, (t) => isObject(t) && isDateOrNull(t.date) && isCount(t.answered) && isCount(t.correct), fix);
  s.today = { date: today.date, answered: today.answered, correct: Math.min(today.correct, today.answered) };
  s.best = {};
  for (const [mode, b] of Object.entries(field(raw.best, {}, isObject, fix))) {
    if (isObject(b) && isCount(b.correct) && (b.total === null || isCount(b.total)) && isDateOrNull(b.date ?? null)) {
      s.best[mode] = { correct: b.correct, total: b.total, date: b.date ?? null };
    } else fix.count++;
  }
  const right = field(raw.right, [], Array.isArray, fix);
  s.right = [...new Set(right.filter((id) => typeof id === "string"))].sort();
  if (s.right.length !== right.length) fix.count++;
  s.achievements = {};
  for (const [id, date] of Object.entries(field(raw.achievements, {}, isObject, fix))) {
    if (isDateOrNull(date)) s.achievements[id] = date;
    else fix.count++;
  }
  return s;
}

function sanitizeCards(raw, fix) {
  const cards = {};
  for (const [id, c] of Object.entries(field(raw, {}, isObject, fix))) {
    if (validCard(c)) cards[id] = { ...c, last: c.last ?? null };
    else fix.count++;
  }
  return cards;
}

function validCard(c) {
  if (!isObject(c) || !CARD_STATES.includes(c.state) || !Number.isFinite(c.due)) return false;
  if (!isCount(c.step) || !isCount(c.reps) || !isCount(c.lapses)) return false;
  if (c.last !== undefined && c.last !== null && !Number.isFinite(c.last)) return false;
  if (c.state === "new") return true;
  return Number.isFinite(c.stability) && c.stability > 0 && Number.isFinite(c.difficulty) && c.difficulty >= 1 && c.difficulty <= 10;
}

function sanitizeDaily(raw, fix) {
  return field(
    raw,
    null,
    (d) =>
      d === null ||
      (isObject(d) && DATE.test(d.date) && typeof d.fingerprint === "string" &&
        Array.isArray(d.results) && d.results.every((r) => typeof r === "boolean") && typeof d.done === "boolean"),
    fix,
  );
}

function sanitizeSettings(raw, fix) {
  const base = defaultSettings();
  if (raw === undefined) return base;
  if (!isObject(raw)) return fix.count++, base;
  const level = (x) => Number.isInteger(x) && x >= 1 && x <= 3;
  const s = {
    feedbackSound: field(raw.feedbackSound, false, (x) => typeof x === "boolean", fix),
    vibration: field(raw.vibration, false, (x) => typeof x === "boolean", fix),
    theme: field(raw.theme, "system", (x) => THEMES.includes(x), fix),
    groups: field(raw.groups, [], (x) => Array.isArray(x) && x.every((g) => typeof g === "string"), fix),
    difficultyMin: field(raw.difficultyMin, 1, level, fix),
    difficultyMax: field(raw.difficultyMax, 3, level, fix),
  };
  if (s.difficultyMin > s.difficultyMax) (s.difficultyMin = 1), (s.difficultyMax = 3), fix.count++;
  return s;
}

function isObject(x) {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}
