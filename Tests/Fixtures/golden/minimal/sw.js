// Bestiary's service worker: offline play. `bestiary build` writes this file to
// the site's root as sw.js, with the configuration below filled in (what to
// precache, and a version that changes whenever any precached file does).
//
// Caches (names start with "bestiary:PATH:SITE:", the path the site is served at
// and its id, so several sites on one origin keep theirs apart, and so do two
// copies of one site, a staging copy beside the live one; until 2026-12-07 they
// started with "bestiary:SITE:" alone, and a staging copy's worker deleted the
// live copy's saved media: such caches give up this copy's entries on activation):
//   shell:VERSION  the app shell, precached on install: every language's home,
//                  quiz, collection, sightings, settings and offline pages,
//                  free pages, the 404 page, every fingerprinted asset, the
//                  catalogue and the manifest; a page over 1 MiB (a big
//                  catalogue's collection and sightings: `later`) is left out,
//                  and so is a language's file of the animals' texts over
//                  1 MiB (`onUse`: 3-4 MB each at 10,000 animals)
//   pages:VERSION  other pages (animal pages, credits, the pages left out) as
//                  they are visited, and the texts' files as the quiz first
//                  reads them; one left out that the learner had saved is
//                  fetched again when a new build installs (for a texts'
//                  file, under its new name: that language's new file)
//   media          sounds and pictures as they are played; their names carry
//                  a content hash, so they survive new builds (entries the
//                  new catalogue no longer uses are deleted)
// A new build installs into fresh shell and pages caches; on activation the
// old ones are deleted, so no stale app is left behind.
//
// Requests: pages go to the network first (with a time limit, for the train),
// falling back to the caches, then to the offline page; fingerprinted assets
// and media come from the cache first. Audio elements ask for byte ranges, which
// a cache cannot answer by itself: the worker builds the partial response
// (206, Content-Range) from the cached file.

const CONFIG = /* bestiary:config */ {"catalog":"assets/catalog.fbc5c78632.json","later":[],"media":"media/","offline":{"":"offline/","en/":"en/offline/"},"onUse":[],"precache":["404.html","./","quiz/","collection/","sightings/","settings/","offline/","about/","en/","en/quiz/","en/collection/","en/sightings/","en/settings/","en/offline/","en/about/","assets/css/quiz.2ce67041d8.css","assets/css/site.ff5a910e14.css","assets/icons/icon-192.19980121ae.png","assets/icons/icon-512.4ab15bde1c.png","assets/icons/icon.364bd712af.svg","assets/js/animal-page.632e5c256c.js","assets/js/catalog.5115b77a11.js","assets/js/collection-page.8282bc952c.js","assets/js/collection.4b8d989dbc.js","assets/js/credits-page.8bc7d28926.js","assets/js/csv.15b8e0d294.js","assets/js/daily.ea522b1df1.js","assets/js/descriptions.9f379e8966.js","assets/js/dom.5b53660f9d.js","assets/js/favorites.0f29b0cb91.js","assets/js/feedback.6b64581adf.js","assets/js/fsrs.c39d334e4e.js","assets/js/home-page.2505d5a906.js","assets/js/i18n.2a69b35a69.js","assets/js/learn.53f0928f09.js","assets/js/list-page.e16a4ecf0a.js","assets/js/not-found-page.e48fde2025.js","assets/js/offline-save.6155bcf912.js","assets/js/offline.5567d43532.js","assets/js/onboarding.7a9a816234.js","assets/js/page.eebb0c5e70.js","assets/js/progress-file.b06b06eb08.js","assets/js/questions.f4912e03c3.js","assets/js/quiz-page.8d1979b467.js","assets/js/quiz-settings.54f097145c.js","assets/js/quiz-summary.5aa4437af3.js","assets/js/quiz-view.631d59dee8.js","assets/js/rng.73802ec6ea.js","assets/js/round-resume.f827b4f013.js","assets/js/scoring.e85e3c1bc2.js","assets/js/settings-page.114e2662d8.js","assets/js/sightings-page.01577907fd.js","assets/js/sightings.b0cfe631d8.js","assets/js/site.3d60e45c70.js","assets/js/storage.867fdfe8fb.js","assets/catalog.fbc5c78632.json","assets/descriptions.de.5664bf28e3.json","assets/descriptions.en.325ea6744c.json","manifest.webmanifest","en/manifest.webmanifest"],"site":"1ddc6a7b","version":"f32d0b224748ffbe"} /* bestiary:end */;

