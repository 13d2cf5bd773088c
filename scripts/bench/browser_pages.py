#!/usr/bin/env python3
"""Times the big list pages of a built site in headless Chromium.

    .venv/bin/python scripts/bench/browser_pages.py OUTPUT [--runs N] [--port P]

OUTPUT is a built site (the bench's 10,000-animal one: `bench-work/corpus-10000/site/output`
after `make bench`). Serves it on 127.0.0.1 and loads the collection, sightings and credits pages
of the default language N times each (5 by default), printing the medians of the wall time from
navigation to the second frame after it, and of Chromium's own task, script, layout and style
times (`Performance.getMetrics`, seconds of the renderer's main thread). Then types into the
collection's search and prints the median time from each keystroke to the next frame. The
machine is shared: compare runs made one after the other, not with another day's.
Needs the test environment (`make test` makes `.venv` with Selenium; Debian's chromium).
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "browser"))
from conftest import new_driver  # noqa: E402  (the tests' Chromium settings)

METRICS = ["TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration"]
TWO_FRAMES = "const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(() => done()));"
KEYSTROKE = """
  const done = arguments[1]; const input = document.querySelector('[data-collection-search]');
  const t = performance.now(); input.value = arguments[0]; input.dispatchEvent(new Event('input', {bubbles: true}));
  requestAnimationFrame(() => setTimeout(() => done(performance.now() - t), 0));"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("output")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(args.port), "--bind", "127.0.0.1", "-d", args.output],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    driver = None
    try:
        time.sleep(1)
        driver = new_driver()
        print("page          wall     task   script   layout    style  (s, medians)")
        for page in ["collection/", "sightings/", "credits/"]:
            rows = []
            for _ in range(args.runs):
                driver.get("about:blank")
                driver.execute_cdp_cmd("Performance.disable", {})
                driver.execute_cdp_cmd("Performance.enable", {})
                start = time.time()
                driver.get(f"http://127.0.0.1:{args.port}/{page}")
                driver.execute_async_script(TWO_FRAMES)
                wall = time.time() - start
                metrics = {m["name"]: m["value"] for m in driver.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]}
                rows.append([wall] + [metrics[name] for name in METRICS])
            medians = [statistics.median(column) for column in zip(*rows)]
            print(f"{page:12}" + "".join(f"{m:9.2f}" for m in medians))
        driver.get(f"http://127.0.0.1:{args.port}/collection/")
        driver.execute_async_script(TWO_FRAMES)
        times = [driver.execute_async_script(KEYSTROKE, q) for q in ["a", "ab", "abc", "", "x", "", "e", ""]]
        print(f"collection search, keystroke to frame: median {statistics.median(times):.0f} ms of {len(times)}")
    finally:
        if driver:
            driver.quit()
        server.terminate()


if __name__ == "__main__":
    main()
