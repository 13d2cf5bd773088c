import { test } from "node:test";
import assert from "node:assert/strict";
import { offlineUrls } from "../../templates/assets/js/offline-save.js";
import { parseCatalog } from "../../templates/assets/js/catalog.js";

test("offlineUrls lists every sound, picture width and animal page once, as absolute URLs", () => {
  const { catalog } = parseCatalog({
    format: 1,
    languages: ["de", "en"],
    animals: [
      { id: "owl", names: { en: "Owl" }, page: "animals/owl/", sound: { src: "media/a.ogg", bytes: 1000 }, image: { src: "media/b.webp", srcset: "media/b-320.webp 320w, media/b.webp 640w", bytes: 500 } },
      { id: "cat", names: { en: "Cat" }, page: "animals/cat/", sound: { src: "media/a.ogg" }, image: { src: "https://upload.example/cat.jpg" } },
    ],
  });
  const urls = offlineUrls(catalog, { root: "../../", langRoot: "../", base: "https://example.org/site/en/settings/" });
  assert.deepEqual(urls, [
    { url: "https://example.org/site/media/a.ogg", bytes: 1000 },
    { url: "https://example.org/site/media/b.webp", bytes: 500 },
    { url: "https://example.org/site/media/b-320.webp", bytes: null },
    { url: "https://example.org/site/en/animals/owl/", bytes: null },
    { url: "https://example.org/site/en/animals/cat/", bytes: null },
    { url: "https://example.org/site/en/collection/", bytes: null },
    { url: "https://example.org/site/en/sightings/", bytes: null },
  ]);
});

test("offlineUrls adds the animals' texts in the page's language, or its base language's", () => {
  const { catalog } = parseCatalog({
    format: 1,
    languages: ["de", "en"],
    descriptions: { de: "assets/descriptions.de.aaaaaa0000.json", en: "assets/descriptions.en.bbbbbb0000.json" },
    animals: [{ id: "owl", names: { en: "Owl" }, page: "animals/owl/" }],
  });
  const texts = (lang) => offlineUrls(catalog, { root: "../../", langRoot: "../", base: "https://example.org/site/en/settings/", lang })
    .map((u) => u.url).filter((url) => url.includes("descriptions"));
  assert.deepEqual(texts("en"), ["https://example.org/site/assets/descriptions.en.bbbbbb0000.json"]);
  assert.deepEqual(texts("de-CH"), ["https://example.org/site/assets/descriptions.de.aaaaaa0000.json"]);
  assert.deepEqual(texts("fr"), []);
  assert.deepEqual(texts(undefined), []);
});