const scope = () => (self.registration ? self.registration.scope : self.location.href.replace(/[^/]*$/, ""));
// The path first: a worker of an earlier build deletes every cache whose name starts with its
// `bestiary:SITE:` but its own, so a name that went on from there was deleted by a rollback, or by
// another copy's older worker (a reviewer's).
const PREFIX = `bestiary:${new URL(scope()).pathname}:${CONFIG.site}:`;
/** The names before the path was in them: `bestiary:SITE:shell:V`, `…:pages:V`, `…:media`. */
const LEGACY = `bestiary:${CONFIG.site}:`;
const isLegacy = (name, kind = "") => name.startsWith(LEGACY) && /^(shell:|pages:|media$)/.test(name.slice(LEGACY.length)) && name.slice(LEGACY.length).startsWith(kind);
const SHELL = `${PREFIX}shell:${CONFIG.version}`;
const PAGES = `${PREFIX}pages:${CONFIG.version}`;
const MEDIA = `${PREFIX}media`;
/** How long a page may take from the network before the cached copy is used. */
const PAGE_TIMEOUT_MS = 4000;
/** How long a page that is not saved may take before the offline page is shown instead: a link
 * that is gone without an error (a train's tunnel) left the page loading for minutes. */
const PAGE_GIVE_UP_MS = 20000;

const PRECACHED = new Set(CONFIG.precache.map((path) => new URL(path, scope()).href));
const ON_USE = new Set((CONFIG.onUse || []).map((path) => new URL(path, scope()).href));

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL);
      // `reload` skips the HTTP cache: the shell must be this build's, not an older copy.
      await cache.addAll(CONFIG.precache.map((path) => new Request(new URL(path, scope()).href, { cache: "reload" })));
      await refetchLater();
      await refetchOnUse();
      await self.skipWaiting();
    })(),
  );
});

/**
 * The pages left out of the precache for their size (a big catalogue's sightings page, used
 * outdoors) that an earlier build's cache holds: fetched again into this build's, since the
 * earlier caches go when it activates (and their copies name assets that go with them). Best
 * effort: a page that cannot be fetched now fails no install.
 */
async function refetchLater() {
  const earlier = (await caches.keys()).filter((name) => (name.startsWith(`${PREFIX}pages:`) || isLegacy(name, "pages:")) && name !== PAGES);
  if (!earlier.length || !(CONFIG.later || []).length) return;
  const pages = await caches.open(PAGES);
  for (const path of CONFIG.later) {
    const key = new URL(path, scope()).href;
    let saved = false;
    for (const name of earlier) saved ||= Boolean(await (await caches.open(name)).match(key));
    if (!saved) continue;
    try {
      const response = await fetch(new Request(key, { cache: "reload" }));
      if (response.ok) await pages.put(key, response);
    } catch {}
  }
}

/**
 * The files left out of the precache that are kept as they are first used (a big catalogue's
 * texts per language), named by their bytes: `assets/descriptions.de.HASH.json`. Each one whose
 * language's file an earlier build's cache holds, under any name, is fetched into this build's
 * cache, so a learner who read German texts reads the new ones offline too. Best effort, as above.
 */
async function refetchOnUse() {
  if (!ON_USE.size) return;
  const names = (await caches.keys()).filter((name) => name !== PAGES && name !== SHELL);
  const earlier = names.filter((name) => name.startsWith(`${PREFIX}pages:`) || isLegacy(name, "pages:"));
  // A build from before these files were left out precached every language's: one of the same
  // name (the same texts) is copied from there, none is downloaded.
  const shells = names.filter((name) => name.startsWith(`${PREFIX}shell:`) || isLegacy(name, "shell:"));
  const held = [];
  for (const name of earlier) held.push(...(await (await caches.open(name)).keys()).map((request) => request.url));
  const pages = await caches.open(PAGES);
  for (const key of ON_USE) {
    try {
      let response = null;
      for (const name of [...earlier, ...shells]) response ||= await (await caches.open(name)).match(key);
      // Another version of a file the learner read: this build's (the same bytes are copied).
      if (!response && held.some((url) => sameFile(url, key))) response = await fetch(new Request(key, { cache: "reload" }));
      if (response && response.ok) await pages.put(key, response);
    } catch {}
  }
}

