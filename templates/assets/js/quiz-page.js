// Entry module of the quiz page (quiz/?mode=sound|image|daily|learn).
//
// Builds the quiz inside [data-quiz-app] and keeps the automation hooks of
// DESIGN.md §6: the quiz element carries data-quiz and data-state
// (question | answered | finished; absent while loading or when a message
// replaces the quiz), the prompt sits in [data-quiz-prompt], choices are
// <button data-choice="ID">, data-correct="ID" appears after an answer,
// [data-quiz-score] reads "RIGHT / TOTAL", and <button data-quiz-next> moves on.
// Every change happens synchronously inside the event handler that caused
// it, so a test never sees a half-updated page (but for "Read aloud", shown
// once its language's texts are fetched).
import { animalName, languageChain, parseCatalog } from "./catalog.js";
import { dailyMissing, dailyRecord, dailyRound, localDateKey, shareResult } from "./daily.js";
import { ask, button, fill, h, isTypingTarget, keyMeaning, readJsonScript } from "./dom.js";
import { beep, canVibrate, onVoicesChanged, speak, stopSpeaking, vibrate, voiceFor } from "./feedback.js";
import { Grade, gradeFromAnswer } from "./fsrs.js";
import { translator } from "./i18n.js";
import { planSession, progress, recordReview, scored } from "./learn.js";
import { MODES, availableModes, buildRound, defaultMode, roundPool, unlocksAnimals } from "./questions.js";
import { createRng, randomSeed } from "./rng.js";
import { levelFor, newAchievements, reduce } from "./scoring.js";
import { keptRound, keptRoundText, roundKey } from "./round-resume.js";
import { memoryBackend, openStore, storageKey } from "./storage.js";
import { settingsView } from "./quiz-settings.js";
import { achievementName, caughtUpView, summaryView } from "./quiz-summary.js";
import { choicesView, feedbackView, groupName, markChoices, mediaUrl, promptView, shellView } from "./quiz-view.js";
import { cachedPrompts } from "./offline.js";
import { descriptionReader } from "./descriptions.js";

const tomorrow = () => localDateKey(new Date(Date.now() + 864e5));

class QuizPage {
  /** @param {HTMLElement} mount the page's [data-quiz-app] element */
  constructor(mount) {
    const data = document.body.dataset;
    const lang = data.lang || document.documentElement.lang || "en";
    this.tr = translator({ lang, strings: readJsonScript("bestiary-strings"), fallback: readJsonScript("bestiary-strings-fallback") });
    /** @type {import("./quiz-view.js").View} */
    this.v = { tr: this.tr, lang, chain: [lang], root: data.root ?? "./", langRoot: data.langRoot ?? "./", site: data.siteTitle };
    this.catalogPath = data.catalog || "";
    this.siteId = data.siteId || "site";
    this.mount = mount;
    this.round = null;
    this.originalTheme = document.documentElement.getAttribute("data-theme");
    this.els = shellView(this.v);
    fill(mount, this.els.quiz);
  }

  async start() {
    let backend = null;
    try {
      backend = window.localStorage;
    } catch {
      // Storage blocked (privacy settings): play without saving.
    }
    // Problems with stored data are reported by site.js, which loads it first on every page.
    this.store = openStore(backend || memoryBackend(), this.siteId);
    this.state = this.store.load().state;
    this.applyTheme();
    document.addEventListener("keydown", (event) => this.onKey(event));
    onVoicesChanged(() => this.updateReadAloud());
    await this.loadCatalog();
  }

  /** `moveFocus` on a retry the learner asked for: the question takes the focus. */
  async loadCatalog(moveFocus = false) {
    let data;
    try {
      const response = await fetch(new URL(this.v.root + this.catalogPath, document.baseURI));
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      data = await response.json();
    } catch (error) {
      console.error("Bestiary: catalogue not loaded", error);
      return this.message("load-failed", this.tr("quiz.error.load"), [button(this.tr("quiz.retry"), () => this.loadCatalog(true))]);
    }
    const parsed = parseCatalog(data);
    if (!parsed.ok) return this.message(parsed.reason, this.tr(`quiz.error.${parsed.reason}`));
    this.catalog = parsed.catalog;
    this.descriptions = descriptionReader(this.catalog.descriptions, (path) => new URL(this.v.root + path, document.baseURI));
    this.byId = new Map(this.catalog.animals.map((a) => [a.id, a]));
    this.v.chain = languageChain(this.v.lang, this.catalog.languages);
    const requested = new URLSearchParams(location.search).get("mode");
    this.mode = MODES.includes(requested) ? requested : defaultMode(this.catalog.animals);
    this.els.title.textContent = this.tr(`quiz.mode.${this.mode}`);
    this.renderModes();
    this.renderSettings();
    await this.checkOffline();
    addEventListener("offline", () => this.checkOffline());
    addEventListener("online", () => {
      this.unreachable = false;
      this.checkOffline();
    });
    // Back or forward from the browser's page cache: the round kept since (the other language's
    // page went on with it) is taken up, not this page's older state of it answered again.
    addEventListener("pageshow", (event) => {
      const kept = event.persisted && this.round && this.keptRound(this.filters());
      if (kept && kept.results.length !== this.round.results.length) this.startRound(false, true);
    });
    this.startRound(moveFocus, returnsToPage());
  }

