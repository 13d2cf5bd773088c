// Learn mode: which animals a spaced-repetition session asks, and how far
// the learner has got. Cards (one per animal id) are scheduled by fsrs.js.
import { Grade, newCard, review, State } from "./fsrs.js";

/** New animals introduced per session: few, so they are not all forgotten at once. */
export const NEW_PER_SESSION = 5;
/** Questions per session at most. */
export const SESSION_SIZE = 10;
/** Like Anki's learn-ahead limit: learning cards due this soon may be asked when nothing else is left. */
export const LEARN_AHEAD_MS = 20 * 60 * 1000;

/**
 * Where an animal stands for the learner right now.
 * @param {import("./fsrs.js").Card|undefined} card
 * @param {number} now epoch ms
 * @returns {"new"|"learning"|"due"|"known"}
 */
export function cardStatus(card, now) {
  if (!card || card.state === State.New) return "new";
  if (card.due <= now) return "due";
  return card.state === State.Review ? "known" : "learning";
}

/**
 * Counts for the progress line ("3 new · 2 learning · 4 due · 11 known").
 * @param {readonly string[]} ids the animals learn mode can ask
 * @param {Record<string, import("./fsrs.js").Card>} cards
 * @param {number} now
 */
export function progress(ids, cards, now) {
  const counts = { new: 0, learning: 0, due: 0, known: 0, total: ids.length };
  for (const id of ids) counts[cardStatus(cards[id], now)]++;
  return counts;
}

/**
 * Plans a session: due animals first (earliest due first), then up to
 * `newLimit` new ones (easiest first, in catalogue order); only when there is
 * neither, learning animals due within LEARN_AHEAD_MS (asked sooner while new
 * ones wait, they would skip the learning step's spacing).
 * @param {object} options
 * @param {readonly import("./catalog.js").Animal[]} options.animals askable animals, catalogue order
 * @param {Record<string, import("./fsrs.js").Card>} options.cards
 * @param {number} options.now
 * @param {number} [options.size]
 * @param {number} [options.newLimit]
 * @returns {{ids: string[], nextDue: number|null}} nextDue: when the earliest animal not in the plan falls due
 */
export function planSession({ animals, cards, now, size = SESSION_SIZE, newLimit = NEW_PER_SESSION }) {
  const byDue = (a, b) => cards[a.id].due - cards[b.id].due || (a.id < b.id ? -1 : 1);
  const seen = animals.filter((a) => cardStatus(cards[a.id], now) !== "new");
  const due = seen.filter((a) => cards[a.id].due <= now).sort(byDue);
  const fresh = animals
    .map((a, index) => ({ a, index }))
    .filter(({ a }) => cardStatus(cards[a.id], now) === "new")
    .sort((x, y) => x.a.difficulty - y.a.difficulty || x.index - y.index)
    .map(({ a }) => a);
  const plan = due.slice(0, size);
  plan.push(...fresh.slice(0, Math.max(0, Math.min(newLimit, size - plan.length))));
  if (!plan.length) {
    const ahead = seen
      .filter((a) => cards[a.id].due > now && cards[a.id].due <= now + LEARN_AHEAD_MS && cards[a.id].state !== State.Review)
      .sort(byDue);
    plan.push(...ahead.slice(0, size - plan.length));
  }
  const planned = new Set(plan.map((a) => a.id));
  let nextDue = null;
  for (const a of seen) {
    if (planned.has(a.id)) continue;
    if (nextDue === null || cards[a.id].due < nextDue) nextDue = cards[a.id].due;
  }
  return { ids: plan.map((a) => a.id), nextDue };
}

/** Whether question `i` of a round is a learn round's retry: asked again after the name was shown, not scored. */
export function isRetry({ mode, questions: q }, i) {
  return mode == "learn" && q.findIndex((x) => x.id == q[i].id) != i;
}

/** `list` (one per question) without a learn round's retries. */
export function scored(round, list) {
  return list.filter((_, i) => !isRetry(round, i));
}

/**
 * Records a rated answer for one animal, unless another tab rated it after it was `shown` here.
 * @param {Record<string, import("./fsrs.js").Card>} cards
 * @param {string} id
 * @param {number} grade fsrs Grade
 * @param {number} now
 * @param {number} [shown]
 * @returns {Record<string, import("./fsrs.js").Card>} a new map
 */
export function recordReview(cards, id, grade, now, shown = now) {
  const card = cards[id] ?? newCard();
  if (card.last > shown) return cards;
  // A first right answer is never Easy: with four choices a quick guess is often right.
  const rated = card.state === State.New && grade === Grade.Easy ? Grade.Good : grade;
  return { ...cards, [id]: review(card, rated, now) };
}
