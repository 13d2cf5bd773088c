// The views shown when a round ends: result, best score, new achievements
// and level, the daily's share text, learn progress, and the statistics.
import { shareText, shareTextPlain } from "./daily.js";
import { button, h } from "./dom.js";
import { elapsedDays } from "./fsrs.js";
import { groupName, nameLink } from "./quiz-view.js";
import { accuracy, isNewBest, levelFor, newAchievements } from "./scoring.js";

/**
 * An achievement's display name ("group:bird" → "Whole group named: Birds").
 * @param {import("./quiz-view.js").View} v
 * @param {string} id
 */
export function achievementName(v, id) {
  return id.startsWith("group:") ? v.tr("achievement.group", { group: groupName(v, id.slice(6)) }) : v.tr(`achievement.${id}`);
}

/**
 * The end of a round.
 * @param {import("./quiz-view.js").View} v
 * @param {object} o
 * @param {string} o.mode
 * @param {boolean[]} o.results one per question
 * @param {string} o.date YYYY-MM-DD (the daily's date, for the share text)
 * @param {boolean} [o.soundsOnly] the daily was sounds only (the share text says so)
 * @param {object} o.start the stats when the round began
 * @param {object} o.stats the stats now
 * @param {boolean} o.replay true when showing an earlier result again (a revisited daily): no news
 * @param {(before: number, after: number) => boolean} [o.unlocks] whether the level cap `after`
 *   (up from `before`) lets new animals into the learner's rounds: a level that does not, says not
 * @param {{ready: number, nextDue: number|null}|null} [o.learnNext] in learn mode: how many
 *   animals a next session would ask now, else when the next one falls due (the header shows the
 *   progress counts already)
 * @param {readonly import("./catalog.js").Animal[]} [o.missed] the animals answered wrong, to
 *   practise: named with links to their pages
 * @param {() => void} o.onRestart
 * @param {(text: string) => Promise<string>} o.onShare shares the daily's text; resolves to an
 *   outcome of daily.js's shareResult(), which the view shows next to the button
 * @returns {{el: HTMLElement, heading: HTMLElement, announcement: string}}
 */
export function summaryView(v, { mode, results, date, soundsOnly, start, stats, replay, unlocks = (before, after) => after > before, learnNext = null, missed = [], onRestart, onShare }) {
  const { tr } = v;
  const right = results.filter(Boolean).length;
  const total = results.length;
  const news = replay ? [] : newAchievements(start, stats).map((id) => tr("achievement.unlocked", { name: achievementName(v, id) }));
  const before = levelFor(start.points);
  const level = levelFor(stats.points);
  const levelUp = !replay && level.level > before.level
    ? tr(unlocks(before.unlocked, level.unlocked) ? "level.upUnlocked" : "level.up", { level: level.level }) : null;
  const title = mode === "daily" || mode === "learn" ? `${mode}.doneTitle` : "quiz.doneTitle";
  // Every question skipped (none could be loaded): "0 of 0 right" said nothing.
  const result = tr(total ? "quiz.result" : "quiz.resultNone", { right, total });
  const heading = h("h2", { class: "quiz-summary-title", tabindex: "-1", text: tr(title) });
  const el = h(
    "div",
    { class: "quiz-summary" },
    heading,
    h("p", { class: "quiz-result", text: result }),
    // Learn sessions vary in length, so a best score means little there.
    mode === "learn" ? null : bestView(v, stats.best[mode], !replay && isNewBest(start, stats, mode)),
    news.length ? h("ul", { class: "quiz-news" }, news.map((text) => h("li", { text }))) : null,
    levelUp ? h("p", { class: "quiz-news", text: levelUp }) : null,
    mode === "daily" ? dailyShareView(v, date, results, onShare, soundsOnly) : null,
    missed.length ? missedView(v, missed) : null,
    learnNext ? h("p", { class: "quiz-learn-next", text: learnNextText(v, learnNext, Date.now()) }) : null,
    statsView(v, stats),
    mode === "daily"
      ? null
      : h("div", { class: "quiz-actions" }, restartButton(tr(mode === "learn" ? "learn.continue" : "quiz.playAgain"), onRestart)),
  );
  // Not the achievements: each was said with the answer that won it (a screen reader heard them twice).
  return { el, heading, announcement: [result, levelUp].filter(Boolean).join(" ") };
}

/**
 * Learn mode with nothing to ask: when the next review falls due.
 * @param {import("./quiz-view.js").View} v
 * @param {{nextDue: number|null, now: number, onCheck: () => void}} o
 */
export function caughtUpView(v, { nextDue, now, onCheck }) {
  const heading = h("h2", { class: "quiz-summary-title", tabindex: "-1", text: v.tr("learn.caughtUp") });
  const el = h(
    "div",
    { class: "quiz-summary" },
    heading,
    h("p", { class: "quiz-learn-next", text: learnNextText(v, { ready: 0, nextDue }, now) }),
    h("div", { class: "quiz-actions" }, restartButton(v.tr("learn.check"), onCheck)),
  );
  return { el, heading };
}

