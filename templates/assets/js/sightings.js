// The sightings log: what the learner saw or heard outdoors, when and where,
// grouped into outings (one walk, one trip), and the species checklist that
// follows from it. Pure functions over the `sightings` part of the learner's
// state (storage.js checks its shape); the page (sightings-page.js) does the
// DOM, the clock, ids and geolocation.
import { LIMITS, SIGHTING_KINDS, validSighting } from "./storage.js";
import { spreadsheetSafe, toCSV } from "./csv.js";

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * Checks what the form holds. Returns the problems as `{field, key}` (key:
 * a UI string under `sightings.error.`), an empty list when all is well.
 * @param {object} input the form's values
 * @param {Set<string>|ReadonlySet<string>} animalIds ids of the catalogue
 */
export function checkInput(input, animalIds, today = "") {
  const problems = [];
  if (!input.animal || !animalIds.has(input.animal)) problems.push({ field: "animal", key: "animal" });
  if (!SIGHTING_KINDS.includes(input.kind)) problems.push({ field: "kind", key: "kind" });
  if (!DATE.test(input.date || "") || Number.isNaN(Date.parse(input.date))) problems.push({ field: "date", key: "date" });
  // `today` (YYYY-MM-DD, the device's own day): nothing is seen after it.
  else if (today && input.date > today) problems.push({ field: "date", key: "dateFuture" });
  if (input.time && !TIME.test(input.time)) problems.push({ field: "time", key: "time" });
  if ((input.place || "").length > LIMITS.place) problems.push({ field: "place", key: "place" });
  if ((input.note || "").length > LIMITS.note) problems.push({ field: "note", key: "note" });
  if ((input.outing || "").trim().length > LIMITS.outing) problems.push({ field: "outing", key: "outing" });
  return problems;
}

/** Outing names compare without case and surrounding or doubled spaces. */
export function outingKey(name) {
  return name.normalize("NFC").trim().replace(/\s+/g, " ").toLowerCase();
}

/**
 * Adds a sighting. `input.outing` is an outing's name: an existing outing of
 * that name gets the sighting, a new name starts an outing, an empty one
 * means none.
 * @param {{outings: any[], entries: any[]}} sightings
 * @param {object} input as checked by checkInput()
 * @param {{id: string, outingId: string, now: number}} make ids and the clock, from the page
 * @returns {{sightings: {outings: any[], entries: any[]}, entry: object}}
 */
export function addSighting(sightings, input, { id, outingId, now }) {
  let outings = sightings.outings;
  let outing = null;
  const name = (input.outing || "").trim().replace(/\s+/g, " ");
  if (name) {
    const found = outings.find((o) => outingKey(o.name) === outingKey(name));
    if (found) outing = found.id;
    else {
      outing = outingId;
      outings = [...outings, { id: outingId, name, created: now }];
    }
  }
  const hasPosition = Number.isFinite(input.lat) && Number.isFinite(input.lon);
  const entry = validSighting(
    {
      id,
      animal: input.animal,
      kind: input.kind,
      date: input.date,
      time: input.time || null,
      place: (input.place || "").trim(),
      lat: hasPosition ? round(input.lat, 6) : null,
      lon: hasPosition ? round(input.lon, 6) : null,
      accuracy: hasPosition && Number.isFinite(input.accuracy) ? Math.round(input.accuracy) : null,
      note: (input.note || "").trim(),
      outing,
      created: now,
    },
    new Set(outings.map((o) => o.id)),
  );
  if (!entry) throw new Error("addSighting: input was not checked");
  return { sightings: { outings, entries: [...sightings.entries, entry] }, entry };
}

/**
 * Removes a sighting; an outing left without sightings goes too.
 * @param {{outings: any[], entries: any[]}} sightings
 * @param {string} id
 */
export function removeSighting(sightings, id) {
  const entries = sightings.entries.filter((e) => e.id !== id);
  const used = new Set(entries.map((e) => e.outing).filter(Boolean));
  return { outings: sightings.outings.filter((o) => used.has(o.id)), entries };
}

/** Newest first: by date, then time (no time counts as the start of the day), then when logged. */
export function compareEntries(a, b) {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  const ta = a.time || "";
  const tb = b.time || "";
  if (ta !== tb) return ta < tb ? 1 : -1;
  return b.created - a.created;
}

/**
 * The species checklist: per animal id, whether it was seen and/or heard,
 * how often it was logged, and the first and last dates.
 * @param {readonly any[]} entries
 * @returns {Map<string, {seen: boolean, heard: boolean, count: number, first: string, last: string}>}
 */
export function checklist(entries) {
  const result = new Map();
  for (const e of entries) {
    const row = result.get(e.animal) || { seen: false, heard: false, count: 0, first: e.date, last: e.date };
    if (e.kind === "seen" || e.kind === "both") row.seen = true;
    if (e.kind === "heard" || e.kind === "both") row.heard = true;
    row.count++;
    if (e.date < row.first) row.first = e.date;
    if (e.date > row.last) row.last = e.date;
    result.set(e.animal, row);
  }
  return result;
}

/**
 * The log as lists: one per outing (newest outing first, by its latest
 * sighting), and one for sightings outside any outing, last. Each list has
 * its entries newest first and the number of distinct species.
 * @param {{outings: any[], entries: any[]}} sightings
 * @returns {Array<{outing: {id: string, name: string}|null, entries: any[], species: number, first: string, last: string}>}
 */
export function lists(sightings) {
  const groups = new Map();
  for (const e of sightings.entries) {
    const key = e.outing || "";
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(e);
  }
  const byId = new Map(sightings.outings.map((o) => [o.id, o]));
  const result = [];
  for (const [key, entries] of groups) {
    entries.sort(compareEntries);
    const dates = entries.map((e) => e.date).sort();
    result.push({
      outing: key ? byId.get(key) || null : null,
      entries,
      species: new Set(entries.map((e) => e.animal)).size,
      first: dates[0],
      last: dates[dates.length - 1],
    });
  }
  return result.sort((a, b) => {
    if (!a.outing !== !b.outing) return a.outing ? -1 : 1;
    return compareEntries(a.entries[0], b.entries[0]);
  });
}

/** The columns of the CSV export, in order. */
export const CSV_HEADER = Object.freeze([
  "date", "time", "animal_id", "name", "scientific_name", "kind", "place", "latitude", "longitude", "accuracy_m", "outing", "note",
]);

/**
 * The whole log as CSV (RFC 4180, header first, oldest sighting first).
 * @param {{outings: any[], entries: any[]}} sightings
 * @param {(id: string) => {name: string, scientific: string|null}} describe names in the page's language
 */
export function sightingsCSV(sightings, describe) {
  const outings = new Map(sightings.outings.map((o) => [o.id, o.name]));
  const rows = sightings.entries
    .slice()
    .sort((a, b) => compareEntries(b, a))
    .map((e) => {
      const animal = describe(e.animal);
      return [
        e.date, e.time, e.animal, animal.name, animal.scientific, e.kind, spreadsheetSafe(e.place), e.lat, e.lon, e.accuracy,
        spreadsheetSafe(e.outing ? outings.get(e.outing) || "" : ""), spreadsheetSafe(e.note),
      ];
    });
  return toCSV(CSV_HEADER, rows);
}

function round(x, digits) {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
