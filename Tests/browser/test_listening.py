"""The two listening preferences from an accessibility review with a blind pupil (screen reader and
keyboard), set where a learner sets them, on the settings page: "Sounds only" keeps pictures out of
the daily challenge and learn mode (half of a day's daily had been pictures, which the pupil could
only guess), and with "Play each recording by itself" off a new question's recording waits for
Play or R instead of starting over the screen reader's reading of the question. From the same
review, "take all the time you need" in learn mode: going through four choices with a screen reader
takes longer than the 10 s after which a right answer was rated Hard and its animal asked again
soon, however well the pupil knew it."""
import json
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from conftest import load, wait_until
from helpers import QUESTION, READ_QUESTION, media_index, play_round

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


def slow_right_answer_in_learn(driver, site, catalog):
    """Answers learn mode's first question right a minute after it was shown (the page's clock moved
    on by a minute, as if a screen reader had read every choice out); returns the animal's card."""
    load(driver, f"{site}en/quiz/?mode=learn")
    wait_until(driver, f"return document.querySelector(\"{QUESTION}\")", message="the first question")
    driver.execute_script("const now = performance.now.bind(performance); performance.now = () => now() + 60000;")
    q = driver.execute_script(READ_QUESTION)
    correct = media_index(catalog)[q["sound"] or q["image"]]
    driver.find_element(By.CSS_SELECTOR, f"button[data-choice='{correct}']").click()
    wait_until(driver, "return document.querySelector('[data-quiz]').dataset.state === 'answered'", message="the answer")
    return json.loads(driver.execute_script(f"return localStorage.getItem('{STORE}')"))["cards"][correct]


def test_at_their_own_pace_a_slow_right_answer_is_not_rated_hard(site, browser):
    catalog = site.catalog()
    load(browser, site + "en/settings/")
    assert browser.find_element(By.CSS_SELECTOR, "input[name=ownPace]").is_selected() is False, "off by default"
    timed = slow_right_answer_in_learn(browser, site, catalog)
    browser.execute_script("localStorage.clear()")
    set_preference(browser, site, "ownPace", True)
    untimed = slow_right_answer_in_learn(browser, site, catalog)
    assert settings(browser)["ownPace"] is True
    # Rated Good, not Hard: an easier card (FSRS's first difficulty falls with the rating), kept
    # longer before it is asked again.
    assert untimed["difficulty"] < timed["difficulty"], (timed, untimed)
    assert untimed["stability"] > timed["stability"], (timed, untimed)


def test_the_quiz_panel_sets_them_too(site, browser):
    """A pupil who opens the quiz first, not the settings page, finds both in the quiz's own panel,
    beside "Sounds only", and a recording waits from the next question on."""
    load(browser, f"{site}en/quiz/?mode=sound")
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    browser.find_element(By.CSS_SELECTOR, ".quiz-settings summary").click()
    boxes = {label.text.strip(): label.find_element(By.TAG_NAME, "input")
             for label in browser.find_elements(By.CSS_SELECTOR, ".quiz-settings label.quiz-check")}
    autoplay, own_pace = boxes["Play each recording by itself"], boxes["In “Learn”, take all the time you need"]
    assert autoplay.is_selected() and not own_pace.is_selected(), "as the settings page has them"
    autoplay.click()
    own_pace.click()
    wait_until(browser, f"const s = JSON.parse(localStorage.getItem('{STORE}')).settings; return s.autoplay === false && s.ownPace === true",
               message="both saved")
    answer_and_go_on(browser)
    time.sleep(1.5)
    assert browser.execute_script("return window.__plays") == 0, "nothing started by itself"
    load(browser, site + "en/settings/")
    assert not browser.find_element(By.CSS_SELECTOR, "input[name=autoplay]").is_selected()
    assert browser.find_element(By.CSS_SELECTOR, "input[name=ownPace]").is_selected()
