// Builds the quiz's DOM pieces: prompt, credits, choices, answer feedback.
// No state lives here; quiz-page.js decides what to show and wires events.
import { animalName, localized } from "./catalog.js";
import { button, h } from "./dom.js";

/**
 * What every view needs to turn catalogue data into markup.
 * @typedef {{tr: (key: string, params?: object) => string, chain: string[], lang: string,
 *   root: string, langRoot: string, site?: string}} View (`site`: the site's title)
 */

/**
 * The quiz's lasting frame: heading, mode links, status line (score, level,
 * learn progress), notices, the stage each question replaces, the settings
 * slot and the live region. They survive from question to question: the
 * data-quiz element a test holds stays valid, and the live region is in the
 * page before anything is announced.
 * @returns {Record<string, HTMLElement>} the parts, by name; `quiz` is the root
 */
export function shellView(v) {
  const { tr } = v;
  const e = {
    title: h("h1", { id: "quiz-title", tabindex: "-1", text: tr("quiz.title") }),
    modes: h("nav", { class: "quiz-modes", "aria-label": tr("quiz.modes") }),
    progress: h("span", { class: "quiz-progress" }),
    score: h("span", { dataset: { quizScore: "" }, text: "0 / 0" }),
    level: h("p", { class: "quiz-level" }),
    learn: h("p", { class: "quiz-learn-progress", hidden: true }),
    notices: h("div", { class: "quiz-notices" }),
    stage: h("div", { class: "quiz-stage" }, h("p", { class: "quiz-loading", text: tr("quiz.loading") })),
    settings: h("div", { class: "quiz-settings-slot" }),
    live: h("div", { class: "visually-hidden", "aria-live": "polite", "aria-atomic": "true", dataset: { quizLive: "" } }),
  };
  e.quiz = h(
    "section",
    { class: "quiz", dataset: { quiz: "" }, "aria-labelledby": "quiz-title", "aria-busy": "true" },
    h(
      "header",
      { class: "quiz-head" },
      e.title,
      e.modes,
      h("p", { class: "quiz-status" }, e.progress, " ", h("span", { class: "quiz-score" }, tr("quiz.scoreLabel"), " ", e.score)),
      e.level,
      e.learn,
    ),
    e.notices,
    e.stage,
    e.settings,
    e.live,
  );
  return e;
}

/** A media URL (relative to the site root in the catalogue) as seen from this page. */
export function mediaUrl(v, src) {
  return /^[a-z][a-z0-9+.-]*:/i.test(src) ? src : v.root + src;
}

/** An animal page's URL (relative to the language root in the catalogue), or null. */
export function pageUrl(v, animal) {
  return animal.page === null ? null : v.langRoot + animal.page;
}

/**
 * A group's display name: `quiz.group.NAME` if the strings have it, else the
 * record's free text with a capital first letter, as the build's labels.
 */
export function groupName(v, group) {
  const key = `quiz.group.${group}`;
  const text = v.tr(key);
  return text === key ? group.charAt(0).toUpperCase() + group.slice(1) : text;
}

/**
 * The animal's name as a span carrying `lang` when the name had to fall
 * back to another language (screen readers then pronounce it correctly).
 */
export function nameView(v, animal, tag = "span") {
  const found = localized(animal.names, v.chain);
  return h(tag, { lang: found && found.lang !== v.lang ? found.lang : null, text: animalName(animal, v.chain) });
}

/** The animal's name as a link to its page, or in bold when it has none. */
export function nameLink(v, animal) {
  const href = pageUrl(v, animal);
  const name = nameView(v, animal, href ? "a" : "strong");
  if (href) name.setAttribute("href", href);
  return name;
}

/**
 * The prompt: a recording with a big play button (sound) or the
 * picture (image). The picture's alt text must not give the answer away.
 * @returns {{el: HTMLElement, audio: HTMLAudioElement|null}}
 */
export function promptView(v, animal, kind, onReplay) {
  if (kind === "sound") {
    // No controls: six Tab stops before the answers (a review).
    const audio = h("audio", {
      preload: "auto",
      src: mediaUrl(v, animal.sound.src),
      "aria-label": v.tr("quiz.recording"),
    });
    const play = h(
      "button",
      { type: "button", class: "quiz-button quiz-play", dataset: { quizReplay: "" }, "aria-keyshortcuts": "R", on: { click: onReplay } },
      h("span", { "aria-hidden": "true", text: "▶ " }),
      v.tr("quiz.play"),
      h("kbd", { class: "quiz-key", "aria-hidden": "true", text: "R" }),
    );
    return { el: h("div", { class: "quiz-prompt", dataset: { quizPrompt: "" } }, play, audio, creditView(v, animal.sound, "sound", false)), audio };
  }
  return {
    el: h(
      "div",
      { class: "quiz-prompt", dataset: { quizPrompt: "" } },
      pictureView(v, animal.image, v.tr("quiz.pictureAlt")),
      creditView(v, animal.image, "image", false),
    ),
    audio: null,
  };
}

/** A responsive picture with its intrinsic size (no layout shift) and focal point. */
export function pictureView(v, image, alt) {
  const img = h("img", {
    class: "quiz-picture",
    src: mediaUrl(v, image.src),
    srcset: image.srcset ? srcsetUrls(v, image.srcset) : null,
    sizes: image.srcset ? "(min-width: 40rem) 36rem, 100vw" : null,
    width: image.width,
    height: image.height,
    alt,
    decoding: "async",
  });
  if (image.focus) img.style.objectPosition = image.focus;
  return img;
}

