"""Offline play through the service worker the build generates: after one visit the quiz plays
with the network switched off (Chrome's network emulation, and the server stopped), recordings
answer range requests from the cache, uncached pages lead to the offline page, and a new build
replaces the old cache cleanly. Each test runs its own server, since it stops it."""
import json
import os
import shutil
import time

import pytest
from selenium.webdriver.common.by import By

from conftest import REPO, Site, free_port, load, new_driver, start_serve, stop_process, wait_until
from helpers import QUESTION, play_round

CACHES = """
const done = arguments[arguments.length - 1];
(async () => {
  const names = await caches.keys();
  const sizes = {};
  for (const name of names) sizes[name] = (await (await caches.open(name)).keys()).length;
  return sizes;
})().then(done, e => done({ error: String(e) }));
"""

# Names only: opening a cache the new worker has just deleted makes it again (empty, for good),
# which is how a probe with CACHES once failed the test below.
CACHE_NAMES = """
const done = arguments[arguments.length - 1];
caches.keys().then(done, e => done([String(e)]));
"""


def wait_for_worker(driver):
    wait_until(driver, "return !!(navigator.serviceWorker && navigator.serviceWorker.controller)", timeout=30,
               message="the service worker to control the page")


def see_the_first_picture(driver, served):
    """One picture question online, under the service worker: the picture fetched so far is saved."""
    load(driver, served + "en/quiz/?mode=image")
    wait_for_worker(driver)
    load(driver, served + "en/quiz/?mode=image")
    wait_until(driver, "return document.querySelector(\"[data-quiz][data-state='question'] [data-quiz-prompt] img\")?.naturalWidth > 0",
               message="the first picture")


def go_offline(driver, served):
    driver.set_network_conditions(offline=True, latency=0, download_throughput=0, upload_throughput=0)
    served.stop()


@pytest.fixture
def own_site(tmp_path):
    """The example site on a server of its own, which the test may stop."""
    output = str(tmp_path / "output")
    proc, url = start_serve(REPO, output, live_reload=False)
    served = Site(url, output, REPO, proc)
    yield served
    if served.process.poll() is None:
        stop_process(served.process)