  /**
   * Without a network, only animals whose sound or picture is cached can be
   * asked (the service worker caches them as they are played); also when the
   * site did not answer and the learner chose to play what is saved (`unreachable`).
   */
  async checkOffline() {
    const offline = navigator.onLine === false || this.unreachable;
    this.offlineIds = !offline || !("caches" in window) ? null : await this.saved(this.mode);
  }

  /** "Try again": the site asked again (a Wi-Fi back on never says so). */
  retry() {
    this.unreachable = false;
    this.checkOffline().then(() => this.startRound(true));
  }

  /** The animals whose prompt in `mode` is cached. */
  saved(mode) {
    return cachedPrompts(this.catalog, mode, (src) => new URL(mediaUrl(this.v, src), document.baseURI).href);
  }

  // ---- rounds

  /**
   * Starts a round of the current mode; `moveFocus` when the learner asked for it, `resume` on
   * a reload, back or forward: a kept sound, picture or learn round goes on.
   */
  startRound(moveFocus, resume = false) {
    this.silence();
    this.round = null;
    const mode = this.mode;
    const { animals, quiz, languages } = this.catalog;
    const filters = this.filters();
    const rng = createRng(randomSeed());
    let result;
    let answered = [];
    const kept = resume && mode !== "daily" ? this.keptRound(filters) : null;
    if (kept) {
      result = { ok: true, questions: kept.questions };
      answered = kept.results;
    } else if (mode === "daily") {
      // A later day's daily, up to a day ahead, stays today's until the clock catches up with it
      // (a clock set back, a flight west): never written over, it made every answer start the
      // round again. One further ahead (a clock once a year wrong) is not today's.
      const d = this.state.daily?.date ?? "";
      this.today = d > localDateKey() && d <= tomorrow() ? d : localDateKey();
      const record = dailyRecord(this.state.daily, this.today, this.catalog.fingerprint, filters.soundsOnly);
      this.soundsDaily = !!record.soundsOnly;
      result = dailyRound(this.catalog, this.today, this.soundsDaily);
      answered = record.results;
      if (record.done) {
        this.state.daily = record;
        const questions = result.ok ? result.questions : [];
        return this.showSummary({ mode, results: record.results, questions, start: this.state.stats, moveFocus: false, replay: true });
      }
      // Offline, some of today's media unsaved: the try is kept, nothing recorded.
      if (result.ok && dailyMissing(result.questions, answered.length, this.offlineIds).length) return this.showDailyOffline();
      this.state.daily = record;
    } else if (mode === "learn") {
      const { pool, plan } = this.learnPlan(filters);
      if (!pool.ok) return this.showProblem(pool);
      if (!plan.ids.length) return this.showCaughtUp(plan.nextDue, moveFocus);
      result = buildRound({ animals, mode, choices: quiz.choices, languages, rng, filters, targets: plan.ids });
    } else {
      const unlocked = levelFor(this.state.stats.points).unlocked;
      const { questions, choices } = quiz;
      result = buildRound({ animals, mode, questions, choices, languages, rng, filters: { ...filters, unlocked } });
    }
    if (!result.ok) return this.showProblem(result);
    const note = this.els.notices.querySelector("[data-quiz-notice=offline]");
    if (result.saved) note || this.notice("quiz.notice.offline");
    else note?.remove();
    this.round = {
      mode,
      rng,
      questions: result.questions,
      index: answered.length,
      results: answered.slice(),
      retried: kept ? kept.retried : new Set(),
      start: kept ? kept.start : this.state.stats,
    };
    this.keepRound();
    // A daily interrupted after its last answer (page closed before "finish") is finished now.
    if (this.round.index >= this.round.questions.length) return this.finishRound(false);
    this.showQuestion(moveFocus);
  }

  /** The next question's picture or recording, loaded while this one is answered (not when the
   * browser is asked to save data); kept until the next question, so that it is not dropped. */
  fetchAhead(next) {
    const animal = next && this.byId.get(next.id);
    this.ahead = animal && !navigator.connection?.saveData && animal[next.prompt] ? promptView(this.v, animal, next.prompt, () => {}) : null;
  }

