// What every page of the site knows about itself, from the attributes the build puts on <body>,
// and the learner's state shared by all pages.
import { readJsonScript } from "./dom.js";
import { openStore, memoryBackend } from "./storage.js";
import { parseCatalog } from "./catalog.js";

/** The page's language, roots and site id (see layouts/base.html). */
export function pageInfo(doc = document) {
  const data = doc.body.dataset;
  return {
    page: data.page || "",
    lang: data.lang || doc.documentElement.lang || "en",
    root: data.root || "./",
    langRoot: data.langRoot || "./",
    siteId: data.siteId || "site",
    catalogPath: data.catalog || "",
    strings: readJsonScript("bestiary-strings") || {},
  };
}

/** localStorage when the browser allows it, else memory (private mode, blocked storage). */
export function browserBackend() {
  try {
    const probe = "bestiary:probe";
    window.localStorage.setItem(probe, "1");
    window.localStorage.removeItem(probe);
    return window.localStorage;
  } catch {
    return memoryBackend();
  }
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