def test_quiz_plays_offline_after_one_visit(own_site):
    served = own_site
    catalog = served.catalog()
    driver = new_driver()
    try:
        load(driver, served + "quiz/?mode=sound")
        wait_for_worker(driver)
        online = play_round(driver, served + "quiz/?mode=sound", catalog, decode_first=False)
        caches = driver.execute_async_script(CACHES)
        shell = [n for n in caches if n.startswith("bestiary:/:example:shell:")]
        assert len(shell) == 1 and caches[shell[0]] > 20, caches
        assert caches.get("bestiary:/:example:media", 0) >= 5, caches
        heard_online = {q["sound"] for q in online["questions"]}

        go_offline(driver, served)
        assert driver.execute_script("return navigator.onLine") is False
        offline = play_round(driver, served + "quiz/?mode=sound", catalog)
        assert len(offline["questions"]) == catalog["quiz"]["questions"]
        assert {q["sound"] for q in offline["questions"]} <= heard_online, "only recordings heard before are asked"

        # The recordings answer byte ranges from the cache, as audio elements ask for them.
        src = sorted(heard_online)[0]
        part = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch(arguments[0], { headers: { Range: 'bytes=10-109' } })
              .then(async r => done({ status: r.status, range: r.headers.get('Content-Range'), length: (await r.arrayBuffer()).byteLength }))
              .catch(e => done({ error: String(e) }));""", "/" + src)
        size = os.path.getsize(os.path.join(served.output, src))
        assert part == {"status": 206, "range": f"bytes 10-109/{size}", "length": 100}

        # The other pages of the app shell work too; a page never visited leads to the offline page.
        load(driver, served + "en/collection/")
        assert driver.find_elements(By.CSS_SELECTOR, "[data-collection-list] [data-id]")
        load(driver, served + "en/animals/koala/")
        wait_until(driver, "return location.pathname === '/en/offline/'", message="the offline page")
        assert "offline" in driver.find_element(By.TAG_NAME, "h1").text.lower()
        # It names the page asked for, with a link to try it again (the redirect left it out of
        # the history, so Back does not lead there).
        wanted = driver.find_element(By.CSS_SELECTOR, "[data-offline-from]")
        assert wanted.is_displayed() and "/en/animals/koala/" in wanted.text, wanted.text
        link = wanted.find_element(By.TAG_NAME, "a")
        assert link.get_attribute("href") == served + "en/animals/koala/"
    finally:
        driver.quit()


def test_daily_offline_without_its_media_keeps_the_days_try(own_site):
    """After one online sound round, the daily challenge offline needs pictures and recordings
    that were never fetched (the example site has 9 recordings, a daily asks 10 animals): it
    says so and waits, instead of taking answers it cannot show and using up the day's try."""
    served = own_site
    catalog = served.catalog()
    driver = new_driver()
    try:
        load(driver, served + "en/quiz/?mode=sound")
        wait_for_worker(driver)
        play_round(driver, served + "en/quiz/?mode=sound", catalog, decode_first=False)
        go_offline(driver, served)

        load(driver, served + "en/quiz/?mode=daily")
        wait_until(driver, "return document.querySelector(\"[data-quiz-message='daily-offline']\")",
                   message="the daily's offline message")
        message = driver.find_element(By.CSS_SELECTOR, "[data-quiz-message='daily-offline']")
        assert "network" in message.text and message.is_displayed()
        quiz = driver.find_element(By.CSS_SELECTOR, "[data-quiz]")
        assert quiz.get_attribute("data-state") is None
        assert driver.find_elements(By.CSS_SELECTOR, "button[data-choice]") == []
        modes = [a.get_attribute("href").split("?")[1] for a in message.find_elements(By.CSS_SELECTOR, "a")]
        assert modes == ["mode=sound", "mode=image", "mode=learn"], modes
        driver.find_element(By.TAG_NAME, "body").send_keys("1")
        daily = json.loads(driver.execute_script("return localStorage.getItem('bestiary:example:learner')"))["daily"]
        assert daily is None, f"nothing of today's daily is recorded: {daily}"

        # Back online, today's daily is there to play, from its first question.
        port = int(served.rstrip("/").rsplit(":", 1)[1])
        proc, _ = start_serve(REPO, served.output, port, live_reload=False)
        served.process = proc
        driver.delete_network_conditions()
        load(driver, served + "en/quiz/?mode=daily")
        wait_until(driver, "return document.querySelector(\"[data-quiz][data-state='question']\")", message="today's daily")
        assert driver.find_element(By.CSS_SELECTOR, "[data-quiz-score]").text.startswith("0 / ")
    finally:
        driver.quit()


def test_offline_with_a_few_pictures_saved_asks_each_once_and_says_why(own_site):
    """After one picture question online, only the pictures fetched so far are saved: offline,
    a round asks each of those once (not the few by turns, ten times), with a notice saying
    why and where to save the rest; the daily's offline message offers only modes with
    something saved (no recording was fetched, so not the sound quiz)."""
    served = own_site
    catalog = served.catalog()
    driver = new_driver()
    try:
        see_the_first_picture(driver, served)
        assert not driver.find_elements(By.CSS_SELECTOR, "[data-quiz-notice='offline']"), "online: no notice"
        go_offline(driver, served)

        offline = play_round(driver, served + "en/quiz/?mode=image", catalog)
        asked = [q["image"] for q in offline["questions"]]
        assert 1 <= len(asked) < catalog["quiz"]["questions"], asked
        assert len(set(asked)) == len(asked), f"a saved picture was asked twice: {asked}"
        notice = driver.find_element(By.CSS_SELECTOR, "[data-quiz-notice='offline']")
        assert notice.is_displayed() and "offline" in notice.text and "settings" in notice.text, notice.text

        load(driver, served + "en/quiz/?mode=daily")
        wait_until(driver, "return document.querySelector(\"[data-quiz-message='daily-offline']\")", message="the daily's offline message")
        message = driver.find_element(By.CSS_SELECTOR, "[data-quiz-message='daily-offline']")
        modes = [a.get_attribute("href").split("?")[1] for a in message.find_elements(By.CSS_SELECTOR, "a")]
        assert "mode=image" in modes and "mode=sound" not in modes, modes
        assert "these modes play offline" in message.text
    finally:
        driver.quit()