  /**
   * A picture or recording that did not load: the connection lost, whether the device knows it
   * or not (a school's Wi-Fi down, the server gone: `navigator.onLine` stays true), the file gone
   * with a newer version of the site (an old tab: 404), or one this browser cannot play, told
   * apart by asking for it again. The daily stops before the question counts (blind guesses used
   * up a pupil's one try): offline its try is kept as when it started offline, a file gone asks
   * for a reload; its answers wait meanwhile. A file the server has but the browser could not
   * play leaves the daily as it was (a reload would not mend it).
   */
  async mediaFailed(el, media, round, index) {
    const { tr } = this;
    // Still this question, unanswered (not a picture's error after the answer).
    const current = () => this.round === round && round.index === index && this.els.quiz.dataset.state === "question";
    if (!current()) return;
    // The daily's answers wait while it asks (up to 5 s), and say so.
    const checking = round.mode === "daily" ? h("p", { class: "quiz-media-error", role: "status", dataset: { quizChecking: "" }, text: tr("quiz.mediaChecking") }) : null;
    if (checking) {
      round.checking = true;
      el.append(checking);
    }
    const src = media.currentSrc || media.src || media.querySelector("source")?.src;
    const status = navigator.onLine === false ? 0 : await answerStatus(src);
    round.checking = false;
    checking?.remove();
    if (!current()) return;
    const why = status === 0 ? "quiz.mediaError" : status === 404 || status === 410 ? "quiz.mediaGone" : "quiz.mediaUnplayable";
    if (round.mode === "daily" && why === "quiz.mediaError") return this.showDailyOffline();
    if (round.mode === "daily" && why === "quiz.mediaGone") {
      return this.message("daily-gone", tr(why), [button(tr("offline.reload"), () => location.reload())]);
    }
    // A broken picture's icon and alt text in a tall box pushed the answers down.
    if (media instanceof HTMLImageElement) media.hidden = true;
    // The site did not answer though the device is online (a Wi-Fi without internet): a round of what is saved.
    const sameSite = src && new URL(src, document.baseURI).origin === location.origin;
    const savedRound = status === 0 && sameSite && "caches" in window
      ? button(tr("quiz.playSaved"), () => {
          this.unreachable = true;
          this.checkOffline().then(() => this.startRound(true));
        }, { class: "quiz-button", dataset: { quizPlaySaved: "" } })
      : "";
    el.append(
      h("p", { class: "quiz-media-error", role: "status", text: tr(why) }),
      round.mode === "daily" ? "" : button(tr("quiz.skip"), () => this.skip(), { class: "quiz-button", dataset: { quizSkip: "" } }),
      savedRound,
    );
  }

  showQuestion(moveFocus) {
    const { tr, v } = this;
    const round = this.round;
    const question = round.questions[round.index];
    const animal = this.byId.get(question.id);
    Object.assign(round, { shownAt: performance.now(), firstPlay: null, plays: 0 });
    const prompt = promptView(v, animal, question.prompt, () => this.replay());
    const ask = tr(question.prompt === "sound" ? "quiz.askSound" : "quiz.askImage");
    round.audio = prompt.audio;
    const media = prompt.audio || prompt.el.querySelector("img");
    // A picture still on its way (3G took seconds) shows that it is coming.
    if (media && !prompt.audio && !media.complete) {
      prompt.el.dataset.loading = "";
      const done = () => delete prompt.el.dataset.loading;
      media.addEventListener("load", done);
      media.addEventListener("error", done);
    }
    media?.addEventListener("error", () => this.mediaFailed(prompt.el, media, round, round.index), { once: true });
    prompt.audio?.addEventListener("play", () => {
      round.plays++;
      round.firstPlay ??= performance.now();
    });
    this.els.choices = choicesView(v, question.choices, this.byId, (id) => this.answer(id));
    this.els.feedback = h("div", { class: "quiz-feedback-slot" });
    this.els.actions = h("div", { class: "quiz-actions" });
    fill(
      this.els.stage,
      h(
        "div",
        { class: "quiz-question" },
        h("h2", { class: "quiz-ask", text: ask }),
        prompt.el,
        this.els.choices,
        this.els.feedback,
      ),
    );
    const quiz = this.els.quiz;
    quiz.removeAttribute("data-correct");
    quiz.removeAttribute("aria-busy");
    quiz.dataset.mode = round.mode;
    quiz.dataset.state = "question";
    this.updateStatus();
    // The next question's media once this one's are here (on 3G the two would share the link).
    const ahead = () => this.fetchAhead(round.questions[round.index + 1]);
    if (prompt.audio) prompt.audio.addEventListener("canplaythrough", ahead, { once: true });
    else if (media && !media.complete) media.addEventListener("load", ahead, { once: true });
    else ahead();
    // A picture is said to be one (focus goes to the answers, past it); a sound speaks for itself.
    const of = this.questionOf(round);
    this.announce(prompt.audio ? of : `${of}${tr("punctuation.colon")} ${ask} ${media?.alt || ""}`.trim());
    if (moveFocus) {
      // "Question N of M" and the score come to the top, then the first answer into view if the
      // question is taller than the screen (focusing it alone left the page as it was: on a
      // projector the question and the picture's top stayed above the screen). A touch screen
      // shows no focus: the question's top only (in landscape the picture went out of view).
      const first = this.els.choices.querySelector("button");
      const touch = matchMedia("(pointer: coarse)").matches;
      const status = this.els.progress.parentElement;
      const answers = this.els.choices.getBoundingClientRect();
      first.focus({ preventScroll: true });
      // Only when some of it is out of view: a question in view stays where it is.
      if (touch || status.getBoundingClientRect().top < 0 || answers.bottom > innerHeight) (touch ? this.els.stage : status).scrollIntoView({ block: "start" });
      if (!touch && first.getBoundingClientRect().bottom > innerHeight) first.scrollIntoView({ block: "nearest" });
      // Or the learner starts it (Play, R): it talked over a screen reader reading the question.
      if (this.state.settings.autoplay) prompt.audio?.play().catch(() => {});
    }
  }

