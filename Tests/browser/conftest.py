"""Real-browser tests: sites built by the real `bestiary` binary, served by `bestiary serve` on
127.0.0.1, driven through headless Chromium with Selenium.

Two sites are built once per session and shared: the repository's example site (German default,
24 animals, 9 recordings) and the Tux Paint fixture (English default, 66 animals, 60 recordings).
Tests that take `browser` share one Chromium, reset before each (a new tab, every origin's storage
cleared: SharedBrowser); tests that need a profile of their own, another size or downloads start
their own.
"""
import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request

import pytest
from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY = os.environ.get("BESTIARY", os.path.join(REPO, ".build", "debug", "bestiary"))
TUXPAINT = os.path.join(REPO, "Tests", "Fixtures", "sites", "tuxpaint")
DESKTOP = (1280, 900)
# A phone: 320 CSS px wide. Headless Chromium will not make a window narrower than 500 px, so
# new_driver() emulates this size (a mobile viewport at device scale 1) instead of relying on
# --window-size; tests that claim 320 px check window.innerWidth with phone_width().
PHONE = (320, 740)
NARROWEST_WINDOW = 500


class Site(str):
    """A served site: the string is its base URL; `.output` is the built folder, `.root` its sources."""

    def __new__(cls, url, output, root, process):
        site = super().__new__(cls, url)
        site.output = output
        site.root = root
        site.process = process
        return site

    def catalog(self):
        """The quiz catalogue the build wrote (the same file the browser loads)."""
        folder = os.path.join(self.output, "assets")
        names = [n for n in os.listdir(folder) if re.fullmatch(r"catalog\.[0-9a-f]+\.json", n)]
        assert len(names) == 1, names
        with open(os.path.join(folder, names[0]), encoding="utf-8") as f:
            return json.load(f)

    def stop(self):
        stop_process(self.process)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_serve(root, output, port=0, live_reload=True):
    """Starts `bestiary serve` (it builds first); returns (process, base URL). Without live reload
    the site is served as deployed, service worker included."""
    proc = subprocess.Popen(
        [BINARY, "serve", "--root", root, "--output", output, "--port", str(port)]
        + ([] if live_reload else ["--no-live-reload"]),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.time() + 180
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
            # Keep reading its output in the background so a full pipe never blocks the server;
            # what it prints from now on is in `proc.lines` (the only reader of the pipe).
            import threading
            proc.lines = []
            threading.Thread(target=lambda: [proc.lines.append(line) for line in proc.stdout], daemon=True).start()
            return proc, match.group(1)
    proc.kill()
    raise RuntimeError("bestiary serve did not start:\n" + "".join(lines))


def stop_process(proc):
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def serve_site(root, prefix, port=0):
    workdir = tempfile.mkdtemp(prefix=prefix)
    output = os.path.join(workdir, "output")
    proc, url = start_serve(root, output, port)
    return Site(url, output, root, proc), workdir


@pytest.fixture(scope="session")
def site():
    """The repository's example site, served; the value is its base URL."""
    served, workdir = serve_site(REPO, "bestiary-example-")
    yield served
    served.stop()
    shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(scope="session")
def tux():
    """The 66-animal Tux Paint catalogue (English default), served with the built-in theme."""
    served, workdir = serve_site(TUXPAINT, "bestiary-tuxpaint-")
    yield served
    served.stop()
    shutil.rmtree(workdir, ignore_errors=True)


def chrome_options(size=DESKTOP, profile=None, downloads=None):
    options = Options()
    options.add_argument("--headless=new")
    options.add_argument("--no-sandbox")
    options.add_argument("--disable-dev-shm-usage")
    options.add_argument(f"--window-size={size[0]},{size[1]}")
    options.add_argument("--autoplay-policy=no-user-gesture-required")
    options.add_argument("--mute-audio")
    if profile:
        options.add_argument(f"--user-data-dir={profile}")
    if downloads:
        options.add_experimental_option("prefs", {
            "download.default_directory": downloads,
            "download.prompt_for_download": False,
        })
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    chromium = shutil.which("chromium")
    if chromium:
        options.binary_location = chromium
    return options


def new_driver(size=DESKTOP, profile=None, downloads=None):
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(service=service, options=chrome_options(size, profile, downloads))
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(30)
    if downloads:
        driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    if size[0] < NARROWEST_WINDOW:
        # Kept across navigations for the life of the tab.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": True,
        })
    return driver


def phone_width(driver):
    """The page's width in CSS px (window.innerWidth, and the layout viewport agreeing with it)."""
    inner, client = driver.execute_script("return [window.innerWidth, document.documentElement.clientWidth]")
    assert inner == client, (inner, client)
    return inner


