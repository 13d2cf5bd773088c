// The credits of a big catalogue come a page of rows at a time, as the
// collection's cards do: the build puts the first page in the table and the
// rest in an inert <template> (Chromium took 12 s to lay out 10,000 live rows),
// and "Show more" adds the next page. Every animal's page credits its own
// picture, sound and text too.
import { pageInfo, pageTranslator } from "./page.js";
import { listPageSize, showMore } from "./list-page.js";

const table = /** @type {HTMLTableElement|null} */ (document.querySelector("[data-credits]"));
const later = /** @type {HTMLTemplateElement|null} */ (document.querySelector("[data-credits-more]"));

if (table && later) {
  const waiting = [...later.content.querySelectorAll("tr")];
  const size = Math.min(listPageSize(table), waiting.length);
  const update = showMore(document.querySelector("[data-credits-more-wrap]"), document.querySelector("[data-credits-show-more]"), pageTranslator(pageInfo()), () => {
    const next = waiting.splice(0, size);
    table.tBodies[0].append(...next);
    update(waiting.length);
    return next;
  });
  update(waiting.length);
}
