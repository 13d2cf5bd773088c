"""Every page is valid HTML (the Nu checker, over every file both sites build and over the DOM
the web app builds) and free of serious or critical axe-core violations on every kind of page,
320 px wide and on a desktop, in light and dark."""
import json
import os
import re
import shutil

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import DESKTOP, PHONE, REPO, emulate_color_scheme, load, new_driver, phone_width, sideways_overflow, start_serve, stop_process, wait_until
from helpers import QUESTION, low_contrast_controls, nu_check, play_round, serious_axe_violations

KINDS = {
    "home": "",
    "quiz": "quiz/?mode=sound",
    "collection": "collection/",
    "animal": "animals/horse/",
    "animal without media": "animals/giraffe/",
    "sightings": "sightings/",
    "settings": "settings/",
    "credits": "credits/",
    "page": "about/",
    "offline": "offline/",
    "404": "no/such/page/",
    "english home": "en/",
    "english animal": "en/animals/owl/",
}


def open_kind(driver, url, kind):
    """Loads a page of one of KINDS and waits for what its script adds (the quiz's first question,
    the home page's animal of the day)."""
    load(driver, url)
    if kind == "quiz":
        wait_until(driver, f"return document.querySelector(\"{QUESTION}\")")
    if kind == "home":
        wait_until(driver, "return document.querySelector('[data-today-animal]')")


def html_files(folder):
    for dirpath, _, names in os.walk(folder):
        for name in names:
            if name.endswith(".html"):
                yield os.path.join(dirpath, name)


def test_every_built_page_is_valid_html(site, tux):
    files = sorted([*html_files(site.output), *html_files(tux.output)])
    assert len(files) > 200, len(files)
    errors = nu_check(files)
    assert errors == [], "\n".join(errors)


def log_a_sighting(driver, site):
    load(driver, site + "sightings/?animal=owl")
    driver.find_element(By.CSS_SELECTOR, "[data-sighting-submit]").click()
    wait_until(driver, "return document.querySelectorAll('[data-sightings-lists] [data-sighting-id]').length === 1")


def test_the_dom_the_web_app_builds_is_valid_html(site, tmp_path):
    """The Nu checker over what the scripts make of the pages: the quiz in each state, the
    sightings log with an entry, the collection with badges, the first-visit tour."""
    driver = new_driver()
    snapshots = []

    def snapshot(name):
        path = tmp_path / f"{name}.html"
        path.write_text("<!DOCTYPE html>\n" + driver.execute_script("return document.documentElement.outerHTML"), encoding="utf-8")
        snapshots.append(str(path))

    try:
        load(driver, site)
        wait_until(driver, "return document.querySelector('[data-today-animal]')")
        snapshot("home-with-tour")
        load(driver, site + "quiz/?mode=sound")
        wait_until(driver, f"return document.querySelector(\"{QUESTION}\")")
        snapshot("quiz-question")
        driver.find_element(By.CSS_SELECTOR, "button[data-choice]").click()
        snapshot("quiz-answered")
        play_round(driver, site + "quiz/?mode=daily", site.catalog(), check_media=False)
        snapshot("quiz-finished")
        log_a_sighting(driver, site)
        snapshot("sightings")
        load(driver, site + "animals/owl/")
        driver.find_element(By.CSS_SELECTOR, "[data-favorite]").click()
        load(driver, site + "collection/?show=favorites")
        snapshot("collection")
        load(driver, site + "settings/")
        snapshot("settings")
    finally:
        driver.quit()
    errors = nu_check(snapshots)
    assert errors == [], "\n".join(errors)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["320px", "desktop"])
def test_no_serious_axe_violations_on_any_kind_of_page(site, size, scheme):
    driver = new_driver(size=size)
    found = {}
    try:
        emulate_color_scheme(driver, scheme)
        log_a_sighting(driver, site)
        for kind, path in KINDS.items():
            open_kind(driver, site + path, kind)
            violations = serious_axe_violations(driver)
            if violations:
                found[kind] = violations
            faint = low_contrast_controls(driver)
            if faint:
                found.setdefault(kind, []).extend(faint)
            if size == PHONE and phone_width(driver) != 320:
                found.setdefault(kind, []).append(f"the window is {phone_width(driver)} CSS px wide, not 320")
            wide = sideways_overflow(driver)
            if wide > 0:
                found.setdefault(kind, []).append(f"the page is {wide}px wider than the window")
        # The tour shown on a first visit, and the page after it is skipped.
        assert driver.find_elements(By.CSS_SELECTOR, "[data-onboarding]")
    finally:
        driver.quit()
    assert found == {}, json.dumps(found, indent=1)


def test_dark_theme_chosen_in_settings_passes_axe(site, browser):
    load(browser, site + "en/settings/")
    browser.find_element(By.CSS_SELECTOR, "input[name=theme][value=dark]").click()
    found = {}
    for kind, path in {"settings": "en/settings/", "collection": "en/collection/", "animal": "en/animals/horse/", "quiz": "en/quiz/?mode=image"}.items():
        load(browser, site + path)
        if kind == "quiz":
            wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
        assert browser.execute_script("return document.documentElement.dataset.theme") == "dark"
        violations = serious_axe_violations(browser)
        if violations:
            found[kind] = violations
    assert found == {}, json.dumps(found, indent=1)


def test_very_long_names_wrap_instead_of_widening_the_page(tmp_path):
    """Names without spaces (a 400-letter compound, a pasted URL) wrap on every page that shows
    one, at phone width, instead of making the page scroll sideways."""
    root = tmp_path / "site"
    shutil.copytree(os.path.join(REPO, "content"), root / "content")
    for record in (root / "content" / "animals").glob("*.md"):
        text = record.read_text(encoding="utf-8")
        text = re.sub(r"^name: \{de: ([^,]+), en: ([^}]+)\}$",
                      lambda m: f"name: {{de: {m.group(1).replace(' ', '')}{'x' * 300}, en: {m.group(2).replace(' ', '')}{'y' * 300}}}",
                      text, count=1, flags=re.M)
        record.write_text(text, encoding="utf-8")
    proc, url = start_serve(str(root), str(tmp_path / "output"))
    driver = new_driver(size=PHONE)
    found = {}
    try:
        for kind, path in KINDS.items():
            open_kind(driver, url + path, kind)
            if "x" * 300 not in driver.find_element(By.TAG_NAME, "body").get_attribute("textContent") and kind in ("animal", "collection", "home"):
                found.setdefault(kind, []).append("no long name on the page")
            wide = sideways_overflow(driver)
            if wide > 0:
                found.setdefault(kind, []).append(f"the page is {wide}px wider than the window")
            if kind == "quiz":
                # Answered: the feedback names the animal.
                driver.find_element(By.CSS_SELECTOR, ".quiz-choice").click()
                wait_until(driver, "return document.querySelector(\"[data-quiz][data-state='answered']\")")
                wide = sideways_overflow(driver)
                if wide > 0:
                    found.setdefault("quiz answered", []).append(f"the page is {wide}px wider than the window")
    finally:
        driver.quit()
        stop_process(proc)
    assert found == {}, json.dumps(found, indent=1)
