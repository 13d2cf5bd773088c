import { test } from "node:test";
import assert from "node:assert/strict";
import {
  DEFAULT_WEIGHTS as w, Grade, State, decayFactor, elapsedDays, forgetStability, gradeFromAnswer, initialDifficulty,
  initialStability, newCard, nextDifficulty, nextInterval, nextMemory, recallStability, retrievability, review,
  shortTermStability,
} from "../../templates/assets/js/fsrs.js";

// The formulas of shared/reference/learning.md §A3, written out again here
// independently, plus values computed by hand (Python, double precision)
// from the same formulas and the 21 default weights.
const close = (actual, expected, eps = 1e-9) => assert.ok(Math.abs(actual - expected) <= eps, `${actual} ≠ ${expected}`);
const DECAY = -w[20];
const FACTOR = 0.9 ** (1 / DECAY) - 1;
const ref = {
  R: (t, s) => (1 + (FACTOR * t) / s) ** DECAY,
  D0: (g) => w[4] - Math.exp(w[5] * (g - 1)) + 1,
  nextD: (d, g) => {
    const dp = d + (-w[6] * (g - 3) * (10 - d)) / 9;
    return Math.min(10, Math.max(1, w[7] * ref.D0(4) + (1 - w[7]) * dp));
  },
  recall: (d, s, r, g) =>
    s * (1 + Math.exp(w[8]) * (11 - d) * s ** -w[9] * (Math.exp(w[10] * (1 - r)) - 1) * (g === 2 ? w[15] : 1) * (g === 4 ? w[16] : 1)),
  forget: (d, s, r) => w[11] * d ** -w[12] * ((s + 1) ** w[13] - 1) * Math.exp(w[14] * (1 - r)),
  short: (s, g) => {
    const inc = Math.exp(w[17] * (g - 3 + w[18])) * s ** -w[19];
    return s * (g >= 3 ? Math.max(inc, 1) : inc);
  },
};
const DAY = 86400000;

test("the default FSRS-6 weights are the 21 from learning.md", () => {
  assert.equal(w.length, 21);
  assert.equal(w[0], 0.212);
  assert.equal(w[20], 0.1542);
  close(decayFactor().factor, 0.9803464944134797, 1e-12);
});

test("forgetting curve: R(S, S) = 0.9 and R falls with time", () => {
  for (const s of [0.5, 1, 2.3065, 10, 365]) close(retrievability(s, s), 0.9, 1e-12);
  close(retrievability(3, 2.3065), 0.8809479557659419);
  close(retrievability(3, 2.3065), ref.R(3, 2.3065));
  assert.equal(retrievability(0, 5), 1);
  assert.ok(retrievability(10, 5) < retrievability(5, 5));
});

test("next interval: I(S) = S at r = 0.9, rounded and clamped", () => {
  for (const s of [1, 2.3065, 8.2956, 17, 100]) assert.equal(nextInterval(s), Math.max(1, Math.round(s)));
  assert.equal(nextInterval(0.2), 1, "never below one day");
  assert.equal(nextInterval(1e9), 36500, "never above the maximum");
  const lower = nextInterval(20, { ...reviewParams(), requestRetention: 0.8 });
  assert.ok(lower > 20, "lower retention → longer interval");
});

function reviewParams() {
  return { w, requestRetention: 0.9, maximumInterval: 36500, learningSteps: [60000, 600000], relearningSteps: [600000], enableShortTerm: true };
}

test("initial stability and difficulty", () => {
  assert.deepEqual([1, 2, 3, 4].map((g) => initialStability(g)), [0.212, 1.2931, 2.3065, 8.2956]);
  close(initialDifficulty(1), 6.4133);
  close(initialDifficulty(2), 5.112170705601055);
  close(initialDifficulty(3), 2.118103970459015);
  close(initialDifficulty(4), -4.771630703161737);
  // The first review clamps D to [1, 10].
  assert.deepEqual(nextMemory(null, 0, Grade.Easy), { difficulty: 1, stability: 8.2956 });
  close(nextMemory(null, 0, Grade.Good).difficulty, 2.118103970459015);
});

