// The catalogue the build emits (assets/catalog.HASH.json), checked and
// normalised once, so the rest of the app can trust every field's type.
// A record with a broken field is repaired or left out, never allowed to
// crash a round: a static site cannot show a stack trace to a learner.
import { hashString } from "./rng.js";

/** The catalogue format this code understands (the build's `format`). */
export const CATALOG_FORMAT = 1;

/**
 * Validates and normalises the parsed catalogue JSON.
 * @param {unknown} data the parsed JSON
 * @returns {{ok: true, catalog: Catalog, dropped: number} | {ok: false, reason: "bad-catalog"|"unsupported-format"}}
 */
export function parseCatalog(data) {
  if (!isObject(data) || !Array.isArray(data.animals)) return { ok: false, reason: "bad-catalog" };
  if (data.format !== CATALOG_FORMAT) return { ok: false, reason: "unsupported-format" };
  const languages = strings(data.languages);
  const quiz = isObject(data.quiz) ? data.quiz : {};
  const seen = new Set();
  const animals = [];
  for (const raw of data.animals) {
    const animal = normaliseAnimal(raw);
    if (!animal || seen.has(animal.id)) continue;
    seen.add(animal.id);
    animals.push(animal);
  }
  const catalog = {
    fingerprint: "",
    languages: languages.length ? languages : ["en"],
    quiz: { questions: count(quiz.questions, 10), choices: count(quiz.choices, 4) },
    descriptions: textMap(data.descriptions),
    animals,
  };
  // What rounds are drawn from (it seeds the daily and keys a kept round), made when first
  // asked: not the build's `fingerprint`, which a mended credit or scientific name changed.
  let key = "";
  Object.defineProperty(catalog, "fingerprint", {
    enumerable: true,
    get: () => (key ||= quizKey(catalog)),
  });
  return { ok: true, dropped: data.animals.length - animals.length, catalog };
}

/**
 * A hash of what a round is made of: each animal's id, group, difficulty, names (animals
 * named alike are never offered together), whether it has a sound and a picture, and the
 * animals it shares one with (nor are those).
 * @param {Catalog} catalog
 */
export function quizKey({ animals, quiz, languages }) {
  const shared = new Map();
  for (const a of animals) for (const m of [a.sound, a.image]) if (m) shared.set(m.src, [...(shared.get(m.src) || []), a.id]);
  const media = (m) => m && (shared.get(m.src).length > 1 ? shared.get(m.src) : 1);
  const parts = animals.map((a) => [a.id, a.group, a.difficulty, Object.entries(a.names).sort(), media(a.sound), media(a.image)]);
  parts.sort((x, y) => (x[0] < y[0] ? -1 : 1));
  return hashString(JSON.stringify([parts, quiz, languages])).toString(16);
}

/**
 * The order in which to look up a text: the page's language first, then the
 * site's languages in order (the first one is the site default).
 * @param {string} lang the page language
 * @param {readonly string[]} siteLanguages
 * @returns {string[]}
 */
export function languageChain(lang, siteLanguages) {
  const chain = lang ? [lang] : [];
  for (const l of siteLanguages) if (!chain.includes(l)) chain.push(l);
  return chain;
}

/**
 * Picks a text from a per-language map along the chain, falling back to any
 * language present; returns the text and the language it is actually in
 * (read-aloud needs the latter to choose a voice).
 * @param {Record<string,string>} texts
 * @param {readonly string[]} chain
 * @returns {{text: string, lang: string} | null}
 */
export function localized(texts, chain) {
  // A theme's older quiz-page.js asks for `animal.description`, no longer in the catalogue.
  if (!texts) return null;
  for (const l of chain) if (texts[l]) return { text: texts[l], lang: l };
  for (const l of Object.keys(texts).sort()) if (texts[l]) return { text: texts[l], lang: l };
  return null;
}

/**
 * The name a learner sees for an animal (its id if it has no name at all).
 * @param {Animal} animal
 * @param {readonly string[]} chain from languageChain()
 */
export function animalName(animal, chain) {
  const found = localized(animal.names, chain);
  return found ? found.text : animal.id;
}

function normaliseAnimal(raw) {
  if (!isObject(raw) || typeof raw.id !== "string" || raw.id === "") return null;
  const names = textMap(raw.names);
  if (!Object.keys(names).length) return null;
  const difficulty = Number.isInteger(raw.difficulty) ? Math.min(3, Math.max(1, raw.difficulty)) : 1;
  return {
    id: raw.id,
    names,
    scientific: typeof raw.scientific === "string" ? raw.scientific : null,
    group: typeof raw.group === "string" && raw.group !== "" ? raw.group : null,
    difficulty,
    tags: strings(raw.tags),
    page: typeof raw.page === "string" ? raw.page : null,
    sound: media(raw.sound),
    image: media(raw.image),
  };
}

function media(raw) {
  if (!isObject(raw) || typeof raw.src !== "string" || raw.src === "") return null;
  const out = { src: raw.src };
  for (const key of ["type", "credit", "license", "source", "srcset", "focus"]) {
    out[key] = typeof raw[key] === "string" && raw[key] !== "" ? raw[key] : null;
  }
  for (const key of ["width", "height", "bytes"]) {
    out[key] = Number.isFinite(raw[key]) && raw[key] > 0 ? raw[key] : null;
  }
  return out;
}

function textMap(raw) {
  const out = {};
  if (isObject(raw)) for (const [k, v] of Object.entries(raw)) if (typeof v === "string" && v.trim()) out[k] = v;
  return out;
}

function strings(raw) {
  return Array.isArray(raw) ? raw.filter((x) => typeof x === "string" && x !== "") : [];
}

function count(raw, fallback) {
  return Number.isInteger(raw) && raw > 0 ? raw : fallback;
}

function isObject(x) {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/**
 * @typedef {{src: string, type: string|null, credit: string|null, license: string|null, source: string|null,
 *   srcset: string|null, focus: string|null, width: number|null, height: number|null, bytes: number|null}} Media
 * @typedef {{id: string, names: Record<string,string>, scientific: string|null, group: string|null,
 *   difficulty: number, tags: string[], page: string|null, sound: Media|null, image: Media|null}} Animal
 * @typedef {{fingerprint: string, languages: string[], quiz: {questions: number, choices: number},
 *   descriptions: Record<string,string>, animals: Animal[]}} Catalog
 *   (`descriptions`: language → the file of the animals' short texts, read by descriptions.js)
 */
