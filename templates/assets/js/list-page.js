// Shared by the pages that show a long list a page at a time (the collection's
// cards, the sightings checklist's rows, the credits' rows): the build puts the
// first page in the list and the rest in an inert <template>.

/**
 * How many items a list shows at first (its `data-page-size`); every one for a theme's list
 * without it (markup from before lists came a page at a time).
 * @param {Element | null | undefined} list
 */
export function listPageSize(list) {
  const size = Number(list?.dataset.pageSize);
  return size > 0 ? size : Infinity;
}

/**
 * A list's "Show more" button: a press calls `more()`, which shows the next page and returns
 * the items it added, and the focus goes to the first of them, where reading goes on. Returns
 * `update(left)`, which says how many are not shown yet (the button hidden when none are).
 * @param {Element | null} wrap what hides the button
 * @param {HTMLElement | null} button
 * @param {(key: string, params?: object) => string} tr
 * @param {() => readonly Element[]} more
 */
export function showMore(wrap, button, tr, more) {
  button?.addEventListener("click", () => more()[0]?.querySelector("a")?.focus());
  return (left) => {
    if (!wrap || !button) return;
    wrap.hidden = left <= 0;
    button.textContent = tr("collection.more", { count: left });
  };
}

/**
 * Puts `next` (elements, in order) in `box` instead of `current`, moving as little as it can:
 * "Show more" appends the new page to the one shown; any other change puts the list back in
 * order. Focus stays on an element that is still shown (moving a node takes the focus off it).
 * @param {Element} box
 * @param {readonly Element[]} current what `box` holds
 * @param {readonly Element[]} next
 */
export function showOnly(box, current, next) {
  const same = (n) => current.slice(0, n).every((el, i) => el === next[i]);
  if (next.length === current.length && same(next.length)) return;
  const focused = box.contains(document.activeElement) ? document.activeElement : null;
  if (current.length < next.length && same(current.length)) box.append(...next.slice(current.length));
  else box.replaceChildren(...next);
  if (focused?.isConnected && document.activeElement !== focused) focused.focus({ preventScroll: true });
}
