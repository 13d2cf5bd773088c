// The credits of a big catalogue come a page of rows at a time, as the
// collection's cards do: the build puts the first page in the table and the
// rest in an inert <template> (Chromium took 12 s to lay out 10,000 live rows),
// and "Show more" adds the next page. Every animal's page credits its own
// picture, sound and text too.
import { pageInfo, pageTranslator } from "./page.js";

const table = /** @type {HTMLTableElement|null} */ (document.querySelector("[data-credits]"));
const later = /** @type {HTMLTemplateElement|null} */ (document.querySelector("[data-credits-more]"));
const wrap = document.querySelector("[data-credits-more-wrap]");
const button = document.querySelector("[data-credits-show-more]");

if (table && later && wrap && button) {
  const tr = pageTranslator(pageInfo());
  const body = table.tBodies[0];
  const waiting = [...later.content.querySelectorAll("tr")];
  const pageSize = Number(table.dataset.pageSize) > 0 ? Number(table.dataset.pageSize) : waiting.length;
  const update = () => {
    wrap.hidden = waiting.length === 0;
    button.textContent = tr("collection.more", { count: waiting.length });
  };
  // The next page of rows; focus goes to the first of them, where reading goes on.
  button.addEventListener("click", () => {
    const next = waiting.splice(0, pageSize);
    body.append(...next);
    update();
    next[0]?.querySelector("a")?.focus();
  });
  update();
}
