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

test("v0 (the prototype's flat shape) migrates to v1", () => {
  const v0 = { score: 120, streak: 3, bestStreak: 9, highscores: { sound: 7, image: 5 }, known: ["robin", "red-fox"], sfx: true, lastPlayed: "2026-11-20" };
  const { state, notice, migratedFrom } = load(JSON.stringify(v0));
  assert.equal(migratedFrom, 0);
  assert.equal(notice, null);
  assert.equal(state.version, 1);
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
