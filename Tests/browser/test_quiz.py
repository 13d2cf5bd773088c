"""The quiz (issue 4) in a real browser, through DESIGN.md §6's hooks: full rounds of every mode
by mouse and by keyboard on both real catalogues, the score shown equal to the right answers,
recordings that really decode and pictures that really load, distinct choices, rounds of
quiz.questions, the daily challenge identical in two separate browsers, and no serious or
critical axe-core violation on the quiz page."""
import datetime
import json
import os
import re
import shutil
import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import (DESKTOP, PHONE, REPO, emulate_color_scheme, fetch_bytes, load, new_driver, phone_width, serve_site, sideways_overflow, start_serve,
                      stop_process, wait_until)
from helpers import QUESTION, READ_QUESTION, media_index, play_round, score_right, serious_axe_violations, visible_text

MODES = ["sound", "image", "daily", "learn"]


def quiz_url(site, mode):
    return f"{site}quiz/?mode={mode}"


@pytest.mark.parametrize("via", ["mouse", "keyboard"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("which", ["site", "tux"])
def test_full_round(request, which, mode, via, browser):
    served = request.getfixturevalue(which)
    catalog = served.catalog()
    result = play_round(browser, quiz_url(served, mode), catalog, via=via)
    questions = result["questions"]
    expected = catalog["quiz"]["questions"]
    if mode in ("sound", "image", "daily"):
        assert len(questions) == expected
    else:
        # Learn, for a new learner: five new animals (learn.js NEW_PER_SESSION), then each one
        # missed is asked once more, at the end, in the same order.
        first = questions[:5]
        assert len({q["correct"] for q in first}) == 5
        missed = [q["correct"] for q in first if q["chosen"] != q["correct"]]
        assert missed, "the plan answers some wrong"
        assert [q["correct"] for q in questions[5:]] == missed
    # The score shown at the end counts exactly the answers that were right, of the questions
    # scored (a learn round's retries are not).
    scored = [q for q in questions if q["scored"]]
    assert len(scored) == (len(questions) if mode != "learn" else 5)
    assert score_right(result["score"]) == result["right"] == sum(q["chosen"] == q["correct"] for q in scored)
    assert result["score"].endswith(f"/ {len(scored)}")
    if mode == "sound":
        assert all(q["sound"] for q in questions)
    if mode == "image":
        assert all(q["image"] for q in questions)
    if mode in ("sound", "image"):
        # No animal twice while others are left.
        targets = [q["correct"] for q in questions]
        pool = sum(1 for a in catalog["animals"] if a.get(mode))
        assert len(set(targets)) == min(len(targets), pool)
    summary = browser.find_element(By.CSS_SELECTOR, "[data-quiz] .quiz-summary, [data-quiz] .quiz-result")
    assert summary.text.strip()
    # The animals missed are named once each, in the order asked, each a link to its page.
    pages = {a["id"]: a.get("page") for a in catalog["animals"]}
    missed = list(dict.fromkeys(q["correct"] for q in scored if q["chosen"] != q["correct"]))
    links = [li.find_element(By.CSS_SELECTOR, "a, strong") for li in browser.find_elements(By.CSS_SELECTOR, "[data-quiz-missed] li")]
    assert len(links) == len(missed), (missed, [a.text for a in links])
    for animal, link in zip(missed, links):
        page = pages[animal]
        assert (link.get_attribute("href") or "").endswith(page) if page else link.tag_name == "strong", (animal, link.get_attribute("href"))


def test_replay_key_plays_the_recording_again(site, browser):
    load(browser, quiz_url(site, "sound"))
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    browser.execute_script("""
        window.__plays = 0;
        window.__rewinds = 0;
        const audio = document.querySelector('[data-quiz-prompt] audio');
        audio.addEventListener('play', () => window.__plays++);
        audio.addEventListener('seeking', () => { if (audio.currentTime === 0) window.__rewinds++; });""")
    ActionChains(browser).send_keys("r").perform()
    wait_until(browser, "return window.__plays >= 1", message="R starts the recording")
    wait_until(browser, "return document.querySelector('[data-quiz-prompt] audio').currentTime > 0.2", message="it plays")
    rewinds = browser.execute_script("return window.__rewinds")
    ActionChains(browser).send_keys("R").perform()
    wait_until(browser, f"return window.__rewinds > {rewinds}", message="R again starts it from the beginning")
    assert not browser.execute_script("return document.querySelector('[data-quiz-prompt] audio').paused")
    assert browser.find_element(By.CSS_SELECTOR, "[data-quiz]").get_attribute("data-state") == "question"


def test_an_arabic_layouts_keys_replay_and_answer(site, browser):
    """An Arabic keyboard types ق where R is and ١ for 1: neither did anything, though the tour
    tells pupils to use them (a teacher's trial). Pressed as the browser reports such keys."""
    load(browser, quiz_url(site, "sound"))
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    browser.execute_script("""
        window.__plays = 0;
        document.querySelector('[data-quiz-prompt] audio').addEventListener('play', () => window.__plays++);""")
    press = """document.body.dispatchEvent(new KeyboardEvent('keydown', {key: arguments[0], code: arguments[1], bubbles: true, cancelable: true}));"""
    browser.execute_script(press, "ق", "KeyR")
    wait_until(browser, "return window.__plays >= 1", message="ق (the R key) starts the recording")
    # Enter pressed at once after a question shows is ignored (it answered unseen): wait that out.
    time.sleep(0.6)
    browser.execute_script(press, "٢", "Digit2")
    wait_until(browser, "return document.querySelector('[data-quiz]').dataset.state === 'answered'", message="٢ answers")
    marks = browser.execute_script(
        "return [...document.querySelectorAll('[data-choice]')].map((b) => b.classList.contains('is-right') ? 'right' : b.classList.contains('is-wrong') ? 'wrong' : '')")
    # The second answer was chosen: it is marked, and no other one is marked as chosen wrongly.
    assert marks[1] in ("right", "wrong"), marks
    assert [m for i, m in enumerate(marks) if i != 1 and m == "wrong"] == [], marks


def test_the_quiz_takes_the_sites_font(site, browser):
    """A font a designer sets on the page's body reaches the quiz: quiz.css sets only the size
    (it set its own font, so a site's font stopped at the quiz)."""
    load(browser, quiz_url(site, "image"))
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    fonts = browser.execute_script("""
        document.body.style.fontFamily = 'Georgia, serif';
        return [getComputedStyle(document.querySelector('[data-quiz-app]')).fontFamily,
                getComputedStyle(document.querySelector('[data-quiz-app]')).fontSize];""")
    assert fonts[0] == "Georgia, serif"
    assert fonts[1] == "16.8px"  # 1.05rem


def daily_questions(driver, url, catalog):
    """Plays today's daily challenge and returns its questions (prompt media and choices, in order)."""
    result = play_round(driver, url, catalog, right=lambda i: i % 2 == 0, check_media=False)
    return [(q["sound"] or q["image"], q["choices"]) for q in result["questions"]]


def test_daily_is_the_same_in_two_separate_browsers(tux, tmp_path):
    """Two browsers with their own profiles, one in English on a desktop, one in German on a phone."""
    catalog = tux.catalog()
    first = new_driver(profile=str(tmp_path / "profile-a"))
    second = new_driver(profile=str(tmp_path / "profile-b"), size=PHONE)
    try:
        a = daily_questions(first, quiz_url(tux, "daily"), catalog)
        b = daily_questions(second, f"{tux}de/quiz/?mode=daily", catalog)
        assert phone_width(second) == 320
    finally:
        first.quit()
        second.quit()
    assert len(a) == catalog["quiz"]["questions"]
    assert a == b


def test_daily_is_one_try_a_day(site, browser):
    result = play_round(browser, quiz_url(site, "daily"), site.catalog(), check_media=False)
    load(browser, quiz_url(site, "daily"))
    wait_until(browser, "return document.querySelector('[data-quiz]').dataset.state === 'finished'", message="today's result again")
    assert score_right(browser.find_element(By.CSS_SELECTOR, "[data-quiz-score]").text) == result["right"]
    plain = browser.find_element(By.CSS_SELECTOR, "[data-quiz-share-plain]").text
    assert str(result["right"]) in plain
    assert browser.find_elements(By.CSS_SELECTOR, "button[data-choice]") == []


def test_a_number_key_brings_an_answer_below_the_screen_into_view_first(site):
    """The welcome above the quiz on a first visit, a low screen: the first answer is below the
    view, and "1" answered a question the learner had not seen. The first press brings the
    question into view; the next one answers."""
    driver = new_driver(size=(1024, 500))
    try:
        load(driver, quiz_url(site, "image"))
        wait_until(driver, f"return document.querySelector(\"{QUESTION}\")")
        assert driver.find_elements(By.CSS_SELECTOR, "[data-onboarding]"), "the welcome is shown"
        below = "return document.querySelector('button[data-choice]').getBoundingClientRect().top >= innerHeight"
        assert driver.execute_script(below), "the first answer starts below the view"
        ActionChains(driver).send_keys("1").perform()
        wait_until(driver, "return document.querySelector('button[data-choice]').getBoundingClientRect().top < innerHeight", message="the question comes into view")
        assert driver.find_element(By.CSS_SELECTOR, "[data-quiz]").get_attribute("data-state") == "question", "not answered unseen"
        # Said, for a screen reader (which heard only the question's number again): what the next
        # press does. The answer's name is said once, by the focus, which the answer the next
        # press gives has (at 400 % the key seemed to do nothing, the message only said); the
        # message named it too, and a screen reader said it twice.
        assert driver.execute_script("return document.activeElement === document.querySelector('button[data-choice]')")
        # The button's text is its key, then the name.
        name = driver.execute_script("return document.querySelector('button[data-choice]').textContent").strip()[1:]
        said = driver.find_element(By.CSS_SELECTOR, "[data-quiz-live]").get_attribute("textContent")
        assert re.fullmatch(r"Frage 1 von \d+\. Drücke noch einmal 1, um diese Antwort zu geben\.", said), said
        assert name and name not in said, (name, said)
        ActionChains(driver).send_keys("1").perform()
        wait_until(driver, "return document.querySelector('[data-quiz]').dataset.state === 'answered'", message="the second press answers")
    finally:
        driver.quit()


MEDIA_SETTLED = """
    if (document.querySelector('[data-quiz-message]') || document.querySelector('[data-quiz]').dataset.state === 'finished') return true;
    const prompt = document.querySelector('[data-quiz-prompt]');
    const img = prompt && prompt.querySelector('img'), audio = prompt && prompt.querySelector('audio');
    return !!((img && img.complete && img.naturalWidth > 0) || (audio && audio.readyState >= 1));"""


def test_a_lost_connection_the_device_does_not_notice_keeps_the_dailys_try(site, browser):
    """The school's Wi-Fi down or the server gone while the device still says it is online: a
    daily question whose picture or recording cannot be loaded stops the daily before it counts,
    and says the try is kept (blind guesses, counted, used up a pupil's one try of the day)."""
    load(browser, quiz_url(site, "daily"))
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/media/*"]})
    answered = 0
    try:
        for _ in range(12):
            wait_until(browser, MEDIA_SETTLED, message="the question's media loaded, or a message")
            if browser.find_elements(By.CSS_SELECTOR, "[data-quiz-message]"):
                break
            assert browser.find_element(By.CSS_SELECTOR, "[data-quiz]").get_attribute("data-state") == "question", "the daily ended"
            browser.find_element(By.CSS_SELECTOR, "button[data-choice]").click()
            answered += 1
            wait_until(browser, "return document.querySelector('button[data-quiz-next]')")
            browser.find_element(By.CSS_SELECTOR, "button[data-quiz-next]").click()
        message = browser.find_element(By.CSS_SELECTOR, "[data-quiz-message]")
        assert message.get_attribute("data-quiz-message") == "daily-offline"
        assert "Dein Versuch für heute bleibt erhalten" in message.text
        assert browser.execute_script("return navigator.onLine") is True
        assert answered < site.catalog()["quiz"]["questions"]
    finally:
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    # With the network back the daily goes on from the question that failed: nothing was counted for it.
    load(browser, quiz_url(site, "daily"))
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")", message="the daily goes on")
    progress = browser.find_element(By.CSS_SELECTOR, ".quiz-progress").text
    assert progress.startswith(f"Frage {answered + 1} von "), progress


SLOW_HEAD = """
// The quiz's second look at a failed picture or recording (a HEAD request) takes 3 s, as on a
// school's Wi-Fi that has just gone: long enough to see what the page says meanwhile.
const realFetch = window.fetch;
window.fetch = (url, options) => options && options.method === "HEAD"
  ? new Promise((resolve, reject) => setTimeout(() => realFetch(url, options).then(resolve, reject), 3000))
  : realFetch(url, options);
"""


def test_the_dailys_answers_wait_with_a_word_while_a_failed_file_is_checked(site, browser):
    """While the daily asks again for a picture or recording that did not load (up to 5 s), its
    answers wait: a tap did nothing, without a word. The page now says that it is checking the
    connection, and the note goes when the check is done."""
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SLOW_HEAD})
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/media/*"]})
    try:
        load(browser, quiz_url(site, "daily"))
        wait_until(browser, "return document.querySelector('[data-quiz-checking]')", message="the check is said")
        note = browser.find_element(By.CSS_SELECTOR, "[data-quiz-checking]")
        assert note.get_attribute("role") == "status"
        assert "Verbindung wird geprüft" in note.text, note.text
        browser.find_element(By.CSS_SELECTOR, "button[data-choice]").click()
        assert browser.find_element(By.CSS_SELECTOR, "[data-quiz]").get_attribute("data-state") == "question", "the answer waited"
        wait_until(browser, "return document.querySelector('[data-quiz-message]')", message="the daily stops before the question counts")
        assert browser.find_element(By.CSS_SELECTOR, "[data-quiz-message]").get_attribute("data-quiz-message") == "daily-offline"
        assert not browser.find_elements(By.CSS_SELECTOR, "[data-quiz-checking]"), "the note goes with the check"
    finally:
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})


STUB_SHARING = """
// No share sheet, and a clipboard that does what the test says (a headless browser's own
// clipboard needs focus and permissions the test cannot count on).
Object.defineProperty(navigator, 'share', { value: undefined, configurable: true });
window.__copied = [];
window.__clipboardWorks = arguments[0];
Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: (text) => {
  window.__copied.push(text);
  return window.__clipboardWorks ? Promise.resolve() : Promise.reject(new DOMException('denied', 'NotAllowedError'));
} } });
"""


def test_sharing_the_daily_result_says_so_visibly(site, browser):
    play_round(browser, f"{site}en/quiz/?mode=daily", site.catalog(), check_media=False)
    status = browser.find_element(By.CSS_SELECTOR, "[data-quiz-share-status]")
    assert status.get_attribute("role") == "status", "a polite live region"
    assert status.text == ""
    browser.execute_script(STUB_SHARING, True)
    browser.find_element(By.CSS_SELECTOR, "button[data-quiz-share]").click()
    wait_until(browser, "return document.querySelector('[data-quiz-share-status]').textContent !== ''", message="a status after the copy")
    assert status.is_displayed() and status.text == "Result copied to the clipboard."
    copied = browser.execute_script("return window.__copied")
    # Named by the site's title in the page's language (a school's quiz was shared as "Bestiary daily").
    assert len(copied) == 1 and copied[0].startswith("Animal voices daily ") and copied[0].endswith("quiz/?mode=daily"), copied
    # The clipboard refuses: the learner is told, visibly, and how to share it anyway.
    browser.execute_script("window.__clipboardWorks = false")
    browser.find_element(By.CSS_SELECTOR, "button[data-quiz-share]").click()
    wait_until(browser, "return window.__copied.length === 2 && document.querySelector('[data-quiz-share-status]').textContent !== ''",
               message="a status after the failed copy")
    assert status.is_displayed() and "Could not copy" in status.text
    # The result is selected for the learner to copy (it was hidden from screen readers, and
    # selecting text by keyboard needs caret browsing: found by a keyboard learner).
    shown = browser.execute_script(
        "const el = document.querySelector('[data-quiz-share-text]');"
        "return {hidden: el.getAttribute('aria-hidden'), focused: document.activeElement === el, selected: String(getSelection())};")
    assert shown["hidden"] is None and shown["focused"]
    # (The copy adds the page's address on a line of its own; the page shows the result.)
    assert shown["selected"].strip() and shown["selected"].strip() == copied[0].split("\n")[0].strip(), (shown, copied[0])
    assert serious_axe_violations(browser) == []


ROUND = "bestiary:example:round"


def answer_current(driver, index, right):
    """Answers the open question right or wrong (by its prompt's media) and returns the animal asked."""
    q = driver.execute_script(READ_QUESTION)
    correct = index[q["sound"] or q["image"]]
    chosen = correct if right else next(c for c in q["choices"] if c != correct)
    driver.find_element(By.CSS_SELECTOR, f"button[data-choice='{chosen}']").click()
    wait_until(driver, "return document.querySelector('[data-quiz]').dataset.state === 'answered'")
    return correct


def position(driver):
    """What the learner sees of the round: question, choices, score and 'Question N of M'."""
    q = driver.execute_script(READ_QUESTION)
    progress = driver.find_element(By.CSS_SELECTOR, ".quiz-progress").text
    return {"state": q["state"], "prompt": q["sound"] or q["image"], "choices": q["choices"], "score": q["score"], "progress": progress}


def test_a_question_whose_picture_fails_can_be_skipped_and_is_not_counted(site, browser):
    """The network went mid-round (found by a learner on a phone): every later picture failed, and
    each blind guess counted. A question whose picture could not be loaded offers to skip it: the
    round goes on one question shorter, and nothing is counted for it."""
    catalog = site.catalog()
    index = media_index(catalog)
    load(browser, quiz_url(site, "image"))
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    answer_current(browser, index, True)
    before = position(browser)["progress"]
    pictures = sorted({a["image"]["src"] for a in catalog["animals"] if a.get("image")} | {k for k in index if not k.endswith((".ogg", ".mp3", ".m4a", ".wav", ".opus"))})
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*" + p for p in pictures]})
    try:
        browser.find_element(By.CSS_SELECTOR, "[data-quiz-next]").click()
        wait_until(browser, "return document.querySelector('[data-quiz-skip]')", message="a way to skip the question whose picture failed")
        # The broken picture is not shown (its icon and alt text in a tall box pushed the answers down).
        assert browser.execute_script("return document.querySelector('[data-quiz-prompt] img').hidden") is True
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        browser.find_element(By.CSS_SELECTOR, "[data-quiz-skip]").click()
        wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
        after = position(browser)
    finally:
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        browser.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
    numbers = lambda text: [int(n) for n in re.findall(r"\d+", text)]
    assert numbers(before)[-1] - 1 == numbers(after["progress"])[-1], (before, after["progress"])
    assert numbers(after["progress"])[0] == 2, after["progress"]
    assert score_right(after["score"]) == 1, after["score"]


def test_the_next_picture_is_fetched_ahead_and_a_slow_one_shows_it_is_coming(site, browser):
    """On 3G each picture question stood blank for seconds (found by a learner on a phone): the
    next question's picture is fetched while this one is answered, and a picture still on its way
    shows a placeholder (data-loading) until it is there."""
    index = media_index(site.catalog())
    pictures = "return [...new Set(performance.getEntriesByType('resource').map(e => new URL(e.name).pathname).filter(p => /[.](webp|jpe?g|png|svg|gif)$/.test(p) && p.includes('/media/')))]"
    # currentSrc is "" until the browser has chosen which source to load (CI once read it then).
    chosen = "return document.querySelector('[data-quiz-prompt] img')?.currentSrc"

    def shown():
        wait_until(browser, chosen, message="the browser chose the picture's source")
        return browser.execute_script("return new URL(document.querySelector('[data-quiz-prompt] img').currentSrc).pathname")

    load(browser, quiz_url(site, "image"))
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    first = shown()
    wait_until(browser, pictures + ".length >= 2", message="the second question's picture fetched ahead")
    ahead = [p for p in browser.execute_script(pictures) if p != first]
    # From here every request waits 4 s (a slow mobile link).
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 4000, "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        # The second picture came ahead: it is there at once, no placeholder.
        answer_current(browser, index, True)
        browser.find_element(By.CSS_SELECTOR, "[data-quiz-next]").click()
        wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
        assert shown() in ahead
        assert browser.execute_script("return document.querySelector('[data-quiz-prompt]').dataset.loading") is None
        # The third, asked for ahead only now over the slow link, is not there yet: a placeholder until it is.
        answer_current(browser, index, True)
        browser.find_element(By.CSS_SELECTOR, "[data-quiz-next]").click()
        wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
        assert browser.execute_script("return document.querySelector('[data-quiz-prompt]').dataset.loading") == ""
        wait_until(browser, "return document.querySelector('[data-quiz-prompt]').dataset.loading === undefined", timeout=20,
                   message="the placeholder goes once the picture is there")
        assert browser.execute_script("return document.querySelector('[data-quiz-prompt] img').naturalWidth") > 0
    finally:
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def test_reload_in_the_middle_of_a_round_goes_on_where_it_was(site, browser):
    catalog = site.catalog()
    index = media_index(catalog)
    total = catalog["quiz"]["questions"]
    url = quiz_url(site, "image")
    load(browser, url)
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    answer_current(browser, index, True)
    browser.find_element(By.CSS_SELECTOR, "button[data-quiz-next]").click()
    answer_current(browser, index, False)
    browser.find_element(By.CSS_SELECTOR, "button[data-quiz-next]").click()
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    before = position(browser)
    assert score_right(before["score"]) == 1 and before["score"].endswith(f"/ {total}")
    answered = json.loads(browser.execute_script("return localStorage.getItem('bestiary:example:learner')"))["stats"]["answered"]

    browser.refresh()
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")", message="the round again")
    assert position(browser) == before, "the third question, the same choices, the score of two answers"
    assert json.loads(browser.execute_script("return localStorage.getItem('bestiary:example:learner')"))["stats"]["answered"] == answered

    # Reloaded after an answer, before "next": the next question, that answer counted.
    answer_current(browser, index, True)
    browser.refresh()
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    now = position(browser)
    assert score_right(now["score"]) == 2
    assert now["progress"] == before["progress"].replace("3", "4", 1), (before["progress"], now["progress"])

    # Played to the end: the summary counts every answer, before and after the reloads.
    right = 2
    while True:
        answer_current(browser, index, True)
        right += 1
        browser.find_element(By.CSS_SELECTOR, "button[data-quiz-next]").click()
        wait_until(browser, "return document.querySelector('[data-quiz]').dataset.state !== 'answered'")
        if browser.find_element(By.CSS_SELECTOR, "[data-quiz]").get_attribute("data-state") == "finished":
            break
    assert browser.find_element(By.CSS_SELECTOR, "[data-quiz-score]").text == f"{right} / {total}"
    # A finished round is not kept: a reload starts a new one.
    browser.refresh()
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    assert position(browser)["score"] == f"0 / {total}"


def test_a_round_goes_on_after_back_but_a_link_starts_a_new_one(site, browser):
    index = media_index(site.catalog())
    url = quiz_url(site, "image")
    load(browser, url)
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    answer_current(browser, index, True)
    browser.find_element(By.CSS_SELECTOR, "button[data-quiz-next]").click()
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    assert score_right(position(browser)["score"]) == 1
    # To the home page and back: the round goes on.
    load(browser, site)
    browser.back()
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")", message="the round after back")
    assert score_right(position(browser)["score"]) == 1
    # By a link, as the home page's mode does: a new round.
    load(browser, url)
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    assert score_right(position(browser)["score"]) == 0


def test_a_kept_round_is_for_its_own_mode_and_damaged_ones_are_ignored(site, browser):
    index = media_index(site.catalog())
    load(browser, quiz_url(site, "image"))
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    answer_current(browser, index, True)
    assert browser.execute_script(f"return sessionStorage.getItem('{ROUND}')")
    # Another mode: a new round of its own.
    load(browser, quiz_url(site, "sound"))
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    assert score_right(position(browser)["score"]) == 0
    assert position(browser)["prompt"].endswith((".ogg", ".mp3", ".opus", ".m4a", ".wav"))
    # Damaged kept rounds: a new round, no error.
    for damaged in ['{"v":1,"key":', '{"v":1,"questions":[{"id":"nobody"}]}', "null", "[]"]:
        browser.execute_script(f"sessionStorage.setItem('{ROUND}', arguments[0])", damaged)
        browser.get_log("browser")
        browser.refresh()
        wait_until(browser, f"return document.querySelector(\"{QUESTION}\")", message=f"a playable quiz after {damaged}")
        assert score_right(position(browser)["score"]) == 0
        assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == [], damaged


def test_filters_refuse_no_group_at_all(site, browser):
    load(browser, quiz_url(site, "image"))
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    prompt = browser.execute_script("return document.querySelector('[data-quiz-prompt] img').getAttribute('src')")
    browser.find_element(By.CSS_SELECTOR, ".quiz-settings summary").click()
    boxes = browser.find_elements(By.CSS_SELECTOR, ".quiz-filters input[name=group]")
    assert len(boxes) > 1
    for box in boxes:
        box.click()
    error = browser.find_element(By.CSS_SELECTOR, "[data-quiz-filters-error]")
    assert not error.is_displayed()
    browser.find_element(By.CSS_SELECTOR, ".quiz-filters button[type=submit]").click()
    assert error.is_displayed() and error.text.strip(), "a visible reason"
    assert error.get_attribute("role") == "alert"
    # Nothing changed: the same question, no new round, no filters saved.
    assert browser.find_element(By.CSS_SELECTOR, "[data-quiz]").get_attribute("data-state") == "question"
    assert browser.execute_script("return document.querySelector('[data-quiz-prompt] img').getAttribute('src')") == prompt
    raw = browser.execute_script("return localStorage.getItem('bestiary:example:learner')")
    assert raw is None or json.loads(raw)["settings"]["groups"] == []
    # One group chosen: the message goes, and Apply starts a round of that group.
    # The mammals (17 of the example's 24): enough for a picture round of 4 choices (the three
    # reptiles, listed first in German since groups follow their labels, are not).
    chosen = next(b for b in boxes if b.get_attribute("value") == "mammal")
    group = chosen.get_attribute("value")
    chosen.click()
    assert not error.is_displayed()
    browser.find_element(By.CSS_SELECTOR, ".quiz-filters button[type=submit]").click()
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    assert json.loads(browser.execute_script("return localStorage.getItem('bestiary:example:learner')"))["settings"]["groups"] == [group]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["320px", "desktop"])
def test_quiz_page_has_no_serious_axe_violations(site, scheme, size):
    driver = new_driver(size=size)
    try:
        emulate_color_scheme(driver, scheme)
        load(driver, quiz_url(site, "sound"))
        wait_until(driver, f"return document.querySelector(\"{QUESTION}\")")
        if size == PHONE:
            assert phone_width(driver) == 320, "the page really is 320 CSS px wide"
        assert sideways_overflow(driver) <= 0, "question"
        assert serious_axe_violations(driver) == [], "question"
        first = driver.find_element(By.CSS_SELECTOR, "button[data-choice]")
        first.click()
        wait_until(driver, "return document.querySelector('[data-quiz]').dataset.state === 'answered'")
        assert serious_axe_violations(driver) == [], "answered"
        assert sideways_overflow(driver) <= 0, "answered"
        # The settings panel opened, with the message for no group chosen.
        driver.find_element(By.CSS_SELECTOR, ".quiz-settings summary").click()
        for box in driver.find_elements(By.CSS_SELECTOR, ".quiz-filters input[name=group]"):
            box.click()
        driver.find_element(By.CSS_SELECTOR, ".quiz-filters button[type=submit]").click()
        assert sideways_overflow(driver) <= 0, "settings open"
        load(driver, quiz_url(site, "image"))
        wait_until(driver, f"return document.querySelector(\"{QUESTION}\")")
        assert serious_axe_violations(driver) == [], "image question"
        # The page is usable at this width: nothing sticks out sideways.
        assert sideways_overflow(driver) <= 0, "image question"
        if size == PHONE:
            assert phone_width(driver) == 320
    finally:
        driver.quit()


def test_finished_round_has_no_serious_axe_violations(site, browser):
    play_round(browser, quiz_url(site, "image"), site.catalog(), check_media=False)
    assert serious_axe_violations(browser) == []


def stored_state(driver):
    return json.loads(driver.execute_script("return localStorage.getItem('bestiary:example:learner')"))


def test_two_tabs_and_the_settings_page_keep_each_others_progress(site, browser):
    """Each answer is saved on top of what other tabs saved meanwhile, not over it: the quiz page
    used to write back its own copy from when it loaded, undoing a reset and another tab's answers."""
    index = media_index(site.catalog())
    load(browser, quiz_url(site, "sound"))
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    quiz_tab = browser.current_window_handle
    for i in range(3):
        answer_current(browser, index, True)
        browser.find_element(By.CSS_SELECTOR, "button[data-quiz-next]").click()
        wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    assert stored_state(browser)["stats"]["answered"] == 3

    # Another tab: an image round, one answer. Both tabs' answers count.
    browser.switch_to.new_window("tab")
    load(browser, quiz_url(site, "image"))
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    answer_current(browser, index, True)
    assert stored_state(browser)["stats"]["answered"] == 4
    browser.switch_to.window(quiz_tab)
    answer_current(browser, index, False)
    assert stored_state(browser)["stats"]["answered"] == 5, "the other tab's answer is not undone"

    # The settings page resets progress in another tab; the quiz tab's next answer keeps the reset.
    browser.switch_to.new_window("tab")
    load(browser, site + "settings/")
    browser.find_element(By.CSS_SELECTOR, "[data-settings-reset]").click()
    browser.find_element(By.CSS_SELECTOR, "dialog[open] [data-quiz-confirm]").click()
    wait_until(browser, "return JSON.parse(localStorage.getItem('bestiary:example:learner')).stats.answered === 0")
    browser.switch_to.window(quiz_tab)
    browser.find_element(By.CSS_SELECTOR, "button[data-quiz-next]").click()
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    answer_current(browser, index, True)
    stats = stored_state(browser)["stats"]
    assert stats["answered"] == 1, f"the reset stays: {stats['answered']} answers counted"


def in_two_tabs(browser, url):
    """`url` open at its first question in two tabs of `browser`: their window handles."""
    handles = []
    for i in range(2):
        if i:
            browser.switch_to.new_window("tab")
        load(browser, url)
        wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
        handles.append(browser.current_window_handle)
    return handles


def test_the_daily_cannot_be_answered_twice_from_two_tabs(site, browser):
    """One try a day, also with the daily open in two tabs: the second tab's answer to a question
    the first already answered is not recorded; that tab goes on from what was saved."""
    index = media_index(site.catalog())
    first_tab, second_tab = in_two_tabs(browser, quiz_url(site, "daily"))

    browser.switch_to.window(first_tab)
    asked = answer_current(browser, index, False)
    assert stored_state(browser)["daily"]["results"] == [False]

    browser.switch_to.window(second_tab)
    q = browser.execute_script(READ_QUESTION)
    assert index[q["sound"] or q["image"]] == asked, "the second tab still shows the first question"
    browser.find_element(By.CSS_SELECTOR, f"button[data-choice='{asked}']").click()
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")", message="the second tab moves on to the next question")
    assert stored_state(browser)["daily"]["results"] == [False], "the second answer to question 1 is not recorded"
    assert score_right(position(browser)["score"]) == 0
    assert "2" in position(browser)["progress"], position(browser)["progress"]


def test_learn_mode_does_not_count_the_retry_of_a_missed_animal_as_known(site, browser):
    """A missed animal is asked again at the end, right after its name was shown: answered at
    once, it is still learning (never moved to review as Easy), and earns no points. The learner
    is told both: the round grew by one (a learner saw "of 12" become "of 13" unexplained)."""
    with open(os.path.join(REPO, "templates", "i18n", "de.json"), encoding="utf-8") as f:
        strings = json.load(f)  # the example site's first language
    index = media_index(site.catalog())
    load(browser, quiz_url(site, "learn"))
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    total = int(position(browser)["progress"].split()[-1])
    missed = None
    for i in range(5):
        asked = answer_current(browser, index, i != 0)
        # textContent: the feedback fades in, and Selenium's .text is '' while its opacity is 0
        # (CI once read it at that moment).
        note = browser.find_elements(By.CSS_SELECTOR, ".quiz-feedback .quiz-note")
        assert [n.get_attribute("textContent").strip() for n in note] == ([strings["learn.comesBack"]] if i == 0 else []), i
        missed = missed or asked
        browser.find_element(By.CSS_SELECTOR, "button[data-quiz-next]").click()
        wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    while position(browser)["progress"] != strings["learn.retryOf"].format(n=total + 1, total=total + 1):
        assert answer_current(browser, index, True) != missed, "the missed animal comes back last"
        browser.find_element(By.CSS_SELECTOR, "button[data-quiz-next]").click()
        wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    points = stored_state(browser)["stats"]["points"]
    answered = stored_state(browser)["stats"]["answered"]
    assert answer_current(browser, index, True) == missed, "the missed animal comes back last"
    assert browser.find_element(By.CSS_SELECTOR, ".quiz-feedback .quiz-note").get_attribute("textContent").strip() == strings["learn.retryNote"]
    state = stored_state(browser)
    assert state["cards"][missed]["state"] != "review", state["cards"][missed]
    assert (state["stats"]["points"], state["stats"]["answered"]) == (points, answered), "the retry earns nothing"


def test_learn_in_two_tabs_rates_an_animal_once(site, browser):
    """Two tabs plan the same learn session: an animal the first tab rated is not rated again by
    the second (a second right answer moved it from 10 minutes to "known" for 4 days, and counted
    its points twice)."""
    index = media_index(site.catalog())
    first_tab, second_tab = in_two_tabs(browser, quiz_url(site, "learn"))

    browser.switch_to.window(first_tab)
    asked = answer_current(browser, index, True)
    after_first = stored_state(browser)["cards"][asked]
    assert after_first["state"] == "learning", after_first

    browser.switch_to.window(second_tab)
    assert answer_current(browser, index, True) == asked, "the second tab asks the same animal first"
    assert stored_state(browser)["cards"][asked] == after_first, "the second tab's answer rated it again"


def test_holding_enter_answers_once(site, browser):
    """A held Enter key repeats (auto-repeat): only its first press counts. Held on an answer, it
    went on to the next question and answered that one unseen with the button that had focus."""
    load(browser, quiz_url(site, "image"))
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    browser.execute_script("document.querySelector('[data-onboarding-skip]')?.click(); document.querySelector('button[data-choice]').focus()")
    before = position(browser)["progress"]
    # Enter answers a question shown for a moment (not one shown 0.5 s ago: see the next test).
    time.sleep(0.6)

    def key(kind, repeat=False):
        event = {"type": kind, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13, "nativeVirtualKeyCode": 13, "autoRepeat": repeat}
        if kind == "keyDown":
            event["text"] = "\r"
        browser.execute_cdp_cmd("Input.dispatchKeyEvent", event)

    key("keyDown")
    for _ in range(4):
        time.sleep(0.05)
        key("keyDown", repeat=True)
    key("keyUp")
    time.sleep(0.3)
    assert browser.execute_script("return document.querySelector('[data-quiz]').dataset.state") == "answered"
    assert position(browser)["progress"] == before
    assert stored_state(browser)["stats"]["answered"] == 1


def test_enter_pressed_twice_does_not_answer_the_next_question(site, browser):
    """Enter pressed twice quickly on an answered question went on, and the second press answered
    the next question unseen with the focused first choice (found by a learner's three weeks)."""
    load(browser, quiz_url(site, "image"))
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    browser.execute_script("document.querySelector('[data-onboarding-skip]')?.click()")
    browser.find_element(By.CSS_SELECTOR, "button[data-choice]").click()
    wait_until(browser, "return document.querySelector('[data-quiz]').dataset.state === 'answered'")
    browser.execute_script("document.querySelector('button[data-quiz-next]').focus()")
    before = position(browser)["progress"]
    for _ in range(2):
        browser.execute_cdp_cmd("Input.dispatchKeyEvent", {"type": "keyDown", "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13, "text": "\r"})
        browser.execute_cdp_cmd("Input.dispatchKeyEvent", {"type": "keyUp", "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13})
        time.sleep(0.15)
    assert browser.execute_script("return document.querySelector('[data-quiz]').dataset.state") == "question"
    assert position(browser)["progress"] != before
    assert stored_state(browser)["stats"]["answered"] == 1


# Date, shifted by `globalThis.__offset` milliseconds (set before the page's scripts run).
SHIFTED_DATE = """
(() => {
  globalThis.__offset = %d;
  const RealDate = Date;
  globalThis.Date = class extends RealDate {
    constructor(...a) { if (a.length === 0) super(RealDate.now() + globalThis.__offset); else super(...a); }
    static now() { return RealDate.now() + globalThis.__offset; }
  };
})();
"""


def test_a_daily_begun_before_midnight_goes_on_after_it(site):
    """A daily in progress when the clock passes midnight went back to question 1 of the new
    day's at the next click, without a word, and that answer counted for neither day. It goes on,
    and is recorded under the day it began."""
    driver = new_driver()
    try:
        driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "UTC"})
        real = time.time() * 1000
        evening = datetime.datetime(2027, 3, 1, 23, 59, tzinfo=datetime.timezone.utc).timestamp() * 1000
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SHIFTED_DATE % int(evening - real)})
        index = media_index(site.catalog())
        load(driver, quiz_url(site, "daily"))
        wait_until(driver, f"return document.querySelector(\"{QUESTION}\")")
        driver.execute_script("document.querySelector('[data-onboarding-skip]')?.click()")
        for _ in range(2):
            answer_current(driver, index, True)
            driver.find_element(By.CSS_SELECTOR, "button[data-quiz-next]").click()
            wait_until(driver, f"return document.querySelector(\"{QUESTION}\")")
        progress = position(driver)["progress"]
        # Midnight passes with the page open.
        driver.execute_script("globalThis.__offset += 120000")
        answer_current(driver, index, True)
        assert position(driver)["progress"] == progress, "the same question, answered"
        daily = stored_state(driver)["daily"]
        assert (daily["date"], daily["results"]) == ("2027-03-01", [True, True, True]), daily
        # Finished after midnight, its summary said "Today: 0 of 0 answers right" (found by a
        # learner's three weeks): today's numbers are those of the new day.
        while driver.execute_script("return document.querySelector('[data-quiz]').dataset.state") != "finished":
            driver.find_element(By.CSS_SELECTOR, "button[data-quiz-next]").click()
            wait_until(driver, "return ['question', 'finished'].includes(document.querySelector('[data-quiz]').dataset.state)")
            if driver.execute_script("return document.querySelector('[data-quiz]').dataset.state") == "question":
                answer_current(driver, index, True)
        today = stored_state(driver)["stats"]["today"]
        assert today["date"] == "2027-03-02" and today["answered"] == 8, today
        shown = driver.execute_script("return document.querySelector('.quiz-stats dd').textContent")
        assert "8" in shown, shown
    finally:
        driver.quit()


def test_a_daily_played_on_a_later_day_is_done_when_the_clock_goes_back(site):
    """After a later day's daily, a clock set back a day (or a flight west) gave a daily whose
    every answer started the round again, without a word (found by a learner's three weeks): the
    later day's daily stays today's until the clock catches up."""
    driver = new_driver()
    try:
        driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "UTC"})
        real = time.time() * 1000
        day = datetime.datetime(2027, 3, 6, 12, 0, tzinfo=datetime.timezone.utc).timestamp() * 1000
        shifted = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SHIFTED_DATE % int(day - real)})
        index = media_index(site.catalog())
        load(driver, quiz_url(site, "daily"))
        wait_until(driver, f"return document.querySelector(\"{QUESTION}\")")
        driver.execute_script("document.querySelector('[data-onboarding-skip]')?.click()")
        answer_current(driver, index, True)
        # The clock goes back a day, with the daily half played.
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": shifted["identifier"]})
        shifted = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SHIFTED_DATE % int(day - 86400000 - real)})
        load(driver, quiz_url(site, "daily"))
        assert driver.execute_script("return new Date().toISOString()").startswith("2027-03-05")
        wait_until(driver, f"return document.querySelector(\"{QUESTION}\")")
        answer_current(driver, index, False)
        wait_until(driver, "return document.querySelector('[data-quiz]').dataset.state === 'answered'", message="the answer taken")
        daily = stored_state(driver)["daily"]
        assert (daily["date"], daily["results"]) == ("2027-03-06", [True, False]), daily
        # Three days back (a clock once far wrong): that daily is not today's, and today's is played.
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": shifted["identifier"]})
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SHIFTED_DATE % int(day - 3 * 86400000 - real)})
        load(driver, quiz_url(site, "daily"))
        wait_until(driver, f"return document.querySelector(\"{QUESTION}\")")
        answer_current(driver, index, True)
        daily = stored_state(driver)["daily"]
        assert (daily["date"], daily["results"]) == ("2027-03-03", [True]), daily
    finally:
        driver.quit()


def test_a_picture_question_says_it_is_one(site, browser):
    """A screen reader heard only 'Question 3 of 10' and waited for a sound that never came
    (found by a keyboard and screen-reader learner): a picture question says what it asks and
    that a picture is shown; a sound question stays short (the recording starts then)."""
    load(browser, quiz_url(site, "image"))
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    live = browser.execute_script("return document.querySelector('[data-quiz-live]').textContent")
    alt = browser.execute_script("return document.querySelector('[data-quiz-prompt] img').alt")
    assert alt and live == f"Frage 1 von 10: Welches Tier ist das? {alt}", live
    load(browser, quiz_url(site, "sound"))
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    assert browser.execute_script("return document.querySelector('[data-quiz-live]').textContent") == "Frage 1 von 10"


def test_retry_after_a_failed_catalogue_puts_the_focus_on_the_question(site, browser):
    """After 'Try again', focus fell to the page's body (found by a keyboard learner); every other
    way into a question puts it on the first answer."""
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*catalog.*.json"]})
    try:
        load(browser, quiz_url(site, "image"))
        wait_until(browser, "return document.querySelector('[data-quiz-message=\"load-failed\"]')", message="the load failure")
        assert browser.execute_script("return document.activeElement.tagName") == "BUTTON"
    finally:
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    browser.switch_to.active_element.send_keys("\n")
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")", message="the question after the retry")
    assert browser.execute_script("return document.activeElement.matches('[data-quiz] .quiz-choices button, [data-quiz] button[data-choice]')"), \
        browser.execute_script("return document.activeElement.outerHTML")


def media_error_text(browser, url):
    """Opens `url`'s first question and returns what it says of its picture or recording that failed."""
    load(browser, url)
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    wait_until(browser, "return document.querySelector('.quiz-media-error')", message="the media error")
    return browser.execute_script("return document.querySelector('.quiz-media-error').textContent")


def test_a_recording_that_cannot_be_loaded_online_says_to_reload(site, browser):
    """Online, a recording that cannot be had (the server answers 404) was removed by a new
    version of the site (a tab left open across a deploy): it said only what is available
    offline (found by a museum's admin). One the network cannot bring (blocked here, as a
    school's Wi-Fi gone while the device says it is online) says what is available offline."""
    media = os.path.join(site.output, "media")
    sounds = [n for n in os.listdir(media) if n.rsplit(".", 1)[-1] in ("ogg", "mp3", "opus", "m4a", "wav")]
    assert sounds
    for name in sounds:
        os.rename(os.path.join(media, name), os.path.join(media, name + ".gone"))
    try:
        text = media_error_text(browser, quiz_url(site, "sound"))
        assert text == "Das konnte nicht geladen werden. Die Seite wurde vielleicht aktualisiert, seit sie geöffnet wurde: lade sie neu.", text
    finally:
        for name in sounds:
            os.rename(os.path.join(media, name + ".gone"), os.path.join(media, name))
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*.ogg", "*.mp3", "*.opus", "*.m4a", "*.wav"]})
    try:
        text = media_error_text(browser, quiz_url(site, "sound"))
        assert text == "Das konnte nicht geladen werden. Ohne Netz ist nur verfügbar, was du schon einmal gespielt hast.", text
    finally:
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})


def test_a_picture_the_server_has_but_the_browser_cannot_show_is_said_so(site, browser):
    """The server answers for the file, but the browser cannot show it (a format it lacks, a
    download cut): neither "offline" nor "the site was updated, reload" (a reload would not
    mend it; in the daily it stopped the round for good). Said as such, with a way to skip."""
    media = os.path.join(site.output, "media")
    pictures = [n for n in os.listdir(media) if n.rsplit(".", 1)[-1] in ("png", "jpg", "jpeg", "webp", "gif", "svg", "avif")]
    assert pictures
    for name in pictures:
        # A new file in its place (the output's media are links to content/: never written into).
        os.rename(os.path.join(media, name), os.path.join(media, name + ".keep"))
        with open(os.path.join(media, name), "wb") as f:
            f.write(b"not a picture")
    try:
        text = media_error_text(browser, quiz_url(site, "image"))
        assert text == "Das kann dieser Browser nicht abspielen oder anzeigen.", text
        assert browser.find_elements(By.CSS_SELECTOR, "[data-quiz-skip]")
    finally:
        for name in pictures:
            os.replace(os.path.join(media, name + ".keep"), os.path.join(media, name))


def test_the_verdict_stays_in_view_after_answering(site):
    """Answering moves the focus to "Next", below the picture the feedback reveals: at 60vh that
    picture scrolled the verdict ("Not quite.") and the marked answers out of a laptop's view
    (found by a learner at 1280 × 900 and 1366 × 768). The verdict and "Next" are both in view."""
    driver = new_driver()
    try:
        for size in [DESKTOP, (1366, 768)]:
            window_of(driver, *size)
            load(driver, quiz_url(site, "sound"))
            wait_until(driver, f"return document.querySelector(\"{QUESTION}\")")
            driver.execute_script("document.querySelector('[data-onboarding-skip]')?.click()")
            revealed = scrolled = 0
            for _ in range(4):
                ActionChains(driver).send_keys("2").perform()
                wait_until(driver, "return document.querySelector('[data-quiz]').dataset.state === 'answered'")
                wait_until(driver, "return [...document.querySelectorAll('.quiz-reveal img')].every((i) => i.complete)")
                verdict, nxt, height, picture = driver.execute_script(
                    "const r = (s) => document.querySelector(s)?.getBoundingClientRect();"
                    " return [r('.quiz-verdict').top, r('[data-quiz-next]').bottom, innerHeight, !!r('.quiz-reveal img')]")
                revealed += picture
                scrolled += driver.execute_script("return scrollY") > 0
                assert verdict >= 0, f"{size}: the verdict begins at {verdict} px, above the view"
                assert nxt <= height, f"{size}: Next ends at {nxt} px, below the view ({height} px)"
                assert driver.execute_script("return document.activeElement.matches('[data-quiz-next]')")
                ActionChains(driver).send_keys(Keys.ENTER).perform()
                wait_until(driver, f"return document.querySelector(\"{QUESTION}\")")
            assert revealed, "no sound question revealed a picture: the test would prove nothing"
            if size != DESKTOP:
                assert scrolled, "the page never had to scroll: the test would prove nothing"
    finally:
        driver.quit()


def window_of(driver, width, height):
    """Sizes the window, and waits until the page sees that size: a resize lands after
    set_window_size returns (the view's height read too early was the old window's, and a
    correction made from it left the view 540 px tall instead of 720: one CI run). Returns the
    height of the page's view (the browser's own bars take the rest)."""
    driver.set_window_size(width, height)
    wait_until(driver, f"return outerWidth === {width} && outerHeight === {height}", message=f"a window of {width} × {height}")
    return driver.execute_script("return innerHeight")


def view_of_height(driver, width, height):
    """Sizes the window so that the page's view is `height` CSS px tall."""
    inner = window_of(driver, width, height)
    if inner != height:
        inner = window_of(driver, width, 2 * height - inner)
    assert inner == height, f"the view is {inner} px tall, not {height}"


def assert_picture_questions_fit(driver, url, sizes):
    """Each picture question is in view whole, from its status line to its last answer, first from
    the page's top, then after "Next"."""
    for width, height in sizes:
        view_of_height(driver, width, height)
        load(driver, url)
        wait_until(driver, f"return document.querySelector(\"{QUESTION}\")")
        driver.execute_script("document.querySelector('[data-onboarding-skip]')?.click()")
        assert driver.execute_script("return innerHeight") == height
        for i in range(3):
            wait_until(driver, "return [...document.querySelectorAll('.quiz-picture')].every((i) => i.complete)")
            top, bottom, scrolled, header, shape = driver.execute_script(
                "const answers = [...document.querySelectorAll('[data-choice]')].map((b) => b.getBoundingClientRect().bottom);"
                " const img = document.querySelector('.quiz-picture');"
                " return [document.querySelector('.quiz-status').getBoundingClientRect().top, Math.max(...answers), scrollY,"
                " document.querySelector('.site-header').offsetHeight, [img.width / img.height, img.naturalWidth / img.naturalHeight]]")
            where = f"{url} at {width} × {height} (a header of {header} px), question {i + 1}"
            # Whole, not cropped to a squat box (a projector's cut off the duck's head).
            assert abs(shape[0] - shape[1]) < 0.03, f"{where}: shown {shape[0]:.2f} wide to 1 high, the picture is {shape[1]:.2f}"
            assert top >= -1, f"{where}: the status line begins at {top} px, above the view"
            assert bottom <= height, f"{where}: the answers end at {bottom} px, below the view"
            if i and height == 720:
                assert scrolled > 0, "the page never scrolled: the test would prove nothing"
            ActionChains(driver).send_keys("1").perform()
            wait_until(driver, "return document.querySelector('[data-quiz]').dataset.state === 'answered'")
            ActionChains(driver).send_keys(Keys.ENTER).perform()
            wait_until(driver, "return document.querySelector('[data-quiz]').dataset.state === 'question'")


def test_a_picture_question_fits_a_projector_and_a_tablet(site):
    """On a classroom projector (1280 × 720) the picture quiz showed no answer without scrolling,
    and after "Next" the page stayed scrolled down: the question, "Question 2 of 8" and the
    picture's top were above the screen (found by a teacher). At 1024 × 768 the German menu takes
    three rows, and the last answers ended 48 px below the screen."""
    driver = new_driver()
    try:
        assert_picture_questions_fit(driver, quiz_url(site, "image"), [(1280, 720), (1024, 768), (768, 1024)])
    finally:
        driver.quit()


def test_a_picture_question_fits_a_projector_under_a_menu_of_two_rows(tmp_path):
    """A French teacher's site in four languages: the menu took two rows on a 1280 × 720 projector
    (in French, Italian and German, not in English), and the last answers ended below the screen.
    The picture leaves room for the header as tall as it is."""
    root = tmp_path / "site"
    shutil.copytree(os.path.join(REPO, "content"), root / "content")
    config = root / "content" / "site.yml"
    text = config.read_text(encoding="utf-8")
    for old, new in [("languages: [de, en]", "languages: [de, fr, it, en]"),
                     ("title: {de: Tierstimmen, en: Animal voices}",
                      "title: {de: Tierstimmen, en: Animal voices, fr: Voix des animaux, it: Voci degli animali}")]:
        assert old in text, old
        text = text.replace(old, new)
    config.write_text(text, encoding="utf-8")
    proc, url = start_serve(str(root), str(tmp_path / "output"))
    driver = new_driver()
    try:
        load(driver, url + "fr/quiz/?mode=image")
        window_of(driver, 1280, 720)
        assert driver.execute_script("return document.querySelector('.site-header').offsetHeight") > 90, \
            "the menu fits one row: the test would prove nothing"
        assert_picture_questions_fit(driver, url + "fr/quiz/?mode=image", [(1280, 720), (1366, 768)])
        assert_picture_questions_fit(driver, url + "it/quiz/?mode=image", [(1280, 720)])
    finally:
        driver.quit()
        stop_process(proc)


def test_the_settings_say_when_harder_animals_come_and_follow_the_level(site):
    """A teacher's medium animals were never asked at level 1, while the filter said "easy to
    medium": the settings say at which level medium and hard animals join the sound and picture
    rounds, and the level they name follows a level-up (10 right answers make level 2)."""
    driver = new_driver()
    try:
        catalog = site.catalog()
        url = quiz_url(site, "image")
        load(driver, url)
        wait_until(driver, f"return document.querySelector(\"{QUESTION}\")")
        driver.execute_script("document.querySelector('[data-onboarding-skip]')?.click()")
        note = "return document.querySelector('[data-quiz-level-cap]')?.textContent"
        assert driver.execute_script(note).endswith(" 1)."), driver.execute_script(note)  # the site is in German first
        play_round(driver, url, catalog, right=lambda i: True, decode_first=False, check_media=False)
        assert driver.execute_script("return document.querySelector('[data-quiz]').dataset.state") == "finished"
        assert driver.execute_script(note).endswith(" 2)."), driver.execute_script(note)
    finally:
        driver.quit()


def test_group_lists_follow_their_labels_in_the_pages_language(site, browser):
    """The quiz's group filter and the collection's list the groups as their labels sort in the
    page's language, as the collection's sort by group does (a translator's: by key, French read
    Oiseaux, Mammifères, Reptiles). German: Reptilien, Säugetiere, Vögel (keys: bird, mammal, reptile)."""
    load(browser, quiz_url(site, "image"))
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    browser.find_element(By.CSS_SELECTOR, ".quiz-settings summary").click()
    boxes = browser.find_elements(By.CSS_SELECTOR, ".quiz-filters input[name=group]")
    assert [b.get_attribute("value") for b in boxes] == ["reptile", "mammal", "bird"]
    load(browser, f"{site}collection/")
    options = browser.find_elements(By.CSS_SELECTOR, "select[data-collection-group] option")
    assert [o.get_attribute("value") for o in options if o.get_attribute("value")] == ["reptile", "mammal", "bird"]


def test_a_sound_question_goes_from_its_play_button_to_the_answers(site, browser):
    """The recording's own player put six Tab stops, each read as "Animal sound", between the play
    button (which does what they do) and the answers (an accessibility review): one Tab now."""
    load(browser, quiz_url(site, "sound"))
    wait_until(browser, f"return document.querySelector(\"{QUESTION}\")")
    browser.execute_script("document.querySelector('[data-onboarding-skip]')?.click(); document.querySelector('[data-quiz-replay]').focus()")
    assert browser.execute_script("return document.querySelector('[data-quiz-prompt] audio').controls") is False
    ActionChains(browser).send_keys(Keys.TAB).perform()
    assert browser.execute_script("return document.activeElement.matches('[data-choice]')"), \
        browser.execute_script("return document.activeElement.outerHTML.slice(0, 200)")


@pytest.mark.parametrize("mode", ["sound", "image"])
def test_the_verdict_and_next_are_in_view_at_200_and_400_percent(site, mode):
    """At 200 % on a 640 × 480 screen (320 × 240 CSS px) the focused "Next" was left below the
    screen (an accessibility review); brought into view, at 400 % on a 1280 × 1024 one (320 × 256)
    it pushed the verdict above it (a low-vision learner saw only credits and "Next"). "Next"
    comes right after the verdict, before the picture or recording the answer reveals: both are
    in view."""
    driver = new_driver()
    try:
        for width, height, scale in [(320, 240, 2), (320, 256, 4)]:
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": False})
            load(driver, quiz_url(site, mode))
            wait_until(driver, f"return document.querySelector(\"{QUESTION}\")")
            driver.execute_script("document.querySelector('[data-onboarding-skip]')?.click()")
            # Three answers at least, and more (up to eight, within a round) until one revealed
            # something: a new learner's easiest animals are mostly pictures without a recording,
            # and three image questions in a row had none on a CI run (stop 69).
            revealed = asked = 0
            while asked < 3 or (not revealed and asked < 8):
                asked += 1
                driver.execute_script("document.querySelector('[data-choice]').click()")
                wait_until(driver, "return document.querySelector('[data-quiz]').dataset.state === 'answered'")
                wait_until(driver, "return [...document.querySelectorAll('.quiz-reveal img')].every((i) => i.complete)")
                verdict, top, bottom, inner, reveal = driver.execute_script(
                    "const r = (s) => document.querySelector(s)?.getBoundingClientRect();"
                    " return [r('.quiz-verdict').top, r('[data-quiz-next]').top, r('[data-quiz-next]').bottom, innerHeight, !!r('.quiz-reveal')]")
                revealed += reveal
                assert driver.execute_script("return document.activeElement.matches('[data-quiz-next]')")
                assert top >= 0 and bottom <= inner, f"{scale}×: Next at {top}–{bottom} px, the view {inner} px high"
                assert 0 <= verdict < top, f"{scale}×: the verdict at {verdict} px, Next at {top} px"
                driver.execute_script("document.querySelector('[data-quiz-next]').click()")
                wait_until(driver, f"return document.querySelector(\"{QUESTION}\")")
            assert revealed, "no answer revealed a picture or recording: the test would prove nothing"
    finally:
        driver.quit()


def test_read_aloud_fetches_the_texts_only_when_a_voice_can_read_them(site):
    """The animals' short texts are not in the catalogue but in a file per language beside it
    (half the catalogue at 10,000 animals, which every page that plays downloaded): the quiz
    fetches the page language's file after an answer, when a voice could read it, and "Read
    aloud" reads the answer's text in that language."""
    catalog = site.catalog()
    assert all("description" not in a for a in catalog["animals"])
    paths = catalog["descriptions"]
    assert set(paths) == set(catalog["languages"]), paths
    texts = {lang: json.loads(fetch_bytes(site + path)) for lang, path in paths.items()}
    driver = new_driver()
    try:
        # One German voice, and a speechSynthesis that writes down what it is asked to say (a real
        # utterance takes no made-up voice).
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
            const voice = {lang: "de-DE", voiceURI: "test-de", name: "Test", default: true, localService: true};
            window.__spoken = [];
            window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; } };
            Object.defineProperty(window, "speechSynthesis", {value: {
                getVoices: () => [voice], speak: (u) => window.__spoken.push([u.text, u.lang]), cancel() {}, addEventListener() {}}});
        """})
        load(driver, quiz_url(site, "image"))
        wait_until(driver, f"return document.querySelector(\"{QUESTION}\")")
        fetched = ("return performance.getEntriesByType('resource').map((e) => e.name)"
                   ".filter((n) => n.includes('/assets/descriptions.'))")
        assert driver.execute_script(fetched) == []
        driver.find_element(By.CSS_SELECTOR, "[data-choice]").click()
        animal = driver.find_element(By.CSS_SELECTOR, "[data-quiz]").get_attribute("data-correct")
        wait_until(driver, "const b = document.querySelector('[data-quiz-read]'); return b && !b.hidden",
                   message="the read-aloud button did not show")
        driver.find_element(By.CSS_SELECTOR, "[data-quiz-read]").click()
        assert driver.execute_script("return window.__spoken") == [[texts["de"][animal], "de-DE"]]
        assert driver.execute_script(fetched) == [site + paths["de"]]
    finally:
        driver.quit()


def test_forced_colours_keep_the_marked_answers_and_the_level_bar(site):
    """In forced colours (Windows High Contrast) a disabled button is drawn in GrayText: after an
    answer the right one looked greyed out like the others, and the home page's level bar, track
    and fill both Canvas, vanished (a low-vision learner's trial). The marked answers keep the
    text's colour; the bar has an edge and a fill of its own."""
    driver = new_driver()
    try:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "forced-colors", "value": "active"}]})
        assert driver.execute_script("return matchMedia('(forced-colors: active)').matches")
        load(driver, quiz_url(site, "image"))
        wait_until(driver, f"return document.querySelector(\"{QUESTION}\")")
        driver.find_element(By.CSS_SELECTOR, "[data-choice]").click()
        wait_until(driver, "return document.querySelector('[data-quiz]').dataset.state === 'answered'")
        text, right, other = driver.execute_script("""
            const color = (el) => getComputedStyle(el).color;
            const other = [...document.querySelectorAll('[data-choice]')].find((b) => !b.matches('.is-right, .is-wrong'));
            return [color(document.body), color(document.querySelector('.quiz-choice.is-right')), other && color(other)];
        """)
        assert other and other != text, "an unmarked answer is not greyed out: the test would prove nothing"
        assert right == text, (right, text)
        load(driver, site)
        edge, fill, track = driver.execute_script("""
            const meter = document.querySelector('.meter'), style = getComputedStyle(meter);
            return [style.borderTopWidth + ' ' + style.borderTopStyle, getComputedStyle(meter.querySelector('span')).backgroundColor, style.backgroundColor];
        """)
        assert edge == "1px solid", edge
        assert fill != track, (fill, track)
        # A favourite's badge on its collection card: forced colours drop the circle's fill, and
        # only the glyph was left; the circle keeps an edge.
        load(driver, site + "en/animals/cat/")
        driver.find_element(By.CSS_SELECTOR, "[data-favorite]").click()
        load(driver, site + "en/collection/")
        wait_until(driver, "return document.querySelector('[data-id=cat] .badge')", message="the favourite's badge")
        badge = driver.execute_script("""
            const style = getComputedStyle(document.querySelector('[data-id=cat] .badge'));
            return style.borderTopWidth + ' ' + style.borderTopStyle;
        """)
        assert badge == "1px solid", badge
    finally:
        driver.quit()


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_quiz_panels_boxes_are_as_big_as_the_settings_pages(site, size):
    """The quiz's own settings panel drew its checkboxes at the browser's 13 px on a desktop, where
    the settings page draws them at 1.2rem (a low-vision learner's trial). On a phone a label that
    wraps must not squeeze its box back (a flex item shrinks to its content's size)."""
    driver = new_driver(size=size)
    try:
        sizes = []
        for url in (quiz_url(site, "image"), site + "settings/"):
            load(driver, url)
            if "quiz" in url:
                wait_until(driver, f"return document.querySelector(\"{QUESTION}\")")
                driver.find_element(By.CSS_SELECTOR, ".quiz-settings summary").click()
            sizes += driver.execute_script("""
                const root = parseFloat(getComputedStyle(document.documentElement).fontSize);
                return [...document.querySelectorAll('.quiz-check input, .check input[type=checkbox]')]
                    .filter((box) => box.getClientRects().length)
                    .map((box) => [box.closest('label').textContent.trim(), box.getBoundingClientRect().width / root]);
            """)
        assert len(sizes) > 4, sizes
        assert all(abs(width - 1.2) < 0.01 for _, width in sizes), sizes
    finally:
        driver.quit()


def test_a_themes_older_quiz_view_still_gets_next_after_an_answer(tmp_path):
    """Since 9a8ed3f `feedbackView` places "Next" right after the verdict; a site that keeps its
    own older copy of quiz-view.js (docs/theming.md: `init --update-theme` keeps changed files)
    ignores that option, and "Next" (`data-quiz-next`, DESIGN.md §6) was never on the page. The
    quiz puts it after the feedback then, as before."""
    root = tmp_path / "site"
    shutil.copytree(os.path.join(REPO, "content"), root / "content")
    shutil.copytree(os.path.join(REPO, "templates"), root / "templates")
    view = root / "templates" / "assets" / "js" / "quiz-view.js"
    source = view.read_text(encoding="utf-8")
    older = source.replace("    actions,\n", "", 1)
    assert older != source, "quiz-view.js no longer places `actions`: the test would prove nothing"
    view.write_text(older, encoding="utf-8")
    proc, url = start_serve(str(root), str(tmp_path / "output"))
    driver = new_driver()
    try:
        load(driver, quiz_url(url, "image"))
        wait_until(driver, f"return document.querySelector(\"{QUESTION}\")")
        driver.find_element(By.CSS_SELECTOR, "[data-choice]").click()
        wait_until(driver, "return document.querySelector('[data-quiz]').dataset.state === 'answered'")
        assert driver.execute_script("return document.querySelector('.quiz-feedback-slot > .quiz-actions [data-quiz-next]') !== null")
        driver.find_element(By.CSS_SELECTOR, "[data-quiz-next]").click()
        wait_until(driver, f"return document.querySelector(\"{QUESTION}\")", message="Next moved on")
    finally:
        driver.quit()
        stop_process(proc)


def test_the_answers_source_links_say_whose_source_they_are(site, browser):
    """WCAG 2.4.9: after an answer the feedback credits the recording and the picture, each
    linking its source; the links' names differ ("source (Photo)", "source (Recording)")."""
    catalog = site.catalog()
    index = media_index(catalog)
    load(browser, quiz_url(site, "sound").replace("quiz/", "en/quiz/"))
    names = None
    for _ in range(catalog["quiz"]["questions"]):
        wait_until(browser, f"return document.querySelector(\"{QUESTION}\")", message="a question")
        q = browser.execute_script(READ_QUESTION)
        browser.find_element(By.CSS_SELECTOR, f"button[data-choice='{index[q['sound']]}']").click()
        wait_until(browser, "return document.querySelector('[data-quiz]').dataset.state === 'answered'", message="the answer")
        links = browser.find_elements(By.CSS_SELECTOR, ".quiz-credit a")
        if len(links) == 2:
            names = [link.accessible_name for link in links]
            assert [visible_text(browser, link) for link in links] == ["source", "source"]
            break
        browser.find_element(By.CSS_SELECTOR, "button[data-quiz-next]").click()
    assert names == ["source (Photo)", "source (Recording)"], names


def test_a_mended_photo_credit_keeps_the_days_questions(tmp_path):
    """A typo mended in a photo credit, or a scientific name, changed the daily's questions for
    everyone that day, since they were seeded by every byte of the catalogue (found by an
    editor's audit). Seeded by what rounds are drawn from, they stay."""
    root = tmp_path / "site"
    shutil.copytree(os.path.join(REPO, "content"), root / "content")
    served, workdir = serve_site(str(root), "bestiary-daily-")

    def first_question():
        driver = new_driver()
        try:
            load(driver, served + "en/quiz/?mode=daily")
            wait_until(driver, f"return document.querySelector(\"{QUESTION}\")")
            choices = [b.get_attribute("data-choice") for b in driver.find_elements(By.CSS_SELECTOR, "button[data-choice]")]
            catalog = driver.execute_script("return document.body.dataset.catalog")
            return choices, catalog
        finally:
            driver.quit()

    def edit(old, new):
        path = root / "content" / "animals" / "bison.md"
        text = path.read_text(encoding="utf-8")
        assert old in text
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    def rebuilt(since):
        deadline = time.time() + 30
        while time.time() < deadline:
            choices, catalog = first_question()
            if catalog != since:
                return choices, catalog
            time.sleep(0.3)
        raise AssertionError("the preview did not rebuild")

    try:
        before, catalog = first_question()
        assert len(before) >= 2
        edit("credit: Kurt Kaiser", "credit: Kurt Kaiser.")
        after, catalog = rebuilt(catalog)
        assert after == before, "a mended credit changed the day's questions"
    finally:
        served.stop()
        shutil.rmtree(workdir, ignore_errors=True)