test("next difficulty: damping, mean reversion, clamp to [1, 10]", () => {
  const d = 2.118103970459015;
  close(nextDifficulty(d, Grade.Hard), 4.752858488532556);
  close(nextDifficulty(d, Grade.Good), 2.1112142357853942);
  assert.equal(nextDifficulty(d, Grade.Easy), 1);
  for (const g of [1, 2, 3, 4]) close(nextDifficulty(6.5, g), ref.nextD(6.5, g));
  let high = 9.9;
  for (let i = 0; i < 20; i++) high = nextDifficulty(high, Grade.Again);
  assert.ok(high <= 10 && high > 9.5);
  let low = 1.2;
  for (let i = 0; i < 20; i++) low = nextDifficulty(low, Grade.Easy);
  assert.equal(low, 1);
});

test("stability after recall: Easy > Good > Hard, as in the reference", () => {
  const d = 2.118103970459015;
  const s = 2.3065;
  const r = ref.R(3, s);
  close(recallStability(d, s, r, Grade.Hard), 9.234870781784839, 1e-9);
  close(recallStability(d, s, r, Grade.Good), 13.826903694354572, 1e-9);
  close(recallStability(d, s, r, Grade.Easy), 23.883064079156675, 1e-9);
  for (const g of [2, 3, 4]) close(recallStability(7, 12, 0.8, g), ref.recall(7, 12, 0.8, g));
  assert.ok(recallStability(d, s, r, Grade.Easy) > recallStability(d, s, r, Grade.Good));
  assert.ok(recallStability(d, s, r, Grade.Good) > recallStability(d, s, r, Grade.Hard));
  assert.ok(recallStability(d, s, r, Grade.Hard) > s);
});

test("a lapse lowers stability, capped by the short-term term", () => {
  const d = 2.118103970459015;
  const s = 2.3065;
  const r = ref.R(3, s);
  close(forgetStability(d, s, r), 0.6368506992409603);
  const after = nextMemory({ difficulty: d, stability: s }, 3, Grade.Again);
  close(after.stability, Math.min(ref.forget(d, s, r), s / Math.exp(w[17] * w[18])));
  assert.ok(after.stability < s);
  // Usually the lapse formula binds …
  const cap = (st) => st / Math.exp(w[17] * w[18]);
  const big = nextMemory({ difficulty: 5, stability: 300 }, 400, Grade.Again);
  assert.ok(ref.forget(5, 300, ref.R(400, 300)) < cap(300));
  close(big.stability, ref.forget(5, 300, ref.R(400, 300)));
  // … but for a barely learnt card the short-term cap S/e^(w17·w18) does: a lapse never raises S.
  const tiny = nextMemory({ difficulty: 5, stability: 0.05 }, 30, Grade.Again);
  assert.ok(ref.forget(5, 0.05, ref.R(30, 0.05)) > cap(0.05));
  close(tiny.stability, cap(0.05));
  assert.ok(tiny.stability < 0.05);
});

test("same-day reviews use short-term stability (FSRS-6 form)", () => {
  const s = 2.3065;
  close(shortTermStability(s, Grade.Again), 0.7750839828558983);
  close(shortTermStability(s, Grade.Hard), 1.3333787168039835);
  close(shortTermStability(s, Grade.Good), 2.3065, 1e-12);
  close(shortTermStability(s, Grade.Easy), 3.9460540679694778);
  for (const g of [1, 2, 3, 4]) close(shortTermStability(50, g), ref.short(50, g));
  assert.equal(nextMemory({ difficulty: 5, stability: s }, 0, Grade.Good).stability, shortTermStability(s, Grade.Good));
  assert.ok(shortTermStability(100, Grade.Good) >= 100, "Good never lowers stability on the same day");
});