def test_a_site_that_does_not_answer_though_the_device_is_online_offers_what_is_saved(own_site):
    """A Wi-Fi without internet (the server gone, `navigator.onLine` still true): each picture not
    saved failed in turn, and a learner skipped most of a round (found in a learner's trial). The
    first failure offers a round of what is saved, as a device that knows it is offline gets."""
    served = own_site
    catalog = served.catalog()
    driver = new_driver()
    try:
        see_the_first_picture(driver, served)
        served.stop()  # the server gone, the network left as it is
        assert driver.execute_script("return navigator.onLine") is True

        load(driver, served + "en/quiz/?mode=image")
        offered = False
        for _ in range(catalog["quiz"]["questions"]):
            wait_until(driver, f"return document.querySelector(\"{QUESTION}\")")
            wait_until(driver, "const img = document.querySelector('[data-quiz-prompt] img');"
                       " return document.querySelector('[data-quiz-play-saved]') || (img && img.naturalWidth > 0)", timeout=10,
                       message="the picture, or the offer of what is saved")
            if driver.find_elements(By.CSS_SELECTOR, "[data-quiz-play-saved]"):
                offered = True
                break
            driver.find_element(By.CSS_SELECTOR, "button[data-choice]").click()
            nxt = driver.find_elements(By.CSS_SELECTOR, "[data-quiz-next]")
            if not nxt:
                break
            nxt[0].click()
        assert offered, "no picture failed: the test would prove nothing"
        assert driver.find_element(By.CSS_SELECTOR, ".quiz-media-error").is_displayed()
        driver.find_element(By.CSS_SELECTOR, "[data-quiz-play-saved]").click()

        # A round of the saved pictures only, each shown, with the notice saying why.
        wait_until(driver, "return document.querySelector(\"[data-quiz-notice='offline']\")", message="the notice of a round of what is saved")
        notice = driver.find_element(By.CSS_SELECTOR, "[data-quiz-notice='offline']")
        assert notice.is_displayed(), notice.text
        asked = 0
        while True:
            wait_until(driver, f"return document.querySelector(\"{QUESTION}\")")
            wait_until(driver, "return document.querySelector('[data-quiz-prompt] img')?.naturalWidth > 0", timeout=10,
                       message="a saved picture shown")
            assert not driver.find_elements(By.CSS_SELECTOR, ".quiz-media-error")
            asked += 1
            driver.find_element(By.CSS_SELECTOR, "button[data-choice]").click()
            nxt = driver.find_elements(By.CSS_SELECTOR, "[data-quiz-next]")
            if not nxt or driver.find_element(By.CSS_SELECTOR, "[data-quiz]").get_attribute("data-state") == "finished":
                break
            nxt[0].click()
            if driver.find_element(By.CSS_SELECTOR, "[data-quiz]").get_attribute("data-state") == "finished":
                break
        assert 1 <= asked < catalog["quiz"]["questions"], asked
    finally:
        driver.quit()


def open_offline_settings(driver, served):
    """The English settings page under its service worker, its offline count shown."""
    load(driver, served + "en/settings/")
    wait_for_worker(driver)
    load(driver, served + "en/settings/")
    wait_until(driver, "return /\\d+ of \\d+/.test(document.querySelector('[data-offline-status]').textContent)")


