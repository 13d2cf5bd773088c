// The home page: the animal of the day (the same for everyone that day) and
// the learner's progress (known animals, level, streak, reviews due,
// favourites, sightings), with today's state of the daily challenge and the
// learn mode on their tiles.
import { learnerStore, loadCatalog, pageInfo, pageTranslator } from "./page.js";
import { animalOfTheDay, localDateKey } from "./daily.js";
import { animalName, languageChain } from "./catalog.js";
import { h, fill } from "./dom.js";
import { levelFor } from "./scoring.js";
import { progress } from "./learn.js";
import { promptKind, roundPool } from "./questions.js";

const info = pageInfo();
const tr = pageTranslator(info);
const state = learnerStore(info).load().state;
const today = localDateKey();

loadCatalog(info).then((catalog) => {
  showProgress(catalog);
  if (catalog && catalog.animals.length) showAnimalOfTheDay(catalog);
});

function showAnimalOfTheDay(catalog) {
  const card = document.querySelector("[data-animal-of-the-day-card]");
  const animal = animalOfTheDay(catalog, today);
  if (!card || !animal) return;
  const chain = languageChain(info.lang, catalog.languages);
  const link = h("a", { href: info.langRoot + animal.page, class: "today-link", dataset: { todayAnimal: animal.id } });
  if (animal.image) {
    const img = h("img", { src: info.root + animal.image.src, alt: "", width: animal.image.width, height: animal.image.height, decoding: "async" });
    if (animal.image.focus) img.style.objectPosition = animal.image.focus;
    link.append(img);
  }
  link.append(h("span", { class: "today-name", text: animalName(animal, chain) }));
  const parts = [link];
  if (animal.sound) {
    parts.push(
      h("audio", { controls: true, preload: "none", src: info.root + animal.sound.src, "aria-label": tr("home.todaySound", { name: animalName(animal, chain) }) }),
    );
  }
  fill(card, parts);
}

function showProgress(catalog) {
  const stats = state.stats;
  const ids = catalog ? catalog.animals.map((a) => a.id) : [];
  // Out of the animals a round can ask (one with neither a sound nor a picture never comes up).
  const askable = catalog ? catalog.animals.filter((a) => promptKind(a, "learn")).map((a) => a.id) : [];
  const known = catalog ? stats.right.filter((id) => askable.includes(id)).length : stats.right.length;
  const level = levelFor(stats.points);
  const set = (name, text) => {
    const el = document.querySelector(`[data-progress="${name}"]`);
    if (el) el.textContent = text;
  };
  set("known", catalog ? `${known} / ${askable.length}` : String(known));
  // "12 (best 140)": the number large, what the brackets add smaller and kept whole (all of it
  // large, it took two or three rows on a phone, in German most).
  const withNote = (name, text) => {
    const parts = /^(\S+) (\(.+\))$/.exec(text);
    const el = document.querySelector(`[data-progress="${name}"]`);
    if (!parts || !el) return set(name, text);
    fill(el, [parts[1], " ", h("span", { class: "count-note", text: parts[2] })]);
  };
  withNote("streak", tr("home.streakValue", { current: stats.streak, best: stats.bestStreak }));
  set("days", String(stats.days));
  set("favorites", String(state.favorites.filter((id) => !catalog || ids.includes(id)).length));
  const species = new Set(state.sightings.entries.map((e) => e.animal)).size;
  withNote("sightings", tr("home.sightingsValue", { count: state.sightings.entries.length, species }));
  const levelText = document.querySelector("[data-progress-level]");
  if (levelText && stats.answered > 0) {
    levelText.textContent = tr(level.next === null ? "level.statusTop" : "level.status", { level: level.level, points: stats.points, next: level.next });
  }
  const meter = document.querySelector("[data-progress-meter]");
  if (meter) {
    const share = level.next === null ? 1 : (stats.points - level.floor) / (level.next - level.floor);
    meter.style.width = `${Math.round(Math.min(1, Math.max(0, share)) * 100)}%`;
  }
  if (!catalog) return;
  // As the learn round counts them: within the learner's group and difficulty filters (and sounds only).
  const { groups, difficultyMin, difficultyMax, soundsOnly } = state.settings;
  const pool = roundPool({ ...catalog, mode: "learn", choices: catalog.quiz.choices, filters: { groups, difficultyMin, difficultyMax, soundsOnly } });
  const counts = progress(pool.ok ? pool.askable.map((a) => a.id) : [], state.cards, Date.now());
  set("due", String(counts.due));
  const learnStatus = document.querySelector('[data-mode-status="learn"]');
  if (learnStatus && counts.total) learnStatus.textContent = tr("home.learnStatus", counts);
  const dailyStatus = document.querySelector('[data-mode-status="daily"]');
  const daily = state.daily;
  if (dailyStatus && daily && daily.date === today && daily.done) {
    dailyStatus.textContent = tr("home.dailyDone", { right: daily.results.filter(Boolean).length, total: daily.results.length });
  }
}