  answer(id) {
    const round = this.round;
    // Not while a failed picture or recording of the daily is being looked into (mediaFailed).
    if (!round || this.els.quiz.dataset.state !== "question" || round.checking) return;
    const { tr, v } = this;
    const question = round.questions[round.index];
    const animal = this.byId.get(question.id);
    const correct = id === question.id;
    const fresh = round.mode === "daily" && this.stored();
    if (fresh) {
      // One try: another tab may have answered this question (or finished the daily) meanwhile,
      // or begun a later day's, which is never written over. Past midnight, this one goes on.
      const stored = dailyRecord(fresh.daily, this.today, this.catalog.fingerprint, this.soundsDaily);
      if (stored.done || stored.results.length !== round.index || (fresh.daily?.date > this.today && fresh.daily.date <= tomorrow())) {
        this.state = fresh;
        return this.startRound(true);
      }
    }
    round.results.push(correct);

    const groupAnimals = animal.group ? this.catalog.animals.filter((a) => a.group === animal.group).map((a) => a.id) : [];
    // Learn mode asks a missed animal once more, right after showing its name: not evidence of
    // knowing it, so it earns no points and is rated at most Hard.
    const retry = round.mode === "learn" && round.retried.has(question.id);
    const asked = round.questions.length;
    const grade = round.mode === "learn" && this.learnAnswer(round, question, correct, retry);
    // Said, since the round grows by it and a retry's right answer counts for nothing.
    const note = round.questions.length > asked ? tr("learn.comesBack") : retry ? tr("learn.retryNote") : null;
    let before;
    this.commit((s) => {
      before = s.stats;
      return {
        ...s,
        stats: retry ? s.stats : reduce(s.stats, {
          type: "answer", date: localDateKey(), animal: animal.id, correct, difficulty: animal.difficulty, group: animal.group, groupAnimals,
        }),
        cards: grade ? recordReview(s.cards, question.id, grade, Date.now(), Date.now() - performance.now() + round.shownAt) : s.cards,
        daily: round.mode === "daily" ? this.todays(s, false) : s.daily,
      };
    });
    this.keepRound();

    markChoices(v, this.els.choices, question.id, id);
    const { actions } = this.els;
    fill(this.els.feedback, feedbackView(v, { animal, correct, note, prompt: question.prompt, actions, onRead: () => this.readAloud(animal) }));
    // A theme's own older quiz-view.js leaves them out: after the feedback, as they were.
    if (!actions.isConnected) this.els.feedback.append(actions);
    const last = round.index + 1 >= round.questions.length;
    const next = button(tr(last ? "quiz.finish" : "quiz.next"), () => this.next(), { class: "quiz-next", dataset: { quizNext: "" } });
    fill(this.els.actions, next);
    this.updateReadAloud();

    const quiz = this.els.quiz;
    quiz.dataset.correct = question.id;
    quiz.dataset.state = "answered";
    this.updateStatus();
    const name = animalName(animal, v.chain);
    const news = newAchievements(before, this.state.stats).map((a) => tr("achievement.unlocked", { name: achievementName(this.v, a) }));
    this.announce([tr(correct ? "quiz.announceRight" : "quiz.announceWrong", { name }), note, ...news].filter(Boolean).join(" "));
    if (this.state.settings.feedbackSound) beep(correct);
    if (this.state.settings.vibration) vibrate(correct);
    // "Next" in view, and the verdict where both fit (not at 200 % on a small screen).
    next.focus({ preventScroll: true });
    const top = this.els.feedback.getBoundingClientRect().top - 8;
    const below = next.getBoundingClientRect().bottom + 16 - innerHeight;
    const by = Math.max(top < 0 ? top : Math.max(0, Math.min(below, top)), below);
    if (by) scrollBy(0, by);
  }

  /** Rates the answer for spaced repetition (a `retry` at most Hard) and asks a missed animal once more at the end. */
  learnAnswer(round, question, correct, retry) {
    const now = performance.now();
    const clip = round.audio && Number.isFinite(round.audio.duration) ? Math.min(round.audio.duration * 1000, 5000) : 0;
    const grade = gradeFromAnswer(
      { correct, ms: now - (round.firstPlay ?? round.shownAt), replays: Math.max(0, round.plays - 1) },
      { slowMs: 10000 + clip, fastMs: 3000 + clip, timed: !this.state.settings.ownPace },
    );
    if (!correct && !retry) {
      round.retried.add(question.id);
      const { animals, quiz, languages } = this.catalog;
      const { rng } = round;
      const again = buildRound({ animals, mode: "learn", choices: quiz.choices, languages, rng, targets: [question.id], filters: this.filters() });
      if (again.ok) round.questions.push(again.questions[0]);
    }
    return retry ? Math.min(grade, Grade.Hard) : grade;
  }

