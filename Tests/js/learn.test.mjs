import { test } from "node:test";
import assert from "node:assert/strict";
import { cardStatus, LEARN_AHEAD_MS, planSession, progress, recordReview, scored } from "../../templates/assets/js/learn.js";
import { Grade, State } from "../../templates/assets/js/fsrs.js";
import { catalog } from "./helpers.mjs";

const animals = catalog().animals;
const ids = animals.map((a) => a.id);
const NOW = new Date(2026, 10, 22, 12).getTime();
const MIN = 60000;
const DAY = 86400000;
const card = (state, due) => ({ state, due, stability: 3, difficulty: 5, step: 0, reps: 1, lapses: 0, last: due - DAY });

test("a first session introduces at most five new animals, easiest first", () => {
  const plan = planSession({ animals, cards: {}, now: NOW });
  assert.equal(plan.ids.length, 5);
  const difficulties = plan.ids.map((id) => animals.find((a) => a.id === id).difficulty);
  assert.deepEqual(difficulties, [1, 1, 1, 1, 1]);
  assert.deepEqual(plan.ids, ["blackbird", "robin", "great-tit", "red-fox", "cow"], "catalogue order within a difficulty");
  assert.equal(plan.nextDue, null);
});

test("due animals come first, earliest due first, then new ones", () => {
  const cards = {
    horse: card(State.Review, NOW - 2 * DAY),
    robin: card(State.Review, NOW - 5 * DAY),
    wren: card(State.Learning, NOW - MIN),
    koala: card(State.Review, NOW + 3 * DAY),
  };
  const plan = planSession({ animals, cards, now: NOW });
  assert.deepEqual(plan.ids.slice(0, 3), ["robin", "horse", "wren"]);
  assert.equal(plan.ids.length, 8, "3 due + 5 new");
  assert.ok(!plan.ids.includes("koala"), "not due yet");
  assert.equal(plan.nextDue, NOW + 3 * DAY);
});

test("sessions are capped, and new animals only fill the room left", () => {
  const cards = Object.fromEntries(ids.slice(0, 12).map((id, i) => [id, card(State.Review, NOW - i * MIN)]));
  const plan = planSession({ animals, cards, now: NOW, size: 10 });
  assert.equal(plan.ids.length, 10);
  assert.ok(!plan.ids.includes("common-frog"), "no room for the new animal");
  assert.equal(planSession({ animals, cards: {}, now: NOW, newLimit: 2 }).ids.length, 2);
});

test("learning animals due soon are asked ahead when nothing else is left", () => {
  const cards = Object.fromEntries(ids.map((id) => [id, card(State.Review, NOW + 10 * DAY)]));
  cards.wren = card(State.Learning, NOW + 5 * MIN);
  cards.robin = card(State.Learning, NOW + LEARN_AHEAD_MS + MIN);
  const plan = planSession({ animals, cards, now: NOW });
  assert.deepEqual(plan.ids, ["wren"]);
  assert.equal(plan.nextDue, NOW + LEARN_AHEAD_MS + MIN);
});

test("learning animals are not asked ahead while new ones wait: their step's spacing holds", () => {
  // The first session's five animals, each answered right: learning, due in 10 minutes.
  const first = ["blackbird", "robin", "great-tit", "red-fox", "cow"];
  const cards = Object.fromEntries(first.map((id) => [id, card(State.Learning, NOW + 10 * MIN)]));
  const plan = planSession({ animals, cards, now: NOW });
  assert.equal(plan.ids.length, 5, "five new animals, not those five again");
  assert.ok(plan.ids.every((id) => !first.includes(id)), plan.ids.join());
  assert.equal(plan.nextDue, NOW + 10 * MIN);
});

test("progress counts new, learning, due and known animals", () => {
  const cards = {
    robin: card(State.Review, NOW - DAY),
    wren: card(State.Learning, NOW + MIN),
    horse: card(State.Review, NOW + DAY),
    koala: card(State.Relearning, NOW + MIN),
  };
  assert.deepEqual(progress(ids, cards, NOW), { new: 9, learning: 2, due: 1, known: 1, total: 13 });
  assert.equal(cardStatus(undefined, NOW), "new");
});

test("recording answers schedules cards without touching others", () => {
  const cards = { horse: card(State.Review, NOW - DAY) };
  const next = recordReview(cards, "robin", Grade.Again, NOW);
  assert.equal(next.robin.state, State.Learning);
  assert.equal(next.robin.due, NOW + MIN);
  assert.equal(next.horse, cards.horse);
  assert.equal(cards.robin, undefined, "input not mutated");
  const known = recordReview(next, "horse", Grade.Good, NOW);
  assert.equal(known.horse.state, State.Review);
  assert.ok(known.horse.due > NOW + DAY);
});

test("a first right answer is good, not easy: a quick guess skips no learning steps", () => {
  const first = recordReview({}, "robin", Grade.Easy, NOW);
  const good = recordReview({}, "robin", Grade.Good, NOW);
  assert.deepEqual(first.robin, good.robin);
  // Once learnt, easy is easy.
  const later = NOW + 10 * 60 * 1000;
  assert.notDeepEqual(recordReview(good, "robin", Grade.Easy, later).robin, recordReview(good, "robin", Grade.Good, later).robin);
});

test("a learn round's retries are not scored; other modes score every question, repeats included", () => {
  const questions = [{ id: "owl" }, { id: "cow" }, { id: "fox" }, { id: "cow" }];
  const results = [true, false, true, true];
  assert.deepEqual(scored({ mode: "learn", questions }, results), [true, false, true], "the retry of cow (asked again after a miss) is left out");
  assert.deepEqual(scored({ mode: "learn", questions }, questions).map((q) => q.id), ["owl", "cow", "fox"]);
  // A sound round with few sounds asks an animal more than once: each is scored.
  assert.deepEqual(scored({ mode: "sound", questions }, results), results);
});

test("an animal another tab rated after it was shown here is not rated again", () => {
  const shown = NOW - 5000;
  const rated = recordReview({}, "robin", Grade.Good, NOW - 2000);
  // This tab's answer comes after the other tab's: the card stays as the other tab left it.
  assert.equal(recordReview(rated, "robin", Grade.Good, NOW, shown), rated);
  // Rated before it was shown here (an earlier session): rated again, as always.
  assert.notEqual(recordReview(rated, "robin", Grade.Good, NOW, NOW - 1000), rated);
});
