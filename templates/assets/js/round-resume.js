// A sound, picture or learn round kept in sessionStorage after every step, so that a reload in
// the middle of it, or the quiz's link to another language, goes on where it was (the daily
// challenge keeps its own record in the learner's state). Pure: quiz-page.js reads and writes
// the text. A kept round is taken only for the same mode, filters and catalogue (in any of the
// site's languages: a round holds animals' ids, not names), and only if every part of it is sound:
// anything else (damaged, foreign, from an older catalogue) is ignored and a new round starts.

const VERSION = 1;

/**
 * What a kept round belongs to: the mode, the learner's filters and the catalogue's fingerprint.
 * @param {string} mode
 * @param {{groups: string[], difficultyMin: number, difficultyMax: number, soundsOnly?: boolean}} filters
 * @param {string} fingerprint
 */
export function roundKey(mode, filters, fingerprint) {
  return JSON.stringify([mode, filters.groups, filters.difficultyMin, filters.difficultyMax, fingerprint, !!filters.soundsOnly]);
}

/**
 * The text to keep for a round: its questions, the answers so far (the position is their
 * count), the missed animals already asked again (learn) and what the summary compares with.
 * @param {string} key from roundKey()
 * @param {{questions: object[], results: boolean[], retried: Set<string>, start: object}} round
 */
export function keptRoundText(key, { questions, results, retried, start }) {
  const { points, best, achievements } = start;
  return JSON.stringify({ v: VERSION, key, questions, results, retried: [...retried], start: { points, best, achievements } });
}

/**
 * The round kept in `text`, or null when there is none for `key` or any part is damaged.
 * @param {string|null} text
 * @param {string} key from roundKey()
 * @param {Map<string, {sound: object|null, image: object|null}>} byId the catalogue's animals
 * @returns {{questions: object[], results: boolean[], retried: Set<string>, start: object}|null}
 */
export function keptRound(text, key, byId) {
  let kept;
  try {
    kept = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(kept) || kept.v !== VERSION || kept.key !== key) return null;
  const { questions, results, retried, start } = kept;
  if (!Array.isArray(questions) || !questions.length || !questions.every((q) => validQuestion(q, byId))) return null;
  if (!Array.isArray(results) || results.length > questions.length || !results.every((r) => typeof r === "boolean")) return null;
  if (!Array.isArray(retried) || !retried.every((id) => byId.has(id))) return null;
  if (!isObject(start) || !Number.isFinite(start.points) || !isObject(start.achievements) || !isObject(start.best)) return null;
  if (!Object.values(start.best).every((b) => isObject(b) && Number.isInteger(b.correct))) return null;
  return { questions, results, retried: new Set(retried), start };
}

function validQuestion(q, byId) {
  if (!isObject(q) || !(q.prompt === "sound" || q.prompt === "image") || !byId.get(q.id)?.[q.prompt]) return false;
  const { choices } = q;
  return Array.isArray(choices) && choices.length >= 2 && new Set(choices).size === choices.length &&
    choices.includes(q.id) && choices.every((id) => byId.has(id));
}

function isObject(x) {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}
