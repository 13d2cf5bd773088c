// An animal's page: the favourite toggle (DESIGN.md §6: <button data-favorite>
// with aria-pressed), what the learner already did with this animal, and
// reading the text aloud in its language with the learner's chosen voice.
import { learnerStore, pageInfo, siteNotice } from "./page.js";
import { isFavorite, setFavorite } from "./favorites.js";
import { speak, stopSpeaking, voiceFor, onVoicesChanged } from "./feedback.js";

const info = pageInfo();
const store = learnerStore(info);
const state = store.load().state;

for (const button of document.querySelectorAll("[data-favorite]")) {
  const id = button.dataset.favorite;
  button.setAttribute("aria-pressed", String(isFavorite(state, id)));
  button.addEventListener("click", () => {
    const on = button.getAttribute("aria-pressed") !== "true";
    const { saved } = store.update((s) => setFavorite(s, id, on));
    button.setAttribute("aria-pressed", String(on));
    if (!saved) siteNotice("saveFailed");
  });
}

const status = document.querySelector("[data-animal-status]");
const article = document.querySelector("[data-animal]");
if (status && article) {
  const id = article.dataset.animal;
  const parts = [];
  if (state.stats.right.includes(id)) parts.push(status.dataset.guessed);
  const logged = state.sightings.entries.filter((e) => e.animal === id).length;
  if (logged) parts.push((status.dataset.logged || "").replace("{count}", String(logged)));
  status.textContent = parts.filter(Boolean).join(" · ");
  status.hidden = !status.textContent;
}

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