  next() {
    const round = this.round;
    if (!round || this.els.quiz.dataset.state !== "answered") return;
    this.silence();
    round.index++;
    if (round.index < round.questions.length) return this.showQuestion(true);
    this.finishRound(true);
  }

  /** Leaves out an unanswered question whose media failed (the network went mid-round); not in
   * the daily, which a reload asks again from its date. */
  skip() {
    const round = this.round;
    if (this.els.quiz.dataset.state !== "question") return;
    this.silence();
    round.questions.splice(round.index, 1);
    this.keepRound();
    if (round.index < round.questions.length) return this.showQuestion(true);
    this.finishRound(true);
  }

  /** Today's daily as saved in `s`, with this round's answers. */
  todays(s, done) {
    return { ...dailyRecord(s.daily, this.today, this.catalog.fingerprint, this.soundsDaily), results: this.round.results.slice(), done };
  }

  finishRound(moveFocus) {
    const round = this.round;
    const results = scored(round, round.results);
    const correct = results.filter(Boolean).length;
    this.commit((s) => ({
      ...s,
      stats: reduce(s.stats, { type: "round", mode: round.mode, date: localDateKey(), correct, total: results.length }),
      daily: round.mode === "daily" ? this.todays(s, true) : s.daily,
    }));
    this.keepRound(true);
    this.showSummary({ mode: round.mode, results, questions: scored(round, round.questions), start: round.start, moveFocus, replay: false });
  }

  /** The learn session the learner's cards and filters call for now (`plan` when `pool.ok`). */
  learnPlan(filters = this.filters()) {
    const { animals, quiz, languages } = this.catalog;
    const pool = roundPool({ animals, mode: "learn", choices: quiz.choices, languages, filters });
    if (!pool.ok) return { pool, plan: null };
    const askable = new Set(pool.askable);
    return { pool, plan: planSession({ animals: animals.filter((a) => askable.has(a)), cards: this.state.cards, now: Date.now() }) };
  }

  /** Stops every sound of the stage: a detached <audio> would otherwise play on. */
  silence() {
    stopSpeaking();
    for (const audio of this.els.stage.querySelectorAll("audio")) audio.pause();
  }

  replay() {
    const audio = this.round?.audio;
    if (!audio) return;
    // Rewinding a clip that is still playing fires no "play" event: it is a replay all the same
    // (learn mode rates an answer after several replays as hard).
    if (!audio.paused && !audio.ended) this.round.plays++;
    // A sound that failed (the network was gone) is asked for again.
    if (audio.error) audio.load();
    audio.currentTime = 0;
    audio.play().catch(() => {});
  }

  // ---- end of round, messages

  /** The finished state: result, best score, news, mode extras, statistics. */
  showSummary({ mode, results, questions, start, moveFocus, replay }) {
    // Each animal answered wrong, once (`questions` and `results` are scored ones, in step).
    const missed = [...new Set(questions.filter((q, i) => results[i] === false).map((q) => q.id))].map((id) => this.byId.get(id)).filter(Boolean);
    const { plan } = mode === "learn" ? this.learnPlan() : {};
    const view = summaryView(this.v, {
      mode, results, start, replay,
      // In a sound or picture round (the daily and learn mode take no level cap).
      unlocks: (before, after) => {
        const { animals, quiz, languages } = this.catalog;
        const capped = mode === "sound" || mode === "image" ? mode : defaultMode(animals);
        return unlocksAnimals({ animals, mode: capped, choices: quiz.choices, languages, filters: this.filters() }, before, after);
      },
      date: mode === "daily" ? this.today : localDateKey(),
      soundsOnly: this.soundsDaily,
      stats: this.state.stats,
      learnNext: plan ? { ready: plan.ids.length, nextDue: plan.nextDue } : null,
      missed,
      onRestart: () => this.startRound(true),
      // The page's address follows the result, for others to play today's challenge too.
      onShare: (text) => shareResult(`${text}\n${location.href}`, navigator),
    });
    fill(this.els.stage, view.el);
    this.finishState(results.filter(Boolean).length, results.length);
    this.announce(view.announcement);
    if (moveFocus) view.heading.focus();
  }

  showCaughtUp(nextDue, moveFocus) {
    const view = caughtUpView(this.v, { nextDue, now: Date.now(), onCheck: () => this.startRound(true) });
    fill(this.els.stage, view.el);
    this.finishState(0, 0);
    this.announce(view.heading.textContent);
    if (moveFocus) view.heading.focus();
  }

  finishState(right, total) {
    const quiz = this.els.quiz;
    quiz.removeAttribute("data-correct");
    quiz.removeAttribute("aria-busy");
    quiz.dataset.mode = this.mode;
    quiz.dataset.state = "finished";
    this.els.score.textContent = `${right} / ${total}`;
    this.els.progress.textContent = "";
    this.updateLevel();
  }

