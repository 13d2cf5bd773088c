// The collection: search by any name (accents and case ignored), filter by group and by
// all / guessed / favourites, with a message when nothing is left.
import { browserBackend, learnerStore, pageInfo } from "./page.js";
import { loadFavorites } from "./favorites.js";

/** Lower case without accents: "Rotfuchs" matches "rötfuchs", "Élan" matches "elan". */
export function fold(text) {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

const info = pageInfo();
const form = document.querySelector("[data-collection-tools]");
const cards = [...document.querySelectorAll("[data-collection-list] [data-id]")];
const empty = document.querySelector("[data-collection-empty]");
const count = document.querySelector("[data-collection-count]");
const favorites = loadFavorites(browserBackend(), info.siteId);
const guessed = new Set(learnerStore(info).load().state.stats.right || []);
const index = new Map(cards.map((card) => [card, fold(card.dataset.search || "")]));

function apply() {
  const query = fold(form.elements.q.value.trim());
  const show = form.elements.show.value;
  const group = form.elements.group.value;
  let visible = 0;
  for (const card of cards) {
    const id = card.dataset.id;
    const ok =
      (!query || index.get(card).includes(query)) &&
      (!group || card.dataset.group === group) &&
      (show !== "guessed" || guessed.has(id)) &&
      (show !== "favorites" || favorites.has(id));
    card.hidden = !ok;
    if (ok) visible += 1;
  }
  empty.hidden = visible > 0;
  count.textContent = String(visible);
}

if (form) {
  form.addEventListener("input", apply);
  form.addEventListener("submit", (event) => event.preventDefault());
  const params = new URLSearchParams(location.search);
  if (params.get("show")) form.elements.show.value = params.get("show");
  if (params.get("q")) form.elements.q.value = params.get("q");
  apply();
}
