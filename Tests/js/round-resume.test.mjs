import { test } from "node:test";
import assert from "node:assert/strict";
import { buildRound } from "../../templates/assets/js/questions.js";
import { createRng } from "../../templates/assets/js/rng.js";
import { keptRound, keptRoundText, roundKey } from "../../templates/assets/js/round-resume.js";
import { initialStats, reduce } from "../../templates/assets/js/scoring.js";
import { catalog } from "./helpers.mjs";

const cat = catalog();
const byId = new Map(cat.animals.map((a) => [a.id, a]));
const filters = { groups: [], difficultyMin: 1, difficultyMax: 3 };
const key = roundKey("sound", filters, cat.fingerprint);
const built = buildRound({ animals: cat.animals, mode: "sound", questions: 10, choices: 4, languages: cat.languages, rng: createRng(7) });
const start = reduce(reduce(initialStats(), { type: "answer", date: "2026-11-22", animal: "robin", correct: true }),
  { type: "round", mode: "sound", date: "2026-11-22", correct: 4, total: 10 });
const round = { questions: built.questions, results: [true, false, true], retried: new Set(["wren"]), start };
const text = keptRoundText(key, round);

test("a kept round comes back whole: questions, answers so far, retried animals, the stats it started from", () => {
  const back = keptRound(text, key, byId);
  assert.deepEqual(back.questions, built.questions);
  assert.deepEqual(back.results, [true, false, true]);
  assert.deepEqual([...back.retried], ["wren"]);
  assert.equal(back.start.points, start.points);
  assert.deepEqual(back.start.best, start.best);
  assert.deepEqual(back.start.achievements, start.achievements);
  // A round answered to the end (reloaded before the summary) is kept too: the page finishes it.
  const full = keptRoundText(key, { ...round, results: built.questions.map(() => true) });
  assert.equal(keptRound(full, key, byId).results.length, 10);
});

test("only for the same mode, filters and catalogue", () => {
  assert.equal(keptRound(text, roundKey("image", filters, cat.fingerprint), byId), null);
  assert.equal(keptRound(text, roundKey("sound", { ...filters, groups: ["bird"] }, cat.fingerprint), byId), null);
  assert.equal(keptRound(text, roundKey("sound", { ...filters, difficultyMax: 2 }, cat.fingerprint), byId), null);
  assert.equal(keptRound(text, roundKey("sound", filters, "0000beef"), byId), null);
  assert.equal(roundKey("sound", { ...filters, askable: new Set() }, cat.fingerprint), key, "offline is no other round");
  // A learn round with pictures is not taken up once the learner asks for sounds only.
  assert.equal(keptRound(text, roundKey("sound", { ...filters, soundsOnly: true }, cat.fingerprint), byId), null);
  assert.equal(roundKey("sound", { ...filters, soundsOnly: false }, cat.fingerprint), key);
});

test("damaged or foreign text is ignored, never thrown", () => {
  const kept = JSON.parse(text);
  const variant = (change) => {
    const copy = structuredClone(kept);
    change(copy);
    return JSON.stringify(copy);
  };
  const damaged = [
    null, "", "{", "[]", "null", "42", '"text"', text.slice(0, -5),
    variant((k) => { k.v = 2; }),
    variant((k) => { delete k.key; }),
    variant((k) => { k.questions = []; }),
    variant((k) => { k.questions = {}; }),
    variant((k) => { k.questions[0] = null; }),
    variant((k) => { k.questions[1].id = "dodo"; }),
    variant((k) => { k.questions[1].prompt = "smell"; }),
    variant((k) => { k.questions[1].prompt = "image"; k.questions[1].id = "great-tit"; k.questions[1].choices[0] = "great-tit"; }),
    variant((k) => { k.questions[2].choices = k.questions[2].choices.filter((c) => c !== k.questions[2].id); }),
    variant((k) => { k.questions[2].choices = [k.questions[2].id]; }),
    variant((k) => { k.questions[2].choices[1] = k.questions[2].choices[0]; }),
    variant((k) => { k.questions[2].choices.push("dodo"); }),
    variant((k) => { k.results = [true, "yes"]; }),
    variant((k) => { k.results = "3"; }),
    variant((k) => { k.results = Array(11).fill(true); }),
    variant((k) => { k.retried = ["dodo"]; }),
    variant((k) => { k.retried = "wren"; }),
    variant((k) => { delete k.start; }),
    variant((k) => { k.start.points = "10"; }),
    variant((k) => { k.start.best = []; }),
    variant((k) => { k.start.best.sound = null; }),
    variant((k) => { k.start.achievements = null; }),
  ];
  for (const raw of damaged) assert.equal(keptRound(raw, key, byId), null, String(raw).slice(0, 120));
});