  /** Explains why no round can be played (no media, filters too narrow) and offers a way out. */
  showProblem(result) {
    const { tr } = this;
    const s = this.state.settings;
    const filtered = s.groups.length > 0 || s.difficultyMin > 1 || s.difficultyMax < 3;
    const actions = [];
    if (result.reason === "no-media") {
      const other = availableModes(this.catalog.animals)[0];
      if (other) actions.push(h("a", { class: "quiz-button", href: `?mode=${other}`, text: tr(`quiz.mode.${other}`) }));
    } else if (filtered && this.mode !== "daily") {
      actions.push(button(tr("settings.clearFilters"), () => this.setFilters({ groups: [], difficultyMin: 1, difficultyMax: 3 })));
    }
    if (result.reason === "offline") actions.push(button(tr("quiz.retry"), () => this.retry()));
    const key = {
      "no-media": `quiz.problem.noMedia.${s.soundsOnly && this.mode !== "image" ? "sound" : this.mode}`,
      // Not the learner's filters when none narrow the collection (or the daily ignores them):
      // the site itself has too few animals for this mode.
      "too-few": filtered && this.mode !== "daily" ? "quiz.problem.tooFew" : "quiz.problem.tooFewSite",
      "no-animals": "quiz.problem.noAnimals",
      offline: "quiz.problem.offline",
    }[result.reason];
    this.message(result.reason, tr(key, { have: result.have, needed: result.needed, count: result.have }), actions);
  }

  /** Offline, the daily cannot show all of today's questions: it waits, the modes with something saved play. */
  async showDailyOffline() {
    const { tr } = this;
    const actions = [];
    for (const m of availableModes(this.catalog.animals)) {
      if (m !== "daily" && (await this.saved(m)).size) actions.push(h("a", { class: "quiz-button", href: `?mode=${m}`, text: tr(`quiz.mode.${m}`) }));
    }
    const text = tr("quiz.problem.dailyOffline") + (actions.length ? " " + tr("quiz.problem.dailyOfflineModes") : "");
    actions.push(button(tr("quiz.retry"), () => this.retry()));
    this.message("daily-offline", text, actions);
  }

  /** Replaces the quiz with a message; data-state is removed since no round is on. */
  message(reason, text, actions = []) {
    this.silence();
    this.announce("");
    this.round = null;
    const box = h("div", { class: "quiz-message", role: "alert", dataset: { quizMessage: reason } }, h("p", { text }));
    if (actions.length) box.append(h("div", { class: "quiz-actions" }, actions));
    fill(this.els.stage, box);
    // Focus was on what the message replaced (a settings form's button, a choice): it goes to
    // the way out, or to the message, not to the page.
    const focused = document.activeElement;
    if (!focused || focused === document.body || !focused.isConnected || this.els.quiz.contains(focused)) {
      box.tabIndex = -1;
      (box.querySelector("a, button") || box).focus();
    }
    const quiz = this.els.quiz;
    quiz.removeAttribute("data-state");
    quiz.removeAttribute("data-correct");
    quiz.removeAttribute("aria-busy");
    this.els.score.textContent = "0 / 0";
    this.els.progress.textContent = "";
  }

  // ---- header, settings, statistics

  updateStatus() {
    const round = this.round;
    const right = scored(round, round.results).filter(Boolean).length;
    this.els.progress.textContent = this.questionOf(round);
    this.els.score.textContent = `${right} / ${scored(round, round.questions).length}`;
    this.updateLevel();
  }

  /** "Question 3 of 10", or that it asks a missed animal again (a question `scored` leaves out). */
  questionOf(round) {
    const retry = !scored(round, round.questions).includes(round.questions[round.index]);
    return this.tr(retry ? "learn.retryOf" : "quiz.questionOf", { n: round.index + 1, total: round.questions.length });
  }

  updateLevel() {
    const { points } = this.state.stats;
    const level = levelFor(points);
    const key = level.next === null ? "level.statusTop" : "level.status";
    this.els.level.textContent = this.tr(key, { level: level.level, points, next: level.next });
    // The settings name the level at which harder animals come (not redrawn while open or focused).
    const settings = this.els.settings;
    if (this.settingsLevel !== level.level && !settings.querySelector("[open]") && !settings.contains(document.activeElement)) this.renderSettings();
    const learning = this.mode === "learn";
    this.els.learn.hidden = !learning;
    if (learning) this.els.learn.textContent = this.learnProgressText();
  }

  learnProgressText() {
    const { animals, quiz, languages } = this.catalog;
    const pool = roundPool({ animals, mode: "learn", choices: quiz.choices, languages, filters: this.filters() });
    const counts = progress(pool.ok ? pool.askable.map((a) => a.id) : [], this.state.cards, Date.now());
    return this.tr("learn.progress", counts);
  }

  renderModes() {
    const modes = availableModes(this.catalog.animals);
    fill(
      this.els.modes,
      h(
        "ul",
        {},
        modes.map((m) =>
          h("li", {}, h("a", { href: `?mode=${m}`, "aria-current": m === this.mode ? "page" : null, text: this.tr(`quiz.mode.${m}`) })),
        ),
      ),
    );
  }

