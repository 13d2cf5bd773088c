// Builds quiz rounds: which animals are asked, which names are offered as
// choices, in which order. Pure: the same input and rng seed always give the
// same round (the daily challenge depends on it), and no DOM is touched.
import { animalName, languageChain } from "./catalog.js";
import { shuffle } from "./rng.js";

/** The quiz modes, as they appear in `?mode=`. */
export const MODES = ["sound", "image", "daily", "learn"];

/**
 * What an animal is asked by in a mode: its sound, its picture, or nothing
 * (then it cannot be asked in that mode). Daily and learn use the sound when
 * there is one, since hearing is the harder and more useful skill, else the
 * picture.
 * @param {import("./catalog.js").Animal} animal
 * @param {string} mode
 * @returns {"sound"|"image"|null}
 */
export function promptKind(animal, mode) {
  if (mode === "sound") return animal.sound ? "sound" : null;
  if (mode === "image") return animal.image ? "image" : null;
  return animal.sound ? "sound" : animal.image ? "image" : null;
}

/**
 * The modes this catalogue can offer, in menu order.
 * @param {readonly import("./catalog.js").Animal[]} animals
 * @returns {string[]}
 */
export function availableModes(animals) {
  return MODES.filter((m) => animals.some((a) => promptKind(a, m)));
}

/**
 * The mode used when the URL names none (or one this catalogue cannot play):
 * sound when any animal has a sound, else image.
 * @param {readonly import("./catalog.js").Animal[]} animals
 */
export function defaultMode(animals) {
  return animals.some((a) => a.sound) ? "sound" : "image";
}

/**
 * The animals of the learner's groups and difficulty range.
 * @param {readonly import("./catalog.js").Animal[]} animals
 * @param {Filters} filters
 */
function chosenAnimals(animals, { groups, difficultyMin, difficultyMax }) {
  const wanted = Array.isArray(groups) && groups.length ? new Set(groups) : null;
  const min = difficultyMin ?? 1, max = difficultyMax ?? 3;
  return animals.filter((a) => (!wanted || (a.group !== null && wanted.has(a.group))) && a.difficulty >= min && a.difficulty <= max);
}

/**
 * Applies the learner's filters. Groups and the difficulty range are hard
 * filters (the learner chose them). The level cap (`unlocked`, the hardest
 * difficulty the learner's level allows) is soft: it is raised step by step
 * when it would leave too few animals, so a catalogue of only hard animals is
 * still playable from level 1.
 * @param {readonly import("./catalog.js").Animal[]} animals
 * @param {Filters} [filters]
 * @param {{mode: string, choices: number, keysOf: (a: any) => string[]}} need
 * @returns {{animals: import("./catalog.js").Animal[], unlocked: number}}
 */
function filterAnimals(animals, filters, need) {
  filters ??= {};
  const chosen = chosenAnimals(animals, filters);
  let cap = Math.max(1, filters.unlocked ?? 3);
  for (;;) {
    const capped = chosen.filter((a) => a.difficulty <= cap);
    const enough =
      capped.filter((a) => promptKind(a, need.mode)).length >= need.choices && countDistinctNames(capped, need.keysOf) >= need.choices;
    if (enough || cap >= 3) return { animals: capped, unlocked: cap };
    cap++;
  }
}

/**
 * Builds one round.
 *
 * Rules: no animal twice among a question's choices; no two choices with the
 * same visible name in any of the site's languages (real catalogues have two
 * different "Cow"s), nor with the same sound or picture; no animal asked twice while unasked ones remain;
 * distractors preferably askable in this mode, from the same group and of
 * similar difficulty; the answer's position is random.
 *
 * @param {object} options
 * @param {readonly import("./catalog.js").Animal[]} options.animals the catalogue's animals
 * @param {string} options.mode one of MODES
 * @param {number} options.questions how many questions
 * @param {number} options.choices choices per question (at least 2)
 * @param {readonly string[]} options.languages the site's languages (first = default)
 * @param {() => number} options.rng from rng.js
 * @param {Filters} [options.filters]
 * @param {readonly string[]} [options.targets] ask exactly these ids in this order (learn mode)
 * @returns {RoundResult}
 */
