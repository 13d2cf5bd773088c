// The first-visit tour: three short steps about what the site offers, shown
// at the top of the page (not as a modal, so nothing is blocked), which can
// be skipped at any time and is not shown again once finished or skipped.
// Its markup and text come from the page (partials/onboarding.html).

/**
 * @param {{onDone: () => void, doc?: Document}} options `onDone` records that it was seen
 * @returns {HTMLElement|null} the tour, or null when the page has none
 */
export function startOnboarding({ onDone, doc = document }) {
  const template = doc.getElementById("bestiary-onboarding");
  const main = doc.querySelector("main");
  if (!template || !main || !("content" in template)) return null;
  const tour = /** @type {HTMLElement} */ (template.content.firstElementChild.cloneNode(true));
  // Used once: the page keeps only the live copy (and its ids stay unique).
  template.remove();
  const steps = [...tour.querySelectorAll("[data-onboarding-step]")];
  const next = tour.querySelector("[data-onboarding-next]");
  const skip = tour.querySelector("[data-onboarding-skip]");
  const progress = tour.querySelector("[data-onboarding-progress]");
  const nextLabel = next.textContent;
  let index = 0;

  const show = () => {
    steps.forEach((step, i) => (step.hidden = i !== index));
    const last = index === steps.length - 1;
    next.textContent = last ? next.dataset.doneText || nextLabel : nextLabel;
    progress.textContent = (progress.dataset.text || "{n} / {total}").replace("{n}", String(index + 1)).replace("{total}", String(steps.length));
    skip.hidden = last;
  };
  const finish = () => {
    onDone();
    tour.remove();
    main.focus({ preventScroll: true });
  };
  next.addEventListener("click", () => {
    if (index === steps.length - 1) return finish();
    index++;
    show();
    next.focus();
  });
  skip.addEventListener("click", finish);
  show();
  const notices = main.querySelector("[data-site-notices]");
  if (notices) notices.after(tour);
  else main.prepend(tour);
  return tour;
}
