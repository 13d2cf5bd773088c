#!/usr/bin/env python3
"""What any rebuild after a one-record edit must at least do to an output's two largest files:
the quiz catalogue (`assets/catalog.HASH.json`, named by its hash) and the full manifest of the
new pack version (`packs/v/N.json`, the pack contract). Each run maps both (copy on write),
changes one byte of each (one record's worth), hashes them with SHA-256 (Python's hashlib: the
CPU's SHA instructions where it has them) and writes each from the mapping to a new file in
DESTINATION, then renames it: no copy in user space.

    rewrite_floor.py OUTPUT DESTINATION [RUNS]

Prints a JSON object: the bytes rewritten and the wall time of each run, in seconds. The files
it writes in DESTINATION are left for the caller to delete.
"""
import glob
import hashlib
import json
import mmap
import os
import sys
import time


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: rewrite_floor.py OUTPUT DESTINATION [RUNS]")
    output, destination = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    catalogs = glob.glob(os.path.join(output, "assets", "catalog.*.json"))
    latest = os.path.join(output, "packs", "latest.json")
    if len(catalogs) != 1 or not os.path.exists(latest):
        sys.exit(f"rewrite_floor: {output} has no single assets/catalog.*.json and packs/latest.json")
    with open(latest, "rb") as f:
        manifest = os.path.join(output, "packs", json.load(f)["manifest"]["path"])
    os.makedirs(destination, exist_ok=True)
    seconds, rewritten = [], 0
    for run in range(runs):
        start = time.perf_counter()
        rewritten = 0
        for i, path in enumerate((catalogs[0], manifest)):
            # Mapped, not read: a rebuild has the previous file's bytes without copying them.
            with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_COPY) as data:
                middle = len(data) // 2
                data[middle] = (data[middle] + 1 + run) % 256
                hashlib.sha256(data).hexdigest()
                target = os.path.join(destination, f"file-{i}")
                with open(target + ".tmp", "wb", buffering=0) as out:
                    view = memoryview(data)
                    written = 0
                    while written < len(data):
                        written += out.write(view[written:])
                    view.release()
                os.rename(target + ".tmp", target)
                rewritten += len(data)
        seconds.append(time.perf_counter() - start)
    print(json.dumps({"bytes": rewritten, "seconds": seconds}))


if __name__ == "__main__":
    main()
