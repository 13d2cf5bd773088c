// The sightings log page: a form to log what was seen or heard (with an
// optional position, asked for only when the learner presses the button),
// the lists per outing, the species checklist (updated as soon as a sighting
// is saved) and the CSV export. Everything stays in this browser's storage.
import { ask, h, fill } from "./dom.js";
import { browserBackend, download, learnerStore, pageInfo, pageTranslator, siteNotice } from "./page.js";
import { localDateKey } from "./daily.js";
import { listPageSize, showMore, showOnly } from "./list-page.js";
import { addSighting, checkInput, checklist, lists, removeSighting, sightingsCSV } from "./sightings.js";

const KIND_KEYS = { seen: "sightings.kindSeen", heard: "sightings.kindHeard", both: "sightings.kindBoth" };
const info = pageInfo();
const tr = pageTranslator(info);
const store = learnerStore(info);
const form = /** @type {HTMLFormElement|null} */ (document.querySelector("[data-sighting-form]"));

if (form) {
  const select = /** @type {HTMLSelectElement} */ (form.elements.namedItem("animal"));
  const names = new Map([...select.options].filter((o) => o.value).map((o) => [o.value, { name: o.textContent.trim(), lang: o.lang || info.lang }]));
  // The checklist of a big catalogue comes a page of rows at a time: the rest wait in an inert
  // <template> (a browser took 3-4 s to lay out 10,000 live rows) until a filter or "Show more"
  // asks for them.
  const checklistTable = /** @type {HTMLTableElement|null} */ (document.querySelector("[data-checklist]"));
  const checklistBody = checklistTable?.tBodies[0];
  const laterRows = /** @type {HTMLTemplateElement|null} */ (document.querySelector("[data-checklist-more]"));
  const rowList = [...document.querySelectorAll("[data-checklist] tbody tr[data-id]"), ...(laterRows ? laterRows.content.querySelectorAll("tr[data-id]") : [])];
  const rows = new Map(rowList.map((tr) => [tr.dataset.id, tr]));
  const pageSize = listPageSize(checklistTable);
  let rowLimit = pageSize;
  let shownRows = rowList.filter((row) => row.parentNode === checklistBody);
  const status = document.querySelector("[data-sighting-status]");
  const listsBox = document.querySelector("[data-sightings-lists]");
  const emptyBox = document.querySelector("[data-sightings-empty]");
  const exportButton = document.querySelector("[data-sightings-export]");
  const locationText = document.querySelector("[data-sighting-location]");
  const locateButton = document.querySelector("[data-sighting-locate]");
  const unlocateButton = document.querySelector("[data-sighting-unlocate]");
  const checklistCount = document.querySelector("[data-checklist-count]");
  const outingNames = document.querySelector("[data-outing-names]");
  const dateFormat = new Intl.DateTimeFormat(info.lang, { dateStyle: "medium" });
  let position = null;

  const formatDate = (date) => {
    const [y, m, d] = date.split("-").map(Number);
    return dateFormat.format(new Date(y, m - 1, d));
  };
  const describe = (id) => ({
    name: names.get(id)?.name ?? id,
    scientific: rows.get(id)?.dataset.scientific || null,
  });

  // Date and time are those of saving (on a two-hour walk every sighting was logged at the time
  // the page was opened) until the learner sets a date or time, which then stay.
  let shown = "";
  let timeSet = false;
  const when = () => form.elements.namedItem("date").value + " " + form.elements.namedItem("time").value;
  const resetTime = () => {
    const now = new Date();
    form.elements.namedItem("date").value = localDateKey(now);
    form.elements.namedItem("date").max = localDateKey(now);
    form.elements.namedItem("time").value = `${String(now.getHours()).padStart(2, "0")}:${String(now.getMinutes()).padStart(2, "0")}`;
    shown = when();
  };

  const showPosition = () => {
    if (position) {
      const coords = `${position.lat.toFixed(5)}, ${position.lon.toFixed(5)}`;
      locationText.textContent = tr("sightings.located", { coords, accuracy: Math.round(position.accuracy ?? 0) });
    } else {
      locationText.textContent = tr("sightings.locateHint");
    }
    unlocateButton.hidden = !position;
  };

  locateButton.addEventListener("click", () => {
    if (!("geolocation" in navigator)) {
      locationText.textContent = tr("sightings.locateUnsupported");
      return;
    }
    locationText.textContent = tr("sightings.locating");
    locateButton.disabled = true;
    navigator.geolocation.getCurrentPosition(
      (p) => {
        locateButton.disabled = false;
        position = { lat: p.coords.latitude, lon: p.coords.longitude, accuracy: p.coords.accuracy };
        showPosition();
      },
      (error) => {
        locateButton.disabled = false;
        const key = error.code === 1 ? "sightings.locateDenied" : error.code === 3 ? "sightings.locateTimeout" : "sightings.locateFailed";
        locationText.textContent = tr(key);
      },
      { enableHighAccuracy: true, timeout: 20000, maximumAge: 60000 },
    );
  });
  unlocateButton.addEventListener("click", () => {
    position = null;
    showPosition();
    locateButton.focus();
  });

  const showErrors = (problems) => {
    for (const el of form.querySelectorAll("[data-error-for]")) {
      const problem = problems.find((p) => p.field === el.dataset.errorFor);
      el.hidden = !problem;
      el.textContent = problem ? tr(`sightings.error.${problem.key}`) : "";
      const control = form.elements.namedItem(el.dataset.errorFor);
      if (control && "setAttribute" in control) {
        if (problem) control.setAttribute("aria-invalid", "true");
        else control.removeAttribute("aria-invalid");
      }
    }
    const first = problems[0] && form.elements.namedItem(problems[0].field);
    if (first && "focus" in first) first.focus();
  };

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    timeSet ||= when() !== shown;
    if (!timeSet) resetTime();
    const data = new FormData(form);
    const input = {
      animal: String(data.get("animal") || ""),
      kind: String(data.get("kind") || ""),
      date: String(data.get("date") || ""),
      time: String(data.get("time") || ""),
      place: String(data.get("place") || ""),
      note: String(data.get("note") || ""),
      outing: String(data.get("outing") || ""),
      lat: position?.lat,
      lon: position?.lon,
      accuracy: position?.accuracy,
    };
    const problems = checkInput(input, new Set(names.keys()), localDateKey(new Date()));
    showErrors(problems);
    if (problems.length) {
      status.textContent = tr("sightings.fixErrors");
      return;
    }
    const now = Date.now();
    let entry = null;
    const { state, saved } = store.update((s) => {
      const result = addSighting(s.sightings, input, { id: newId("s"), outingId: newId("o"), now });
      entry = result.entry;
      return { ...s, sightings: result.sightings };
    });
    if (!saved) {
      siteNotice("saveFailed");
      status.textContent = tr("sightings.notSaved");
      return;
    }
    render(state);
    const name = describe(entry.animal).name;
    const key = browserBackend().isMemory ? "sightings.savedForNow" : "sightings.saved";
    status.textContent = tr(key, { name, kind: tr(`sightings.kindInline.${entry.kind}`), date: formatDate(entry.date) });
    // Keep date, place, outing and position for the next sighting of the same outing.
    if (!timeSet) resetTime();
    select.value = "";
    form.elements.namedItem("note").value = "";
    select.focus();
  });

  const render = (state) => {
    const { sightings } = state;
    const entries = sightings.entries;
    emptyBox.hidden = entries.length > 0;
    exportButton.disabled = entries.length === 0;
    fill(outingNames, sightings.outings.map((o) => h("option", { value: o.name })));
    fill(listsBox, lists(sightings).map((list) => listView(list)));
    const marks = checklist(entries);
    let logged = 0;
    for (const [id, row] of rows) {
      const mark = marks.get(id);
      if (mark) logged++;
      // Only the rows whose marks changed: 10,000 rows' cells looked up on every save.
      const key = mark ? `${mark.seen}|${mark.heard}|${mark.count}|${mark.first}` : "";
      if ((row.dataset.mark ?? "") === key) continue;
      row.dataset.mark = key;
      row.dataset.logged = mark ? "true" : "false";
      cell(row, "seen", mark?.seen);
      cell(row, "heard", mark?.heard);
      row.querySelector('[data-col="count"]').textContent = String(mark?.count ?? 0);
      row.querySelector('[data-col="first"]').textContent = mark ? formatDate(mark.first) : "";
    }
    checklistCount.textContent = tr("sightings.checklistCount", { count: logged, total: rows.size });
    filterChecklist();
  };

  const cell = (row, col, on) => {
    const td = row.querySelector(`[data-col="${col}"]`);
    const want = on ? "yes" : "no";
    if (td.dataset.value === want) return;
    td.dataset.value = want;
    fill(td, on ? [h("span", { "aria-hidden": "true", text: "✓" }), h("span", { class: "visually-hidden", text: tr("sightings.yes") })] : []);
  };

  // The next page of rows: the ones it added.
  const updateMoreRows = showMore(document.querySelector("[data-checklist-more-wrap]"), document.querySelector("[data-checklist-show-more]"), tr, () => {
    const before = shownRows.length;
    rowLimit = before + pageSize;
    filterChecklist();
    return shownRows.slice(before);
  });

  /** The rows the filter lets through, up to the page limit, in the table. */
  const filterChecklist = () => {
    if (!checklistBody) return;
    const show = document.querySelector("[data-checklist-show]:checked")?.value || "all";
    const passing = rowList.filter((row) => !((show === "logged" && row.dataset.logged !== "true") || (show === "missing" && row.dataset.logged === "true")));
    const next = passing.slice(0, rowLimit);
    showOnly(checklistBody, shownRows, next);
    shownRows = next;
    updateMoreRows(passing.length - next.length);
  };
  for (const radio of document.querySelectorAll("[data-checklist-show]")) {
    radio.addEventListener("change", () => {
      rowLimit = pageSize;
      filterChecklist();
    });
  }

  const listView = (list) => {
    const title = list.outing ? list.outing.name : tr("sightings.noOuting");
    const dates = list.first === list.last ? formatDate(list.first) : `${formatDate(list.first)} – ${formatDate(list.last)}`;
    return h(
      "section",
      { class: "sighting-list", dataset: { outing: list.outing ? list.outing.id : "" } },
      h("h3", { text: title }),
      h("p", { class: "hint", text: `${dates} · ${tr("sightings.listMeta", { count: list.entries.length, species: list.species })}` }),
      h("ul", { class: "sightings" }, list.entries.map((e) => entryView(e))),
    );
  };

  const entryView = (e) => {
    const animal = names.get(e.animal);
    const href = `${info.langRoot}animals/${encodeURIComponent(e.animal)}/`;
    const when = e.time ? `${formatDate(e.date)}, ${e.time}` : formatDate(e.date);
    const details = [tr(KIND_KEYS[e.kind]), when];
    if (e.place) details.push(e.place);
    return h(
      "li",
      { class: "sighting", dataset: { sightingId: e.id, animal: e.animal } },
      h(
        "p",
        { class: "sighting-head" },
        h("a", { href, lang: animal && animal.lang !== info.lang ? animal.lang : null, text: animal?.name ?? e.animal }),
        " ",
        h("span", { class: "sighting-details", text: details.join(" · ") }),
      ),
      e.lat !== null
        ? h("p", { class: "hint", text: tr("sightings.position", { coords: `${e.lat.toFixed(5)}, ${e.lon.toFixed(5)}`, accuracy: e.accuracy ?? 0 }) })
        : null,
      e.note ? h("p", { class: "sighting-note", text: e.note }) : null,
      h(
        "button",
        {
          type: "button",
          class: "button button-small",
          dataset: { sightingDelete: e.id },
          "aria-label": tr("sightings.deleteLabel", { name: animal?.name ?? e.animal, date: when }),
          on: { click: () => remove(e, animal?.name ?? e.animal, when) },
        },
        tr("sightings.delete"),
      ),
    );
  };

  const remove = async (e, name, when) => {
    const confirmed = await ask({
      message: tr("sightings.deleteAsk", { name, date: when }),
      confirm: tr("sightings.delete"),
      cancel: tr("settings.cancel"),
    });
    if (!confirmed) return;
    const { state } = store.update((s) => ({ ...s, sightings: removeSighting(s.sightings, e.id) }));
    render(state);
    status.textContent = tr("sightings.deleted", { name });
    document.getElementById("lists-title")?.focus?.();
  };

  exportButton.addEventListener("click", () => {
    const state = store.load().state;
    const csv = sightingsCSV(state.sightings, describe);
    // A byte-order mark, so that spreadsheet programs read the file as UTF-8.
    download(`sightings-${info.siteId}-${localDateKey()}.csv`, ["\uFEFF", csv], "text/csv;charset=utf-8");
    status.textContent = tr("sightings.exported", { count: state.sightings.entries.length });
  });

  window.addEventListener("storage", () => render(store.load().state));

  resetTime();
  const wanted = new URLSearchParams(location.search).get("animal");
  if (wanted && names.has(wanted)) select.value = wanted;
  showPosition();
  render(store.load().state);
}

function newId(prefix) {
  const random = globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  return `${prefix}-${random}`;
}
