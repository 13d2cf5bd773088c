// Saving the whole catalogue for offline use (settings page): what is cached
// already, and fetching the rest through the service worker, which stores
// what it fetches.
import { isCached } from "./offline.js";

/**
 * The URLs that make the catalogue usable offline: each animal's sound and
 * picture (every width) and its page in this language, the collection and
 * sightings pages, and the animals' texts in this language (read aloud after an
 * answer), with the bytes the catalogue knows of.
 * @param {import("./catalog.js").Catalog} catalog
 * @param {{root: string, langRoot: string, base: string, lang?: string}} where
 * @returns {{url: string, bytes: number|null}[]}
 */
export function offlineUrls(catalog, { root, langRoot, base, lang }) {
  const seen = new Set();
  const out = [];
  const add = (path, prefix, bytes = null) => {
    if (!path || /^[a-z][a-z0-9+.-]*:/i.test(path)) return;
    const url = new URL(prefix + path, base).href;
    if (seen.has(url)) return;
    seen.add(url);
    out.push({ url, bytes });
  };
  for (const animal of catalog.animals) {
    if (animal.sound) add(animal.sound.src, root, animal.sound.bytes ?? null);
    if (animal.image) {
      add(animal.image.src, root, animal.image.bytes ?? null);
      for (const part of (animal.image.srcset || "").split(",")) add(part.trim().split(/\s+/)[0], root);
    }
    if (animal.page) add(animal.page, langRoot);
  }
  // The lists, which the worker does not precache when they are big (a catalogue of thousands).
  for (const page of ["collection/", "sightings/"]) add(page, langRoot);
  // The worker does not precache a big catalogue's texts either; those of the
  // page's language (`de-CH` reads `de`'s when the site has no `de-CH`).
  const texts = catalog.descriptions || {};
  const own = lang && (texts[lang] ?? texts[lang.split("-")[0]]);
  if (own) add(own, root);
  return out;
}

/**
 * How many of `urls` are in any of the site's caches.
 * @param {string[]} urls
 */
export async function cachedCount(urls) {
  const hits = await Promise.all(urls.map((url) => isCached(url)));
  return hits.filter(Boolean).length;
}

/**
 * Fetches every URL not cached yet, four at a time, through the service
 * worker (which stores what it fetches).
 * @param {string[]} urls
 * @param {(done: number, total: number) => void} onProgress
 * @returns {Promise<{failed: number}>}
 */
export async function saveForOffline(urls, onProgress) {
  let done = 0;
  let failed = 0;
  const queue = urls.slice();
  onProgress(0, urls.length);
  const worker = async () => {
    while (queue.length) {
      const url = queue.shift();
      try {
        if (!(await isCached(url))) {
          const response = await fetch(url);
          // Offline, the worker answers a page it could not fetch with a redirect to the offline page.
          if (!response.ok || response.redirected) failed++;
          await response.arrayBuffer();
        }
      } catch {
        failed++;
      }
      onProgress(++done, urls.length);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return { failed };
}

