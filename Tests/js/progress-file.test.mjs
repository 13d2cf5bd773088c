import { test } from "node:test";
import assert from "node:assert/strict";
import { EXPORT_FORMAT, IMPORT_MAX_BYTES, exportProgress, parseImport } from "../../templates/assets/js/progress-file.js";
import { VERSION, initialState, load, save } from "../../templates/assets/js/storage.js";
import { reduce } from "../../templates/assets/js/scoring.js";

function state() {
  const s = initialState();
  s.stats = reduce(s.stats, { type: "answer", date: "2026-05-01", animal: "owl", correct: true, difficulty: 1 });
  s.favorites = ["owl"];
  s.onboarded = true;
  s.sightings = {
    outings: [{ id: "o-1", name: "Night walk", created: 10 }],
    entries: [{ id: "s-1", animal: "owl", kind: "heard", date: "2026-05-01", time: "23:10", place: "Wood, \"north\"", lat: null, lon: null, accuracy: null, note: "two calls", outing: "o-1", created: 11 }],
  };
  return s;
}

test("an exported file imports to the same state", () => {
  const text = exportProgress(state(), "example", new Date("2026-05-02T08:00:00Z"));
  const file = JSON.parse(text);
  assert.equal(file.format, EXPORT_FORMAT);
  assert.equal(file.version, VERSION);
  assert.equal(file.site, "example");
  assert.equal(file.exported, "2026-05-02T08:00:00.000Z");
  const result = parseImport(text, "example");
  assert.equal(result.ok, true);
  assert.deepEqual(result.state, state());
  assert.equal(result.exported, "2026-05-02T08:00:00.000Z");
  // With a byte-order mark, as some editors save it.
  assert.equal(parseImport("\uFEFF" + text, "example").ok, true);
});

test("a log as large as a browser keeps for a site exports to a file that imports back", () => {
  // About 5 million characters stored (Chromium's limit per site), in notes of Greek letters:
  // two bytes each in the file. The site refused its own export of such a log (over 5 MB).
  const s = state();
  const note = "γλαύκα ".repeat(285).slice(0, 2000);
  s.sightings.entries = Array.from({ length: 2500 }, (_, i) => ({ ...s.sightings.entries[0], id: `s-${i}`, note, created: 100 + i }));
  const stored = save(s);
  assert.ok(stored.length > 5_000_000, `${stored.length} characters stored`);
  const text = exportProgress(s, "example");
  const bytes = Buffer.byteLength(text, "utf8");
  assert.ok(bytes > 10_000_000 && bytes <= IMPORT_MAX_BYTES, `${bytes} bytes exported`);
  const result = parseImport(text, "example");
  assert.equal(result.ok, true, result.reason);
  assert.equal(result.state.sightings.entries.length, 2500);
});

test("an older file (v1 state inside) is migrated on import", () => {
  const v1 = { version: 1, stats: state().stats };
  const text = JSON.stringify({ format: EXPORT_FORMAT, version: 1, site: "example", exported: "2026-01-01T00:00:00Z", state: v1 });
  const result = parseImport(text, "example");
  assert.equal(result.ok, true);
  assert.equal(result.state.version, VERSION);
  assert.equal(result.state.stats.correct, 1);
});

test("bad files are refused with a reason, and nothing else is touched", () => {
  const good = JSON.parse(exportProgress(state(), "example"));
  const cases = [
    ["this is not json", { ok: false, reason: "not-json" }],
    ["[1, 2]", { ok: false, reason: "not-progress" }],
    [save(state()), { ok: false, reason: "not-progress" }],
    [JSON.stringify({ ...good, format: "something-else" }), { ok: false, reason: "not-progress" }],
    [JSON.stringify({ ...good, site: "tuxpaint" }), { ok: false, reason: "other-site", site: "tuxpaint" }],
    [JSON.stringify({ ...good, version: VERSION + 1 }), { ok: false, reason: "newer" }],
    [JSON.stringify({ ...good, state: { ...good.state, version: VERSION + 1 } }), { ok: false, reason: "newer" }],
    [JSON.stringify({ ...good, state: { ...good.state, version: "2" } }), { ok: false, reason: "not-progress" }],
    [JSON.stringify({ ...good, state: { ...good.state, favorites: ["owl", 42] } }), { ok: false, reason: "damaged", problems: 1 }],
    [JSON.stringify({ ...good, state: { ...good.state, stats: { ...good.state.stats, points: -1 } } }), { ok: false, reason: "damaged", problems: 1 }],
    ["x".repeat(IMPORT_MAX_BYTES + 1), { ok: false, reason: "too-large" }],
  ];
  for (const [text, expected] of cases) assert.deepEqual(parseImport(text, "example"), expected, text.slice(0, 60));
  assert.deepEqual(parseImport(undefined, "example"), { ok: false, reason: "not-json" });
  // The store keeps what was there: parseImport is pure, so a refusal cannot change it.
  assert.equal(load(save(state())).notice, null);
});
