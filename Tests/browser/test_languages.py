"""A site in the default theme's Spanish and Arabic: every kind of page and the quiz the web app
builds speak the language (no English text left on them), Arabic runs right to left, the pages
are valid HTML and have no serious or critical axe-core violation."""
import json
import os
import re
import shutil

import pytest

from conftest import REPO, load, serve_site, wait_until
from helpers import QUESTION, nu_check, play_round, serious_axe_violations

LANGUAGES = {"es": "ltr", "ar": "rtl"}
PAGES = ["", "quiz/?mode=image", "collection/", "animals/robin/", "sightings/", "settings/", "credits/", "offline/"]


def table(lang):
    with open(os.path.join(REPO, "templates", "i18n", f"{lang}.json"), encoding="utf-8") as f:
        return json.load(f)


ENGLISH = table("en")


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """The minimal fixture with the default theme, in German, English, Spanish and Arabic."""
    root = tmp_path_factory.mktemp("languages") / "site"
    shutil.copytree(os.path.join(REPO, "Tests", "Fixtures", "sites", "minimal"), root)
    shutil.rmtree(root / "templates")
    config = root / "content" / "site.yml"
    text = config.read_text(encoding="utf-8")
    assert "languages: [de, en]" in text and "title: { de: Minimal, en: Minimal }" in text
    text = text.replace("languages: [de, en]", "languages: [de, en, es, ar]")
    text = text.replace("title: { de: Minimal, en: Minimal }", "title: { de: Minimal, en: Minimal, es: Mínimo, ar: مصغر }")
    config.write_text(text, encoding="utf-8")
    served, workdir = serve_site(str(root), "bestiary-languages-")
    yield served
    served.stop()
    shutil.rmtree(workdir, ignore_errors=True)


def english_left(browser, lang):
    """The default theme's English texts (a few words or more, not the language's own) that the
    page shows: what a missing or untranslated text looks like."""
    shown = browser.execute_script("return document.body.innerText")
    own = table(lang)
    left = []
    for key, english in ENGLISH.items():
        plain = english.split("{")[0].strip()
        if len(plain) < 12 or " " not in plain or own.get(key) == english:
            continue
        if plain in shown:
            left.append(f"{key}: {plain}")
    return left


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_kind_of_page_speaks_the_language(world, browser, lang):
    own = table(lang)
    for page in PAGES:
        load(browser, f"{world}{lang}/{page}")
        if page.startswith("quiz"):
            wait_until(browser, f"return document.querySelector(\"{QUESTION}\")", message="the first question")
        root = browser.execute_script("return [document.documentElement.lang, document.documentElement.dir]")
        assert root == [lang, LANGUAGES[lang]], page
        nav = browser.execute_script("return [...document.querySelectorAll('nav a')].map(a => a.textContent.trim())")
        assert own["nav.collection"] in nav and own["nav.settings"] in nav, (page, nav)
        assert english_left(browser, lang) == [], page
        assert serious_axe_violations(browser) == [], page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_quiz_round_in_the_language(world, browser, lang):
    played = play_round(browser, f"{world}{lang}/quiz/?mode=image", world.catalog(), right=lambda i: i == 0)
    assert played["right"] == 1
    summary = browser.execute_script("return document.querySelector('.quiz-summary-title').textContent")
    assert summary and summary not in ENGLISH.values(), summary
    assert english_left(browser, lang) == []
    if lang == "ar":
        assert re.search(r"[\u0600-\u06ff]", summary), summary


def test_the_pages_in_both_languages_are_valid_html(world):
    files = [os.path.join(folder, name)
             for lang in LANGUAGES
             for folder, _, names in os.walk(os.path.join(world.output, lang))
             for name in names if name.endswith(".html")]
    assert len(files) >= 2 * 8, files
    errors = nu_check(files)
    assert errors == [], "\n".join(errors)


def test_a_body_in_the_other_direction_sits_at_its_own_side(world, browser):
    """The robin's body is German, shown on the Arabic page: left to right, at the column's left
    edge, not at its right edge with its lines ending mid-column (a teacher's trial)."""
    browser.set_window_size(1280, 900)
    load(browser, f"{world}ar/animals/robin/")
    text, column = browser.execute_script("""
        const text = document.querySelector('.animal-text');
        const r = text.getBoundingClientRect(), c = text.parentElement.getBoundingClientRect();
        return [[text.getAttribute('dir'), r.left, r.right], [c.left, c.right]];""")
    assert text[0] == "ltr"
    assert column[1] - column[0] > text[2] - text[1] + 100, (text, column)
    assert abs(text[1] - column[0]) < 2, (text, column)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_skip_link_shows_where_the_line_starts(world, browser, lang):
    """The first Tab shows "skip to content" at the start of a line: top left, or top right when the
    page runs right to left."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    load(browser, f"{world}{lang}/collection/")
    ActionChains(browser).send_keys(Keys.TAB).perform()
    wait_until(browser, "return document.activeElement && document.activeElement.classList.contains('skip-link')",
               message="the skip link focused")
    box = browser.execute_script(
        "const r = document.activeElement.getBoundingClientRect(); return [r.left, r.right, r.top, document.documentElement.clientWidth]")
    left, right, top, width = box
    assert top >= 0, box
    if LANGUAGES[lang] == "rtl":
        assert width - right < 24, box
    else:
        assert left < 24, box