export function buildRound({ animals, mode, questions, choices, languages, rng, filters, targets }) {
  const pool = roundPool({ animals, mode, choices, languages, filters });
  const ask = askedBy(mode, filters);
  if (!pool.ok) return pool;
  let wanted = targets ? targets.length : Math.max(1, Math.floor(questions) || 1);
  // Offline with only some animals saved, each once: two saved ones would fill a round by turns.
  if (pool.saved && !targets) wanted = Math.min(wanted, pool.askable.length);
  const byId = new Map(pool.askable.map((a) => [a.id, a]));
  const asked = targets ? targets.map((id) => byId.get(id)).filter(Boolean) : drawTargets(pool.askable, wanted, rng);
  if (!asked.length) return { ok: false, reason: "no-animals", needed: 1, have: 0 };
  const out = [];
  for (const target of asked) {
    const q = buildQuestion(target, pool.animals, pool.choices, ask, pool.keysOf, rng);
    if (!q) return { ok: false, reason: "too-few", needed: pool.choices, have: pool.distinct };
    out.push(q);
  }
  return { ok: true, mode, questions: out, unlocked: pool.unlocked, saved: pool.saved };
}

/**
 * The animals a round may use, after filters: `animals` (all that may be
 * offered as choices) and `askable` (those that can be asked in this mode),
 * both sorted by id so the result does not depend on catalogue order; or the
 * typed reason why no round is possible; `saved` when filters.askable left
 * out some of them (offline). Learn mode uses it to plan sessions over
 * exactly the animals a round would accept.
 * @param {{animals: readonly import("./catalog.js").Animal[], mode: string, choices: number,
 *   languages: readonly string[], filters?: Filters}} options
 */
export function roundPool({ animals, mode, choices, languages, filters }) {
  mode = askedBy(mode, filters);
  const perQuestion = Math.max(2, Math.floor(choices) || 2);
  const sorted = animals.slice().sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (!sorted.some((a) => promptKind(a, mode))) return { ok: false, reason: "no-media", needed: 1, have: 0 };
  const keysOf = nameKeys(languages);
  const { animals: pool, unlocked } = filterAnimals(sorted, filters, { mode, choices: perQuestion, keysOf });
  const canAsk = filters && filters.askable ? filters.askable : null;
  const askable = pool.filter((a) => promptKind(a, mode) && (!canAsk || canAsk.has(a.id)));
  if (!askable.length) return { ok: false, reason: canAsk && pool.some((a) => promptKind(a, mode)) ? "offline" : "no-animals", needed: 1, have: 0 };
  const distinct = countDistinctNames(pool, keysOf);
  if (distinct < perQuestion) return { ok: false, reason: "too-few", needed: perQuestion, have: distinct };
  const saved = !!canAsk && askable.length < pool.filter((a) => promptKind(a, mode)).length;
  return { ok: true, animals: pool, askable, unlocked, keysOf, distinct, choices: perQuestion, saved };
}

/** The mode a round asks by: sounds only makes daily and learn sound rounds (any animal may still be an answer). */
function askedBy(mode, filters) {
  return filters?.soundsOnly && (mode === "daily" || mode === "learn") ? "sound" : mode;
}

/**
 * Whether the level cap `after` (up from `before`) lets animals into this mode's rounds that
 * were not asked before: not when the learner's filters hold no harder animal, nor when the cap
 * was raised for them already (too few easy ones).
 * @param {{animals: readonly import("./catalog.js").Animal[], mode: string, choices: number,
 *   languages: readonly string[], filters?: Filters}} options
 * @param {number} before
 * @param {number} after
 */
export function unlocksAnimals(options, before, after) {
  const count = (unlocked) => roundPool({ ...options, filters: { ...options.filters, askable: null, unlocked } }).askable?.length ?? 0;
  return count(after) > count(before);
}

