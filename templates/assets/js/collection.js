// The collection's search, filters and sort orders, pure so they are tested
// without a browser; collection-page.js applies them to the page's cards.

/**
 * Accents and pointing that a learner may leave out: the combining diacritics of Latin, Greek and
 * Cyrillic, Hebrew's niqqud and cantillation, Arabic's harakat. Not every mark: Japanese dakuten
 * (か and が are two letters) and the vowel signs of Indic scripts are part of the letter.
 */
const OPTIONAL_MARKS = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u064b-\u065f\u0670]/g;

/**
 * Lower case without accents: "Élan" matches "elan", "Zaunkönig" matches "zaunkonig"; the
 * ligatures as their letters ("Œdicnème" matches "oedicneme", a translator's); a typographic
 * apostrophe as a straight one ("l’écureuil" matches "l'ecureuil"); katakana as hiragana
 * ("アゲハ" matches "あげは").
 */
export function fold(text) {
  return text
    .normalize("NFD")
    .replace(OPTIONAL_MARKS, "")
    .replace(/ß/g, "ss")
    .replace(/[œŒ]/g, "oe")
    .replace(/[æÆ]/g, "ae")
    .replace(/[’ʼ]/g, "'")
    .replace(/[\u30a1-\u30f6]/g, (k) => String.fromCharCode(k.charCodeAt(0) - 0x60))
    .normalize("NFC")
    .toLowerCase();
}

/** The filters as the form holds them. */
export const SHOW = ["all", "guessed", "favorites"];
export const SORTS = ["name", "group", "difficulty"];

/**
 * The filters from a URL's query (`?q=fox&show=favorites&group=bird&sort=group`),
 * with anything unknown replaced by its default.
 * @param {URLSearchParams} params
 * @param {readonly string[]} groups the groups the page offers
 */
export function filtersFromQuery(params, groups) {
  const show = params.get("show");
  const group = params.get("group");
  const sort = params.get("sort");
  return {
    q: (params.get("q") || "").slice(0, 200),
    show: SHOW.includes(show) ? show : "all",
    group: group && groups.includes(group) ? group : "",
    sort: SORTS.includes(sort) ? sort : "name",
  };
}

/**
 * The query that reproduces the filters (defaults left out), for the address bar.
 * @param {{q: string, show: string, group: string, sort: string}} f
 */
export function queryFromFilters(f) {
  const params = new URLSearchParams();
  if (f.q.trim()) params.set("q", f.q.trim());
  if (f.show !== "all") params.set("show", f.show);
  if (f.group) params.set("group", f.group);
  if (f.sort !== "name") params.set("sort", f.sort);
  const text = params.toString();
  return text ? "?" + text : "";
}

/**
 * One folded query word as a pattern over folded names, for the German ways of writing an
 * umlaut: "Möwe", "Moewe" (no ö on the keyboard) and "Mowe" (fold() drops the dots) must find
 * one another, whichever of them the record has. Only the query is rewritten: each a, o, u in
 * it may be followed by an e in the name, and an e right after one may be missing there
 * ("ae", "oe", "ue", "a", "o", "u" all become "ae?", "oe?", "ue?"). So "moewe" and "mowe" both
 * become /moe?we/, which matches the folded "mowe" (Möwe) and "moewe" (Moewe). The names are
 * never rewritten: rewriting "ue" to "u" on both sides, say, would lose every query that is a
 * plain part of a name but starts inside such a pair ("er" in "Feuer", "een" in "Queen"), while
 * here any plain part of a folded name still matches, as before. ß is "ss" on both sides
 * (fold), so "Strauss" finds "Strauß". The price is a few more hits: a query's a, o, u also
 * find an ae, oe, ue that is no umlaut ("Pot" finds "Poet").
 * @param {string} word a word of fold(query)
 */
export function wordPattern(word) {
  const literal = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(literal.replace(/([aou])e?/g, "$1e?"));
}

/** The patterns of the last query (matches() runs once per card for the same query). */
let lastQuery = null;
let lastPatterns = [];

function queryPatterns(q) {
  if (q !== lastQuery) {
    lastQuery = q;
    lastPatterns = fold(q).split(/\s+/).filter(Boolean).map(wordPattern);
  }
  return lastPatterns;
}

/**
 * Whether one card passes the filters. Every word of the query must occur in
 * the card's names (any language, accents and case ignored, German umlauts
 * written as ae, oe, ue or without dots: wordPattern()).
 * @param {{id: string, group: string, search: string}} card `search` already folded
 * @param {{q: string, show: string, group: string}} f
 * @param {{guessed: Set<string>, favorites: Set<string>}} learner
 */
export function matches(card, f, learner) {
  if (queryPatterns(f.q).some((p) => !p.test(card.search))) return false;
  if (f.group && card.group !== f.group) return false;
  if (f.show === "guessed" && !learner.guessed.has(card.id)) return false;
  if (f.show === "favorites" && !learner.favorites.has(card.id)) return false;
  return true;
}

/**
 * The cards to put on the page: the first `limit` of `sorted` that pass the filters (a catalogue
 * of 10,000 animals shows a page of them at a time), and how many pass in all.
 * @template {{id: string, group: string, search: string}} C
 * @param {readonly C[]} sorted
 * @param {{q: string, show: string, group: string}} f
 * @param {{guessed: Set<string>, favorites: Set<string>}} learner
 * @param {number} limit
 * @returns {{shown: C[], total: number}}
 */
export function visibleCards(sorted, f, learner, limit) {
  const shown = [];
  let total = 0;
  for (const card of sorted) {
    if (!matches(card, f, learner)) continue;
    total++;
    if (shown.length < limit) shown.push(card);
  }
  return { shown, total };
}

/**
 * Compares two cards for a sort order; ties keep the name order (`index`,
 * the order the build sorted them in by name in the page's language).
 * @param {string} sort
 * @returns {(a: {index: number, groupLabel: string, difficulty: number}, b: typeof a) => number}
 */
export function comparator(sort, lang = "en") {
  const collator = new Intl.Collator(lang, { sensitivity: "base" });
  return (a, b) => {
    if (sort === "group") {
      // Animals without a group go last.
      if (!a.groupLabel !== !b.groupLabel) return a.groupLabel ? -1 : 1;
      const g = collator.compare(a.groupLabel, b.groupLabel);
      if (g) return g;
    } else if (sort === "difficulty" && a.difficulty !== b.difficulty) {
      return a.difficulty - b.difficulty;
    }
    return a.index - b.index;
  };
}

/**
 * Why nothing is shown, for the message: the most specific reason first.
 * @param {{q: string, show: string, group: string}} f
 * @param {{guessed: Set<string>, favorites: Set<string>}} learner
 * @returns {"no-favorites"|"no-guessed"|"search"|"filters"}
 */
export function emptyReason(f, learner) {
  if (f.show === "favorites" && learner.favorites.size === 0) return "no-favorites";
  if (f.show === "guessed" && learner.guessed.size === 0) return "no-guessed";
  if (f.q.trim()) return "search";
  return "filters";
}
