// Shared by the pages that show a long list a page at a time (the collection's
// cards, the sightings checklist's rows).

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
