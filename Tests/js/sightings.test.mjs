import { test } from "node:test";
import assert from "node:assert/strict";
import {
  CSV_HEADER, addSighting, checkInput, checklist, compareEntries, lists, removeSighting, sightingsCSV,
} from "../../templates/assets/js/sightings.js";
import { csvField, spreadsheetSafe, toCSV } from "../../templates/assets/js/csv.js";
import { emptySightings, initialState, load, save } from "../../templates/assets/js/storage.js";

const ids = new Set(["robin", "owl", "red-fox"]);
const base = { animal: "robin", kind: "seen", date: "2026-05-01", time: "07:15", place: "Park", note: "", outing: "" };
let n = 0;
const make = () => ({ id: `s-${++n}`, outingId: `o-${n}`, now: 1000 + n });

/** Adds several sightings through the real reducer. */
function log(...inputs) {
  let s = emptySightings();
  for (const input of inputs) s = addSighting(s, { ...base, ...input }, make()).sightings;
  return s;
}

test("checkInput names each field that is wrong", () => {
  assert.deepEqual(checkInput(base, ids), []);
  assert.deepEqual(checkInput({ ...base, time: "" }, ids), [], "time is optional");
  const wrong = checkInput({ animal: "unicorn", kind: "smelled", date: "2026-13-45", time: "7 am", place: "x".repeat(201), note: "y".repeat(2001), outing: "z".repeat(101) }, ids);
  assert.deepEqual(wrong.map((p) => p.field), ["animal", "kind", "date", "time", "place", "note", "outing"]);
  assert.deepEqual(checkInput({ ...base, animal: "" }, ids).map((p) => p.key), ["animal"]);
  // Nothing is seen after the device's today.
  assert.deepEqual(checkInput({ ...base, date: "2099-12-31" }, ids, "2026-11-27").map((p) => p.key), ["dateFuture"]);
  assert.deepEqual(checkInput({ ...base, date: "2026-11-27" }, ids, "2026-11-27"), []);
});

test("a sighting is stored normalised, with its position only when there is one", () => {
  const { sightings, entry } = addSighting(emptySightings(), { ...base, place: "  Park  ", note: " singing ", lat: 52.5163271234, lon: 13.3777, accuracy: 12.6 }, { id: "s-x", outingId: "o-x", now: 5 });
  assert.deepEqual(entry, { id: "s-x", animal: "robin", kind: "seen", date: "2026-05-01", time: "07:15", place: "Park", lat: 52.516327, lon: 13.3777, accuracy: 13, note: "singing", outing: null, created: 5 });
  assert.deepEqual(sightings.outings, []);
  const noPosition = addSighting(emptySightings(), { ...base, time: "", accuracy: 50 }, { id: "s-y", outingId: "o-y", now: 6 }).entry;
  assert.deepEqual([noPosition.time, noPosition.lat, noPosition.lon, noPosition.accuracy], [null, null, null, null]);
  // What addSighting makes, storage accepts without repair.
  const state = { ...initialState(), sightings };
  assert.equal(load(save(state)).notice, null);
  assert.throws(() => addSighting(emptySightings(), { ...base, kind: "nope" }, make()));
});

test("outings are found by name, ignoring case and spacing", () => {
  const s = log({ outing: "Lake  walk" }, { outing: "lake walk ", animal: "owl" }, { outing: "Night", animal: "owl" }, { animal: "red-fox" });
  assert.deepEqual(s.outings.map((o) => o.name), ["Lake walk", "Night"]);
  assert.equal(s.entries[0].outing, s.entries[1].outing);
  assert.notEqual(s.entries[0].outing, s.entries[2].outing);
  assert.equal(s.entries[3].outing, null);
});

test("removing the last sighting of an outing removes the outing", () => {
  const s = log({ outing: "Night", animal: "owl" }, { outing: "Lake", animal: "robin" }, { outing: "Lake", animal: "owl" });
  const after = removeSighting(s, s.entries[0].id);
  assert.deepEqual(after.outings.map((o) => o.name), ["Lake"]);
  assert.equal(after.entries.length, 2);
  assert.deepEqual(removeSighting(after, "no-such-id"), after);
});

