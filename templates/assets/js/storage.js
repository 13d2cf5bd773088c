// The learner's persisted state: stats, spaced-repetition cards, today's
// daily challenge, settings, favourites, the sightings log and whether the
// first-visit tour was seen, stored as one JSON value with a schema version
// (docs/theming.md, "Storage"). Loading never throws and always yields a state
// the UI can render: stored data can be edited by hand, written by an older or
// newer version of the site, or cut short by a full disk.
import { initialStats } from "./scoring.js";

/** The schema version save() writes. */
export const VERSION = 2;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const LANG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
const CARD_STATES = ["new", "learning", "review", "relearning"];
const THEMES = ["system", "light", "dark"];
/** How a sighting was noticed. */
export const SIGHTING_KINDS = ["seen", "heard", "both"];
/** Text limits for sightings (characters). */
export const LIMITS = Object.freeze({ place: 200, note: 2000, outing: 100 });

/** Settings of a new learner (feedback sounds, vibration, sounds only, own pace off). */
export function defaultSettings() {
  return {
    feedbackSound: false,
    vibration: false,
    soundsOnly: false,
    autoplay: true,
    ownPace: false,
    theme: "system",
    groups: [],
    difficultyMin: 1,
    difficultyMax: 3,
    language: null,
    voices: {},
  };
}

/** An empty sightings log. */
export function emptySightings() {
  return { outings: [], entries: [] };
}

/** The state of a learner who has never played. */
export function initialState() {
  return {
    version: VERSION,
    stats: initialStats(),
    cards: {},
    daily: null,
    settings: defaultSettings(),
    favorites: [],
    sightings: emptySightings(),
    onboarded: false,
  };
}

/**
 * Parses and checks stored state.
 *
 * notice: null when all was well (including a silent migration), "repaired"
 * when some fields were invalid and were reset to defaults, "reset" when
 * nothing could be read. `migratedFrom` names the old version, if any.
 * `legacy.favorites` is the raw value of the v1 favourites key
 * (`bestiary:SITE:favorites`), folded into the state when migrating from v1.
 * @param {string|null|undefined} raw what the backend returned
 * @param {{favorites?: string|null}} [legacy]
 * @returns {{state: ReturnType<typeof initialState>, notice: null|"repaired"|"reset", migratedFrom: number|null}}
 */
export function load(raw, legacy = {}) {
  const legacyFavorites = parseLegacyFavorites(legacy.favorites);
  if (raw === null || raw === undefined || raw === "") {
    if (!legacyFavorites.length) return { state: initialState(), notice: null, migratedFrom: null };
    // Favourites were kept before anything else was: a v1 learner who never played.
    return { state: { ...initialState(), favorites: legacyFavorites, onboarded: true }, notice: null, migratedFrom: 1 };
  }
  let data;
  try {
    data = JSON.parse(raw);
  } catch {
    return { state: initialState(), notice: "reset", migratedFrom: null };
  }
  const result = fromData(data, legacyFavorites);
  if (!result) return { state: initialState(), notice: "reset", migratedFrom: null };
  return { state: result.state, notice: result.fixes ? "repaired" : null, migratedFrom: result.migratedFrom };
}

/**
 * Migrates and sanitises parsed data; null when it is not learner state at
 * all. `fixes` counts the fields that were invalid and replaced by defaults.
 * @returns {{state: ReturnType<typeof initialState>, fixes: number, migratedFrom: number|null}|null}
 */
