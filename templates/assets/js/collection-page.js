// The collection: search by any name (accents and case ignored), filter by
// group and by all / guessed / favourites, sort by name, group or
// difficulty, with a message that says why nothing is shown and a way back.
// The filters live in the address bar, so reload and back keep them.
import { learnerStore, pageInfo, pageTranslator } from "./page.js";
import { comparator, emptyReason, filtersFromQuery, fold, matches, queryFromFilters } from "./collection.js";

const info = pageInfo();
const tr = pageTranslator(info);
const form = document.querySelector("[data-collection-tools]");
const list = document.querySelector("[data-collection-list]");
const empty = document.querySelector("[data-collection-empty]");
const emptyText = document.querySelector("[data-collection-empty-text]");
const count = document.querySelector("[data-collection-count]");

if (form && list) {
  const cards = [...list.querySelectorAll("[data-id]")].map((el, index) => ({
    el,
    index,
    id: el.dataset.id,
    group: el.dataset.group || "",
    groupLabel: el.dataset.groupLabel || "",
    difficulty: Number(el.dataset.difficulty) || 1,
    search: fold(el.dataset.search || ""),
  }));
  const groups = [...form.elements.group.options].map((o) => o.value).filter(Boolean);
  let learner = readLearner();
  let order = "name";

  const current = () => ({
    q: form.elements.q.value,
    show: form.elements.show.value || "all",
    group: form.elements.group.value,
    sort: form.elements.sort.value,
  });

  const apply = ({ updateUrl = true } = {}) => {
    const f = current();
    if (f.sort !== order) {
      order = f.sort;
      const sorted = cards.slice().sort(comparator(order, info.lang));
      list.append(...sorted.map((c) => c.el));
    }
    let visible = 0;
    for (const card of cards) {
      const ok = matches(card, f, learner);
      card.el.hidden = !ok;
      if (ok) visible++;
      badges(card);
    }
    count.textContent = visible === cards.length ? tr("collection.countAll", { count: cards.length }) : tr("collection.countSome", { shown: visible, count: cards.length });
    empty.hidden = visible > 0;
    if (!visible) emptyText.textContent = emptyMessage(f);
    if (updateUrl) history.replaceState(history.state, "", location.pathname + queryFromFilters(f) + location.hash);
  };

  const badges = (card) => {
    const box = card.el.querySelector("[data-card-badges]");
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

  form.addEventListener("input", () => apply());
  form.addEventListener("change", () => apply());
  form.addEventListener("submit", (event) => event.preventDefault());
  document.querySelector("[data-collection-clear]")?.addEventListener("click", () => {
    form.elements.q.value = "";
    form.elements.show.value = "all";
    form.elements.group.value = "";
    apply();
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
