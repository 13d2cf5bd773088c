// An animal's page: the favourite toggle and reading the text aloud.
import { browserBackend, pageInfo } from "./page.js";
import { loadFavorites, saveFavorites, toggleFavorite } from "./favorites.js";
import { speak, stopSpeaking, voiceFor, onVoicesChanged } from "./feedback.js";

const info = pageInfo();
const backend = browserBackend();

for (const button of document.querySelectorAll("[data-favorite]")) {
  const id = button.dataset.favorite;
  const favorites = loadFavorites(backend, info.siteId);
  button.setAttribute("aria-pressed", String(favorites.has(id)));
  button.addEventListener("click", () => {
    const current = loadFavorites(backend, info.siteId);
    const now = toggleFavorite(current, id);
    saveFavorites(backend, info.siteId, current);
    button.setAttribute("aria-pressed", String(now));
  });
}

const readButton = document.querySelector("[data-read-aloud]");
const texts = [...document.querySelectorAll("[data-read-text]")];
if (readButton && texts.length) {
  const lang = texts[0].lang || info.lang;
  const update = () => {
    readButton.hidden = !voiceFor(lang);
  };
  update();
  onVoicesChanged(update);
  readButton.addEventListener("click", () => {
    stopSpeaking();
    speak(`${document.querySelector("h1")?.textContent || ""}. ${texts.map((t) => t.textContent).join(" ")}`, lang);
  });
}
