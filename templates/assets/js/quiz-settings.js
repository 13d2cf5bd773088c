// The settings and filters panel of the quiz page: groups and difficulty
// (applied by starting a new round), sounds only, feedback sound, vibration
// and theme (applied at once), and resetting the best score.
import { button, h } from "./dom.js";
import { groupName } from "./quiz-view.js";
import { UNLOCKS } from "./scoring.js";

/**
 * @param {import("./quiz-view.js").View} v
 * @param {object} options
 * @param {ReturnType<typeof import("./storage.js").defaultSettings>} options.settings current settings
 * @param {string[]} options.groups the catalogue's groups, sorted
 * @param {number[]} options.difficulties the catalogue's difficulty levels, sorted
 * @param {boolean} options.filtersApply false in daily mode (the same for everyone)
 * @param {{level: number, unlocked: number}} [options.level] the learner's level and the hardest
 *   difficulty their rounds ask now (the level's cap, raised where too few animals are below it):
 *   the panel says when the catalogue's harder ones come (a teacher's medium animals were never
 *   asked at level 1, the filter said "to medium")
 * @param {boolean} options.canVibrate
 * @param {(patch: object) => void} options.onChange a setting that applies at once changed
 * @param {(patch: object) => void} options.onFilters filters were submitted
 * @param {() => void} options.onResetBest
 * @returns {HTMLElement}
 */
export function settingsView(v, { settings, groups, difficulties, level, filtersApply, canVibrate, onChange, onFilters, onResetBest }) {
  const { tr } = v;
  const groupBoxes = groups.map((g) =>
    h("input", { type: "checkbox", name: "group", value: g, checked: !settings.groups.length || settings.groups.includes(g) }),
  );
  const levelSelect = (name, value) =>
    h("select", { name }, difficulties.map((d) => h("option", { value: d, selected: d === value, text: tr(`quiz.difficulty.${d}`) })));
  // Shown (and announced) when Apply is pressed with no group chosen: nothing changes then.
  const groupError = h("p", { class: "field-error", role: "alert", hidden: true, dataset: { quizFiltersError: "" }, text: tr("settings.pickGroup") });
  const min = levelSelect("difficultyMin", Math.max(settings.difficultyMin, difficulties[0] ?? 1));
  const max = levelSelect("difficultyMax", Math.min(settings.difficultyMax, difficulties[difficulties.length - 1] ?? 3));

  const filters = h(
    "form",
    {
      class: "quiz-filters",
      on: {
        submit(event) {
          event.preventDefault();
          const chosen = groupBoxes.filter((b) => b.checked).map((b) => b.value);
          if (groups.length && !chosen.length) {
            groupError.hidden = false;
            groupBoxes[0].focus();
            return;
          }
          groupError.hidden = true;
          let lo = Number(min.value);
          let hi = Number(max.value);
          if (lo > hi) [lo, hi] = [hi, lo];
          onFilters({ groups: chosen.length === groups.length ? [] : chosen, difficultyMin: lo, difficultyMax: hi });
        },
        change() {
          if (groupBoxes.some((b) => b.checked)) groupError.hidden = true;
        },
      },
    },
    groups.length > 1
      ? h(
          "fieldset",
          {},
          h("legend", { text: tr("settings.groups") }),
          groupBoxes.map((box) => h("label", { class: "quiz-check" }, box, " ", groupName(v, box.value))),
          groupError,
        )
      : null,
    difficulties.length > 1
      ? h(
          "fieldset",
          {},
          h("legend", { text: tr("settings.difficulty") }),
          h("label", {}, tr("settings.from"), " ", min),
          " ",
          h("label", {}, tr("settings.to"), " ", max),
          filtersApply ? levelCap(tr, level, difficulties) : null,
        )
      : null,
    filtersApply ? null : h("p", { class: "quiz-hint", text: tr("settings.dailyNoFilters") }),
    groups.length > 1 || difficulties.length > 1
      ? h("button", { type: "submit", class: "quiz-button", text: tr("settings.apply"), disabled: !filtersApply })
      : null,
  );

  const toggle = (key, label, hint) =>
    h(
      "label",
      { class: "quiz-check" },
      h("input", {
        type: "checkbox",
        checked: settings[key],
        "aria-describedby": hint,
        on: { change: (e) => onChange({ [key]: e.target.checked }) },
      }),
      " ",
      label,
    );
  const theme = h(
    "select",
    { on: { change: (e) => onChange({ theme: e.target.value }) } },
    ["system", "light", "dark"].map((value) => h("option", { value, selected: settings.theme === value, text: tr(`settings.theme.${value}`) })),
  );

  return h(
    "details",
    { class: "quiz-settings" },
    h("summary", { text: tr("settings.title") }),
    filters,
    h("p", {}, toggle("soundsOnly", tr("settings.soundsOnly"))),
    h("p", {}, toggle("autoplay", tr("prefs.autoplay"))),
    // What "own pace" changes is said as on the settings page (the box shows in every mode).
    h("p", {}, toggle("ownPace", tr("prefs.ownPace"), "quiz-own-pace-hint")),
    h("p", { class: "quiz-hint", id: "quiz-own-pace-hint", text: tr("prefs.ownPaceHint") }),
    h(
      "fieldset",
      {},
      h("legend", { text: tr("settings.feedback") }),
      toggle("feedbackSound", tr("settings.feedbackSound")),
      canVibrate ? toggle("vibration", tr("settings.vibration")) : null,
    ),
    h("p", {}, h("label", {}, tr("settings.themeLabel"), " ", theme)),
    h("p", {}, button(tr("settings.resetBest"), onResetBest, { dataset: { quizResetBest: "" } })),
  );
}

/** "…: medium ones from level 2, hard ones from level 3 (you are at level 1)." for the
 * difficulties the catalogue has above what the learner's rounds ask now; null when none.
 * Not shown in daily mode, whose rounds are the same for everyone and take no level's cap. */
function levelCap(tr, level, difficulties) {
  const later = [2, 3].filter((d) => level && d > level.unlocked && difficulties.includes(d));
  if (!later.length) return null;
  const which = later.map((d) => tr(d === 2 ? "settings.levelCapMedium" : "settings.levelCapHard", { level: UNLOCKS[d] })).join(tr("punctuation.listSeparator"));
  return h("p", { class: "quiz-hint", dataset: { quizLevelCap: "" }, text: tr("settings.levelCap", { which, level: level.level }) });
}
