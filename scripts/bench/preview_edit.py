#!/usr/bin/env python3
"""How long the preview (`bestiary serve`) takes to rebuild a site after a one-record edit, as
its own log reports it: "rebuilt in 3.72 s after content/animals/X.md".

    preview_edit.py BESTIARY ROOT RECORD [EDITS]

Starts `bestiary serve --root ROOT` on a free loopback port and waits until it serves (when it
began on an output a build left up to date, also until it holds the site in memory: an edit
made before would be part of that build and cause no rebuild of its own). Then edits RECORD (a
path under ROOT) EDITS + 1 times, one at a time: each edit cycles the record's first
`difficulty: N` (1 → 2 → 3 → 1), the same edit `make bench` times for `bestiary build`, and
waits for the rebuild it causes. The first rebuild is left out. Prints a JSON object: each later
rebuild's seconds. The preview updates ROOT's output in place, as it does for a user; it never
records pack versions. Gives up after 240 s without the line it waits for.
"""
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

REBUILT = re.compile(r"rebuilt in ([0-9.]+) s after (.*?):")
TIMEOUT = 240


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def edit(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    changed, count = re.subn(r"difficulty: (\d)", lambda m: f"difficulty: {int(m.group(1)) % 3 + 1}", text, count=1)
    if count != 1:
        sys.exit(f"preview_edit: {path} has no `difficulty: N` line to edit")
    with open(path, "w", encoding="utf-8") as f:
        f.write(changed)


class Log:
    """The preview's stderr, read on a thread: every line kept, waited on by pattern."""

    def __init__(self, stream):
        self.lines = []
        self.cond = threading.Condition()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream):
        for line in stream:
            with self.cond:
                self.lines.append(line)
                self.cond.notify_all()
        with self.cond:
            self.lines.append(None)
            self.cond.notify_all()

    def wait(self, start, predicate, what):
        """The first line from index `start` on for which `predicate` is true, and its index."""
        deadline = time.monotonic() + TIMEOUT
        with self.cond:
            while True:
                for i in range(start, len(self.lines)):
                    line = self.lines[i]
                    if line is None:
                        sys.exit(f"preview_edit: the preview ended while waiting for {what}:\n" + "".join(l for l in self.lines if l))
                    if predicate(line):
                        return i, line
                start = len(self.lines)
                left = deadline - time.monotonic()
                if left <= 0:
                    sys.exit(f"preview_edit: no {what} within {TIMEOUT} s:\n" + "".join(l for l in self.lines if l))
                self.cond.wait(left)


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit("usage: preview_edit.py BESTIARY ROOT RECORD [EDITS]")
    binary, root, record = sys.argv[1:4]
    edits = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    path = os.path.join(root, record)
    if not os.path.isfile(path):
        sys.exit(f"preview_edit: {path} is not a file")
    # In a session of its own, so that it is stopped with this script whatever ends it.
    proc = subprocess.Popen(
        [binary, "serve", "--root", root, "--port", str(free_port())],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        log = Log(proc.stderr)
        at, _ = log.wait(0, lambda l: l.startswith("serving "), "\"serving\" line")
        if any("output is up to date" in l for l in log.lines[:at] if l):
            at, _ = log.wait(at + 1, lambda l: l.startswith("note: held the site in memory") or l.startswith("note: could not hold")
                             or "after changes everywhere" in l, "end of the session's first build in memory")
        seconds = []
        for n in range(edits + 1):
            edit(path)
            at, line = log.wait(at + 1, lambda l: "build failed" in l or "output is up to date" in l
                                or record in (REBUILT.search(l) or [None, None, ""])[2], "rebuild after the edit")
            match = REBUILT.search(line)
            if not match:
                what = "the rebuild after the edit failed" if "build failed" in line else "the edit caused no rebuild"
                sys.exit(f"preview_edit: {what}: {line.strip()}")
            if n > 0:
                seconds.append(float(match.group(1)))
        print(json.dumps({"seconds": seconds}))
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


if __name__ == "__main__":
    main()
