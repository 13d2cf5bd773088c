// Runs on every page: the learner's theme before anything else is drawn, a
// notice when stored progress had to be repaired, the service worker for
// offline play (and a prompt to reload when a new build took over), the
// first-visit tour (until skipped, finished or a question answered), the preferred language, and
// the current page's link in view in a phone's navigation row.
import { applyTheme, browserBackend, learnerStore, pageInfo, siteNotice } from "./page.js";
import { startOnboarding } from "./onboarding.js";

const info = pageInfo();
const store = learnerStore(info);
const loaded = store.load();
applyTheme(loaded.state.settings.theme);

if (browserBackend().isMemory) siteNotice("unavailable");
else if (loaded.notice) siteNotice(loaded.notice);

registerServiceWorker();
rememberLanguageChoice();
showCurrentNavLink();
if (info.page === "offline") showWantedPage();
if (goToPreferredLanguage()) {
  // Leaving the page: nothing else to set up.
} else if (!loaded.state.onboarded && !loaded.state.stats.answered && !["404", "offline"].includes(info.page)) {
  // Not once the learner has played: it would push the quiz down.
  startOnboarding({ onDone: () => store.update((s) => ({ ...s, onboarded: true })) });
}

/**
 * On a phone the navigation is one row that scrolls sideways (site.css): the current page's link
 * is scrolled into it, not left out of sight past the edge (Settings, say), and so is each link
 * the keyboard reaches.
 */
function showCurrentNavLink() {
  const nav = document.querySelector(".site-nav");
  // A link reached with the keyboard comes clear of the fade (Chromium left one partly in view).
  nav?.addEventListener("focusin", (event) => {
    if (event.target instanceof Element && nav.scrollWidth > nav.clientWidth) event.target.scrollIntoView({ block: "nearest", inline: "nearest" });
  });
  const here = nav?.querySelector('[aria-current="page"]');
  if (!here) return;
  const [box, link] = [nav.getBoundingClientRect(), here.getBoundingClientRect()];
  // Centred, clear of the fade at either edge (in either direction of writing).
  if (link.right > box.right || link.left < box.left) nav.scrollLeft += (link.left + link.right - box.left - box.right) / 2;
}

/**
 * The offline page names the page that was asked for (`?from=`, the service worker's path below
 * the site) with a link to try it again: the worker's redirect left it out of the history.
 */
function showWantedPage() {
  const from = new URLSearchParams(location.search).get("from");
  const box = document.querySelector("[data-offline-from]");
  if (from === null || !box || /^[/\\]|:/.test(from)) return;
  const url = new URL(info.root + from, document.baseURI);
  // Only a page of this site (`%2e%2e/` would climb out of it).
  if (!url.href.startsWith(new URL(info.root, document.baseURI).href)) return;
  box.querySelector("a").href = url.href;
  let path = url.pathname;
  try {
    path = decodeURI(path);
  } catch {
    // A malformed escape: shown as it is.
  }
  box.querySelector("code").textContent = path;
  box.hidden = false;
}

function registerServiceWorker() {
  const url = document.body.dataset.sw;
  if (!url || !("serviceWorker" in navigator) || !window.isSecureContext) return;
  const container = navigator.serviceWorker;
  const hadController = Boolean(container.controller);
  let reloading = false;
  container.addEventListener("controllerchange", () => {
    // A first install taking control changes nothing the learner sees; a new build does.
    if (!hadController || reloading) return;
    siteNotice("updated", {
      action: {
        label: document.querySelector("[data-site-notices]")?.dataset.reload || "Reload",
        run: () => {
          reloading = true;
          location.reload();
        },
      },
    });
  });
  container.register(url).catch((error) => console.warn("Bestiary: offline use is not available:", error));
}

/**
 * Choosing a language in the header's switcher makes it the learner's language, and keeps where
 * the learner was: the same page's query and fragment (the quiz's mode, the collection's filters).
 */
function rememberLanguageChoice() {
  for (const link of document.querySelectorAll(".language-nav a[hreflang]")) {
    link.addEventListener("click", () => {
      const language = link.getAttribute("hreflang");
      store.update((s) => ({ ...s, settings: { ...s.settings, language } }));
      const target = new URL(link.href, location.href);
      if (!target.search && !target.hash && (location.search || location.hash)) {
        target.search = location.search;
        target.hash = location.hash;
        link.href = target.href;
      }
    });
  }
}

/**
 * Opening the site's front door (its home page, as an installed app does)
 * from outside the site leads to the learner's language, when they chose one.
 */
function goToPreferredLanguage() {
  const wanted = loaded.state.settings.language;
  if (info.page !== "home" || !wanted || wanted === info.lang || !info.languages.includes(wanted)) return false;
  let fromSite = false;
  try {
    fromSite = document.referrer !== "" && new URL(document.referrer).origin === location.origin;
  } catch {
    fromSite = false;
  }
  if (fromSite) return false;
  const link = document.querySelector(`.language-nav a[hreflang="${wanted}"]`);
  if (!link) return false;
  location.replace(link.href);
  return true;
}
