import { test } from "node:test";
import assert from "node:assert/strict";
import { animalName, languageChain, localized, parseCatalog } from "../../templates/assets/js/catalog.js";
import { rawCatalog, SPECS } from "./helpers.mjs";

test("parses the build's catalogue shape", () => {
  const parsed = parseCatalog(rawCatalog(SPECS));
  assert.equal(parsed.ok, true);
  assert.equal(parsed.dropped, 0);
  const { catalog } = parsed;
  assert.match(catalog.fingerprint, /^[0-9a-f]+$/);
  assert.deepEqual(catalog.languages, ["de", "en"]);
  assert.deepEqual(catalog.quiz, { questions: 10, choices: 4 });
  const fox = catalog.animals.find((a) => a.id === "red-fox");
  assert.equal(fox.sound.src, "media/red-fox.3f2a1b4c5d.ogg");
  assert.equal(fox.sound.source, null);
  assert.equal(fox.image.width, 800);
  assert.equal(fox.page, "animals/red-fox/");
  assert.deepEqual(catalog.descriptions, { en: "assets/descriptions.en.0123456789.json" });
  assert.equal("description" in fox, false);
});

test("the fingerprint is what rounds are drawn from: a mended credit or scientific name keeps it, the daily's questions with it", () => {
  const key = (change) => {
    const raw = rawCatalog(SPECS);
    change(raw.animals.find((a) => a.id === "red-fox"));
    return parseCatalog(raw).catalog.fingerprint;
  };
  const before = key(() => {});
  // The build's own `fingerprint` covers every byte of the catalogue; a typo mended in a photo
  // credit changed the day's questions for everyone (found by a preview's audit).
  assert.equal(key((fox) => (fox.sound.credit = "Jane Doe.")), before);
  assert.equal(key((fox) => (fox.scientific = "Vulpes vulpes")), before);
  assert.equal(key((fox) => (fox.tags = ["forest"])), before);
  assert.equal(key((fox) => (fox.sound.src = "media/red-fox.ffffffffff.ogg")), before, "another recording of it");
  assert.notEqual(key((fox) => (fox.difficulty = 3)), before);
  assert.notEqual(key((fox) => (fox.names.en = "Fox!")), before, "names decide which animals are offered together");
  assert.notEqual(key((fox) => (fox.sound = null)), before);
  assert.notEqual(key((fox) => (fox.group = "bird")), before);
  // Two animals with one recording are never offered together, as two named alike are not.
  const wolf = rawCatalog(SPECS).animals.find((a) => a.id !== "red-fox" && a.sound);
  assert.notEqual(key((fox) => (fox.sound.src = wolf.sound.src)), before);
  const raw = rawCatalog(SPECS);
  const { catalog } = parseCatalog({ ...raw, animals: [...raw.animals].reverse() });
  assert.equal(catalog.fingerprint, before, "the catalogue's order aside");
  assert.equal(parseCatalog({ ...raw, quiz: { questions: 5, choices: 4 } }).catalog.fingerprint === before, false);
});

test("the descriptions' files are named by language; anything else there is dropped", () => {
  const raw = rawCatalog(SPECS.slice(0, 2), { descriptions: { de: "assets/descriptions.de.a.json", en: 5, fr: " " } });
  assert.deepEqual(parseCatalog(raw).catalog.descriptions, { de: "assets/descriptions.de.a.json" });
  assert.deepEqual(parseCatalog(rawCatalog([], { descriptions: ["x"] })).catalog.descriptions, {});
  const { descriptions: _, ...without } = rawCatalog([]);
  assert.deepEqual(parseCatalog(without).catalog.descriptions, {});
});

test("broken records are dropped or repaired, never passed on", () => {
  const raw = rawCatalog(SPECS.slice(0, 2));
  raw.animals.push(
    { id: "", names: { en: "No id" } },
    { id: "nameless", names: {} },
    { id: "robin", names: { en: "Duplicate robin" } },
    "not an object",
    { id: "odd", names: { en: "Odd", de: 5 }, difficulty: 9, group: "", sound: { src: "" }, image: { src: "x.webp", width: -1 }, tags: "x" },
  );
  const parsed = parseCatalog(raw);
  assert.equal(parsed.ok, true);
  assert.equal(parsed.dropped, 4);
  const odd = parsed.catalog.animals.find((a) => a.id === "odd");
  assert.deepEqual(odd.names, { en: "Odd" });
  assert.equal(odd.difficulty, 3);
  assert.equal(odd.group, null);
  assert.equal(odd.sound, null);
  assert.equal(odd.image.width, null);
  assert.deepEqual(odd.tags, []);
  assert.equal(parsed.catalog.animals.find((a) => a.id === "robin").names.en, "Robin");
});

test("unknown formats and non-catalogues are typed failures", () => {
  assert.deepEqual(parseCatalog({ ...rawCatalog([]), format: 2 }), { ok: false, reason: "unsupported-format" });
  assert.deepEqual(parseCatalog(null), { ok: false, reason: "bad-catalog" });
  assert.deepEqual(parseCatalog({ format: 1 }), { ok: false, reason: "bad-catalog" });
});

test("names fall back along the site's languages, the first being the default", () => {
  assert.deepEqual(languageChain("en", ["de", "en", "fr"]), ["en", "de", "fr"]);
  assert.deepEqual(languageChain("fr", ["de", "en"]), ["fr", "de", "en"]);
  const animal = { id: "x", names: { de: "Rotfuchs", en: "Red fox" } };
  assert.equal(animalName(animal, languageChain("en", ["de", "en"])), "Red fox");
  assert.equal(animalName(animal, languageChain("fr", ["de", "en"])), "Rotfuchs");
  assert.equal(animalName({ id: "x", names: { it: "Volpe" } }, ["de", "en"]), "Volpe");
  assert.equal(animalName({ id: "lonely", names: {} }, ["en"]), "lonely");
  assert.deepEqual(localized({ en: "About" }, ["de", "en"]), { text: "About", lang: "en" });
  assert.equal(localized({}, ["de"]), null);
});

test("a missing text map is no text (a theme's older quiz-page.js reads animal.description)", () => {
  assert.equal(localized(undefined, ["en"]), null);
  assert.equal(localized(null, ["en"]), null);
});
