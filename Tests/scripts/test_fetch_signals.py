"""`bestiary fetch` stopped by a signal, as a shell or a CI's timeout stops it: the counts so far
are printed, and the status is the shell's for that signal (130 for Ctrl-C, 143 for SIGTERM,
which said 130 too). Against scripts/wikipedia_standin.py on loopback, slowed so the fetch is
still running when the signal comes (its 40 animals and their data are generated)."""
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BINARY = os.environ.get("BESTIARY", str(REPO / ".build" / "debug" / "bestiary"))
STANDIN = REPO / "scripts" / "wikipedia_standin.py"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def standin(tmp_path):
    port = free_port()
    data, site = tmp_path / "data", tmp_path / "site"
    generated = subprocess.run(
        [sys.executable, str(STANDIN), "generate", "--animals", "40", "--site", str(site), "--data", str(data),
         "--url", f"http://127.0.0.1:{port}"],
        capture_output=True, text=True)
    assert generated.returncode == 0, generated.stderr
    port_file = tmp_path / "port"
    server = subprocess.Popen(
        [sys.executable, str(STANDIN), "serve", "--data", str(data), "--port", str(port), "--port-file", str(port_file),
         "--latency-ms", "400", "--max-seconds", "120"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 20
        while not (port_file.exists() and port_file.read_text().strip()):
            assert time.time() < deadline and server.poll() is None, "the stand-in did not start"
            time.sleep(0.05)
        yield site
    finally:
        server.kill()
        server.wait()


# SIGHUP: a terminal closed or an SSH session dropped (a curator's fetch stopped without its
# counts, 129); but under `nohup`, which ignores it, the fetch goes on.
@pytest.mark.parametrize("sent, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_a_fetch_stopped_by_a_signal_exits_with_the_shells_status(standin, sent, status):
    # As from a terminal: a hang-up not ignored (a test run under nohup, or by a CI that ignores
    # it, would pass that on, and the fetch would rightly go on).
    fetch = subprocess.Popen([BINARY, "fetch", "--root", str(standin)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_DFL))
    try:
        # Stopped once it is under way (its output to a pipe comes only at its end): 74 articles
        # at 0.4 s each take far longer than this.
        time.sleep(2)
        assert fetch.poll() is None, "the fetch ended before the signal: the test would prove nothing"
        fetch.send_signal(sent)
        output = fetch.communicate(timeout=60)[0]
        assert fetch.returncode == status, output
    finally:
        if fetch.poll() is None:
            fetch.kill()
    lines = output.splitlines()
    assert lines[-1].startswith("interrupted: fetched "), "".join(lines)


def test_a_fetch_under_nohup_goes_on_after_a_hang_up(standin):
    fetch = subprocess.Popen(["nohup", BINARY, "fetch", "--root", str(standin)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        time.sleep(2)
        assert fetch.poll() is None, "the fetch ended before the signal: the test would prove nothing"
        fetch.send_signal(signal.SIGHUP)
        time.sleep(1.5)
        assert fetch.poll() is None, "a hang-up stopped a fetch started under nohup"
        fetch.send_signal(signal.SIGINT)
        output = fetch.communicate(timeout=60)[0]
        assert fetch.returncode == 130, output
    finally:
        if fetch.poll() is None:
            fetch.kill()
