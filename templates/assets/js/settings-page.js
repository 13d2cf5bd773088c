// The settings page: language, colour scheme, feedback, listening (sounds only,
// a recording that starts by itself), read-aloud voice and quiz filters (each
// saved as soon as it changes), saving everything for offline use, and the
// learner's data: export to a file, import from one (checked before anything
// is replaced), and reset (asks first).
import { ask } from "./dom.js";
import { applyTheme, browserBackend, download, learnerStore, loadCatalog, pageInfo, pageTranslator, siteNotice } from "./page.js";
import { canVibrate, onVoicesChanged, speak, voicesFor } from "./feedback.js";
import { initialState } from "./storage.js";
import { exportProgress, parseImport, IMPORT_MAX_BYTES } from "./progress-file.js";
import { localDateKey } from "./daily.js";
import { offlineUrls, cachedCount, saveForOffline } from "./offline-save.js";

const info = pageInfo();
const tr = pageTranslator(info);
const store = learnerStore(info);
const form = /** @type {HTMLFormElement|null} */ (document.querySelector("[data-settings-form]"));
const status = document.querySelector("[data-settings-status]");
const voiceLang = info.lang.split("-")[0];

if (form) {
  const el = (name) => /** @type {any} */ (form.elements.namedItem(name));
  const groupBoxes = [...form.querySelectorAll('input[name="groups"]')];
  const groupsError = document.querySelector("[data-settings-groups-error]");
  const say = (text) => {
    status.textContent = "";
    // A fresh text node, so the same message is announced again.
    requestAnimationFrame(() => (status.textContent = text));
  };

  const show = (settings) => {
    el("theme").value = settings.theme;
    // A box a site's own settings.html lacks (made before it came) is left out, not the page.
    for (const name of ["feedbackSound", "vibration", "soundsOnly", "autoplay", "ownPace"]) {
      const box = el(name);
      if (box) box.checked = settings[name];
    }
    for (const box of groupBoxes) box.checked = !settings.groups.length || settings.groups.includes(box.value);
    el("difficultyMin").value = String(settings.difficultyMin);
    el("difficultyMax").value = String(settings.difficultyMax);
    showVoices(settings);
    applyTheme(settings.theme);
  };

  const change = (patch) => {
    const { state, saved } = store.update((s) => ({ ...s, settings: { ...s.settings, ...patch } }));
    applyTheme(state.settings.theme);
    // With storage blocked, "Saved." would promise what the next page does not keep.
    if (saved) say(tr(browserBackend().isMemory ? "prefs.savedForNow" : "prefs.saved"));
    else siteNotice("saveFailed");
    return state;
  };

  // Language: remembered, then the same page in that language, when the button says so (a
  // select that went to another page on change would leave with the first arrow key: WCAG 3.2.2).
  const language = el("language");
  language?.addEventListener("change", (event) => event.stopPropagation());
  form.querySelector("[data-settings-language-apply]")?.addEventListener("click", () => {
    const option = language.selectedOptions[0];
    change({ language: option.value });
    location.assign(option.dataset.href);
  });

  form.addEventListener("change", (event) => {
    const target = /** @type {HTMLInputElement} */ (event.target);
    switch (target.name) {
      case "theme":
        return change({ theme: target.value });
      case "feedbackSound":
      case "vibration":
      case "soundsOnly":
      case "autoplay":
      case "ownPace":
        return change({ [target.name]: target.checked });
      case "groups": {
        const chosen = groupBoxes.filter((b) => b.checked).map((b) => b.value);
        groupsError.hidden = chosen.length > 0;
        if (!chosen.length) {
          // Not saved: the box stays as saved, and no "Saved." is left beside the error.
          target.checked = true;
          status.textContent = "";
          return;
        }
        return change({ groups: chosen.length === groupBoxes.length ? [] : chosen });
      }
      case "difficultyMin":
      case "difficultyMax": {
        let lo = Number(el("difficultyMin").value);
        let hi = Number(el("difficultyMax").value);
        if (lo > hi) {
          [lo, hi] = target.name === "difficultyMin" ? [lo, lo] : [hi, hi];
          el("difficultyMin").value = String(lo);
          el("difficultyMax").value = String(hi);
        }
        return change({ difficultyMin: lo, difficultyMax: hi });
      }
      case "voice":
        return change({ voices: { ...store.load().state.settings.voices, [voiceLang]: target.value || undefined } });
      default:
    }
  });
  form.addEventListener("submit", (event) => event.preventDefault());

  // Vibration only where the device can.
  if (!canVibrate()) {
    document.querySelector("[data-settings-vibration-row]").hidden = true;
    document.querySelector("[data-settings-no-vibration]").hidden = false;
  }

  // Read-aloud voices of the page's language.
  const voiceSelect = el("voice");
  const testButton = document.querySelector("[data-settings-voice-test]");
  function showVoices(settings) {
    const voices = voicesFor(info.lang);
    const first = voiceSelect.options[0];
    voiceSelect.replaceChildren(first);
    for (const voice of voices) {
      const option = document.createElement("option");
      option.value = voice.voiceURI;
      option.textContent = `${voice.name} (${voice.lang})`;
      voiceSelect.append(option);
    }
    voiceSelect.value = voices.some((v) => v.voiceURI === settings.voices[voiceLang]) ? settings.voices[voiceLang] : "";
    voiceSelect.disabled = voices.length === 0;
    testButton.disabled = voices.length === 0;
    document.querySelector("[data-settings-no-voice]").hidden = voices.length > 0;
  }
  onVoicesChanged(() => showVoices(store.load().state.settings));
  testButton.addEventListener("click", () => speak(tr("prefs.voiceSample"), info.lang, voiceSelect.value || null));

  // Export.
  document.querySelector("[data-settings-export]").addEventListener("click", () => {
    const text = exportProgress(store.load().state, info.siteId);
    const file = `bestiary-${info.siteId}-progress-${localDateKey()}.json`;
    download(file, [text], "application/json");
    // A page cannot know whether the browser saved it (it may ask, or block downloads).
    say(tr("prefs.exported", { file }));
  });

  // Import: checked completely before anything changes.
  const importInput = el("settings-import") ?? document.querySelector("[data-settings-import]");
  const importError = document.querySelector("[data-settings-import-error]");
  importInput.addEventListener("change", async () => {
    const file = importInput.files?.[0];
    importError.hidden = true;
    if (!file) return;
    const fail = (key, params = {}) => {
      importError.textContent = tr(`prefs.importError.${key}`, { name: file.name, ...params });
      importError.hidden = false;
      importInput.value = "";
    };
    if (file.size > IMPORT_MAX_BYTES) return fail("too-large");
    let text;
    let encoding = "";
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      // UTF-8, or UTF-16 by its byte-order mark; another encoding (Notepad's "ANSI") is refused:
      // read as UTF-8 it was taken with its accented letters turned into "�" (found by a teacher).
      encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? "utf-16le" : bytes[0] === 0xfe && bytes[1] === 0xff ? "utf-16be" : "utf-8";
      text = new TextDecoder(encoding, { fatal: true }).decode(bytes);
    } catch (error) {
      return fail(error instanceof TypeError && encoding === "utf-8" ? "not-utf8" : "unreadable");
    }
    const result = parseImport(text, info.siteId);
    if (!result.ok) return fail(result.reason, { site: result.site ?? "", count: result.problems ?? 0 });
    const when = result.exported ? new Date(result.exported) : null;
    // What is replaced, and by what: a pupil's older file took the week since without a word.
    const counts = (state) => ({ answers: state.stats.answered, favorites: state.favorites.length, sightings: state.sightings.entries.length });
    const here = counts(store.load().state);
    const file_ = counts(result.state);
    const confirmed = await ask({
      message: tr("prefs.importAsk", {
        name: file.name,
        date: when && !Number.isNaN(when.getTime()) ? when.toLocaleString(info.lang) : "?",
        hereAnswers: here.answers, hereFavorites: here.favorites, hereSightings: here.sightings,
        ...file_,
      }),
      confirm: tr("prefs.importYes"),
      cancel: tr("settings.cancel"),
    });
    importInput.value = "";
    if (!confirmed) return say(tr("prefs.importCancelled"));
    // Today's daily challenge stays as far as it was played, here or in the file (the one done,
    // else the one with more answers): an older file is no second try at it.
    const now = store.load().state;
    const today = localDateKey();
    const ahead = (d) => (d && d.date === today ? (d.done ? 1e6 : 0) + d.results.length : -1);
    const next = ahead(now.daily) > ahead(result.state.daily) ? { ...result.state, daily: now.daily } : result.state;
    if (!store.save(next)) return siteNotice("saveFailed");
    show(next.settings);
    // With storage blocked the import lasts as long as this page (as "Saved." would mislead).
    say(tr(browserBackend().isMemory ? "prefs.importedForNow" : "prefs.imported", counts(next)));
  });

  // Reset.
  document.querySelector("[data-settings-reset]").addEventListener("click", async () => {
    const favorites = el("resetFavorites").checked;
    const sightings = el("resetSightings").checked;
    const key = favorites && sightings ? "prefs.resetAskAll" : favorites ? "prefs.resetAskFavorites" : sightings ? "prefs.resetAskSightings" : "prefs.resetAsk";
    const confirmed = await ask({ message: tr(key), confirm: tr("prefs.resetYes"), cancel: tr("settings.cancel") });
    if (!confirmed) return say(tr("prefs.resetCancelled"));
    const { saved } = store.update((s) => ({
      ...initialState(),
      settings: s.settings,
      onboarded: true,
      // Today's daily challenge stays played: a reset is no second try at it.
      daily: s.daily && s.daily.date === localDateKey() ? s.daily : null,
      favorites: favorites ? [] : s.favorites,
      sightings: sightings ? initialState().sightings : s.sightings,
    }));
    if (!saved) return siteNotice("saveFailed");
    say(tr("prefs.resetDone"));
  });

  show(store.load().state.settings);
  // Saved in another tab (or this page back from the back/forward cache): the form shows the
  // saved settings, so that its next change starts from them, not from what it showed (two
  // settings tabs undid each other's groups and difficulty, and an import in another tab).
  const refresh = () => {
    groupsError.hidden = true;
    show(store.load().state.settings);
  };
  window.addEventListener("storage", (event) => (event.key === store.key || event.key === null) && refresh());
  window.addEventListener("pageshow", (event) => event.persisted && refresh());
  setUpOffline();
}

