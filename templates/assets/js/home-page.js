// The home page: the animal of the day (the same for everyone that day).
import { loadCatalog, pageInfo } from "./page.js";
import { animalOfTheDay, localDateKey } from "./daily.js";
import { animalName, languageChain } from "./catalog.js";
import { h, fill } from "./dom.js";

const info = pageInfo();
const card = document.querySelector("[data-animal-of-the-day-card]");

if (card) {
  loadCatalog(info).then((catalog) => {
    if (!catalog || !catalog.animals.length) return;
    const animal = animalOfTheDay(catalog, localDateKey());
    if (!animal) return;
    const chain = languageChain(info.lang, catalog.languages);
    const link = h("a", { href: info.langRoot + animal.page, class: "today-link" });
    if (animal.image) {
      link.append(h("img", { src: info.root + animal.image.src, alt: "", loading: "lazy", style: `object-position: ${animal.image.focus || "50% 50%"}` }));
    }
    link.append(h("span", { class: "today-name", text: animalName(animal, chain) }));
    fill(card, link);
  });
}