  renderSettings() {
    const { animals, quiz, languages } = this.catalog;
    const level = levelFor(this.state.stats.points);
    this.settingsLevel = level.level;
    // What the learner's sound or picture rounds ask now: the level's cap, raised by roundPool
    // where too few animals are below it.
    const mode = this.mode === "sound" || this.mode === "image" ? this.mode : defaultMode(animals);
    const pool = roundPool({ animals, mode, choices: quiz.choices, languages, filters: { ...this.filters(), unlocked: level.unlocked } });
    fill(
      this.els.settings,
      settingsView(this.v, {
        settings: this.state.settings,
        // By their labels in the page's language, as the collection's lists (a translator's).
        groups: [...new Set(animals.map((a) => a.group).filter(Boolean))].sort((a, b) => groupName(this.v, a).localeCompare(groupName(this.v, b), this.v.lang)),
        difficulties: [...new Set(animals.map((a) => a.difficulty))].sort(),
        level: { level: level.level, unlocked: pool.ok ? pool.unlocked : level.unlocked },
        filtersApply: this.mode !== "daily",
        canVibrate: canVibrate(),
        onChange: (patch) => {
          this.saveSettings(patch);
          this.applyTheme();
          // A learn round or a daily not begun asks otherwise now (the focus stays).
          if ("soundsOnly" in patch && (this.mode === "daily" || this.mode === "learn")) this.startRound(false);
        },
        onFilters: (patch) => this.setFilters(patch),
        onResetBest: () => this.resetBest(),
      }),
    );
  }

  /** The learner's own filters (the level cap is added for sound and image rounds only). */
  filters() {
    const { groups, difficultyMin, difficultyMax, soundsOnly } = this.state.settings;
    return { groups, difficultyMin, difficultyMax, soundsOnly, askable: this.offlineIds ?? null };
  }

  saveSettings(patch) {
    this.commit((s) => ({ ...s, settings: { ...s.settings, ...patch } }));
  }

  setFilters(patch) {
    this.saveSettings(patch);
    this.renderSettings();
    this.startRound(true);
  }

  async resetBest() {
    const { tr } = this;
    const mode = tr(`quiz.mode.${this.mode}`);
    const confirmed = await ask({
      message: tr("settings.resetBestAsk", { mode }),
      confirm: tr("settings.resetBestYes"),
      cancel: tr("settings.cancel"),
      parent: this.mount,
    });
    if (!confirmed) return;
    this.commit((s) => ({ ...s, stats: reduce(s.stats, { type: "reset-best", mode: this.mode }) }));
    this.announce(tr("settings.resetBestDone", { mode }));
    this.els.stage.querySelector(".quiz-best")?.remove();
  }

  applyTheme() {
    const theme = this.state.settings.theme;
    const root = document.documentElement;
    const value = theme === "system" ? this.originalTheme : theme;
    if (value === null) root.removeAttribute("data-theme");
    else root.setAttribute("data-theme", value);
  }

  // ---- read-aloud, keyboard, persistence, announcements

  /** The key of this page's kept round in sessionStorage, and what it belongs to. */
  roundSlot(filters) {
    return [storageKey(this.siteId, "round"), roundKey(this.mode, filters, this.catalog.fingerprint)];
  }

  /** The round kept from before a reload, if it is this page's and whole; offline, only if its prompts are cached. */
  keptRound(filters) {
    const [slot, key] = this.roundSlot(filters);
    let kept = null;
    try {
      kept = keptRound(sessionStorage.getItem(slot), key, this.byId);
    } catch {
      // Storage blocked: nothing was kept.
    }
    const askable = this.offlineIds;
    return kept && (!askable || kept.questions.slice(kept.results.length).every((q) => askable.has(q.id))) ? kept : null;
  }

  /** Keeps the current round for a reload (a daily keeps its own record); `done` forgets it. */
  keepRound(done = false) {
    const round = this.round;
    try {
      const [slot, key] = this.roundSlot(this.filters());
      if (done || round.mode === "daily") sessionStorage.removeItem(slot);
      else sessionStorage.setItem(slot, keptRoundText(key, round));
    } catch {
      // Storage blocked or full: a reload starts a new round, as before.
    }
  }

  /** Reads the animal's text, which showing the button fetched: at once, within the press (a
   * phone's browser speaks only then). */
  async readAloud(animal) {
    const text = this.readable?.id === animal.id ? this.readable.text : await this.descriptions.text(animal.id, this.v.chain);
    if (text) speak(text.text, text.lang, this.state.settings.voices[text.lang] ?? null);
  }

  /** Shows the read-aloud button only when there is a description and a voice for its language:
   * the texts come from their own file, fetched the first time (the button shows when it came,
   * if the learner is still on that answer). Nothing is fetched while no voice could read it. */
  async updateReadAloud() {
    const button = this.els.feedback?.querySelector("[data-quiz-read]");
    const round = this.round;
    if (!button || !round) return;
    const voices = this.state.settings.voices;
    if (!this.v.chain.concat(Object.keys(this.catalog.descriptions)).some((lang) => voiceFor(lang, voices[lang] ?? null))) {
      button.hidden = true;
      return;
    }
    const id = round.questions[round.index].id;
    const text = await this.descriptions.text(id, this.v.chain);
    // An earlier answer's lookup that ends late leaves the one shown now as it is.
    if (!button.isConnected) return;
    this.readable = { id, text };
    button.hidden = !(text && voiceFor(text.lang, this.state.settings.voices[text.lang] ?? null));
  }

