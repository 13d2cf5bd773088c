// FSRS-6 spaced-repetition scheduling, as implemented by ts-fsrs and py-fsrs
// (formulas and default weights: shared/reference/learning.md, §A3).
// Learn mode uses it to decide when each animal comes back: soon after a
// mistake, ever later while it keeps being recognised.

/** FSRS-6 default weights w0..w20 (ts-fsrs `default_w`); w20 is the decay. */
export const DEFAULT_WEIGHTS = Object.freeze([
  0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796, 1.4835, 0.0614, 0.2629,
  1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542,
]);

/** Ratings. A multiple-choice answer is mapped onto them by gradeFromAnswer(). */
export const Grade = Object.freeze({ Again: 1, Hard: 2, Good: 3, Easy: 4 });

/** Card states. */
export const State = Object.freeze({ New: "new", Learning: "learning", Review: "review", Relearning: "relearning" });

const S_MIN = 0.001;
const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;

/** Defaults from ts-fsrs `constant.ts`. */
export const DEFAULT_PARAMS = Object.freeze({
  w: DEFAULT_WEIGHTS,
  requestRetention: 0.9,
  maximumInterval: 36500,
  learningSteps: Object.freeze([1 * MINUTE, 10 * MINUTE]),
  relearningSteps: Object.freeze([10 * MINUTE]),
  enableShortTerm: true,
});

const clamp = (x, lo, hi) => Math.min(hi, Math.max(lo, x));

/** DECAY = −w20; FACTOR = 0.9^(1/DECAY) − 1, which makes R(S, S) = 0.9. */
export function decayFactor(w = DEFAULT_WEIGHTS) {
  const decay = -w[20];
  return { decay, factor: Math.pow(0.9, 1 / decay) - 1 };
}

/**
 * Retrievability: the probability of recall after `t` days at stability `s`.
 * R(t, S) = (1 + FACTOR·t/S)^DECAY.
 */
export function retrievability(t, s, w = DEFAULT_WEIGHTS) {
  const { decay, factor } = decayFactor(w);
  return Math.pow(1 + (factor * Math.max(0, t)) / s, decay);
}

/**
 * Days until recall probability drops to `r`: I(r, S) = S/FACTOR·(r^(1/DECAY) − 1),
 * rounded and clamped to [1, maximumInterval] (no fuzz: the quiz is small and
 * fuzz would make tests and the daily plan harder to follow).
 */
export function nextInterval(s, params = DEFAULT_PARAMS) {
  const { decay, factor } = decayFactor(params.w);
  const raw = (s / factor) * (Math.pow(params.requestRetention, 1 / decay) - 1);
  return clamp(Math.round(raw), 1, params.maximumInterval);
}

/** S0(G) = w[G−1]. */
export function initialStability(g, w = DEFAULT_WEIGHTS) {
  return Math.max(w[g - 1], 0.1);
}

/** D0(G) = w4 − e^(w5·(G−1)) + 1, unclamped (mean reversion targets the raw D0(Easy)). */
export function initialDifficulty(g, w = DEFAULT_WEIGHTS) {
  return w[4] - Math.exp(w[5] * (g - 1)) + 1;
}

/** ΔD = −w6·(G−3); D′ = D + ΔD·(10−D)/9; D″ = w7·D0(4) + (1−w7)·D′, clamped to [1, 10]. */
export function nextDifficulty(d, g, w = DEFAULT_WEIGHTS) {
  const delta = -w[6] * (g - 3);
  const damped = d + (delta * (10 - d)) / 9;
  return clamp(w[7] * initialDifficulty(4, w) + (1 - w[7]) * damped, 1, 10);
}

/** S′ after a successful recall (G ≥ 2). */
export function recallStability(d, s, r, g, w = DEFAULT_WEIGHTS) {
  const hard = g === Grade.Hard ? w[15] : 1;
  const easy = g === Grade.Easy ? w[16] : 1;
  const growth = Math.exp(w[8]) * (11 - d) * Math.pow(s, -w[9]) * (Math.exp(w[10] * (1 - r)) - 1) * hard * easy;
  return clamp(s * (1 + growth), S_MIN, 36500);
}

/** S′ after a lapse (G = 1): w11·D^(−w12)·((S+1)^w13 − 1)·e^(w14·(1−R)). */
export function forgetStability(d, s, r, w = DEFAULT_WEIGHTS) {
  const value = w[11] * Math.pow(d, -w[12]) * (Math.pow(s + 1, w[13]) - 1) * Math.exp(w[14] * (1 - r));
  return clamp(value, S_MIN, 36500);
}

/** Same-day stability: S·e^(w17·(G−3+w18))·S^(−w19), the multiplier floored at 1 when G ≥ 3. */
export function shortTermStability(s, g, w = DEFAULT_WEIGHTS) {
  let inc = Math.exp(w[17] * (g - 3 + w[18])) * Math.pow(s, -w[19]);
  if (g >= Grade.Good) inc = Math.max(inc, 1);
  return clamp(s * inc, S_MIN, 36500);
}