/** Whether two URLs name one file in two versions: `NAME.HASH.EXT`, their hashes aside. */
function sameFile(a, b) {
  const unhashed = (url) => url.replace(/\.[0-9a-f]{6,}(\.[a-z]+)$/, "$1");
  return unhashed(a) === unhashed(b) && unhashed(a) !== a && unhashed(b) !== b;
}

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const keep = new Set([SHELL, PAGES, MEDIA]);
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name.startsWith(PREFIX) && !keep.has(name)).map((name) => caches.delete(name)));
      const used = await usedMedia();
      await leaveLegacy(names.filter((name) => isLegacy(name)), used);
      await pruneMedia(used);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  // Streams (the preview server's live reload) and anything but GET go straight to the network.
  if (request.method !== "GET" || (request.headers.get("accept") || "").includes("text/event-stream")) return;
  const url = new URL(request.url);
  const base = scope();
  if (url.origin !== self.location.origin || !url.href.startsWith(base)) return;
  const path = url.pathname.slice(new URL(base).pathname.length);
  if (request.mode === "navigate" || isPagePath(path)) {
    event.respondWith(page(request, url, path));
  } else if (path.startsWith(CONFIG.media)) {
    event.respondWith(media(request, url));
  } else if (PRECACHED.has(url.origin + url.pathname)) {
    event.respondWith(shell(request, url));
  } else if (ON_USE.has(url.origin + url.pathname)) {
    event.respondWith(keptOnUse(request, url));
  }
  // Anything else (live reload during `bestiary serve`, packs) goes to the network untouched.
});

/** `animals/fox/`, `quiz/index.html`, the site's root. */
function isPagePath(path) {
  return path === "" || path.endsWith("/") || path.endsWith(".html");
}

/** The cache key of a page: its URL without query and fragment, `…/index.html` as `…/`. */
function pageKey(url) {
  return url.origin + url.pathname.replace(/\/index\.html$/, "/");
}

async function page(request, url, path) {
  const key = pageKey(url);
  const fromNetwork = (async () => {
    // Asked of the server, never taken as fresh from the browser's HTTP cache: a server that
    // sends no Cache-Control made a deploy show days late (a Last-Modified page counts as fresh
    // for a tenth of its age), old pages beside new ones. The request keeps its headers,
    // credentials and redirect mode (a navigation becomes same-origin); a browser that refuses
    // to copy a navigation asks as before.
    let revalidated = request;
    try {
      revalidated = new Request(request, { cache: "no-cache" });
    } catch {}
    const response = await fetch(revalidated);
    if (response.ok && response.type === "basic") {
      const cacheName = PRECACHED.has(key) ? SHELL : PAGES;
      const copy = response.clone();
      caches.open(cacheName).then((cache) => cache.put(key, copy)).catch(() => {});
    }
    return response;
  })();
  try {
    return await withTimeout(fromNetwork, PAGE_TIMEOUT_MS);
  } catch {
    const cached = await caches.match(key, { ignoreSearch: true });
    if (cached) {
      fromNetwork.catch(() => {});
      return cached;
    }
    try {
      // Slow but not gone: keep waiting for the network, up to a limit.
      return await withTimeout(fromNetwork, PAGE_GIVE_UP_MS - PAGE_TIMEOUT_MS);
    } catch {
      return offlineFallback(request, path);
    }
  }
}

function withTimeout(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timeout")), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** A page that is not saved: the offline page of the language the address is in. */
async function offlineFallback(request, path) {
  let prefix = "";
  for (const candidate of Object.keys(CONFIG.offline)) {
    if (candidate && path.startsWith(candidate) && candidate.length > prefix.length) prefix = candidate;
  }
  const target = CONFIG.offline[prefix];
  if (target && request.mode === "navigate") {
    const url = new URL(target, scope());
    url.searchParams.set("from", path);
    return Response.redirect(url.href, 302);
  }
  const cached = target && (await caches.match(new URL(target, scope()).href, { ignoreSearch: true }));
  return cached || Response.error();
}

/** Fingerprinted assets, the catalogue and the manifest: never change under their names. */
async function shell(request, url) {
  const cached = await caches.match(url.origin + url.pathname, { cacheName: SHELL });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) {
    const copy = response.clone();
    caches.open(SHELL).then((cache) => cache.put(url.origin + url.pathname, copy)).catch(() => {});
  }
  return response;
}

/** A big file named by its bytes, left out of the precache: from this build's cache, else fetched and kept there. */
async function keptOnUse(request, url) {
  const key = url.origin + url.pathname;
  const cached = await caches.match(key, { cacheName: PAGES });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") {
    const copy = response.clone();
    await caches.open(PAGES).then((cache) => cache.put(key, copy)).catch(() => {});
  }
  return response;
}

