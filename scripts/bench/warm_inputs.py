#!/usr/bin/env python3
"""Reads every file under the given folders once, so that a timed build finds its inputs in the
page cache, whichever build it is (ours or Hugo's).

    warm_inputs.py PATH [PATH ...]     (folders, or files such as the binary)

`make bench` runs it before each timed full build. This machine's page cache does not keep files
for long: minutes after a build, a third of the bench corpus's inputs had to be read from the
disk again (fincore, 2026-12-01), and a full build that read them cold took 56-196 s instead of
about 17 s. Without this, the full builds would time the disk's state at that moment, and ours,
which reads the Wikipedia cache's 43,665 files beside the records and media, more than Hugo's.
A path that is not there is passed over. Prints the number of files and bytes read.
"""
import os
import sys
from concurrent.futures import ThreadPoolExecutor


def files_under(folders):
    for folder in folders:
        if os.path.isfile(folder):
            yield folder
        for directory, _, names in os.walk(folder):
            for name in names:
                yield os.path.join(directory, name)


def read(path):
    try:
        with open(path, "rb", buffering=0) as f:
            total = 0
            while chunk := f.read(1 << 20):
                total += len(chunk)
            return total
    except OSError:
        return 0


def main(folders):
    if not folders:
        sys.exit("usage: warm_inputs.py PATH [PATH ...]  (folders, or files such as the binary)")
    paths = [p for p in files_under(folders) if os.path.isfile(p)]
    # Several reads at once: the disk answers a queue of them faster than one after another.
    with ThreadPoolExecutor(8) as pool:
        size = sum(pool.map(read, paths, chunksize=64))
    print(f"warm_inputs: {len(paths)} files, {size} bytes read")


if __name__ == "__main__":
    main(sys.argv[1:])