export function fromData(data, legacyFavorites = []) {
  if (!isObject(data)) return null;
  let migratedFrom = null;
  if (data.version === undefined) {
    data = migrateV0(data);
    migratedFrom = 0;
  } else if (!Number.isInteger(data.version) || data.version < 1) {
    return null;
  }
  if (data.version === 1) {
    data = migrateV1(data, legacyFavorites);
    migratedFrom ??= 1;
  }
  // A newer version's data is read as far as this version understands it.
  const fix = { count: 0 };
  const state = {
    version: VERSION,
    stats: sanitizeStats(data.stats, fix),
    cards: sanitizeCards(data.cards, fix),
    daily: sanitizeDaily(data.daily, fix),
    settings: sanitizeSettings(data.settings, fix),
    favorites: sanitizeIds(data.favorites, fix),
    sightings: sanitizeSightings(data.sightings, fix),
    onboarded: field(data.onboarded, false, (x) => typeof x === "boolean", fix),
  };
  return { state, fixes: fix.count, migratedFrom };
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
 * values are still checked by the sanitisers afterwards.
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
 * Version 1 → 2: favourites move from their own key into the state (so one
 * export, one import and one reset cover everything), the sightings log and
 * the tour flag are added. A learner who already played has seen the site, so
 * the first-visit tour is not shown to them.
 * @param {object} v1 the v1 state (checked by the sanitisers afterwards)
 * @param {string[]} legacyFavorites ids from the old `favorites` key
 */
export function migrateV1(v1, legacyFavorites = []) {
  const played = isObject(v1.stats) && Number.isInteger(v1.stats.answered) && v1.stats.answered > 0;
  return {
    ...v1,
    version: 2,
    favorites: [...legacyFavorites],
    sightings: emptySightings(),
    onboarded: played || legacyFavorites.length > 0,
  };
}

function parseLegacyFavorites(raw) {
  if (typeof raw !== "string" || raw === "") return [];
  try {
    const list = JSON.parse(raw);
    return Array.isArray(list) ? [...new Set(list.filter((id) => typeof id === "string" && id !== ""))].sort() : [];
  } catch {
    return [];
  }
}

/**
 * A store over a backend with getItem/setItem/removeItem (localStorage in the
 * browser, memoryBackend() in tests or when storage is blocked), under the
 * key `bestiary:<siteId>:learner` so several Bestiary sites on one origin do
 * not share progress.
 *
 * A migrated or repaired state is written back at once (the migration runs
 * once), and the v1 favourites key is removed after the first v2 save.
 * Unreadable data is copied to `bestiary:<siteId>:learner-damaged` (the
 * latest damaged text), then replaced by a fresh state at once, so the
 * "reset" notice is given once; the tour counts as seen (the learner has been
 * here). If the copy fails, the damaged data stays where it is.
 * @param {{getItem(k: string): string|null, setItem(k: string, v: string): void, removeItem?(k: string): void}} backend
 * @param {string} siteId
 */
export function openStore(backend, siteId) {
  const key = storageKey(siteId, "learner");
  const legacyKey = storageKey(siteId, "favorites");
  const damagedKey = storageKey(siteId, "learner-damaged");
  const store = {
    key,
    /** @returns {ReturnType<typeof load> | {state: any, notice: "unavailable", migratedFrom: null}} */
    load() {
      let raw;
      let legacy;
      try {
        raw = backend.getItem(key);
        legacy = backend.getItem(legacyKey);
      } catch {
        return { state: initialState(), notice: "unavailable", migratedFrom: null };
      }
      const loaded = load(raw, { favorites: legacy });
      if (loaded.notice === "reset") {
        const fresh = { ...loaded.state, onboarded: true };
        let kept = false;
        try {
          backend.setItem(damagedKey, String(raw));
          kept = backend.getItem(damagedKey) === String(raw);
        } catch {
          // Nowhere to keep it: it is not replaced.
        }
        if (kept) store.save(fresh);
        return { ...loaded, state: fresh };
      }
      if (loaded.migratedFrom !== null || loaded.notice === "repaired") store.save(loaded.state);
      return loaded;
    },
    /** @returns {boolean} false when the backend refused (full, blocked) */
    save(state) {
      try {
        backend.setItem(key, save(state));
      } catch {
        return false;
      }
      try {
        if (backend.getItem(legacyKey) !== null) backend.removeItem?.(legacyKey);
      } catch {
        // The old key stays; v2 data ignores it.
      }
      return true;
    },
    /**
     * Reads the current state, applies `change` and saves the result: pages
     * that change one part (favourites, sightings, settings) never overwrite
     * what another page or tab changed meanwhile.
     * @param {(state: ReturnType<typeof initialState>) => ReturnType<typeof initialState>} change
     * @returns {{state: ReturnType<typeof initialState>, saved: boolean}}
     */
    update(change) {
      const state = change(store.load().state);
      return { state, saved: store.save(state) };
    },
  };
  return store;
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
        Array.isArray(d.results) && d.results.every((r) => typeof r === "boolean") && typeof d.done === "boolean" &&
        [undefined, true, false].includes(d.soundsOnly)),
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
    soundsOnly: field(raw.soundsOnly, false, (x) => typeof x === "boolean", fix),
    autoplay: field(raw.autoplay, true, (x) => typeof x === "boolean", fix),
    ownPace: field(raw.ownPace, false, (x) => typeof x === "boolean", fix),
    theme: field(raw.theme, "system", (x) => THEMES.includes(x), fix),
    groups: field(raw.groups, [], (x) => Array.isArray(x) && x.every((g) => typeof g === "string"), fix),
    difficultyMin: field(raw.difficultyMin, 1, level, fix),
    difficultyMax: field(raw.difficultyMax, 3, level, fix),
    language: field(raw.language, null, (x) => x === null || (typeof x === "string" && LANG.test(x)), fix),
    voices: {},
  };
  for (const [lang, uri] of Object.entries(field(raw.voices, {}, isObject, fix))) {
    if (LANG.test(lang) && typeof uri === "string" && uri !== "" && uri.length <= 500) s.voices[lang] = uri;
    else fix.count++;
  }
  if (s.difficultyMin > s.difficultyMax) (s.difficultyMin = 1), (s.difficultyMax = 3), fix.count++;
  return s;
}