def sideways_overflow(driver):
    """How many CSS px the page sticks out sideways (0 when there is no horizontal scroll)."""
    return driver.execute_script(
        "const d = document.documentElement; return Math.max(d.scrollWidth, document.body.scrollWidth) - d.clientWidth")


class SharedBrowser:
    """One desktop-sized Chromium for the tests that take `browser`, reset before each.

    A browser's start costs about 1.9 CPU-seconds of this 2-core machine (50 tests took 95 s of
    CPU for starts alone). Before each test: any open dialog dismissed, a new tab opened and every
    other closed (so sessionStorage, the page's memory, the tab's emulation and history start
    empty), every origin's storage cleared (localStorage, IndexedDB, Cache Storage, service
    workers, cookies: CDP's Storage.clearDataForOrigin with "all", for every origin a test
    opened with `get` and the one it ended on), the HTTP cache and cookies cleared, permissions
    reset and the console log emptied. When any step fails the browser is replaced by a new one."""

    def __init__(self):
        self.driver = None
        self.origins = set()

    def fresh(self):
        if self.driver is not None:
            try:
                self.reset()
                return self.driver
            except Exception as error:
                # Said, so that a reset that always fails (and a start for every test again)
                # shows in pytest's output.
                print(f"SharedBrowser: the reset failed ({type(error).__name__}: {error}); starting a new browser")
                self.quit()
        self.driver = new_driver()
        self.origins = set()
        self.watch_navigation(self.driver)
        return self.driver

    def watch_navigation(self, driver):
        plain_get = driver.get

        def get(url):
            self.note_origin(url)
            return plain_get(url)

        driver.get = get

    def note_origin(self, url):
        match = re.match(r"(https?://[^/]+)", url or "")
        if match:
            self.origins.add(match.group(1))

    def reset(self):
        driver = self.driver
        try:
            driver.switch_to.alert.dismiss()
        except Exception:
            pass
        try:
            self.note_origin(driver.current_url)
        except Exception:
            pass
        old = list(driver.window_handles)
        driver.switch_to.new_window("tab")
        fresh = driver.current_window_handle
        for handle in old:
            driver.switch_to.window(handle)
            driver.close()
        driver.switch_to.window(fresh)
        for origin in sorted(self.origins):
            driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        driver.execute_cdp_cmd("Network.clearBrowserCache", {})
        driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
        driver.execute_cdp_cmd("Browser.resetPermissions", {})
        driver.get_log("browser")
        assert driver.execute_script("return [history.length, window.innerWidth]") == [1, DESKTOP[0]]
        self.origins = set()

    def leave(self):
        """After a test: its page stops (no event stream left retrying a preview that stopped)."""
        try:
            self.driver.get("about:blank")
        except Exception:
            pass

    def quit(self):
        if self.driver is not None:
            try:
                self.driver.quit()
            except Exception:
                pass
        self.driver = None


@pytest.fixture(scope="session")
def shared_browser():
    shared = SharedBrowser()
    yield shared
    shared.quit()


@pytest.fixture
def browser(shared_browser):
    """A desktop-sized Chromium with nothing of the tests before: see SharedBrowser."""
    yield shared_browser.fresh()
    shared_browser.leave()


@pytest.fixture
def downloads_browser(tmp_path):
    """A browser whose downloads land in `driver.downloads`."""
    folder = str(tmp_path / "downloads")
    os.makedirs(folder)
    driver = new_driver(downloads=folder)
    driver.downloads = folder
    yield driver
    driver.quit()


def severe_console_errors(driver):
    """Console messages of level SEVERE (uncaught errors, failed loads)."""
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def wait_until(driver, script, *args, timeout=15, message=""):
    """Waits until the JavaScript expression `script` (a function body's return) is truthy."""
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: d.execute_script(script, *args))
    except TimeoutException:
        raise AssertionError(f"timed out waiting for: {message or script}") from None


def load(driver, url):
    driver.get(url)
    wait_until(driver, "return document.readyState === 'complete'")


def emulate_color_scheme(driver, scheme):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})


def fetch_bytes(url):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read()


def wait_for_download(folder, suffix, timeout=15):
    """The path of the finished download ending in `suffix`.

    Chromium reserves the final name with an empty file while the bytes still
    go to a `.crdownload` file, so a name alone is not a finished download:
    wait until no partial file is left and the file has bytes (every export
    the tests download has some)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        names = os.listdir(folder)
        done = [n for n in names if n.endswith(suffix)]
        partial = [n for n in names if n.endswith(".crdownload")]
        if done and not partial:
            path = os.path.join(folder, done[0])
            if os.path.getsize(path) > 0:
                return path
        time.sleep(0.1)
    raise AssertionError(f"no {suffix} file was downloaded into {folder}: {os.listdir(folder)}")