  onKey(event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTypingTarget(event) || !this.round) return;
    // By the character typed or the key's place: an Arabic layout's `١` and `ق` (R) did nothing.
    const key = keyMeaning(event);
    // A held key repeats: only its first press counts (the next question went unseen).
    if (event.repeat && (typeof key === "number" || key === "next")) return event.preventDefault();
    const state = this.els.quiz.dataset.state;
    const target = event.target instanceof Element ? event.target : null;
    // Enter pressed twice went on, then answered the next question unseen.
    if (state === "question" && key === "next" && performance.now() - this.round.shownAt < 500) return event.preventDefault();
    if (state === "question" && typeof key === "number") {
      const button = this.els.choices.querySelectorAll("[data-choice]")[key - 1];
      if (!button) return;
      event.preventDefault();
      // An answer out of view (the welcome above the quiz, a tablet on its side): the key brings
      // the question and that answer into view first, and says what the next press answers (it
      // answered a question not seen; a screen reader heard only the question's number again).
      const { top, bottom } = button.getBoundingClientRect();
      if ((top >= innerHeight || bottom <= 0) && this.round.revealed !== this.round.index) {
        this.round.revealed = this.round.index;
        this.els.stage.scrollIntoView({ block: "start" });
        button.scrollIntoView({ block: "nearest" });
        // Shown as the one the next press answers (at 400 % the key seemed to do nothing); the
        // focus says its name, so the message does not (a screen reader said it twice).
        button.focus({ preventScroll: true });
        return this.announce(this.tr("quiz.keyAgain", { question: this.questionOf(this.round), key: event.key }));
      }
      this.answer(button.getAttribute("data-choice"));
    } else if (key === "replay" && this.round.audio && state !== "finished") {
      event.preventDefault();
      this.replay();
    } else if (state === "answered" && key === "next" && !target?.closest("a, button, summary, audio")) {
      event.preventDefault();
      this.next();
    }
  }

  /** The state as saved now; null when it cannot be read or is behind this page's (saving failed). */
  stored() {
    const { state, notice } = this.store.load();
    return this.unsaved || notice === "unavailable" || notice === "reset" ? null : state;
  }

  /**
   * Applies `change` to the state as saved now, not as this page loaded it: what another tab or
   * page saved meanwhile (answers, a reset, an import, a theme) stays. While saving fails, the
   * page's own state is the newer one.
   */
  commit(change) {
    const state = change(this.stored() ?? this.state);
    const saved = this.store.save(state);
    this.state = state;
    this.unsaved = !saved;
    if (!saved && !this.saveWarned) {
      this.saveWarned = true;
      this.notice("quiz.notice.saveFailed");
    }
  }

  notice(key) {
    this.els.notices.append(h("p", { class: "quiz-notice", role: "status", dataset: { quizNotice: key.split(".").pop() }, text: this.tr(key) }));
  }

  announce(text) {
    this.els.live.textContent = text;
  }

  /** Last resort: an unexpected error still leaves a readable page. */
  fail(error) {
    console.error("Bestiary quiz:", error);
    this.message("error", this.tr("quiz.error.unexpected"));
  }
}

// The picture is as tall as leaves its answers in view below the header (quiz.css), whose height
// follows the menu's words: in French, Italian or German it took two rows on a projector.
const header = document.querySelector(".site-header");
const headerHeight = () => document.documentElement.style.setProperty("--quiz-header", `${header.offsetHeight}px`);
if (header) {
  headerHeight();
  if (window.ResizeObserver) new ResizeObserver(headerHeight).observe(header);
}

const mount = document.querySelector("[data-quiz-app]");
if (mount) {
  try {
    const page = new QuizPage(mount);
    page.start().catch((error) => page.fail(error));
  } catch (error) {
    console.error("Bestiary quiz:", error);
    mount.textContent = readJsonScript("bestiary-strings")["quiz.error.unexpected"] || "The quiz could not start. Please reload the page.";
  }
}

/** A reload, back or forward, or the language link from this page in another language (no other link). */
function returnsToPage() {
  const [entry] = performance.getEntriesByType?.("navigation") ?? [];
  if (entry?.type === "reload" || entry?.type === "back_forward") return true;
  // Or came by this page's link to another language, from that language's quiz page.
  const from = document.referrer ? new URL(document.referrer) : null;
  return !!from && from.pathname !== location.pathname &&
    [...document.querySelectorAll(".language-nav a[hreflang]")].some((a) => a.origin === from.origin && a.pathname === from.pathname);
}

/** The HTTP status `url` answers with (a HEAD), 0 on a network error or no answer within 5 s. */
async function answerStatus(url) {
  if (!url) return 200;
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), 5000);
  try {
    return (await fetch(url, { method: "HEAD", cache: "no-store", signal: stop.signal })).status;
  } catch {
    return 0;
  } finally {
    clearTimeout(timer);
  }
}
