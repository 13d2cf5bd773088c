"""Every kind of page of the example site loads in Chromium without errors, with its pictures
and sounds, in both languages; the favourite toggle survives a reload."""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import severe_console_errors

PAGES = [
    "", "quiz/", "collection/", "credits/", "about/", "animals/horse/", "animals/giraffe/",
    "en/", "en/quiz/", "en/collection/", "en/animals/horse/", "en/how-to-play/",
]


@pytest.mark.parametrize("path", PAGES)
def test_page_loads_without_errors(site, browser, path):
    browser.get(site + path)
    WebDriverWait(browser, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
    assert browser.find_element(By.TAG_NAME, "h1").text.strip() != "" or path.endswith("quiz/")
    broken = browser.execute_script(
        "return [...document.images].filter(i => i.loading !== 'lazy' && !(i.complete && i.naturalWidth > 0)).map(i => i.src)")
    assert broken == []
    assert severe_console_errors(browser) == []


def test_animal_page_shows_picture_sound_and_credits(site, browser):
    browser.get(site + "animals/horse/")
    img = browser.find_element(By.CSS_SELECTOR, ".animal-picture img")
    assert browser.execute_script("return arguments[0].naturalWidth", img) > 0
    assert "Seth Zeigler" in browser.find_element(By.CSS_SELECTOR, ".animal-picture figcaption").text
    duration = browser.execute_script("""
        const a = document.querySelector('audio');
        return new Promise(done => {
          if (a.readyState >= 1) return done(a.duration);
          a.addEventListener('loadedmetadata', () => done(a.duration));
          a.addEventListener('error', () => done(-1));
          a.load();
        });""")
    assert duration > 0
    assert "Bruno Coudoin" in browser.find_element(By.CSS_SELECTOR, ".animal-sound figcaption").text


def test_favorite_survives_reload(site, browser):
    browser.get(site + "en/animals/cat/")
    button = browser.find_element(By.CSS_SELECTOR, "[data-favorite]")
    assert button.get_attribute("aria-pressed") == "false"
    button.click()
    assert button.get_attribute("aria-pressed") == "true"
    browser.refresh()
    assert browser.find_element(By.CSS_SELECTOR, "[data-favorite]").get_attribute("aria-pressed") == "true"
    browser.get(site + "en/collection/")
    browser.find_element(By.CSS_SELECTOR, "input[name=show][value=favorites]").click()
    visible = browser.execute_script(
        "return [...document.querySelectorAll('[data-collection-list] [data-id]')].filter(c => !c.hidden).map(c => c.dataset.id)")
    assert visible == ["cat"]


def test_unknown_path_gets_the_404_page(site, browser):
    browser.get(site + "no/such/page/")
    assert "404" in browser.title or "nicht gefunden" in browser.find_element(By.TAG_NAME, "h1").text
