"""Tried as a new user would, on a real catalogue of 66 animals (60 with recordings): every animal
page shows its picture, plays its sound and credits both; the collection lists everyone."""
import pytest
from selenium.webdriver.common.by import By

from conftest import load, severe_console_errors, wait_until

PAGE_MEDIA = """
const done = arguments[arguments.length - 1];
const img = document.querySelector('.animal-picture img');
const audio = document.querySelector('.animal-sound audio');
const picture = new Promise(ok => {
  if (!img) return ok(-2);
  if (img.complete) return ok(img.naturalWidth);
  img.addEventListener('load', () => ok(img.naturalWidth), { once: true });
  img.addEventListener('error', () => ok(-1), { once: true });
});
const sound = new Promise(ok => {
  if (!audio) return ok(null);
  if (audio.readyState >= 1) return ok(audio.duration);
  audio.addEventListener('loadedmetadata', () => ok(audio.duration), { once: true });
  audio.addEventListener('error', () => ok(-1), { once: true });
  audio.load();
});
Promise.all([picture, sound]).then(([width, duration]) => done({
  width, duration,
  pictureCredit: (document.querySelector('.animal-picture figcaption') || {}).textContent || '',
  soundCredit: (document.querySelector('.animal-sound figcaption') || {}).textContent || '',
  title: document.querySelector('h1').textContent,
}));
"""


def test_every_animal_page_shows_its_picture_sound_and_credit(tux, browser):
    catalog = tux.catalog()
    animals = catalog["animals"]
    assert len(animals) == 66
    assert sum(1 for a in animals if a["sound"]) == 60
    problems = []
    for animal in animals:
        load(browser, f"{tux}animals/{animal['id']}/")
        seen = browser.execute_async_script(PAGE_MEDIA)
        name = animal["names"]["en"]
        if seen["title"].strip() != name:
            problems.append(f"{animal['id']}: title {seen['title']!r}")
        if seen["width"] <= 0:
            problems.append(f"{animal['id']}: picture did not load ({seen['width']})")
        if "Tux Paint" not in seen["pictureCredit"] or "GPL-2.0-or-later" not in seen["pictureCredit"]:
            problems.append(f"{animal['id']}: picture credit {seen['pictureCredit']!r}")
        if animal["sound"]:
            if not seen["duration"] or seen["duration"] <= 0:
                problems.append(f"{animal['id']}: sound did not load ({seen['duration']})")
            if "Tux Paint" not in seen["soundCredit"] or "GPL-2.0-or-later" not in seen["soundCredit"]:
                problems.append(f"{animal['id']}: sound credit {seen['soundCredit']!r}")
        elif seen["duration"] is not None:
            problems.append(f"{animal['id']}: has no recording but shows a player")
    assert problems == []
    assert severe_console_errors(browser) == []


@pytest.mark.parametrize("lang", ["", "de/"])
def test_the_collection_lists_everyone(tux, browser, lang):
    catalog = tux.catalog()
    load(browser, f"{tux}{lang}collection/")
    cards = browser.execute_script("""
        return [...document.querySelectorAll('[data-collection-list] [data-id]')]
          .map(c => ({ id: c.dataset.id, hidden: c.hidden, name: c.querySelector('.card-name').textContent }))""")
    assert sorted(c["id"] for c in cards) == sorted(a["id"] for a in catalog["animals"])
    assert not any(c["hidden"] for c in cards)
    key = "de" if lang else "en"
    assert sorted(c["name"] for c in cards) == sorted(a["names"][key] for a in catalog["animals"])
    assert "66" in browser.find_element(By.CSS_SELECTOR, "[data-collection-count]").text
    # Lazy thumbnails load as the learner scrolls to the end.
    browser.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    wait_until(browser, "return [...document.querySelectorAll('[data-collection-list] img')].slice(-6).every(i => i.complete && i.naturalWidth > 0)",
               message="the last thumbnails")
