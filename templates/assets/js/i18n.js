// UI strings. The page embeds its language's strings (templates/i18n/LANG.json)
// as JSON; keys are flat. Plural forms are separate keys with the
// Intl.PluralRules category as suffix ("quiz.questionsLeft.one",
// "quiz.questionsLeft.other"), so the files stay flat key → string maps.

const pluralRules = new Map();

function pluralCategory(lang, count) {
  let rules = pluralRules.get(lang);
  if (!rules) {
    try {
      rules = new Intl.PluralRules(lang);
    } catch {
      rules = new Intl.PluralRules("en");
    }
    pluralRules.set(lang, rules);
  }
  return rules.select(count);
}

/**
 * Looks up and fills one string.
 *
 * Lookup order: `strings`, then `fallback` (the English strings: a theme's
 * translation may lag behind new keys), then the key itself, so a missing
 * string is visible but never breaks the page. With a numeric
 * `params.count`, `key.CATEGORY` is tried first, then `key.other`, then `key`.
 * `{name}` placeholders are replaced by `params.name`; unknown ones stay.
 * @param {Record<string,string>} strings this language's strings
 * @param {string} key
 * @param {Record<string, string|number>} [params]
 * @param {{lang?: string, fallback?: Record<string,string>}} [options]
 * @returns {string}
 */
export function t(strings, key, params = {}, { lang = "en", fallback = {} } = {}) {
  const candidates = [key];
  if (typeof params.count === "number") {
    candidates.unshift(`${key}.${pluralCategory(lang, params.count)}`, `${key}.other`);
  }
  let template = key;
  search: for (const table of [strings, fallback]) {
    for (const k of candidates) {
      if (table && typeof table[k] === "string") {
        template = table[k];
        break search;
      }
    }
  }
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/**
 * A `t` bound to one language, for the page: `tr("quiz.score", {count: 3})`.
 * @param {{lang: string, strings: Record<string,string>, fallback?: Record<string,string>}} options
 * @returns {(key: string, params?: Record<string, string|number>) => string}
 */
export function translator({ lang, strings, fallback = {} }) {
  return (key, params) => t(strings, key, params, { lang, fallback });
}
