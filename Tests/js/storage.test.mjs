import { test } from "node:test";
import assert from "node:assert/strict";
import {
  VERSION, defaultSettings, initialState, load, memoryBackend, migrateV0, openStore, save, storageKey,
} from "../../templates/assets/js/storage.js";
import { reduce } from "../../templates/assets/js/scoring.js";
import { recordReview } from "../../templates/assets/js/learn.js";

/** A state that has been played with, through the real reducers. */
function playedState() {
  const state = initialState();
  state.stats = reduce(state.stats, { type: "answer", date: "2026-11-22", animal: "robin", correct: true, difficulty: 1 });
  state.stats = reduce(state.stats, { type: "round", mode: "sound", date: "2026-11-22", correct: 1, total: 1 });
  state.cards = recordReview(state.cards, "robin", 3, Date.UTC(2026, 10, 22, 12));
  state.daily = { date: "2026-11-22", fingerprint: "abc", results: [true, false], done: false };
  state.settings = { ...defaultSettings(), vibration: true, groups: ["bird"], theme: "dark" };
  return state;
}

test("save and load round-trip a played state", () => {
  const state = playedState();
  const loaded = load(save(state));
  assert.equal(loaded.notice, null);
  assert.equal(loaded.migratedFrom, null);
  assert.deepEqual(loaded.state, state);
  assert.equal(JSON.parse(save(state)).version, VERSION);
});

test("nothing stored is a fresh state without a notice", () => {
  for (const raw of [null, undefined, ""]) assert.deepEqual(load(raw), { state: initialState(), notice: null, migratedFrom: null });
});

test("unreadable data resets with a notice and never throws", () => {
  for (const raw of ["{not json", "[]", "42", "null", '"text"', JSON.stringify({ version: "one" }), JSON.stringify({ version: 0 })]) {
    const loaded = load(raw);
    assert.equal(loaded.notice, "reset", raw);
    assert.deepEqual(loaded.state, initialState());
  }
});

test("damaged fields are repaired one by one, keeping what is valid", () => {
  const good = playedState();
  const damaged = JSON.parse(save(good));
  damaged.stats.points = -5;
  damaged.stats.right = ["robin", 7, "robin"];
  damaged.stats.best.image = { correct: "lots" };
  damaged.cards.broken = { state: "review", due: "tomorrow" };
  damaged.cards.nan = { state: "review", due: 1, stability: -1, difficulty: 5, step: 0, reps: 1, lapses: 0, last: null };
  damaged.settings.theme = "purple";
  damaged.settings.difficultyMin = 3;
  damaged.settings.difficultyMax = 1;
  damaged.daily = { date: "yesterday" };
  const { state, notice } = load(JSON.stringify(damaged));
  assert.equal(notice, "repaired");
  assert.equal(state.stats.points, 0);
  assert.deepEqual(state.stats.right, ["robin"]);
  assert.deepEqual(Object.keys(state.stats.best), ["sound"]);
  assert.deepEqual(Object.keys(state.cards), ["robin"]);
  assert.deepEqual(state.cards.robin, good.cards.robin);
  assert.equal(state.settings.theme, "system");
  assert.equal(state.settings.vibration, true);
  assert.deepEqual([state.settings.difficultyMin, state.settings.difficultyMax], [1, 3]);
  assert.equal(state.daily, null);
  // The repaired state is itself valid: loading it again needs no repair.
  assert.equal(load(save(state)).notice, null);
});

test("missing sections take defaults quietly (older v1 data, newer optional fields)", () => {
  const { state, notice } = load(JSON.stringify({ version: 1, stats: { points: 40 } }));
  assert.equal(notice, null);
  assert.equal(state.stats.points, 40);
  assert.equal(state.stats.streak, 0);
  assert.deepEqual(state.settings, defaultSettings());
  assert.deepEqual(state.cards, {});
});

test("data from a newer version is read as far as it is understood", () => {
  const newer = { ...JSON.parse(save(playedState())), version: VERSION + 1, wishlist: ["owl"] };
  const { state, notice } = load(JSON.stringify(newer));
  assert.equal(notice, null);
  assert.equal(state.version, VERSION);
  assert.equal(state.stats.points, playedState().stats.points);
});

