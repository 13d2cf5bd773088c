// The collection: search by any name (accents and case ignored), filter by
// group and by all / guessed / favourites, sort by name, group or
// difficulty, with a message that says why nothing is shown and a way back.
// The filters live in the address bar, so reload and back keep them.
// A big catalogue comes a page of cards at a time: the build puts the first
// page in the list and the others in an inert <template> (10,000 live cards
// took a browser about 10 s to lay out), and "Show more" adds the next page.
import { learnerStore, pageInfo, pageTranslator } from "./page.js";
import { comparator, emptyReason, filtersFromQuery, fold, queryFromFilters, visibleCards } from "./collection.js";
import { listPageSize, showMore, showOnly } from "./list-page.js";

const info = pageInfo();
const tr = pageTranslator(info);
const form = document.querySelector("[data-collection-tools]");
const list = document.querySelector("[data-collection-list]");
const empty = document.querySelector("[data-collection-empty]");
const emptyText = document.querySelector("[data-collection-empty-text]");
const count = document.querySelector("[data-collection-count]");
const later = document.querySelector("[data-collection-more]");

if (form && list) {
  const elements = [...list.querySelectorAll("[data-id]"), ...(later ? later.content.querySelectorAll("[data-id]") : [])];
  const cards = elements.map((el, index) => ({
    el,
    index,
    id: el.dataset.id,
    group: el.dataset.group || "",
    groupLabel: el.dataset.groupLabel || "",
    difficulty: Number(el.dataset.difficulty) || 1,
    search: fold(el.dataset.search || ""),
  }));
  const pageSize = listPageSize(list);
  const groups = [...form.elements.group.options].map((o) => o.value).filter(Boolean);
  let learner = readLearner();
  let order = "name";
  let sorted = cards;
  let limit = pageSize;
  /** The cards in the list, in its order. */
  let shown = cards.filter((card) => card.el.parentNode === list);

  const current = () => ({
    q: form.elements.q.value,
    show: form.elements.show.value || "all",
    group: form.elements.group.value,
    sort: form.elements.sort.value,
  });

  // The next page of cards: the ones it added.
  const updateMore = showMore(document.querySelector("[data-collection-more-wrap]"), document.querySelector("[data-collection-show-more]"), tr, () => {
    const before = shown.length;
    limit = before + pageSize;
    apply({ updateUrl: false });
    return shown.slice(before).map((card) => card.el);
  });

  const apply = ({ updateUrl = true } = {}) => {
    const f = current();
    if (f.sort !== order) {
      order = f.sort;
      sorted = cards.slice().sort(comparator(order, info.lang));
    }
    const result = visibleCards(sorted, f, learner, limit);
    showOnly(list, shown.map((card) => card.el), result.shown.map((card) => card.el));
    shown = result.shown;
    for (const card of shown) badges(card);
    const visible = result.total;
    const countText = visible === cards.length ? tr("collection.countAll", { count: cards.length }) : tr("collection.countSome", { shown: visible, count: cards.length });
    // Set only when it changes: a live region says it again on every assignment.
    if (count.textContent !== countText) count.textContent = countText;
    empty.hidden = visible > 0;
    if (!visible) emptyText.textContent = emptyMessage(f);
    updateMore(visible - shown.length);
    if (updateUrl) history.replaceState(history.state, "", location.pathname + queryFromFilters(f) + location.hash);
  };

  /** New filters show the first page of what they find again. */
  const filter = () => {
    limit = pageSize;
    apply();
  };

  const badges = (card) => {
    if (card.box === undefined) card.box = card.el.querySelector("[data-card-badges]");
    const box = card.box;
    if (!box) return;
    const marks = [];
    if (learner.guessed.has(card.id)) marks.push(["guessed", "✓", tr("collection.badgeGuessed")]);
    if (learner.favorites.has(card.id)) marks.push(["favorite", "♥", tr("collection.badgeFavorite")]);
    const key = marks.map((m) => m[0]).join(",");
    if (box.dataset.marks === key) return;
    box.dataset.marks = key;
    box.replaceChildren(
      ...marks.map(([kind, symbol, label]) => {
        const span = document.createElement("span");
        span.className = `badge badge-${kind}`;
        span.title = label;
        const icon = document.createElement("span");
        icon.setAttribute("aria-hidden", "true");
        icon.textContent = symbol;
        const text = document.createElement("span");
        text.className = "visually-hidden";
        text.textContent = label;
        span.append(icon, text);
        return span;
      }),
    );
  };

  const emptyMessage = (f) => {
    switch (emptyReason(f, learner)) {
      case "no-favorites":
        return tr("collection.emptyFavorites");
      case "no-guessed":
        return tr("collection.emptyGuessed");
      case "search":
        return tr("collection.emptySearch", { query: f.q.trim() });
      default:
        return tr("collection.emptyFilters");
    }
  };

  const initial = filtersFromQuery(new URLSearchParams(location.search), groups);
  form.elements.q.value = initial.q;
  form.elements.show.value = initial.show;
  form.elements.group.value = initial.group;
  form.elements.sort.value = initial.sort;

  form.addEventListener("input", filter);
  form.addEventListener("change", filter);
  form.addEventListener("submit", (event) => event.preventDefault());
  document.querySelector("[data-collection-clear]")?.addEventListener("click", () => {
    form.elements.q.value = "";
    form.elements.show.value = "all";
    form.elements.group.value = "";
    filter();
    form.elements.q.focus();
  });
  // Favourites or answers changed in another tab: show them without a reload.
  window.addEventListener("storage", () => {
    learner = readLearner();
    apply({ updateUrl: false });
  });
  // Back from an animal page (bfcache): its favourite may have changed.
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    learner = readLearner();
    apply({ updateUrl: false });
  });
  apply({ updateUrl: false });
}

function readLearner() {
  const state = learnerStore(info).load().state;
  return { guessed: new Set(state.stats.right), favorites: new Set(state.favorites) };
}
