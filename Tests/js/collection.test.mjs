import { test } from "node:test";
import assert from "node:assert/strict";
import { comparator, emptyReason, filtersFromQuery, fold, matches, queryFromFilters } from "../../templates/assets/js/collection.js";

const card = (id, names, group = "", extra = {}) => ({ id, group, search: fold(names), ...extra });
const fox = card("red-fox", "red fox rotfuchs vulpes vulpes", "mammal");
const wren = card("wren", "wren zaunkönig troglodytes troglodytes", "bird");
const learner = { guessed: new Set(["wren"]), favorites: new Set(["red-fox"]) };
const all = { q: "", show: "all", group: "" };

test("fold ignores case and accents, in any script", () => {
  assert.equal(fold("Zaunkönig"), "zaunkonig");
  assert.equal(fold("ÉLAN"), "elan");
  assert.equal(fold("Straße"), "strasse");
  assert.equal(fold("Ωμέγα"), "ωμεγα");
  assert.equal(fold("כֶּלֶב"), "כלב");
  assert.equal(fold("Дёрн"), "дерн");
});

test("fold keeps marks that make another letter, and reads katakana as hiragana", () => {
  assert.notEqual(fold("が"), fold("か"));
  assert.equal(fold("アゲハ"), fold("あげは"));
  assert.equal(fold("ガ"), "が");
  assert.notEqual(fold("कि"), fold("क"));
});

test("search finds any name in any language, accents and case ignored, every word", () => {
  const hit = (q, c) => matches(c, { ...all, q }, learner);
  assert.equal(hit("Rotfuchs", fox), true);
  assert.equal(hit("FOX", fox), true);
  assert.equal(hit("zaunkonig", wren), true);
  assert.equal(hit("Zaunkönig", wren), true);
  assert.equal(hit("ZAUNKÖ", wren), true);
  assert.equal(hit("vulpes", fox), true);
  assert.equal(hit("red fuchs", fox), true);
  assert.equal(hit("red wren", fox), false);
  assert.equal(hit("   ", fox), true);
});

test("filters: group, guessed, favourites", () => {
  assert.equal(matches(fox, { ...all, group: "bird" }, learner), false);
  assert.equal(matches(wren, { ...all, group: "bird" }, learner), true);
  assert.equal(matches(fox, { ...all, show: "guessed" }, learner), false);
  assert.equal(matches(wren, { ...all, show: "guessed" }, learner), true);
  assert.equal(matches(fox, { ...all, show: "favorites" }, learner), true);
  assert.equal(matches(wren, { ...all, show: "favorites" }, learner), false);
});

test("filters round-trip through the address bar; unknown values fall back", () => {
  const f = filtersFromQuery(new URLSearchParams("q=fox&show=favorites&group=bird&sort=group"), ["bird", "mammal"]);
  assert.deepEqual(f, { q: "fox", show: "favorites", group: "bird", sort: "group" });
  assert.equal(queryFromFilters(f), "?q=fox&show=favorites&group=bird&sort=group");
  assert.deepEqual(filtersFromQuery(new URLSearchParams("show=secret&group=dragons&sort=size"), ["bird"]), { q: "", show: "all", group: "", sort: "name" });
  assert.equal(queryFromFilters({ q: " ", show: "all", group: "", sort: "name" }), "");
});

test("sort by group keeps name order inside groups and puts ungrouped last; by difficulty likewise", () => {
  const cards = [
    { id: "a", index: 0, groupLabel: "Vögel", difficulty: 2 },
    { id: "b", index: 1, groupLabel: "", difficulty: 1 },
    { id: "c", index: 2, groupLabel: "Amphibien", difficulty: 3 },
    { id: "d", index: 3, groupLabel: "Vögel", difficulty: 1 },
  ];
  assert.deepEqual(cards.slice().sort(comparator("group", "de")).map((c) => c.id), ["c", "a", "d", "b"]);
  assert.deepEqual(cards.slice().sort(comparator("difficulty", "de")).map((c) => c.id), ["b", "d", "a", "c"]);
  assert.deepEqual(cards.slice().reverse().sort(comparator("name", "de")).map((c) => c.id), ["a", "b", "c", "d"]);
});

test("the empty message names the most specific reason", () => {
  const none = { guessed: new Set(), favorites: new Set() };
  assert.equal(emptyReason({ ...all, show: "favorites" }, none), "no-favorites");
  assert.equal(emptyReason({ ...all, show: "guessed" }, none), "no-guessed");
  assert.equal(emptyReason({ ...all, show: "favorites", q: "x" }, learner), "search");
  assert.equal(emptyReason({ ...all, group: "bird", show: "favorites" }, learner), "filters");
});