/**
 * Keys that identify an animal's visible name in each site language (with
 * that language's fallback chain), normalised for comparison. Two animals
 * sharing any key must never be offered side by side. Using every language,
 * not just the page's, keeps a seeded round identical across languages.
 * @param {readonly string[]} languages
 * @returns {(animal: import("./catalog.js").Animal) => string[]}
 */
export function nameKeys(languages) {
  const langs = languages.length ? languages : ["en"];
  const chains = langs.map((l) => [l, languageChain(l, langs)]);
  const cache = new Map();
  return (animal) => {
    let keys = cache.get(animal);
    if (!keys) {
      keys = chains.map(([l, chain]) => l + "\u0000" + normaliseName(animalName(animal, chain)));
      // One recording or picture for two animals is no difference either: both answers were right.
      for (const m of [animal.sound, animal.image]) if (m) keys.push(m.src);
      cache.set(animal, keys);
    }
    return keys;
  };
}

/** Direction marks (U+200E, U+200F, U+061C) show nothing, so they are no difference. */
function normaliseName(name) {
  return name.normalize("NFC").replace(/[\u200e\u200f\u061c]/g, "").trim().replace(/\s+/g, " ").toLowerCase();
}

/** Size of a greedy set of animals whose names never collide. */
function countDistinctNames(animals, keysOf) {
  const used = new Set();
  let n = 0;
  for (const a of animals) {
    const keys = keysOf(a);
    if (keys.some((k) => used.has(k))) continue;
    keys.forEach((k) => used.add(k));
    n++;
  }
  return n;
}

/** Draws `n` animals, exhausting the pool before any repeats (and never the same twice in a row). */
function drawTargets(askable, n, rng) {
  const out = [];
  let bag = [];
  while (out.length < n) {
    if (!bag.length) {
      bag = shuffle(rng, askable);
      if (out.length && bag.length > 1 && bag[0] === out[out.length - 1]) bag.push(bag.shift());
    }
    out.push(bag.shift());
  }
  return out;
}

function buildQuestion(target, pool, size, mode, keysOf, rng) {
  const ranked = pool
    .filter((a) => a !== target)
    .map((a) => ({ a, score: distractorScore(target, a, mode), tie: rng() }))
    .sort((x, y) => y.score - x.score || x.tie - y.tie);
  const used = new Set(keysOf(target));
  const chosen = [target];
  for (const { a } of ranked) {
    if (chosen.length === size) break;
    const keys = keysOf(a);
    if (keys.some((k) => used.has(k))) continue;
    keys.forEach((k) => used.add(k));
    chosen.push(a);
  }
  if (chosen.length < size) return null;
  return { id: target.id, prompt: promptKind(target, mode), choices: shuffle(rng, chosen).map((a) => a.id) };
}

/**
 * How good a distractor is for a target. Askable in this mode matters most
 * (otherwise a learner learns that some names are never right), then the same
 * group (a fox among birds is too easy), then similar difficulty.
 */
function distractorScore(target, other, mode) {
  const diff = Math.abs(target.difficulty - other.difficulty);
  return (
    (promptKind(other, mode) ? 4 : 0) +
    (target.group !== null && other.group === target.group ? 2 : 0) +
    (diff === 0 ? 1 : diff === 1 ? 0.5 : 0)
  );
}

/**
 * @typedef {{groups?: string[], difficultyMin?: number, difficultyMax?: number, unlocked?: number,
 *   askable?: Set<string>|null, soundsOnly?: boolean}} Filters `askable`: only these ids may be asked (offline: cached media)
 * @typedef {{id: string, prompt: "sound"|"image", choices: string[]}} Question
 * @typedef {{ok: true, mode: string, questions: Question[], unlocked: number, saved: boolean}
 *   | {ok: false, reason: "no-media"|"no-animals"|"too-few"|"offline", needed: number, have: number}} RoundResult
 */
