"""The two listening preferences from an accessibility review with a blind pupil (screen reader and
keyboard), set where a learner sets them, on the settings page: "Sounds only" keeps pictures out of
the daily challenge and learn mode (half of a day's daily had been pictures, which the pupil could
only guess), and with "Play each recording by itself" off a new question's recording waits for
Play or R instead of starting over the screen reader's reading of the question."""
import json
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from conftest import load, wait_until
from helpers import QUESTION, play_round

STORE = "bestiary:example:learner"


def settings(driver):
    return json.loads(driver.execute_script(f"return localStorage.getItem('{STORE}')"))["settings"]


def set_preference(driver, site, name, on):
    """Sets a checkbox of the settings page as a learner would, and waits until it is saved."""
    load(driver, site + "en/settings/")
    for skip in driver.find_elements(By.CSS_SELECTOR, "[data-onboarding-skip]"):
        skip.click()
    box = driver.find_element(By.CSS_SELECTOR, f"input[type=checkbox][name={name}]")
    # Labelled, with its one-line hint read with it.
    hint = driver.find_element(By.ID, box.get_attribute("aria-describedby"))
    assert box.find_element(By.XPATH, "./ancestor::label").text.strip() and hint.text.strip()
    if box.is_selected() != on:
        box.click()
    wait_until(driver, f"return JSON.parse(localStorage.getItem('{STORE}')).settings.{name} === {json.dumps(on)}",
               message=f"{name} saved as {on}")


def test_sounds_only_asks_the_daily_and_learn_by_sound_alone(site, browser):
    catalog = site.catalog()
    with_sound = {a["id"] for a in catalog["animals"] if a.get("sound")}
    # The example site has fewer animals with a sound than a daily has questions: an everyday
    # daily always asks some by picture.
    assert len(with_sound) < catalog["quiz"]["questions"] < len(catalog["animals"])
    load(browser, site + "en/settings/")
    assert browser.find_element(By.CSS_SELECTOR, "input[name=soundsOnly]").is_selected() is False, "off by default"
    set_preference(browser, site, "soundsOnly", True)

    daily = play_round(browser, f"{site}en/quiz/?mode=daily", catalog, check_media=False)["questions"]
    assert len(daily) == catalog["quiz"]["questions"]
    assert all(q["sound"] and not q["image"] for q in daily), [q["image"] for q in daily if q["image"]]
    assert {q["correct"] for q in daily} == with_sound, "every animal with a sound, before any twice"
    # The shared result says it was the sounds-only daily.
    shared = browser.find_element(By.CSS_SELECTOR, "[data-quiz-share-text]").get_attribute("textContent")
    assert "(sounds only)" in shared, shared

    learn = play_round(browser, f"{site}en/quiz/?mode=learn", catalog, check_media=False)["questions"]
    assert len({q["correct"] for q in learn}) == 5
    assert all(q["sound"] and not q["image"] for q in learn), [q["image"] for q in learn if q["image"]]

    # "See and guess" is still there, opened on purpose.
    load(browser, f"{site}en/quiz/?mode=image")
    wait_until(browser, f"return document.querySelector(\"{QUESTION} [data-quiz-prompt] img\")", message="a picture question")
    assert settings(browser)["soundsOnly"] is True


PLAYS = "window.__plays = 0; document.addEventListener('play', () => window.__plays++, true);"
AUDIO = f"document.querySelector(\"{QUESTION} [data-quiz-prompt] audio\")"


def answer_and_go_on(driver):
    """Answers the open question, then Next: the next question's recording is new."""
    driver.find_element(By.CSS_SELECTOR, "button[data-choice]").click()
    wait_until(driver, "return document.querySelector('[data-quiz]').dataset.state === 'answered'")
    driver.execute_script(PLAYS + "document.querySelector('[data-quiz-prompt] audio').dataset.old = '';")
    driver.find_element(By.CSS_SELECTOR, "button[data-quiz-next]").click()
    wait_until(driver, f"const a = {AUDIO}; return a && !('old' in a.dataset)", message="the next sound question")


def test_a_recording_waits_for_r_when_it_should_not_play_by_itself(site, browser):
    # As it was, and still is by default: the next question's recording starts by itself.
    load(browser, f"{site}en/quiz/?mode=sound")
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    answer_and_go_on(browser)
    wait_until(browser, "return window.__plays >= 1", message="the recording starts by itself")

    load(browser, site + "en/settings/")
    assert browser.find_element(By.CSS_SELECTOR, "input[name=autoplay]").is_selected(), "on by default"
    set_preference(browser, site, "autoplay", False)
    load(browser, f"{site}en/quiz/?mode=sound")
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    answer_and_go_on(browser)
    time.sleep(1.5)
    assert browser.execute_script("return window.__plays") == 0, "nothing started by itself"
    assert browser.execute_script(f"return {AUDIO}.paused")
    # Focus is on the first answer, as after every Next: R starts the recording.
    assert browser.execute_script("return document.activeElement.hasAttribute('data-choice')")
    ActionChains(browser).send_keys("r").perform()
    wait_until(browser, "return window.__plays >= 1", message="R starts it")
    wait_until(browser, f"return !{AUDIO}.paused", message="it plays")
    assert browser.find_element(By.CSS_SELECTOR, "[data-quiz]").get_attribute("data-state") == "question"