/**
 * What comes next in learn mode: animals ready for another session now, or when the next review
 * falls due ("Next review in 10 minutes.").
 * @param {import("./quiz-view.js").View} v
 * @param {{ready: number, nextDue: number|null}} next
 * @param {number} now
 */
export function learnNextText(v, { ready, nextDue }, now) {
  if (ready > 0) return v.tr("learn.ready", { count: ready });
  return nextDue === null ? v.tr("learn.nothingDue") : v.tr("learn.nextDue", { when: relativeTime(v.lang, nextDue - now, now) });
}

/** The animals missed in the round, each named once with a link to its page (sound, picture, text). */
function missedView(v, missed) {
  return h(
    "div",
    { class: "quiz-missed", dataset: { quizMissed: "" } },
    h("h3", { text: v.tr("quiz.missed") }),
    h("ul", {}, missed.map((animal) => h("li", {}, nameLink(v, animal)))),
  );
}

/**
 * Today's numbers, streak, accuracy, days played and points.
 * @param {import("./quiz-view.js").View} v
 * @param {ReturnType<typeof import("./scoring.js").initialStats>} stats just saved: `today` is
 *   the learner's day now (a daily begun before midnight said "0 of 0" after it)
 */
export function statsView(v, stats) {
  const { tr } = v;
  const day = stats.today;
  const row = (label, value) => [h("dt", { text: tr(label) }), h("dd", { text: value })];
  return h(
    "dl",
    { class: "quiz-stats" },
    row("stats.today", tr("stats.todayValue", { right: day.correct, count: day.answered })),
    row("stats.streak", tr("stats.streakValue", { current: stats.streak, best: stats.bestStreak })),
    row("stats.accuracy", new Intl.NumberFormat(v.lang, { style: "percent" }).format(accuracy(stats))),
    row("stats.days", String(stats.days)),
    row("stats.points", String(stats.points)),
  );
}

/**
 * "in 5 minutes", "in 2 days", in the page language.
 * @param {string} lang
 * @param {number} ms from now
 */
export function relativeTime(lang, ms, now = Date.now()) {
  const format = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });
  const minutes = Math.max(1, Math.round(ms / 60000));
  if (minutes < 60) return format.format(minutes, "minute");
  const hours = Math.round(minutes / 60);
  if (hours < 24) return format.format(hours, "hour");
  return format.format(elapsedDays(now, now + ms), "day");
}

function bestView(v, best, isNew) {
  // A first round with no right answer is no record to celebrate.
  if (isNew && best && best.correct > 0) return h("p", { class: "quiz-best is-new", text: v.tr("quiz.newBest") });
  // Nor a best of none right ("Best score: 0 / 10" after a first daily).
  if (!best || best.correct === 0) return null;
  const params = { right: best.correct, total: best.total };
  return h("p", { class: "quiz-best", text: v.tr(best.total === null ? "quiz.bestCount" : "quiz.best", params) });
}

/** What the share button's status line says after a share (daily.js's shareResult() outcome). */
const SHARE_STATUS = { shared: "daily.shared", copied: "daily.copied", failed: "daily.copyFailed" };

/**
 * The status line's text for an outcome of shareResult(); empty when the learner cancelled.
 * @param {(key: string, params?: object) => string} tr
 * @param {string} outcome
 */
export function shareStatusText(tr, outcome) {
  return SHARE_STATUS[outcome] ? tr(SHARE_STATUS[outcome]) : "";
}

/**
 * The emoji line is hidden from screen readers, which get the plain line instead. After a share
 * the status line under the button says what happened (shared, copied, or that it failed): a
 * polite live region, visible, so everyone learns it.
 */
function dailyShareView(v, date, results, onShare, soundsOnly) {
  const text = shareText(date, results, v.tr, v.site || undefined, v.lang, soundsOnly);
  const status = h("p", { class: "quiz-share-status", role: "status", dataset: { quizShareStatus: "" } });
  const shown = h("p", { class: "quiz-share-text", "aria-hidden": "true", dataset: { quizShareText: "" }, text });
  const share = async () => {
    // Emptied first, so a second share with the same outcome is announced again.
    status.textContent = "";
    status.classList.remove("is-error");
    const outcome = await onShare(text);
    status.textContent = shareStatusText(v.tr, outcome);
    status.classList.toggle("is-error", outcome === "failed");
    // Not copied: the text is selected for the learner to copy, screen readers and keyboards too.
    if (outcome === "failed") {
      shown.removeAttribute("aria-hidden");
      shown.tabIndex = -1;
      shown.focus();
      globalThis.getSelection?.()?.selectAllChildren(shown);
    }
  };
  return h(
    "div",
    { class: "quiz-share" },
    shown,
    h("p", { dataset: { quizSharePlain: "" }, text: shareTextPlain(results, v.tr) }),
    button(v.tr("daily.copy"), share, { dataset: { quizShare: "" } }),
    status,
    h("p", { class: "quiz-hint", text: v.tr("daily.comeBack") }),
  );
}

function restartButton(text, onClick) {
  return button(text, onClick, { dataset: { quizRestart: "" } });
}
