// Points, streaks, best scores, days played, achievements and levels, as
// pure reducers over the learner's stats: `reduce(stats, event) -> stats`.
// Keeping them pure lets the page compare before/after to announce news
// ("new best!", "achievement unlocked") and lets the tests replay histories.

/** Points needed for each level (index 0 = level 1). */
export const LEVELS = Object.freeze([0, 100, 300, 600, 1000, 1500, 2100, 2800, 3600, 4500]);
/** The level at which difficulty 2 and difficulty 3 animals unlock. */
export const UNLOCKS = Object.freeze({ 2: 2, 3: 3 });
/** A round must have at least this many questions to count as "perfect". */
export const PERFECT_MIN = 5;

/** Achievements that do not depend on the catalogue; group ones are `group:NAME`. */
export const ACHIEVEMENTS = Object.freeze(["first-right", "streak-10", "perfect-round", "first-daily", "days-7", "right-100"]);

/** Stats of a learner who has not played yet. */
export function initialStats() {
  return {
    points: 0,
    answered: 0,
    correct: 0,
    streak: 0,
    bestStreak: 0,
    rounds: 0,
    days: 0,
    lastDay: null,
    today: { date: null, answered: 0, correct: 0 },
    best: {},
    right: [],
    achievements: {},
  };
}

/**
 * Points for one right answer: 10 per difficulty step, plus a streak bonus
 * of 2 per answer in a row beyond the first, at most 10.
 * @param {number} difficulty 1..3
 * @param {number} streak the streak including this answer
 */
export function pointsFor(difficulty, streak) {
  return 10 * difficulty + Math.min(Math.max(0, streak - 1) * 2, 10);
}

/**
 * The level for a points total, the hardest difficulty it unlocks, and the
 * points the next level needs (null at the top).
 * @param {number} points
 */
export function levelFor(points) {
  let level = 1;
  while (level < LEVELS.length && points >= LEVELS[level]) level++;
  const unlocked = level >= UNLOCKS[3] ? 3 : level >= UNLOCKS[2] ? 2 : 1;
  return { level, unlocked, floor: LEVELS[level - 1], next: level < LEVELS.length ? LEVELS[level] : null };
}

/**
 * Applies one event.
 *  - `{type: "answer", date, animal, correct, difficulty, group, groupAnimals}`:
 *    `groupAnimals` lists the ids of the animal's group in the catalogue, for
 *    the "whole group" achievement (omit it or pass [] when there is no group).
 *  - `{type: "round", mode, date, correct, total}`: a finished round.
 *  - `{type: "reset-best", mode}`: forgets one mode's best score (all with mode null).
 * Unknown events return the state unchanged.
 * @param {ReturnType<typeof initialStats>} stats
 * @param {object} event
 */
export function reduce(stats, event) {
  switch (event.type) {
    case "answer":
      return answer(stats, event);
    case "round":
      return round(stats, event);
    case "reset-best": {
      if (event.mode == null) return { ...stats, best: {} };
      const best = { ...stats.best };
      delete best[event.mode];
      return { ...stats, best };
    }
    default:
      return stats;
  }
}

function answer(stats, { date, animal, correct, difficulty = 1, group = null, groupAnimals = [] }) {
  const newDay = date !== stats.lastDay && (stats.lastDay === null || date > stats.lastDay);
  const today = stats.today.date === date ? stats.today : { date, answered: 0, correct: 0 };
  const streak = correct ? stats.streak + 1 : 0;
  const right = correct && !stats.right.includes(animal) ? [...stats.right, animal].sort() : stats.right;
  const next = {
    ...stats,
    points: stats.points + (correct ? pointsFor(difficulty, streak) : 0),
    answered: stats.answered + 1,
    correct: stats.correct + (correct ? 1 : 0),
    streak,
    bestStreak: Math.max(stats.bestStreak, streak),
    days: stats.days + (newDay ? 1 : 0),
    lastDay: newDay ? date : stats.lastDay,
    today: { date, answered: today.answered + 1, correct: today.correct + (correct ? 1 : 0) },
    right,
  };
  const earned = [];
  if (next.correct >= 1) earned.push("first-right");
  if (next.streak >= 10) earned.push("streak-10");
  if (next.correct >= 100) earned.push("right-100");
  if (next.days >= 7) earned.push("days-7");
  if (correct && group && groupAnimals.length && groupAnimals.every((id) => right.includes(id))) {
    earned.push("group:" + group);
  }
  return award(next, earned, date);
}

function round(stats, { mode, date, correct, total }) {
  // A round whose every question was skipped (none could be loaded) is no round: it became the
  // best ("0 of 0" beat "0 of 10" by asking fewer).
  if (total === 0) return stats;
  const old = stats.best[mode];
  const better = !old || correct > old.correct || (correct === old.correct && total < old.total);
  const next = {
    ...stats,
    rounds: stats.rounds + 1,
    best: better ? { ...stats.best, [mode]: { correct, total, date } } : stats.best,
  };
  const earned = [];
  if (total >= PERFECT_MIN && correct === total) earned.push("perfect-round");
  if (mode === "daily") earned.push("first-daily");
  return award(next, earned, date);
}

function award(stats, ids, date) {
  const fresh = ids.filter((id) => !(id in stats.achievements));
  if (!fresh.length) return stats;
  const achievements = { ...stats.achievements };
  for (const id of fresh) achievements[id] = date;
  return { ...stats, achievements };
}

/**
 * Achievements present in `after` but not in `before`, to announce them.
 * @returns {string[]}
 */
export function newAchievements(before, after) {
  return Object.keys(after.achievements).filter((id) => !(id in before.achievements));
}

/** Share of right answers, 0..1 (0 before the first answer). */
export function accuracy(stats) {
  return stats.answered ? stats.correct / stats.answered : 0;
}

/**
 * Whether a finished round set a new best for its mode (for "New best!"). Compared by value:
 * a resumed round's `before` was read back from text (round-resume.js).
 */
export function isNewBest(before, after, mode) {
  const [a, b] = [after.best[mode], before.best[mode]];
  return a !== undefined && (b === undefined || a.correct !== b.correct || a.total !== b.total || a.date !== b.date);
}
