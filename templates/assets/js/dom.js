// Small DOM helpers for the quiz page: building elements without innerHTML
// (names and credits come from content files and must never be parsed as
// HTML), and reading the page's configuration.

/**
 * Creates an element. `attrs` keys: `class`, `text` (textContent), `on`
 * ({event: handler}), `dataset` ({key: value}), booleans (set as empty
 * attribute when true, skipped when false), anything else as an attribute;
 * null/undefined values are skipped. Children may be nodes, strings or
 * null/false (skipped), or arrays of those.
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...any} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key === "on") for (const [type, fn] of Object.entries(value)) el.addEventListener(type, fn);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child);
  }
}

/**
 * A `type="button"` button styled as a quiz button (`class` adds classes).
 * @param {string} label
 * @param {(event: Event) => void} onClick
 * @param {Record<string, any>} [attrs] as for h()
 */
export function button(label, onClick, attrs = {}) {
  const classes = "quiz-button" + (attrs.class ? " " + attrs.class : "");
  return h("button", { ...attrs, type: "button", class: classes, on: { click: onClick } }, label);
}

/**
 * Replaces an element's children.
 * @param {Element} el
 * @param {...any} children as for h()
 */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * Reads a JSON `<script type="application/json" id=…>` block; {} when it is
 * missing or broken, so a template mistake degrades to English keys, not a
 * blank page.
 * @param {string} id
 * @returns {Record<string, any>}
 */
export function readJsonScript(id) {
  const el = document.getElementById(id);
  if (!el) return {};
  try {
    const data = JSON.parse(el.textContent || "{}");
    return data && typeof data === "object" && !Array.isArray(data) ? data : {};
  } catch {
    return {};
  }
}

/**
 * Whether a key press should be left alone because the learner is typing or
 * working a form control or dialog.
 * @param {KeyboardEvent} event
 */
export function isTypingTarget(event) {
  const target = /** @type {Element|null} */ (event.target);
  return !!(target && target.closest && target.closest("input, select, textarea, [contenteditable=''], [contenteditable='true'], dialog"));
}

/**
 * What a key means to the quiz: an answer 1–9, "replay", "next" or null. By the character, a
 * digit of any script (`١`), else by the key's place (AZERTY's `&` is `Digit1`, an Arabic
 * layout's `ق` is `KeyR`), but never against a Latin letter (Dvorak's `p` is at `KeyR`).
 * @param {{key: string, code?: string}} event
 * @returns {number|"replay"|"next"|null}
 */
export function keyMeaning({ key, code = "" }) {
  if (key === "Enter" || key === " ") return "next";
  if (/^r$/i.test(key)) return "replay";
  if (/^\p{Nd}$/u.test(key)) {
    // Each script's digits run 0–9 (some scripts have runs side by side).
    const c = key.codePointAt(0);
    let zero = c;
    while (/\p{Nd}/u.test(String.fromCodePoint(zero - 1))) zero--;
    return (c - zero) % 10 || null;
  }
  if (/^[a-z]$/i.test(key)) return null;
  const place = /^(Digit|Numpad)([1-9])$/.exec(code);
  return place ? Number(place[2]) : code === "KeyR" ? "replay" : null;
}

/**
 * Asks a yes/no question in a modal <dialog> (keyboard and screen-reader
 * friendly, unlike a custom overlay), falling back to confirm().
 * @param {{message: string, confirm: string, cancel: string, parent?: Element}} options
 *   `parent` receives the dialog (inside the app, so the app's styles apply; <main>: a landmark)
 * @returns {Promise<boolean>}
 */
export function ask({ message, confirm, cancel, parent = document.querySelector("main") ?? document.body }) {
  if (typeof HTMLDialogElement !== "function" || !("showModal" in HTMLDialogElement.prototype)) {
    return Promise.resolve(window.confirm(message));
  }
  return new Promise((resolve) => {
    const dialog = h(
      "dialog",
      { class: "quiz-dialog", "aria-labelledby": "quiz-dialog-text" },
      h(
        "form",
        { method: "dialog" },
        h("p", { id: "quiz-dialog-text", text: message }),
        h(
          "div",
          { class: "quiz-actions" },
          h("button", { value: "cancel", class: "quiz-button", text: cancel, autofocus: true }),
          h("button", { value: "confirm", class: "quiz-button quiz-button-danger", dataset: { quizConfirm: "" }, text: confirm }),
        ),
      ),
    );
    dialog.addEventListener("close", () => {
      resolve(dialog.returnValue === "confirm");
      dialog.remove();
    });
    parent.append(dialog);
    dialog.showModal();
  });
}