test("v0 (the prototype's flat shape) migrates through v1 to the current version", () => {
  const v0 = { score: 120, streak: 3, bestStreak: 9, highscores: { sound: 7, image: 5 }, known: ["robin", "red-fox"], sfx: true, lastPlayed: "2026-11-20" };
  const { state, notice, migratedFrom } = load(JSON.stringify(v0));
  assert.equal(migratedFrom, 0);
  assert.equal(notice, null);
  assert.equal(state.version, VERSION);
  assert.equal(state.stats.points, 120);
  assert.equal(state.stats.streak, 3);
  assert.equal(state.stats.bestStreak, 9);
  assert.deepEqual(state.stats.best, { sound: { correct: 7, total: null, date: null }, image: { correct: 5, total: null, date: null } });
  assert.deepEqual(state.stats.right, ["red-fox", "robin"]);
  assert.equal(state.stats.lastDay, "2026-11-20");
  assert.equal(state.stats.days, 1);
  assert.equal(state.settings.feedbackSound, true);
  // A damaged v0 value is repaired after migrating, with a notice.
  const bad = load(JSON.stringify({ score: 10, bestStreak: 1, streak: 4 }));
  assert.equal(bad.notice, "repaired");
  assert.equal(bad.state.stats.bestStreak, 4);
  assert.equal(migrateV0({}).version, 1);
});

test("the store namespaces keys by site and survives a failing backend", () => {
  const map = new Map();
  const store = openStore(memoryBackend(map), "example");
  assert.equal(store.key, "bestiary:example:learner");
  assert.equal(storageKey("", "x"), "bestiary:site:x");
  assert.deepEqual(store.load().state, initialState());
  const state = playedState();
  assert.equal(store.save(state), true);
  assert.deepEqual([...map.keys()], ["bestiary:example:learner"]);
  assert.deepEqual(openStore(memoryBackend(map), "example").load().state, state);
  assert.deepEqual(openStore(memoryBackend(map), "other").load().state, initialState(), "another site starts fresh");

  const broken = { getItem() { throw new Error("SecurityError"); }, setItem() { throw new Error("QuotaExceededError"); } };
  const failing = openStore(broken, "example");
  assert.equal(failing.load().notice, "unavailable");
  assert.deepEqual(failing.load().state, initialState());
  assert.equal(failing.save(state), false);
});

// ---- schema v2: favourites folded in, sightings, the tour flag

const v1State = () => {
  const state = playedState();
  const { favorites, sightings, onboarded, ...rest } = state;
  return { ...rest, version: 1, settings: { feedbackSound: false, vibration: true, theme: "dark", groups: ["bird"], difficultyMin: 1, difficultyMax: 3 } };
};

test("v1 state and the old favourites key migrate to v2, once, and the old key goes", () => {
  const map = new Map([
    ["bestiary:example:learner", JSON.stringify(v1State())],
    ["bestiary:example:favorites", JSON.stringify(["red-fox", "robin", "red-fox", 7])],
  ]);
  const store = openStore(memoryBackend(map), "example");
  const first = store.load();
  assert.equal(first.migratedFrom, 1);
  assert.equal(first.notice, null);
  assert.equal(first.state.version, 2);
  assert.deepEqual(first.state.favorites, ["red-fox", "robin"]);
  assert.deepEqual(first.state.sightings, { outings: [], entries: [] });
  assert.equal(first.state.onboarded, true, "a learner who played has seen the site");
  assert.equal(first.state.settings.theme, "dark");
  assert.equal(first.state.settings.language, null);
  assert.deepEqual(first.state.settings.voices, {});
  assert.equal(first.state.stats.points, playedState().stats.points);
  // Written back at once: the legacy key is gone and the next load is plain v2.
  assert.deepEqual([...map.keys()], ["bestiary:example:learner"]);
  assert.equal(JSON.parse(map.get("bestiary:example:learner")).version, 2);
  const second = store.load();
  assert.equal(second.migratedFrom, null);
  assert.deepEqual(second.state, first.state);
});

test("favourites kept by a v1 learner who never played are not lost", () => {
  const map = new Map([["bestiary:example:favorites", '["owl"]']]);
  const loaded = openStore(memoryBackend(map), "example").load();
  assert.equal(loaded.migratedFrom, 1);
  assert.deepEqual(loaded.state.favorites, ["owl"]);
  assert.equal(loaded.state.onboarded, true);
  assert.equal(map.has("bestiary:example:favorites"), false);
  // A broken legacy key reads as no favourites.
  const broken = load(null, { favorites: "{oops" });
  assert.deepEqual(broken, { state: initialState(), notice: null, migratedFrom: null });
});

