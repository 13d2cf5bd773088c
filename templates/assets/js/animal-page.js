// An animal's page: the favourite toggle (DESIGN.md §6: <button data-favorite>
// with aria-pressed), what the learner already did with this animal, and
// reading the text aloud in its language with the learner's chosen voice.
import { learnerStore, pageInfo, siteNotice } from "./page.js";
import { isFavorite, setFavorite } from "./favorites.js";
import { speak, stopSpeaking, voiceFor, onVoicesChanged } from "./feedback.js";

const info = pageInfo();
const store = learnerStore(info);
let state = store.load().state;
const favoriteButtons = [...document.querySelectorAll("[data-favorite]")];
const status = document.querySelector("[data-animal-status]");
const article = document.querySelector("[data-animal]");

/** The favourite buttons and the line of what the learner did, as `state` says. */
function render() {
  for (const button of favoriteButtons) button.setAttribute("aria-pressed", String(isFavorite(state, button.dataset.favorite)));
  if (status && article) {
    const id = article.dataset.animal;
    const parts = [];
    if (state.stats.right.includes(id)) parts.push(status.dataset.guessed);
    const logged = state.sightings.entries.filter((e) => e.animal === id).length;
    if (logged) parts.push((status.dataset.logged || "").replace("{count}", String(logged)));
    status.textContent = parts.filter(Boolean).join(" · ");
    status.hidden = !status.textContent;
  }
}

for (const button of favoriteButtons) {
  const id = button.dataset.favorite;
  button.addEventListener("click", () => {
    const on = button.getAttribute("aria-pressed") !== "true";
    const { saved } = store.update((s) => setFavorite(s, id, on));
    button.setAttribute("aria-pressed", String(on));
    if (!saved) siteNotice("saveFailed");
  });
}
render();
// Changed in another tab, or on another page before coming back here (back/forward cache).
const refresh = () => {
  state = store.load().state;
  render();
};
window.addEventListener("storage", refresh);
window.addEventListener("pageshow", (event) => event.persisted && refresh());

const readButton = document.querySelector("[data-read-aloud]");
const texts = [...document.querySelectorAll("[data-read-text]")];
if (readButton && texts.length) {
  const lang = texts[0].lang || info.lang;
  const preferred = () => state.settings.voices[lang.split("-")[0]] ?? state.settings.voices[lang] ?? null;
  const update = () => {
    readButton.hidden = !voiceFor(lang, preferred());
  };
  update();
  onVoicesChanged(update);
  readButton.addEventListener("click", () => {
    stopSpeaking();
    const title = document.querySelector("h1")?.textContent || "";
    speak(`${title}. ${texts.map((t) => t.textContent).join(" ")}`, lang, preferred());
  });
}