/** A sorted list of distinct non-empty ids (favourites). */
function sanitizeIds(raw, fix) {
  const list = field(raw, [], Array.isArray, fix);
  const ids = [...new Set(list.filter((id) => typeof id === "string" && id !== ""))].sort();
  if (ids.length !== list.length) fix.count++;
  return ids;
}

const isText = (max) => (x) => typeof x === "string" && x.length <= max;
const isCoordinate = (max) => (x) => x === null || (Number.isFinite(x) && Math.abs(x) <= max);

/**
 * Checks one sighting. Returns it normalised, or null when it cannot be kept.
 * @param {any} e
 * @param {Set<string>} outingIds
 */
export function validSighting(e, outingIds) {
  if (!isObject(e) || typeof e.id !== "string" || e.id === "" || typeof e.animal !== "string" || e.animal === "") return null;
  if (!SIGHTING_KINDS.includes(e.kind) || typeof e.date !== "string" || !DATE.test(e.date)) return null;
  if (!(e.time === null || e.time === undefined || (typeof e.time === "string" && TIME.test(e.time)))) return null;
  if (!isText(LIMITS.place)(e.place ?? "") || !isText(LIMITS.note)(e.note ?? "")) return null;
  if (!isCoordinate(90)(e.lat ?? null) || !isCoordinate(180)(e.lon ?? null)) return null;
  if ((e.lat ?? null) === null !== ((e.lon ?? null) === null)) return null;
  if (!(e.accuracy === null || e.accuracy === undefined || (Number.isFinite(e.accuracy) && e.accuracy >= 0))) return null;
  if (!Number.isFinite(e.created)) return null;
  const outing = typeof e.outing === "string" && outingIds.has(e.outing) ? e.outing : null;
  if (e.outing !== null && e.outing !== undefined && outing === null) return null;
  return {
    id: e.id,
    animal: e.animal,
    kind: e.kind,
    date: e.date,
    time: e.time ?? null,
    place: e.place ?? "",
    lat: e.lat ?? null,
    lon: e.lon ?? null,
    accuracy: e.accuracy ?? null,
    note: e.note ?? "",
    outing,
    created: e.created,
  };
}

function sanitizeSightings(raw, fix) {
  const base = emptySightings();
  if (raw === undefined) return base;
  if (!isObject(raw)) return fix.count++, base;
  const outings = [];
  const ids = new Set();
  for (const o of field(raw.outings, [], Array.isArray, fix)) {
    if (isObject(o) && typeof o.id === "string" && o.id !== "" && !ids.has(o.id) && typeof o.name === "string" &&
      o.name.trim() !== "" && o.name.length <= LIMITS.outing && Number.isFinite(o.created)) {
      ids.add(o.id);
      outings.push({ id: o.id, name: o.name, created: o.created });
    } else fix.count++;
  }
  const entries = [];
  const seen = new Set();
  for (const e of field(raw.entries, [], Array.isArray, fix)) {
    const ok = validSighting(e, ids);
    if (ok && !seen.has(ok.id)) {
      seen.add(ok.id);
      entries.push(ok);
    } else fix.count++;
  }
  return { outings, entries };
}

function isObject(x) {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}