def test_saving_everything_for_offline_use(own_site):
    served = own_site
    driver = new_driver()
    try:
        open_offline_settings(driver, served)
        driver.find_element(By.CSS_SELECTOR, "[data-offline-save]").click()
        wait_until(driver, "return document.querySelector('[data-offline-save]').hidden", timeout=60, message="everything saved")
        status = driver.find_element(By.CSS_SELECTOR, "[data-offline-status]").text
        saved, total = [int(x) for x in status.split(" ")[0:3:2]]
        assert saved == total > 24, status
        go_offline(driver, served)
        # Now every animal page and every picture is there without a network.
        load(driver, served + "en/animals/koala/")
        assert driver.execute_script("return location.pathname") == "/en/animals/koala/"
        wait_until(driver, "return document.querySelector('.animal-picture img').naturalWidth > 0", message="the picture offline")
        offline = play_round(driver, served + "en/quiz/?mode=image", served.catalog())
        assert len(offline["questions"]) == served.catalog()["quiz"]["questions"]
    finally:
        driver.quit()


def test_saving_for_offline_use_keeps_the_focus_and_then_gives_it_to_the_result(own_site):
    """A keyboard or screen reader user who presses "Save everything" stays on the button while it
    saves (a disabled button lost the focus to the page's top), a second press does nothing, and
    the result takes the focus when it is done."""
    served = own_site
    driver = new_driver()
    try:
        open_offline_settings(driver, served)
        # Saving waits on the worker: held here, the button is seen as it is while saving.
        state = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const button = document.querySelector('[data-offline-save]');
            let release;
            const ready = navigator.serviceWorker.ready;
            Object.defineProperty(navigator.serviceWorker, 'ready', {configurable: true, get: () => new Promise((r) => { release = () => r(ready); })});
            button.focus();
            button.click();
            setTimeout(() => {
                const state = {focused: document.activeElement === button, disabled: button.disabled,
                               ariaDisabled: button.getAttribute('aria-disabled'), bar: !document.querySelector('[data-offline-progress]').hidden};
                button.click();
                state.held = typeof release === 'function';
                delete navigator.serviceWorker.ready;
                release();
                done(state);
            }, 200);
        """)
        assert state == {"focused": True, "disabled": False, "ariaDisabled": "true", "bar": True, "held": True}, state
        wait_until(driver, "return document.querySelector('[data-offline-save]').hidden", timeout=60, message="everything saved")
        assert driver.execute_script("return document.activeElement === document.querySelector('[data-offline-status]')")
    finally:
        driver.quit()


def test_new_build_replaces_the_old_cache(tmp_path):
    root = tmp_path / "site"
    shutil.copytree(os.path.join(REPO, "content"), root / "content")
    shutil.copytree(os.path.join(REPO, "templates"), root / "templates")
    output = str(tmp_path / "output")
    port = free_port()
    proc, url = start_serve(str(root), output, port, live_reload=False)
    driver = new_driver()
    try:
        load(driver, url)
        wait_for_worker(driver)
        before = driver.execute_async_script(CACHES)
        old_shell = [n for n in before if ":shell:" in n]
        assert len(old_shell) == 1
        driver.find_elements(By.CSS_SELECTOR, "[data-onboarding-skip]")[0].click()
        stop_process(proc)

        # A deploy: the navigation's label changes on every page.
        strings_path = root / "templates" / "i18n" / "de.json"
        strings = json.loads(strings_path.read_text(encoding="utf-8"))
        strings["nav.collection"] = "Sammlung (neu)"
        strings_path.write_text(json.dumps(strings, ensure_ascii=False, indent=2), encoding="utf-8")
        proc, url = start_serve(str(root), output, port, live_reload=False)

        load(driver, url)
        assert "Sammlung (neu)" in driver.find_element(By.CSS_SELECTOR, ".site-nav").text
        wait_until(driver, "return document.querySelector(\"[data-notice='updated'] button\")", timeout=30,
                   message="the prompt to reload after the new build took over")
        # The new worker deletes the old build's caches when it activates.
        deadline = time.time() + 20
        while True:
            after = driver.execute_async_script(CACHE_NAMES)
            new_shell = [n for n in after if ":shell:" in n]
            if len(new_shell) == 1 or time.time() > deadline:
                break
            time.sleep(0.2)
        assert len(new_shell) == 1 and new_shell != old_shell, (before, after)
        assert not any(":pages:" in n and n.split(":")[-1] == old_shell[0].split(":")[-1] for n in after)
        driver.find_element(By.CSS_SELECTOR, "[data-notice='updated'] button").click()
        wait_until(driver, "return document.readyState === 'complete' && !document.querySelector(\"[data-notice='updated']\")")

        # Offline, the pages come from the new build's cache, not the old one.
        stop_process(proc)
        driver.set_network_conditions(offline=True, latency=0, download_throughput=0, upload_throughput=0)
        load(driver, url + "quiz/?mode=image")
        assert "Sammlung (neu)" in driver.find_element(By.CSS_SELECTOR, ".site-nav").text
    finally:
        driver.quit()
        if proc.poll() is None:
            stop_process(proc)


def test_a_big_languages_texts_are_kept_when_first_read_not_precached(tmp_path):
    """A language's file of the animals' texts (read aloud after an answer) is 3–4 MB at 10,000
    animals, and every install downloaded every language's. Over 1 MiB it is left out of the
    precache: the worker keeps it when the quiz first reads it, and it is there offline."""
    root = tmp_path / "site"
    shutil.copytree(os.path.join(REPO, "content"), root / "content")
    # GENERATED records: 250 animals with 4,400 characters of English text each (1.1 MB).
    text = "A long text about this animal. " * 142
    for i in range(250):
        (root / "content" / "animals" / f"generated-{i}.md").write_text(
            f'---\nname: {{ de: Tier {i}, en: Animal {i} }}\ndescription: {{ en: "{text}" }}\n---\n', encoding="utf-8")
    output = str(tmp_path / "output")
    proc, url = start_serve(str(root), output, live_reload=False)
    served = Site(url, output, str(root), proc)
    driver = new_driver()
    try:
        paths = served.catalog()["descriptions"]
        english = paths["en"]
        assert os.path.getsize(os.path.join(output, english)) > 1 << 20
        load(driver, served + "en/quiz/?mode=image")
        wait_for_worker(driver)
        keys = """
            const done = arguments[arguments.length - 1];
            (async () => {
              const out = {};
              for (const name of await caches.keys()) out[name] = (await (await caches.open(name)).keys()).map((r) => r.url);
              return out;
            })().then(done, (e) => done({ error: String(e) }));"""
        cached = driver.execute_async_script(keys)
        shell = [n for n in cached if ":shell:" in n]
        assert len(shell) == 1, cached
        assert served + english not in cached[shell[0]], "the big English texts are not precached"
        assert served + paths["de"] in cached[shell[0]], "the small German texts are"
        assert not any(served + english in urls for urls in cached.values())

        read = """
            const done = arguments[arguments.length - 1];
            fetch(arguments[0]).then(async (r) => done({ status: r.status, animal: (await r.json())['generated-7'] }))
              .catch((e) => done({ error: String(e) }));"""
        assert driver.execute_async_script(read, "/" + english) == {"status": 200, "animal": text.strip()}
        wait_until(driver, f"return caches.match({json.dumps(served + english)}).then(Boolean)", timeout=10,
                   message="the English texts to be kept once read")

        go_offline(driver, served)
        assert driver.execute_async_script(read, "/" + english) == {"status": 200, "animal": text.strip()}
    finally:
        driver.quit()
        if proc.poll() is None:
            stop_process(proc)