/** How much is saved for offline use, and a button to save the rest. */
async function setUpOffline() {
  const text = document.querySelector("[data-offline-status]");
  const button = /** @type {HTMLButtonElement} */ (document.querySelector("[data-offline-save]"));
  const bar = /** @type {HTMLProgressElement} */ (document.querySelector("[data-offline-progress]"));
  if (!text || !button) return;
  if (!("serviceWorker" in navigator) || !("caches" in window) || !window.isSecureContext) {
    text.textContent = tr("prefs.offlineUnsupported");
    button.disabled = true;
    return;
  }
  const catalog = await loadCatalog(info);
  if (!catalog) {
    text.textContent = tr("prefs.offlineUnknown");
    button.disabled = true;
    return;
  }
  const urls = offlineUrls(catalog, { root: info.root, langRoot: info.langRoot, base: document.baseURI, lang: info.lang });
  const update = async () => {
    const saved = await cachedCount(urls.map((u) => u.url));
    const total = urls.length;
    const megabytes = new Intl.NumberFormat(info.lang, { maximumFractionDigits: 1 }).format(urls.reduce((n, u) => n + (u.bytes || 0), 0) / 1e6);
    text.textContent = tr("prefs.offlineCount", { saved, total, size: megabytes });
    button.hidden = saved >= total;
    return saved;
  };
  await update();
  // While saving, the button says it is unavailable but keeps the focus (a disabled one lost it
  // to the page: a keyboard or screen reader user was sent back to its top); the result then
  // takes the focus and is read.
  const busy = (on) => (on ? button.setAttribute("aria-disabled", "true") : button.removeAttribute("aria-disabled"));
  button.addEventListener("click", async () => {
    if (button.getAttribute("aria-disabled") === "true") return;
    busy(true);
    bar.hidden = false;
    const registration = await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller && registration.active) {
      // The worker is installed but this page is not yet under its control: reload once.
      text.textContent = tr("prefs.offlineReload");
      busy(false);
      bar.hidden = true;
      text.focus();
      return;
    }
    const result = await saveForOffline(
      urls.map((u) => u.url),
      (done, total) => {
        bar.max = total;
        bar.value = done;
      },
    );
    bar.hidden = true;
    busy(false);
    await update();
    if (result.failed) text.textContent += " " + tr("prefs.offlineFailed", { count: result.failed });
    text.focus();
  });
}