test("a fresh v1 learner without favourites sees the tour after migrating", () => {
  const { state, migratedFrom } = load(JSON.stringify({ version: 1 }));
  assert.equal(migratedFrom, 1);
  assert.equal(state.onboarded, false);
});

test("unreadable data is kept under a backup key before it is replaced", () => {
  const map = new Map([["bestiary:example:learner", "{half a JSON"]]);
  const store = openStore(memoryBackend(map), "example");
  const loaded = store.load();
  assert.equal(loaded.notice, "reset");
  assert.equal(map.get("bestiary:example:learner-damaged"), "{half a JSON");
  store.save(loaded.state);
  assert.equal(map.get("bestiary:example:learner-damaged"), "{half a JSON", "the backup survives the next save");
});

test("a reset is saved at once after the backup, so the notice is given once", () => {
  const map = new Map([["bestiary:example:learner", '{"v":2,"stats":']]);
  const store = openStore(memoryBackend(map), "example");
  const first = store.load();
  assert.equal(first.notice, "reset");
  assert.equal(first.state.onboarded, true, "someone with stored data has seen the site: no tour");
  assert.equal(map.get("bestiary:example:learner-damaged"), '{"v":2,"stats":');
  assert.deepEqual(JSON.parse(map.get("bestiary:example:learner")), { ...initialState(), onboarded: true });
  const second = store.load();
  assert.equal(second.notice, null);
  assert.equal(second.state.onboarded, true);
  // Damaged again later: the backup holds the latest damaged text.
  map.set("bestiary:example:learner", "{again");
  assert.equal(store.load().notice, "reset");
  assert.equal(map.get("bestiary:example:learner-damaged"), "{again");
  assert.equal(store.load().notice, null);
});

test("a reset whose backup cannot be written leaves the damaged data in place", () => {
  const map = new Map([["bestiary:example:learner", "{half a JSON"]]);
  const backend = memoryBackend(map);
  const full = {
    ...backend,
    setItem(k, v) {
      if (k.endsWith("-damaged")) throw new Error("QuotaExceededError");
      backend.setItem(k, v);
    },
  };
  const store = openStore(full, "example");
  assert.equal(store.load().notice, "reset");
  assert.equal(map.get("bestiary:example:learner"), "{half a JSON", "not overwritten without a backup");
  assert.equal(store.load().notice, "reset");
});

test("a repaired state is saved at once, so the notice is given once", () => {
  const damaged = JSON.parse(save(playedState()));
  damaged.favorites = ["owl", 3];
  const map = new Map([["bestiary:example:learner", JSON.stringify(damaged)]]);
  const store = openStore(memoryBackend(map), "example");
  assert.equal(store.load().notice, "repaired");
  assert.equal(store.load().notice, null);
  assert.deepEqual(store.load().state.favorites, ["owl"]);
});

test("update() reads the latest state, so pages do not overwrite each other", () => {
  const map = new Map();
  const tabA = openStore(memoryBackend(map), "example");
  const tabB = openStore(memoryBackend(map), "example");
  tabA.update((s) => ({ ...s, favorites: ["owl"] }));
  const { state, saved } = tabB.update((s) => ({ ...s, onboarded: true }));
  assert.equal(saved, true);
  assert.deepEqual(state.favorites, ["owl"]);
  assert.deepEqual(tabA.load().state.favorites, ["owl"]);
  assert.equal(tabA.load().state.onboarded, true);
});

test("sightings: valid entries are kept, invalid ones dropped one by one", () => {
  const good = {
    id: "s-1", animal: "robin", kind: "heard", date: "2026-05-01", time: "06:30", place: "Park", lat: 52.5, lon: 13.4,
    accuracy: 12, note: "", outing: "o-1", created: 1,
  };
  const data = JSON.parse(save(initialState()));
  data.sightings = {
    outings: [{ id: "o-1", name: "Dawn chorus", created: 1 }, { id: "", name: "x", created: 1 }, { id: "o-2", name: "  ", created: 1 }],
    entries: [
      good,
      { ...good, id: "s-2", kind: "smelled" },
      { ...good, id: "s-3", date: "May 1st" },
      { ...good, id: "s-4", time: "25:00" },
      { ...good, id: "s-5", lat: 91 },
      { ...good, id: "s-6", lat: null },
      { ...good, id: "s-7", outing: "o-404" },
      { ...good, id: "s-1" },
      { ...good, id: "s-8", time: null, lat: null, lon: null, accuracy: null, outing: null },
    ],
  };
  const { state, notice } = load(JSON.stringify(data));
  assert.equal(notice, "repaired");
  assert.deepEqual(state.sightings.outings, [{ id: "o-1", name: "Dawn chorus", created: 1 }]);
  assert.deepEqual(state.sightings.entries.map((e) => e.id), ["s-1", "s-8"]);
  assert.deepEqual(state.sightings.entries[0], good);
  assert.equal(load(save(state)).notice, null);
});

