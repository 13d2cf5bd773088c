import { test } from "node:test";
import assert from "node:assert/strict";
import { comparator, emptyReason, filtersFromQuery, fold, matches, queryFromFilters, visibleCards, wordPattern } from "../../templates/assets/js/collection.js";

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
  // A translator's: "oedicneme" found nothing, "l'ecureuil" not "l’écureuil".
  assert.equal(fold("Œdicnème criard"), "oedicneme criard");
  assert.equal(fold("Æsop"), "aesop");
  assert.equal(fold("L’écureuil"), "l'ecureuil");
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

test("German umlauts: ö, oe and o find one another, whichever the name has; ß and ss too", () => {
  const gull = card("gull", "möwe silbermöwe larus argentatus", "bird");
  const lion = card("lion", "löwe lion panthera leo", "mammal");
  const ostrich = card("ostrich", "strauß struthio camelus", "bird");
  const plain = card("plain", "moewe loewe strauss maeusebussard", "bird");
  const hit = (q, c) => matches(c, { ...all, q }, learner);
  for (const q of ["Möwe", "Moewe", "MOEWE", "Mowe", "moe", "silbermoewe", "Silbermowe"]) assert.equal(hit(q, gull), true, q);
  for (const q of ["Löwe", "Loewe", "Lowe"]) assert.equal(hit(q, lion), true, q);
  for (const q of ["Strauß", "Strauss", "STRAUSS", "straus"]) assert.equal(hit(q, ostrich), true, q);
  // A name written without umlauts is found by the umlaut and by the bare vowel.
  for (const q of ["Möwe", "Mowe", "Löwe", "Lowe", "Strauß", "Mäusebussard", "Mausebussard", "Maeusebussard"]) assert.equal(hit(q, plain), true, q);
  assert.equal(hit("Mäusebussard", card("buzzard", "mäusebussard")), true);
  assert.equal(hit("Maeusebussard", card("buzzard", "mäusebussard")), true);
  // Still no hit for other letters.
  assert.equal(hit("Mewe", gull), false);
  assert.equal(hit("Moeve", gull), false);
  assert.equal(hit("Lowen", lion), false);
});

test("umlaut spellings never lose a plain part of a name, and the query is taken literally", () => {
  const hit = (q, names) => matches(card("x", names), { ...all, q }, learner);
  // Parts starting or ending inside an ae, oe or ue that is no umlaut.
  assert.equal(hit("er", "feuersalamander"), true);
  assert.equal(hit("een", "queen snake"), true);
  assert.equal(hit("ue", "blue tit"), true);
  assert.equal(hit("e", "blue tit"), true);
  assert.equal(hit("poet", "poet"), true);
  // Characters that mean something in a regular expression are plain text.
  assert.equal(hit("(", "fox"), false);
  assert.equal(hit("a.e", "fox"), false);
  assert.equal(hit("a.e", "a.e"), true);
  assert.equal(hit("[", "[x]"), true);
  assert.equal(wordPattern("moewe").test("mowe"), true);
  assert.equal(wordPattern("mowe").test("moewe"), true);
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

test("visibleCards shows the first page of the cards that pass, in order, and counts them all", () => {
  const many = Array.from({ length: 7 }, (_, i) => card(`a${i}`, i % 2 ? "odd vole" : "even wren", i % 2 ? "mammal" : "bird"));
  const page = visibleCards(many, all, learner, 3);
  assert.deepEqual(page.shown.map((c) => c.id), ["a0", "a1", "a2"]);
  assert.equal(page.total, 7);
  const wrens = visibleCards(many, { ...all, q: "wren" }, learner, 3);
  assert.deepEqual(wrens.shown.map((c) => c.id), ["a0", "a2", "a4"]);
  assert.equal(wrens.total, 4);
  const voles = visibleCards(many, { ...all, group: "mammal" }, learner, 10);
  assert.deepEqual(voles.shown.map((c) => c.id), ["a1", "a3", "a5"]);
  assert.equal(voles.total, 3);
  assert.deepEqual(visibleCards(many, { ...all, q: "owl" }, learner, 3), { shown: [], total: 0 });
});
