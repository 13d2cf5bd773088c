// The quiz's settings panel: what it says of the level cap.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { settingsView } from "../../templates/assets/js/quiz-settings.js";
import { defaultSettings } from "../../templates/assets/js/storage.js";
import { translator } from "../../templates/assets/js/i18n.js";
import { installFakeDocument } from "./fake-dom.mjs";
import { I18N_DIR } from "./helpers.mjs";

const en = translator({ lang: "en", strings: JSON.parse(readFileSync(new URL("en.json", I18N_DIR), "utf8")) });
const view = () => ({ tr: en, lang: "en", chain: ["en"], root: "../", langRoot: "./" });

test("the settings say when harder animals join the rounds, below the level that lets them in", () => {
  installFakeDocument();
  const panel = (level, difficulties = [1, 2, 3], filtersApply = true) =>
    settingsView(view(), { settings: defaultSettings(), groups: [], difficulties, level, filtersApply, canVibrate: false,
      onChange: () => {}, onFilters: () => {}, onResetBest: () => {} }).find("quizLevelCap");
  assert.equal(panel({ level: 1, unlocked: 1 }).textContent,
    "Sound and picture rounds ask harder animals as you go up a level: medium ones from level 2, hard ones from level 3 (you are at level 1).");
  assert.equal(panel({ level: 2, unlocked: 2 }).textContent,
    "Sound and picture rounds ask harder animals as you go up a level: hard ones from level 3 (you are at level 2).");
  assert.equal(panel({ level: 2, unlocked: 2 }, [1, 2]), null, "a catalogue without hard animals has all it has");
  assert.equal(panel({ level: 3, unlocked: 3 }), null);
  assert.equal(panel(undefined), null);
  // Only the difficulties the catalogue has, above what the rounds ask now (the reviewer's):
  // none medium; the level's cap raised because too few easy animals are below it.
  assert.equal(panel({ level: 1, unlocked: 1 }, [1, 3]).textContent,
    "Sound and picture rounds ask harder animals as you go up a level: hard ones from level 3 (you are at level 1).");
  assert.equal(panel({ level: 1, unlocked: 2 }, [2, 3]).textContent,
    "Sound and picture rounds ask harder animals as you go up a level: hard ones from level 3 (you are at level 1).");
  assert.equal(panel({ level: 1, unlocked: 3 }), null, "all asked already");
  assert.equal(panel({ level: 1, unlocked: 1 }, [1, 2, 3], false), null, "the daily's rounds take no level's cap");
});

test("a group without a label is shown capitalised, as the build shows it", async () => {
  const { groupName } = await import("../../templates/assets/js/quiz-view.js");
  assert.equal(groupName(view(), "bird"), "Birds");
  assert.equal(groupName(view(), "pet"), "Pet");
  assert.equal(groupName(view(), "ähnliche"), "Ähnliche");
  assert.equal(groupName(view(), "Already"), "Already");
});

test("the panel has Sounds only, shown as saved and saved at once (a blind learner meeting pictures in the daily)", async () => {
  installFakeDocument();
  const changes = [];
  const panel = (soundsOnly) =>
    settingsView(view(), { settings: { ...defaultSettings(), soundsOnly }, groups: [], difficulties: [1], filtersApply: false, canVibrate: false,
      onChange: (patch) => changes.push(patch), onFilters: () => {}, onResetBest: () => {} });
  const box = (el) => {
    const label = el.findAll((x) => x.tagName === "LABEL" && x.textContent.includes("Sounds only: no pictures"))[0];
    return label.findAll((x) => x.tagName === "INPUT")[0];
  };
  assert.equal(box(panel(false)).getAttribute("checked"), null);
  const on = box(panel(true));
  assert.equal(on.getAttribute("type"), "checkbox");
  assert.equal(on.getAttribute("checked"), "");
  on.checked = false;
  await on.fire("change");
  assert.deepEqual(changes, [{ soundsOnly: false }]);
});

test("the panel's own-pace box is described by what it changes, as on the settings page", () => {
  installFakeDocument();
  const panel = settingsView(view(), { settings: defaultSettings(), groups: [], difficulties: [1], filtersApply: false, canVibrate: false,
    onChange: () => {}, onFilters: () => {}, onResetBest: () => {} });
  const label = panel.findAll((x) => x.tagName === "LABEL" && x.textContent.includes("take all the time you need"))[0];
  const box = label.findAll((x) => x.tagName === "INPUT")[0];
  const id = box.getAttribute("aria-describedby");
  assert.ok(id, "the box names its hint");
  const hint = panel.findAll((x) => x.getAttribute("id") === id);
  assert.equal(hint.length, 1);
  assert.equal(hint[0].textContent, en("prefs.ownPaceHint"));
});
