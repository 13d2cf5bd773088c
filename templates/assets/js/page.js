// What every page of the site knows about itself, from the attributes the build puts on <body>,
// and the learner's state shared by all pages.
import { readJsonScript } from "./dom.js";
import { openStore, memoryBackend } from "./storage.js";
import { parseCatalog } from "./catalog.js";
import { translator } from "./i18n.js";

/** The page's language, roots and site id (see layouts/base.html). */
export function pageInfo(doc = document) {
  const data = doc.body.dataset;
  return {
    page: data.page || "",
    lang: data.lang || doc.documentElement.lang || "en",
    languages: (data.languages || "").split(" ").filter(Boolean),
    root: data.root || "./",
    langRoot: data.langRoot || "./",
    siteId: data.siteId || "site",
    catalogPath: data.catalog || "",
    strings: readJsonScript("bestiary-strings") || {},
  };
}

/** `tr(key, params)` for the page's language (i18n.js), from the strings the page embeds. */
export function pageTranslator(info = pageInfo()) {
  return translator({ lang: info.lang, strings: info.strings });
}

let backend = null;

/** localStorage when the browser allows it, else memory (private mode, blocked storage). */
export function browserBackend() {
  if (backend) return backend;
  let storage = null;
  try {
    storage = window.localStorage;
    const probe = "bestiary:probe";
    storage.setItem(probe, "1");
    storage.removeItem(probe);
    backend = storage;
  } catch {
    // Full, not blocked: what is stored is read (a full store looked empty, and an export
    // carried nothing: found by a teacher); saves fail and say so, as on a full store.
    let readable = false;
    try {
      readable = storage !== null && storage.length > 0;
    } catch {}
    if (readable) backend = storage;
    else {
      backend = memoryBackend();
      backend.isMemory = true;
    }
  }
  return backend;
}

/** The learner's store for this site. */
export function learnerStore(info = pageInfo()) {
  return openStore(browserBackend(), info.siteId);
}

/** Fetches and checks the quiz catalogue; resolves to null when it cannot be read. */
export async function loadCatalog(info = pageInfo()) {
  try {
    const response = await fetch(new URL(info.root + info.catalogPath, document.baseURI));
    if (!response.ok) return null;
    const parsed = parseCatalog(await response.json());
    return parsed.ok ? parsed.catalog : null;
  } catch {
    return null;
  }
}

/** Applies the learner's theme choice (system, light, dark) to <html>. */
export function applyTheme(theme) {
  const root = document.documentElement;
  if (theme === "light" || theme === "dark") root.setAttribute("data-theme", theme);
  else root.removeAttribute("data-theme");
}

/**
 * Shows a short message at the top of the page's main content (with a
 * button to dismiss it); `kind` is a data attribute of [data-site-notices]
 * holding the translated text (layouts/base.html).
 * @param {string} kind repaired | reset | unavailable | saveFailed | updated
 * @param {{action?: {label: string, run: () => void}}} [options]
 */
export function siteNotice(kind, { action } = {}) {
  const box = document.querySelector("[data-site-notices]");
  const text = box?.dataset[kind];
  if (!box || !text || box.querySelector(`[data-notice="${kind}"]`)) return;
  const notice = document.createElement("div");
  notice.className = "site-notice";
  notice.setAttribute("role", "status");
  notice.dataset.notice = kind;
  const p = document.createElement("p");
  p.textContent = text;
  notice.append(p);
  const buttons = document.createElement("p");
  buttons.className = "button-row";
  if (action) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "button button-primary";
    b.textContent = action.label;
    b.addEventListener("click", action.run);
    buttons.append(b);
  }
  const close = document.createElement("button");
  close.type = "button";
  close.className = "button";
  close.textContent = box.dataset.dismiss || "OK";
  close.addEventListener("click", () => notice.remove());
  buttons.append(close);
  notice.append(buttons);
  box.append(notice);
}

/**
 * Saves a file the learner asked for (export): a download link clicked on
 * their behalf.
 * @param {string} name file name
 * @param {BlobPart[]} parts
 * @param {string} type MIME type
 */
export function download(name, parts, type) {
  const url = URL.createObjectURL(new Blob(parts, { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}
