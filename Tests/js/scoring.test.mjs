import { test } from "node:test";
import assert from "node:assert/strict";
import {
  accuracy, initialStats, isNewBest, LEVELS, levelFor, newAchievements, pointsFor, reduce,
} from "../../templates/assets/js/scoring.js";

const answer = (correct, extra = {}) => ({ type: "answer", date: "2026-11-22", animal: "robin", correct, difficulty: 1, ...extra });
const play = (stats, events) => events.reduce(reduce, stats);

test("answers update totals, today's numbers, streaks and accuracy", () => {
  const s = play(initialStats(), [answer(true), answer(true), answer(false), answer(true)]);
  assert.equal(s.answered, 4);
  assert.equal(s.correct, 3);
  assert.equal(s.streak, 1);
  assert.equal(s.bestStreak, 2);
  assert.deepEqual(s.today, { date: "2026-11-22", answered: 4, correct: 3 });
  assert.equal(accuracy(s), 0.75);
  assert.equal(accuracy(initialStats()), 0);
  const tomorrow = reduce(s, answer(false, { date: "2026-11-23" }));
  assert.deepEqual(tomorrow.today, { date: "2026-11-23", answered: 1, correct: 0 });
});

test("points: 10 per difficulty plus a capped streak bonus", () => {
  assert.equal(pointsFor(1, 1), 10);
  assert.equal(pointsFor(2, 1), 20);
  assert.equal(pointsFor(1, 3), 14);
  assert.equal(pointsFor(3, 50), 40);
  const s = play(initialStats(), [answer(true), answer(true, { difficulty: 3 }), answer(false)]);
  assert.equal(s.points, 10 + 32);
});

test("days played count distinct days, not going back in time", () => {
  const s = play(initialStats(), [
    answer(true, { date: "2026-11-20" }),
    answer(true, { date: "2026-11-20" }),
    answer(true, { date: "2026-11-21" }),
    answer(true, { date: "2026-11-19" }),
  ]);
  assert.equal(s.days, 2);
  assert.equal(s.lastDay, "2026-11-21");
});

test("a round whose every question was skipped counts for nothing", () => {
  const allWrong = reduce(initialStats(), { type: "round", mode: "image", date: "2026-11-22", correct: 0, total: 10 });
  const skipped = reduce(allWrong, { type: "round", mode: "image", date: "2026-11-22", correct: 0, total: 0 });
  assert.equal(skipped, allWrong);
  assert.deepEqual(skipped.best.image, { correct: 0, total: 10, date: "2026-11-22" });
  assert.equal(reduce(initialStats(), { type: "round", mode: "sound", date: "2026-11-22", correct: 0, total: 0 }).rounds, 0);
});

test("per-mode best scores, new-best detection and reset", () => {
  let s = reduce(initialStats(), { type: "round", mode: "sound", date: "2026-11-22", correct: 6, total: 10 });
  const before = s;
  s = reduce(s, { type: "round", mode: "sound", date: "2026-11-22", correct: 5, total: 10 });
  assert.equal(s.best.sound.correct, 6);
  assert.equal(isNewBest(before, s, "sound"), false);
  s = reduce(s, { type: "round", mode: "sound", date: "2026-11-23", correct: 8, total: 10 });
  assert.deepEqual(s.best.sound, { correct: 8, total: 10, date: "2026-11-23" });
  assert.equal(isNewBest(before, s, "sound"), true);
  // By value: a resumed round's stats from before were read back from text.
  assert.equal(isNewBest(JSON.parse(JSON.stringify(s)), s, "sound"), false);
  assert.equal(isNewBest(JSON.parse(JSON.stringify(before)), s, "sound"), true);
  s = reduce(s, { type: "round", mode: "image", date: "2026-11-23", correct: 3, total: 10 });
  assert.equal(s.rounds, 4);
  const reset = reduce(s, { type: "reset-best", mode: "sound" });
  assert.equal(reset.best.sound, undefined);
  assert.equal(reset.best.image.correct, 3);
  assert.deepEqual(reduce(s, { type: "reset-best", mode: null }).best, {});
  assert.equal(reduce(s, { type: "no-such-event" }), s);
});

test("achievements: first right, ten in a row, 100 right, seven days", () => {
  const first = reduce(initialStats(), answer(false));
  assert.deepEqual(first.achievements, {});
  const right = reduce(first, answer(true));
  assert.deepEqual(newAchievements(first, right), ["first-right"]);
  const nine = play(right, Array.from({ length: 8 }, () => answer(true)));
  assert.ok(!("streak-10" in nine.achievements));
  const ten = reduce(nine, answer(true));
  assert.deepEqual(newAchievements(nine, ten), ["streak-10"]);
  const hundred = play(ten, Array.from({ length: 90 }, () => answer(true)));
  assert.equal(hundred.correct, 100);
  assert.ok("right-100" in hundred.achievements);
  const week = play(initialStats(), Array.from({ length: 7 }, (_, i) => answer(false, { date: `2026-11-0${i + 1}` })));
  assert.equal(week.achievements["days-7"], "2026-11-07");
  assert.equal(play(initialStats(), Array.from({ length: 6 }, (_, i) => answer(false, { date: `2026-11-0${i + 1}` }))).achievements["days-7"], undefined);
});

test("achievement: every animal of a group right at least once", () => {
  const birds = ["blackbird", "robin", "wren"];
  const ev = (animal, correct = true) => answer(correct, { animal, group: "bird", groupAnimals: birds });
  const s = play(initialStats(), [ev("blackbird"), ev("robin"), ev("robin"), ev("wren", false)]);
  assert.ok(!("group:bird" in s.achievements));
  const done = reduce(s, ev("wren"));
  assert.ok("group:bird" in done.achievements);
  assert.deepEqual(done.right, ["blackbird", "robin", "wren"]);
});

test("achievements: perfect round (long enough) and first daily", () => {
  const short = reduce(initialStats(), { type: "round", mode: "sound", date: "d", correct: 3, total: 3 });
  assert.ok(!("perfect-round" in short.achievements));
  const perfect = reduce(initialStats(), { type: "round", mode: "sound", date: "2026-11-22", correct: 10, total: 10 });
  assert.equal(perfect.achievements["perfect-round"], "2026-11-22");
  const daily = reduce(initialStats(), { type: "round", mode: "daily", date: "2026-11-22", correct: 2, total: 10 });
  assert.deepEqual(Object.keys(daily.achievements), ["first-daily"]);
  // Earned once: the date of the first time stays.
  const again = reduce(daily, { type: "round", mode: "daily", date: "2026-11-23", correct: 2, total: 10 });
  assert.equal(again.achievements["first-daily"], "2026-11-22");
});

test("levels unlock difficulty 2, then 3", () => {
  assert.deepEqual(levelFor(0), { level: 1, unlocked: 1, floor: 0, next: 100 });
  assert.equal(levelFor(99).level, 1);
  assert.deepEqual(levelFor(100), { level: 2, unlocked: 2, floor: 100, next: 300 });
  assert.equal(levelFor(300).unlocked, 3);
  assert.equal(levelFor(1e9).level, LEVELS.length);
  assert.equal(levelFor(1e9).next, null);
});

test("reducers do not mutate their input", () => {
  const s = initialStats();
  const frozen = JSON.stringify(s);
  play(s, [answer(true, { group: "bird", groupAnimals: ["robin"] }), { type: "round", mode: "sound", date: "x", correct: 1, total: 1 }]);
  assert.equal(JSON.stringify(s), frozen);
});
