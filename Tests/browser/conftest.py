"""Real-browser tests: the example site built by the real `bestiary` binary, served by
`bestiary serve` on 127.0.0.1, driven through headless Chromium with Selenium."""
import os
import re
import shutil
import subprocess
import tempfile
import time

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY = os.environ.get("BESTIARY", os.path.join(REPO, ".build", "debug", "bestiary"))


def start_serve(root, output):
    """Starts `bestiary serve` on a free port; returns (process, base URL)."""
    proc = subprocess.Popen(
        [BINARY, "serve", "--root", root, "--output", output, "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.time() + 120
    lines = []
    while time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            if proc.poll() is not None:
                break
            continue
        lines.append(line)
        match = re.search(r"at (http://127\.0\.0\.1:\d+/)", line)
        if match:
            return proc, match.group(1)
    proc.kill()
    raise RuntimeError("bestiary serve did not start:\n" + "".join(lines))


@pytest.fixture(scope="session")
def site():
    """The repository's example site, served; yields its base URL."""
    workdir = tempfile.mkdtemp(prefix="bestiary-browser-")
    proc, url = start_serve(REPO, os.path.join(workdir, "output"))
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
    shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(scope="session")
def chrome_options():
    options = Options()
    options.add_argument("--headless=new")
    options.add_argument("--no-sandbox")
    options.add_argument("--disable-dev-shm-usage")
    options.add_argument("--window-size=1280,900")
    options.add_argument("--autoplay-policy=no-user-gesture-required")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    chromium = shutil.which("chromium")
    if chromium:
        options.binary_location = chromium
    return options


@pytest.fixture
def browser(chrome_options):
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(service=service, options=chrome_options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def severe_console_errors(driver):
    """Console messages of level SEVERE (uncaught errors, failed loads)."""
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
