#!/usr/bin/env python3
"""The cost of only making an output tree's entries on this disk: `cp -al` of a finished
output (hard links and folders, no byte of any file written) into a new folder, on both cores.

    link_floor.py SOURCE DESTINATION [RUNS]

The top-level entries of SOURCE are split into two groups of about as many entries each, and
one `cp -al` per group runs at the same time. Prints a JSON object: the entries (files and
folders) and the wall time of each run, in seconds. Every DESTINATION-N it makes is left for
the caller to delete (a deletion right before a timing slows it: docs/BENCHMARKS.md, "The disk").
A build makes at least these entries. `cp -al` also reads the source tree and copies the
folders' times and modes, which a build need not do: the fewest calls (`mkdir` and `link` alone,
measured by hand) took 10-15 % less. So this is a floor within about a seventh.
"""
import json
import os
import subprocess
import sys
import time


def count(path):
    if not os.path.isdir(path) or os.path.islink(path):
        return 1
    total = 1
    for _, dirs, files in os.walk(path):
        total += len(dirs) + len(files)
    return total


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: link_floor.py SOURCE DESTINATION [RUNS]")
    source, destination = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    if not os.path.isdir(source):
        sys.exit(f"link_floor: {source} is not a folder (build the output first)")
    taken = [f"{destination}-{run}" for run in range(1, runs + 1) if os.path.lexists(f"{destination}-{run}")]
    if taken:
        sys.exit(f"link_floor: {taken[0]} is already there; choose another DESTINATION or remove it")
    entries = sorted(((count(os.path.join(source, name)), name) for name in os.listdir(source)), reverse=True)
    groups = ([], [])
    sizes = [0, 0]
    for size, name in entries:  # largest first, each to the lighter group
        lighter = 0 if sizes[0] <= sizes[1] else 1
        groups[lighter].append(name)
        sizes[lighter] += size
    seconds = []
    for run in range(1, runs + 1):
        target = f"{destination}-{run}"
        os.makedirs(target)
        start = time.perf_counter()
        copies = [subprocess.Popen(["cp", "-al", "--", *group, target], cwd=source) for group in groups if group]
        if any(c.wait() != 0 for c in copies):
            sys.exit(f"link_floor: cp -al of {source} failed")
        seconds.append(time.perf_counter() - start)
    print(json.dumps({"entries": sum(sizes), "seconds": seconds}))


if __name__ == "__main__":
    main()