/** Rewrites each URL of a srcset ("a.jpg 330w, b.jpg 960w") as seen from this page. */
function srcsetUrls(v, srcset) {
  return srcset
    .split(",")
    .map((part) => {
      const [url, ...descriptors] = part.trim().split(/\s+/);
      return [mediaUrl(v, url), ...descriptors].join(" ");
    })
    .join(", ");
}

/**
 * "Recording: Jane Doe · CC BY-SA 4.0 · source" wherever media plays (licences
 * require it), or null. `withSource` is false while a question is open: the
 * address names the animal (File:American_Bison_9.jpg).
 * @param {"sound"|"image"} kind
 */
export function creditView(v, media, kind, withSource = true) {
  if (!media || (!media.credit && !media.license && !(withSource && media.source))) return null;
  const parts = [];
  if (media.credit) parts.push(media.credit);
  if (media.license) parts.push(media.license);
  const label = v.tr(kind === "sound" ? "quiz.creditSound" : "quiz.creditImage");
  if (withSource && media.source && /^https?:\/\//i.test(media.source)) {
    // "source (Photo)" to a screen reader: whose source (WCAG 2.4.9).
    const whose = h("span", { class: "visually-hidden", text: ` (${label.replace(/\s*:\s*$/, "")})` });
    parts.push(h("a", { href: media.source, rel: "noopener", target: "_blank" }, v.tr("quiz.source"), whose));
  }
  const items = parts.flatMap((p, i) => (i ? [" · ", p] : [p]));
  return h("p", { class: "quiz-credit" }, label, " ", ...items);
}

/**
 * The answer buttons, numbered for the keyboard shortcut.
 * @param {string[]} ids
 * @param {Map<string, import("./catalog.js").Animal>} byId
 * @param {(id: string) => void} onAnswer
 */
export function choicesView(v, ids, byId, onAnswer) {
  return h(
    "ol",
    { class: "quiz-choices", "aria-label": v.tr("quiz.choices") },
    ids.map((id, i) =>
      h(
        "li",
        {},
        h(
          "button",
          {
            type: "button",
            class: "quiz-choice",
            dataset: { choice: id },
            "aria-keyshortcuts": String(i + 1),
            on: { click: () => onAnswer(id) },
          },
          h("kbd", { class: "quiz-key", "aria-hidden": "true", text: String(i + 1) }),
          nameView(v, byId.get(id)),
          h("span", { class: "quiz-mark", "aria-hidden": "true" }),
          h("span", { class: "visually-hidden quiz-mark-text" }),
        ),
      ),
    ),
  );
}

/**
 * Marks the choices after an answer: all disabled, the right one and (if
 * different) the chosen one labelled in words as well as colour.
 */
export function markChoices(v, container, correctId, chosenId) {
  for (const button of container.querySelectorAll("[data-choice]")) {
    const id = button.getAttribute("data-choice");
    button.disabled = true;
    const state = id === correctId ? "right" : id === chosenId ? "wrong" : null;
    if (!state) continue;
    button.classList.add(state === "right" ? "is-right" : "is-wrong");
    button.querySelector(".quiz-mark").textContent = state === "right" ? "✓" : "✗";
    button.querySelector(".quiz-mark-text").textContent = " " + v.tr(state === "right" ? "quiz.markRight" : "quiz.markChosen");
  }
}

/**
 * The feedback after an answer: right or wrong, the correct animal with a
 * link to its page, the other medium (its picture after a sound question,
 * only now; its voice after a picture question) since hearing and seeing
 * reinforce each other, and a read-aloud button that quiz-page.js shows
 * when a voice exists; `note`, a line after the answer. `actions` ("Next") come right after
 * the answer, before what it reveals: at 400 % zoom the revealed picture and its credits pushed
 * the verdict off the screen when "Next" below them came into view.
 * @param {{animal: import("./catalog.js").Animal, correct: boolean, note?: string|null, prompt: "sound"|"image",
 *   actions?: Node, onRead: () => void}} options
 */
export function feedbackView(v, { animal, correct, note, prompt, actions, onRead }) {
  const name = nameLink(v, animal);
  return h(
    "div",
    { class: "quiz-feedback " + (correct ? "is-right" : "is-wrong") },
    h("p", { class: "quiz-verdict", text: v.tr(correct ? "quiz.right" : "quiz.wrong") }),
    h(
      "p",
      { class: "quiz-answer" },
      v.tr("quiz.answerWas"),
      " ",
      name,
      animal.scientific ? [" ", h("i", { lang: "la", text: animal.scientific })] : null,
    ),
    note ? h("p", { class: "quiz-note", text: note }) : null,
    actions,
    prompt === "sound" && animal.image
      ? h(
          "figure",
          { class: "quiz-reveal" },
          pictureView(v, animal.image, animalName(animal, v.chain)),
          h("figcaption", {}, creditView(v, animal.image, "image")),
        )
      : null,
    prompt === "image" && animal.sound
      ? h(
          "div",
          { class: "quiz-reveal" },
          h("audio", { controls: true, preload: "none", src: mediaUrl(v, animal.sound.src), "aria-label": v.tr("quiz.recording") }),
          creditView(v, animal.sound, "sound"),
        )
      : null,
    // The question's own medium, credited now with its source (kept back while it was open).
    prompt === "image" && animal.image?.source ? creditView(v, animal.image, "image") : null,
    prompt === "sound" && animal.sound?.source ? creditView(v, animal.sound, "sound") : null,
    button(v.tr("quiz.readAloud"), onRead, { hidden: true, dataset: { quizRead: "" } }),
  );
}