/** Sounds and pictures: from the cache, else fetched whole and cached; ranges answered from the file. */
async function media(request, url) {
  const key = url.origin + url.pathname;
  const cache = await caches.open(MEDIA);
  let response = await cache.match(key);
  if (!response) {
    // The whole file, whatever range the player asked for, so that it can be cached.
    response = await fetch(key, { credentials: "same-origin" });
    if (response.status !== 200 || response.type !== "basic") return response;
    await cache.put(key, response.clone());
  }
  const range = request.headers.get("range");
  return range ? partialResponse(response, range) : response;
}

/**
 * Parses a Range header against a size (RFC 9110 §14.1.2): one range of bytes,
 * `a-b`, `a-` or `-n`. Returns {start, end} (inclusive), "unsatisfiable", or
 * null when the header is to be ignored (malformed, several ranges, another unit).
 * @param {string} header
 * @param {number} size
 */
function parseRange(header, size) {
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header || "");
  if (!match) return null;
  const [, first, last] = match;
  if (first === "" && last === "") return null;
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== "" && Number(last) < start) return null;
  if (start >= size) return "unsatisfiable";
  return { start, end };
}

/**
 * A 206 response with the requested part of a full response, a 416 when the
 * range is outside the file, or the full response when the header is ignored.
 * @param {Response} full a 200 response with the whole file
 * @param {string} header the request's Range header
 */
async function partialResponse(full, header) {
  const blob = await full.blob();
  const range = parseRange(header, blob.size);
  const type = full.headers.get("Content-Type") || blob.type || "application/octet-stream";
  if (range === null) {
    return new Response(blob, { status: 200, headers: { "Content-Type": type, "Content-Length": String(blob.size), "Accept-Ranges": "bytes" } });
  }
  if (range === "unsatisfiable") {
    return new Response(null, { status: 416, statusText: "Range Not Satisfiable", headers: { "Content-Range": `bytes */${blob.size}` } });
  }
  const part = blob.slice(range.start, range.end + 1, type);
  return new Response(part, {
    status: 206,
    statusText: "Partial Content",
    headers: {
      "Content-Type": type,
      "Content-Length": String(part.size),
      "Content-Range": `bytes ${range.start}-${range.end}/${blob.size}`,
      "Accept-Ranges": "bytes",
    },
  });
}

/** The URLs of the media the current catalogue uses; null when it cannot be read. */
async function usedMedia() {
  if (!CONFIG.catalog) return null;
  try {
    const response = await caches.match(new URL(CONFIG.catalog, scope()).href, { cacheName: SHELL });
    if (!response) return null;
    const catalog = await response.json();
    const used = new Set();
    const add = (src) => src && !/^[a-z][a-z0-9+.-]*:/i.test(src) && used.add(new URL(src, scope()).href);
    for (const animal of catalog.animals || []) {
      for (const media of [animal.sound, animal.image]) {
        if (!media) continue;
        add(media.src);
        for (const part of (media.srcset || "").split(",")) add(part.trim().split(/\s+/)[0]);
      }
    }
    return used;
  } catch {
    return null;
  }
}

/**
 * This copy's entries leave the caches named before the path was in their names (shared by
 * every copy of the site on the origin): the media its catalogue uses go to its own media
 * cache, the rest are deleted, and a cache left empty goes. Another copy's entries stay.
 */
async function leaveLegacy(names, used) {
  const base = scope();
  for (const name of names) {
    try {
      const cache = await caches.open(name);
      const media = isLegacy(name, "media") ? await caches.open(MEDIA) : null;
      for (const request of await cache.keys()) {
        if (!request.url.startsWith(base)) continue;
        const response = media && used && used.has(request.url) ? await cache.match(request) : null;
        if (response) await media.put(request, response);
        await cache.delete(request);
      }
      if (!(await cache.keys()).length) await caches.delete(name);
    } catch {
      // Housekeeping, as below.
    }
  }
}

/** Deletes cached media the current catalogue no longer uses. */
async function pruneMedia(used) {
  if (!used) return;
  try {
    const cache = await caches.open(MEDIA);
    for (const request of await cache.keys()) {
      if (!used.has(request.url)) await cache.delete(request);
    }
  } catch {
    // Pruning is housekeeping; offline play does not depend on it.
  }
}
