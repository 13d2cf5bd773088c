// Progress files: everything the learner has in this browser, exported to a
// file and imported from one (settings page). An import is checked
// completely before anything is replaced.
import { VERSION, fromData } from "./storage.js";

/** What an exported progress file says it is. */
export const EXPORT_FORMAT = "bestiary-progress";
/**
 * Imported files larger than this are refused before parsing. Well above what the site can
 * export: browsers keep about 5 million characters per site, which an export indents and writes
 * as UTF-8 (up to 3 bytes a character in Greek, Cyrillic or CJK notes).
 */
export const IMPORT_MAX_BYTES = 32 * 1024 * 1024;

/**
 * The text of a progress file: the state with what it is, where it is from
 * and when it was written.
 * @param {ReturnType<typeof initialState>} state
 * @param {string} siteId
 * @param {Date} now
 */
export function exportProgress(state, siteId, now = new Date()) {
  const file = { format: EXPORT_FORMAT, version: VERSION, site: siteId || "site", exported: now.toISOString(), state: { ...state, version: VERSION } };
  return JSON.stringify(file, null, 2) + "\n";
}

/**
 * Checks a progress file before anything is replaced. Refused: text that is
 * not JSON, JSON that is not a Bestiary progress file, a file of another site
 * or of a newer version, and a file with any damaged field (an import must
 * not silently drop half of someone's log).
 * @param {string} text
 * @param {string} siteId
 * @returns {{ok: true, state: ReturnType<typeof initialState>, exported: string|null}
 *   | {ok: false, reason: "too-large"|"not-json"|"not-progress"|"other-site"|"newer"|"damaged", site?: string, problems?: number}}
 */
export function parseImport(text, siteId) {
  if (typeof text !== "string") return { ok: false, reason: "not-json" };
  if (text.length > IMPORT_MAX_BYTES) return { ok: false, reason: "too-large" };
  let file;
  try {
    file = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    return { ok: false, reason: "not-json" };
  }
  if (!isObject(file) || file.format !== EXPORT_FORMAT || !isObject(file.state)) return { ok: false, reason: "not-progress" };
  if (typeof file.site !== "string" || file.site !== (siteId || "site")) {
    return { ok: false, reason: "other-site", site: typeof file.site === "string" ? file.site : "" };
  }
  if (!Number.isInteger(file.version) || file.version < 1 || !Number.isInteger(file.state.version)) return { ok: false, reason: "not-progress" };
  if (file.version > VERSION || file.state.version > VERSION) return { ok: false, reason: "newer" };
  const result = fromData(file.state);
  if (!result) return { ok: false, reason: "not-progress" };
  if (result.fixes) return { ok: false, reason: "damaged", problems: result.fixes };
  return { ok: true, state: result.state, exported: typeof file.exported === "string" ? file.exported : null };
}

function isObject(x) {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}