test("settings: language and voices are checked", () => {
  const data = JSON.parse(save(initialState()));
  data.settings.language = "de";
  data.settings.voices = { de: "Anna", en: 5, "not a language": "x" };
  const { state, notice } = load(JSON.stringify(data));
  assert.equal(notice, "repaired");
  assert.equal(state.settings.language, "de");
  assert.deepEqual(state.settings.voices, { de: "Anna" });
  data.settings.language = "<script>";
  assert.equal(load(JSON.stringify(data)).state.settings.language, null);
});

test("settings: sounds only and own pace are off and recordings play by themselves unless the learner chose otherwise", () => {
  assert.equal(defaultSettings().soundsOnly, false);
  assert.equal(defaultSettings().autoplay, true);
  // Chosen, they are kept.
  const data = JSON.parse(save(initialState()));
  data.settings.soundsOnly = true;
  data.settings.autoplay = false;
  data.settings.ownPace = true;
  const chosen = load(JSON.stringify(data));
  assert.equal(chosen.notice, null);
  assert.equal(chosen.state.settings.soundsOnly, true);
  assert.equal(chosen.state.settings.autoplay, false);
  assert.equal(chosen.state.settings.ownPace, true);
  // A wrong value (edited by hand) is each repaired to its default, the other settings kept.
  data.settings.soundsOnly = "yes";
  data.settings.autoplay = 0;
  data.settings.ownPace = "always";
  data.settings.vibration = true;
  const repaired = load(JSON.stringify(data));
  assert.equal(repaired.notice, "repaired");
  assert.deepEqual([repaired.state.settings.soundsOnly, repaired.state.settings.autoplay, repaired.state.settings.ownPace, repaired.state.settings.vibration], [false, true, false, true]);
  assert.equal(load(save(repaired.state)).notice, null);
});

test("settings and dailies of older versions, without the listening settings, are read quietly with the defaults", () => {
  // Written by the version before: v2 settings without soundsOnly and autoplay, a daily without soundsOnly.
  const before = JSON.parse(save(playedState()));
  delete before.settings.soundsOnly;
  delete before.settings.autoplay;
  delete before.settings.ownPace;
  before.daily = { date: "2026-11-22", fingerprint: "abc", results: [true], done: true };
  const { state, notice, migratedFrom } = load(JSON.stringify(before));
  assert.deepEqual([notice, migratedFrom], [null, null]);
  assert.equal(state.settings.soundsOnly, false);
  assert.equal(state.settings.autoplay, true);
  assert.equal(state.settings.ownPace, false);
  assert.equal(state.settings.vibration, true);
  assert.deepEqual(state.daily, before.daily);
  // v1 and v0 migrate to them too.
  const v1 = load(JSON.stringify({ version: 1, stats: { points: 40 }, settings: { feedbackSound: true } }));
  assert.deepEqual([v1.notice, v1.state.settings.soundsOnly, v1.state.settings.autoplay, v1.state.settings.feedbackSound], [null, false, true, true]);
  const v0 = load(JSON.stringify({ score: 1, sfx: true }));
  assert.deepEqual([v0.migratedFrom, v0.state.settings.soundsOnly, v0.state.settings.autoplay], [0, false, true]);
  // A daily's variant is checked like the rest of it.
  const sounds = { date: "2026-11-22", fingerprint: "abc", results: [true], done: false, soundsOnly: true };
  assert.deepEqual(load(JSON.stringify({ ...before, daily: sounds })).state.daily, sounds);
  const bad = load(JSON.stringify({ ...before, daily: { ...sounds, soundsOnly: "yes" } }));
  assert.deepEqual([bad.notice, bad.state.daily], ["repaired", null]);
});