/**
 * The memory-state transition (ts-fsrs `next_state`): new D and S after a
 * rating `g` given `t` whole days since the last review. A null memory means
 * a first review.
 * @param {{difficulty: number, stability: number}|null} memory
 * @param {number} t elapsed days (0 = same day)
 * @param {number} g Grade
 * @returns {{difficulty: number, stability: number}}
 */
export function nextMemory(memory, t, g, params = DEFAULT_PARAMS) {
  const w = params.w;
  if (!memory) return { difficulty: clamp(initialDifficulty(g, w), 1, 10), stability: initialStability(g, w) };
  const { difficulty: d, stability: s } = memory;
  const r = retrievability(t, s, w);
  let stability;
  if (t === 0 && params.enableShortTerm) {
    stability = shortTermStability(s, g, w);
  } else if (g === Grade.Again) {
    const cap = params.enableShortTerm ? s / Math.exp(w[17] * w[18]) : s;
    stability = clamp(cap, S_MIN, forgetStability(d, s, r, w));
  } else {
    stability = recallStability(d, s, r, g, w);
  }
  return { difficulty: nextDifficulty(d, g, w), stability };
}

/**
 * Whole local calendar days between two instants (0 on the same day), which
 * is what FSRS means by elapsed days.
 */
export function elapsedDays(fromMs, toMs) {
  const day = (ms) => {
    const d = new Date(ms);
    return Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()) / DAY;
  };
  return Math.max(0, Math.round(day(toMs) - day(fromMs)));
}

/** 4:00 local time, `days` days after `now`'s day (Anki's day start). */
const dueDay = (now, days) => new Date(new Date(now).setHours(12, 0, 0, 0) + days * DAY).setHours(4, 0, 0, 0);

/** A card that was never reviewed. */
export function newCard() {
  return { state: State.New, due: 0, stability: 0, difficulty: 0, step: 0, reps: 0, lapses: 0, last: null };
}

/**
 * Reviews a card (ts-fsrs basic scheduler): new and (re)learning cards go
 * through short steps in minutes; review cards get day intervals kept in the
 * order Hard < Good < Easy.
 * @param {Card} card
 * @param {number} g Grade
 * @param {number} now epoch milliseconds
 * @returns {Card} a new card; the input is not changed
 */
export function review(card, g, now, params = DEFAULT_PARAMS) {
  const t = card.last === null ? 0 : elapsedDays(card.last, now);
  const memory = card.state === State.New ? null : { difficulty: card.difficulty, stability: card.stability };
  const next = nextMemory(memory, t, g, params);
  const base = {
    ...card,
    ...next,
    reps: card.reps + 1,
    last: now,
  };
  if (card.state === State.Review) {
    if (g === Grade.Again) {
      return { ...base, state: State.Relearning, step: 0, lapses: card.lapses + 1, due: now + params.relearningSteps[0] };
    }
    const interval = (grade) => nextInterval(nextMemory(memory, t, grade, params).stability, params);
    const hard = Math.min(interval(Grade.Hard), interval(Grade.Good));
    const good = Math.max(interval(Grade.Good), hard + 1);
    const easy = Math.max(interval(Grade.Easy), good + 1);
    const days = g === Grade.Hard ? hard : g === Grade.Good ? good : easy;
    return { ...base, state: State.Review, step: 0, due: dueDay(now, days) };
  }
  const steps = card.state === State.Relearning ? params.relearningSteps : params.learningSteps;
  const step = card.state === State.New ? 0 : Math.min(card.step, steps.length - 1);
  const stay = card.state === State.Relearning ? State.Relearning : State.Learning;
  const wait = (ms, nextStep) => ({ ...base, state: stay, step: nextStep, due: now + Math.round(ms) });
  const goodStep = step + 1;
  if (g === Grade.Again) return wait(steps[0], 0);
  if (g === Grade.Hard) {
    if (step > 0) return wait(steps[step], step);
    return wait(steps.length > 1 ? (steps[0] + steps[1]) / 2 : steps[0] * 1.5, 0);
  }
  if (g === Grade.Good && goodStep < steps.length) return wait(steps[goodStep], goodStep);
  return { ...base, state: State.Review, step: 0, due: dueDay(now, nextInterval(next.stability, params)) };
}

/**
 * Maps a multiple-choice answer to a rating, since there are no self-rating
 * buttons: wrong → Again; right but slow or after replaying the sound more
 * than once → Hard; right and fast → Easy; otherwise Good. Untimed: no
 * Hard or Easy by time.
 * @param {{correct: boolean, ms: number, replays?: number}} answer
 * @param {{slowMs?: number, fastMs?: number, timed?: boolean}} [limits] defaults 10 s and 3 s, timed
 */
export function gradeFromAnswer({ correct, ms, replays = 0 }, { slowMs = 10000, fastMs = 3000, timed = true } = {}) {
  if (!correct) return Grade.Again;
  if ((timed && ms > slowMs) || replays > 1) return Grade.Hard;
  if (timed && ms <= fastMs && replays === 0) return Grade.Easy;
  return Grade.Good;
}

/**
 * @typedef {{state: string, due: number, stability: number, difficulty: number, step: number,
 *   reps: number, lapses: number, last: number|null}} Card
 */
