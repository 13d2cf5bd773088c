// The animals' short texts, read aloud after an answer: a file per language beside the
// catalogue (its `descriptions`, half of it at 10,000 animals), fetched when first wanted.

/**
 * @param {Record<string, string>} paths language → file, as the catalogue names them
 * @param {(path: string) => URL|string} resolve
 * @param {(url: URL|string) => Promise<unknown>} [load] fetches and parses a file
 */
export function descriptionReader(paths, resolve, load = fetchJSON) {
  const files = new Map();
  const file = (lang) => {
    if (!paths[lang]) return null;
    if (!files.has(lang)) {
      const loading = Promise.resolve()
        .then(() => load(resolve(paths[lang])))
        .then(
          (data) => (typeof data === "object" && data !== null && !Array.isArray(data) ? data : null),
          // Offline, or gone with a newer site: asked for again next time.
          () => (files.delete(lang), null),
        );
      files.set(lang, loading);
    }
    return files.get(lang);
  };
  return {
    /** The text along `chain`, then in any language (as `localized`), or null.
     * @returns {Promise<{text: string, lang: string}|null>} */
    async text(id, chain) {
      for (const lang of [...chain, ...Object.keys(paths).filter((l) => !chain.includes(l)).sort()]) {
        const texts = await file(lang);
        const text = texts && Object.hasOwn(texts, id) ? texts[id] : null;
        if (typeof text === "string" && text.trim()) return { text, lang };
      }
      return null;
    },
  };
}

async function fetchJSON(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json();
}
