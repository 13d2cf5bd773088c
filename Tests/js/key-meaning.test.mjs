import { test } from "node:test";
import assert from "node:assert/strict";
import { keyMeaning } from "../../templates/assets/js/dom.js";

test("digits answer in any script's digits, by the character typed", () => {
  assert.equal(keyMeaning({ key: "1", code: "Digit1" }), 1);
  assert.equal(keyMeaning({ key: "9", code: "Numpad9" }), 9);
  // An Arabic layout's digits (Arabic-Indic), a Persian one's, Devanagari, full-width.
  assert.equal(keyMeaning({ key: "١", code: "Digit1" }), 1);
  assert.equal(keyMeaning({ key: "٤", code: "Digit4" }), 4);
  assert.equal(keyMeaning({ key: "۳", code: "Digit3" }), 3);
  assert.equal(keyMeaning({ key: "२", code: "Digit2" }), 2);
  assert.equal(keyMeaning({ key: "２", code: "" }), 2);
  // No answer 0, in any script.
  assert.equal(keyMeaning({ key: "0", code: "Digit0" }), null);
  assert.equal(keyMeaning({ key: "٠", code: "Digit0" }), null);
});

test("a key of the digits' row answers by its place when it types no digit (AZERTY)", () => {
  assert.equal(keyMeaning({ key: "&", code: "Digit1" }), 1);
  assert.equal(keyMeaning({ key: "é", code: "Digit2" }), 2);
  assert.equal(keyMeaning({ key: "End", code: "Numpad1" }), 1);
});

test("R replays by the letter, or by its place when the layout types no Latin letter there", () => {
  assert.equal(keyMeaning({ key: "r", code: "KeyR" }), "replay");
  assert.equal(keyMeaning({ key: "R", code: "KeyR" }), "replay");
  // An Arabic layout's ق, a Russian one's к, a Hebrew one's ר.
  assert.equal(keyMeaning({ key: "ق", code: "KeyR" }), "replay");
  assert.equal(keyMeaning({ key: "к", code: "KeyR" }), "replay");
  assert.equal(keyMeaning({ key: "ר", code: "KeyR" }), "replay");
  // Dvorak types p where QWERTY's r is, and r at QWERTY's o: the letter decides.
  assert.equal(keyMeaning({ key: "p", code: "KeyR" }), null);
  assert.equal(keyMeaning({ key: "r", code: "KeyO" }), "replay");
});

test("Enter and space go on; other keys mean nothing", () => {
  assert.equal(keyMeaning({ key: "Enter", code: "Enter" }), "next");
  assert.equal(keyMeaning({ key: " ", code: "Space" }), "next");
  for (const [key, code] of [["a", "KeyA"], ["Tab", "Tab"], ["ArrowLeft", "ArrowLeft"], ["ش", "KeyA"], ["x", ""]]) {
    assert.equal(keyMeaning({ key, code }), null, `${key} ${code}`);
  }
  assert.equal(keyMeaning({ key: "1" }), 1);
});
