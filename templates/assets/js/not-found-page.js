// The 404 page. One file answers for every language (static hosts serve only the root's
// 404.html), in the default language with the message in each other one below. A miss under
// another language's folder (`/it/…`) is told first in that language, with its site title,
// menu and footer, and the default language's message takes its place below (an Italian page's miss had a
// French header and title: found by a teacher).
const main = document.querySelector("main");
const sections = [...document.querySelectorAll("section[data-not-found]")];
const within = (section) => location.pathname.startsWith(new URL(section.dataset.notFound, location.href).pathname);
const match = sections.filter(within).sort((a, b) => b.dataset.notFound.length - a.dataset.notFound.length)[0];

if (main && match) {
  const html = document.documentElement;
  const body = document.body;
  const h1 = main.querySelector("h1");
  const text = h1?.nextElementSibling;
  const home = text?.nextElementSibling?.querySelector("a");
  const [h2, otherText, otherHomeLine] = match.children;
  const otherHome = otherHomeLine?.querySelector("a");
  if (h1 && text && home && h2 && otherText && otherHome) {
    const oldTitle = body.dataset.siteTitle || "";
    const newTitle = match.dataset.siteTitle || oldTitle;
    document.title = `${h2.textContent} – ${newTitle}`;
    [h1.textContent, h2.textContent] = [h2.textContent, h1.textContent];
    [text.textContent, otherText.textContent] = [otherText.textContent, text.textContent];
    [home.textContent, otherHome.textContent] = [otherHome.textContent, home.textContent];
    const [homeHref, otherHref] = [home.getAttribute("href"), otherHome.getAttribute("href")];
    home.setAttribute("href", otherHref);
    otherHome.setAttribute("href", homeHref);
    [html.lang, match.lang] = [match.lang, html.lang];
    [html.dir, match.dir] = [match.dir, html.dir];
    body.dataset.lang = html.lang;
    const nav = match.querySelector("template[data-not-found-nav]");
    const list = document.querySelector(".site-nav ul");
    if (nav && list) list.replaceChildren(nav.content.cloneNode(true));
    document.querySelector(".site-nav")?.setAttribute("aria-label", match.dataset.navLabel || "");
    const skip = document.querySelector(".skip-link");
    if (skip && match.dataset.skip) skip.textContent = match.dataset.skip;
    const brand = document.querySelector(".brand");
    if (brand) {
      brand.setAttribute("href", otherHref);
      const name = brand.querySelector("span");
      if (name) name.textContent = newTitle;
    }
    // The footer's link to the credits and its "Made with" (the built-in theme's footer): those
    // words alone, a designer's own text after them kept (it was dropped on the other languages'
    // 404 pages).
    const credits = document.querySelector(".site-footer a");
    if (credits && match.dataset.credits) {
      credits.textContent = match.dataset.credits;
      credits.setAttribute("href", `${otherHref}credits/`);
      const rest = credits.nextSibling;
      const was = h1.dataset.madeWith;
      if (rest?.nodeType === Node.TEXT_NODE && match.dataset.madeWith && was && rest.textContent.includes(was)) {
        rest.textContent = rest.textContent.replace(was, match.dataset.madeWith);
      }
    }
    for (const link of document.querySelectorAll(".language-nav a[hreflang]")) {
      if (link.hreflang === html.lang) link.setAttribute("aria-current", "true");
      else link.removeAttribute("aria-current");
    }
  }
}