test("the checklist follows every sighting: seen, heard, count, first and last date", () => {
  const s = log(
    { animal: "owl", kind: "heard", date: "2026-05-03" },
    { animal: "owl", kind: "seen", date: "2026-04-20" },
    { animal: "robin", kind: "both", date: "2026-05-01" },
  );
  const c = checklist(s.entries);
  assert.deepEqual(c.get("owl"), { seen: true, heard: true, count: 2, first: "2026-04-20", last: "2026-05-03" });
  assert.deepEqual(c.get("robin"), { seen: true, heard: true, count: 1, first: "2026-05-01", last: "2026-05-01" });
  assert.equal(c.has("red-fox"), false);
});

test("lists: one per outing, newest first, sightings outside outings last", () => {
  const s = log(
    { outing: "Spring", date: "2026-03-01", animal: "robin" },
    { date: "2026-06-01", animal: "owl" },
    { outing: "Summer", date: "2026-07-01", time: "05:00", animal: "owl" },
    { outing: "Summer", date: "2026-07-01", time: "21:30", animal: "owl" },
    { outing: "Spring", date: "2026-03-02", animal: "red-fox" },
  );
  const result = lists(s);
  assert.deepEqual(result.map((l) => l.outing && l.outing.name), ["Summer", "Spring", null]);
  assert.deepEqual(result[0].entries.map((e) => e.time), ["21:30", "05:00"]);
  assert.deepEqual([result[0].species, result[1].species], [1, 2]);
  assert.deepEqual([result[1].first, result[1].last], ["2026-03-01", "2026-03-02"]);
  assert.ok(compareEntries({ date: "2026-01-02", time: null, created: 1 }, { date: "2026-01-01", time: "23:00", created: 2 }) < 0);
});

test("CSV fields follow RFC 4180", () => {
  assert.equal(csvField("plain"), "plain");
  assert.equal(csvField("a,b"), '"a,b"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField("two\nlines"), '"two\nlines"');
  assert.equal(csvField("cr\rhere"), '"cr\rhere"');
  assert.equal(csvField(null), "");
  assert.equal(csvField(-12.5), "-12.5");
  assert.equal(toCSV(["a", "b"], [["1", null], ["x,y", 2]]), 'a,b\r\n1,\r\n"x,y",2\r\n');
  assert.equal(spreadsheetSafe("=SUM(A1)"), "'=SUM(A1)");
  assert.equal(spreadsheetSafe("@home"), "'@home");
  assert.equal(spreadsheetSafe("Garden"), "Garden");
});

/** A small RFC 4180 reader, to check the export the way a spreadsheet would read it. */
function parseCSV(text) {
  const rows = [];
  let row = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") row.push(field), (field = "");
    else if (c === "\r" && text[i + 1] === "\n") row.push(field), rows.push(row), (row = []), (field = ""), i++;
    else field += c;
  }
  assert.equal(field, "", "the file ends with CRLF");
  return rows;
}

test("the CSV export has a header and one row per sighting, oldest first, in the page's names", () => {
  const s = log(
    { animal: "owl", kind: "heard", date: "2026-05-03", time: "23:10", place: 'Wood, "north" gate', note: "two calls\nthen silence", outing: "Night walk", lat: 52.1, lon: -0.5, accuracy: 20 },
    { animal: "robin", kind: "seen", date: "2026-05-01", time: "", place: "=cmd|' /C calc'!A0", note: "" },
  );
  const names = { owl: { name: "Waldkauz", scientific: "Strix aluco" }, robin: { name: "Rotkehlchen", scientific: null } };
  const text = sightingsCSV(s, (id) => names[id]);
  assert.ok(text.endsWith("\r\n"));
  const rows = parseCSV(text);
  assert.deepEqual(rows[0], [...CSV_HEADER]);
  assert.equal(rows.length, 3);
  assert.deepEqual(rows[1], ["2026-05-01", "", "robin", "Rotkehlchen", "", "seen", "'=cmd|' /C calc'!A0", "", "", "", "", ""]);
  assert.deepEqual(rows[2], ["2026-05-03", "23:10", "owl", "Waldkauz", "Strix aluco", "heard", 'Wood, "north" gate', "52.1", "-0.5", "20", "Night walk", "two calls\nthen silence"]);
  assert.equal(sightingsCSV(emptySightings(), () => null), CSV_HEADER.join(",") + "\r\n");
});
