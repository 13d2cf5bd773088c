// Shared fixtures for the quiz's node tests: a catalogue in exactly the
// shape the build emits (DESIGN.md §6 / the quiz issue), run through the
// same parser the page uses.
import { parseCatalog } from "../../templates/assets/js/catalog.js";

export const JS_DIR = new URL("../../templates/assets/js/", import.meta.url);
export const CSS_FILE = new URL("../../templates/assets/css/quiz.css", import.meta.url);
export const I18N_DIR = new URL("../../templates/i18n/", import.meta.url);

const sound = (id) => ({ src: `media/${id}.3f2a1b4c5d.ogg`, type: "audio/ogg", credit: "Jane Doe", license: "CC BY-SA 4.0", source: null });
const image = (id) => ({ src: `media/${id}.1a2b3c4d5e.webp`, srcset: null, width: 800, height: 600, focus: null, credit: null, license: null, source: null });

/**
 * A raw catalogue object. Each spec: [id, en, de, group, difficulty, hasSound, hasImage].
 * @param {Array<[string, string, string, string|null, number, boolean, boolean]>} specs
 */
export function rawCatalog(specs, extra = {}) {
  return {
    format: 1,
    fingerprint: "9f2c0a7d",
    languages: ["de", "en"],
    quiz: { questions: 10, choices: 4 },
    descriptions: { en: "assets/descriptions.en.0123456789.json" },
    animals: specs.map(([id, en, de, group, difficulty, hasSound, hasImage]) => ({
      id,
      names: { de, en },
      scientific: null,
      group,
      difficulty,
      tags: [],
      page: `animals/${id}/`,
      sound: hasSound ? sound(id) : null,
      image: hasImage ? image(id) : null,
    })),
    ...extra,
  };
}

/** The standard fixture: birds and mammals, two different animals both called "Cow" in English. */
export const SPECS = [
  ["blackbird", "Blackbird", "Amsel", "bird", 1, true, true],
  ["robin", "Robin", "Rotkehlchen", "bird", 1, true, true],
  ["great-tit", "Great tit", "Kohlmeise", "bird", 1, true, false],
  ["chaffinch", "Chaffinch", "Buchfink", "bird", 2, true, true],
  ["wren", "Wren", "Zaunkönig", "bird", 2, true, false],
  ["nightingale", "Nightingale", "Nachtigall", "bird", 3, true, true],
  ["red-fox", "Red fox", "Rotfuchs", "mammal", 1, true, true],
  ["cow", "Cow", "Kuh", "mammal", 1, true, true],
  ["highland-cow", "Cow", "Hochlandrind", "mammal", 2, true, true],
  ["horse", "Horse", "Pferd", "mammal", 1, true, true],
  ["giraffe", "Giraffe", "Giraffe", "mammal", 2, false, true],
  ["koala", "Koala", "Koala", "mammal", 3, false, true],
  ["common-frog", "Common frog", "Grasfrosch", "amphibian", 1, true, false],
];

/** The parsed standard fixture. */
export function catalog(specs = SPECS, extra = {}) {
  const parsed = parseCatalog(rawCatalog(specs, extra));
  if (!parsed.ok) throw new Error("fixture did not parse: " + parsed.reason);
  return parsed.catalog;
}