test("scheduler: learning steps, graduation, review intervals, lapses", () => {
  const t0 = new Date(2026, 10, 22, 12, 0).getTime();
  const first = review(newCard(), Grade.Good, t0);
  assert.equal(first.state, State.Learning);
  assert.equal(first.due, t0 + 10 * 60000);
  assert.equal(first.step, 1);
  const again = review(newCard(), Grade.Again, t0);
  assert.equal(again.due, t0 + 60000);
  assert.equal(review(newCard(), Grade.Hard, t0).due, t0 + 5.5 * 60000);
  const easy = review(newCard(), Grade.Easy, t0);
  assert.equal(easy.state, State.Review);
  // Due from 4:00 on that day, as Anki starts a day: a review "in 4 days" learnt at 20:00 was
  // not due until 20:00 on day 4, while the learner came back in the morning.
  assert.equal(easy.due, new Date(2026, 10, 30, 4, 0).getTime(), "S0(Easy) = 8.2956 → 8 days");
  const evening = new Date(2026, 10, 22, 20, 0).getTime();
  assert.equal(review(newCard(), Grade.Easy, evening).due, new Date(2026, 10, 30, 4, 0).getTime());
  // Across the change to summer time (Europe's last Sunday of March) still 4:00 on the 8th day,
  // in a time zone that has one (the machine's may not).
  const zone = process.env.TZ;
  process.env.TZ = "Europe/Berlin";
  try {
    const before = new Date(2026, 2, 27, 23, 30).getTime(), after = new Date(2026, 3, 4, 4, 0).getTime();
    assert.equal(after - before, 7 * DAY + 3.5 * 3600000, "the clock moved on by one hour in between");
    assert.equal(review(newCard(), Grade.Easy, before).due, after);
  } finally {
    if (zone === undefined) delete process.env.TZ; else process.env.TZ = zone;
  }

  const graduated = review(first, Grade.Good, t0 + 10 * 60000);
  assert.equal(graduated.state, State.Review);
  assert.equal(graduated.reps, 2);

  const later = graduated.due + DAY;
  const [hard, good, easier] = [Grade.Hard, Grade.Good, Grade.Easy].map((g) => review(graduated, g, later));
  assert.ok(hard.due < good.due && good.due < easier.due, "Hard < Good < Easy intervals");
  assert.ok(good.stability > graduated.stability);

  const lapse = review(good, Grade.Again, good.due);
  assert.equal(lapse.state, State.Relearning);
  assert.equal(lapse.lapses, 1);
  assert.equal(lapse.due, good.due + 10 * 60000);
  assert.ok(lapse.stability < good.stability, "Again lowers stability");
  const relearned = review(lapse, Grade.Good, lapse.due);
  assert.equal(relearned.state, State.Review);
});

test("elapsed days count local calendar days", () => {
  const evening = new Date(2026, 10, 22, 23, 0).getTime();
  assert.equal(elapsedDays(evening, new Date(2026, 10, 22, 23, 59).getTime()), 0);
  assert.equal(elapsedDays(evening, new Date(2026, 10, 23, 0, 30).getTime()), 1);
  assert.equal(elapsedDays(evening, new Date(2026, 11, 2, 8).getTime()), 10);
});

test("multiple-choice answers map to ratings", () => {
  assert.equal(gradeFromAnswer({ correct: false, ms: 1000 }), Grade.Again);
  assert.equal(gradeFromAnswer({ correct: true, ms: 2000 }), Grade.Easy);
  assert.equal(gradeFromAnswer({ correct: true, ms: 5000 }), Grade.Good);
  assert.equal(gradeFromAnswer({ correct: true, ms: 12000 }), Grade.Hard);
  assert.equal(gradeFromAnswer({ correct: true, ms: 2000, replays: 2 }), Grade.Hard, "replayed more than once");
  assert.equal(gradeFromAnswer({ correct: true, ms: 2000, replays: 1 }), Grade.Good, "one replay is not fast");
  assert.equal(gradeFromAnswer({ correct: true, ms: 12000 }, { slowMs: 15000 }), Grade.Good);
  // At the learner's own pace, time counts neither way; replays and mistakes still do.
  const untimed = { timed: false };
  assert.equal(gradeFromAnswer({ correct: true, ms: 60000 }, untimed), Grade.Good, "slow is not Hard");
  assert.equal(gradeFromAnswer({ correct: true, ms: 500 }, untimed), Grade.Good, "fast is not Easy");
  assert.equal(gradeFromAnswer({ correct: true, ms: 60000, replays: 2 }, untimed), Grade.Hard);
  assert.equal(gradeFromAnswer({ correct: false, ms: 60000 }, untimed), Grade.Again);
});
