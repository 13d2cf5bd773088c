#!/usr/bin/env bash
# `make bench`: speed and memory of the real pipeline on a GENERATED corpus (docs/BENCHMARKS.md).
#
#   scripts/bench.sh            10,000 animals (BENCH_ANIMALS=N for another size)
#
# 1. generates the corpus and an equivalent Hugo site (scripts/bench/make_corpus.py), and a second
#    Hugo site making the same animal pages and site media as our build (scripts/bench/hugo_same.py),
# 2. fills its Wikipedia cache from the local stand-in (scripts/wikipedia_standin.py): fetch throughput,
# 3. times with hyperfine (medians): full build from nothing (alternating with Hugo's full build
#    of the same animals, and the second Hugo site's, when hugo is installed), no-op rebuild, rebuild
#    after a one-record edit, and the preview's rebuild after the same edit (scripts/bench/preview_edit.py),
# 4. peak memory (RSS) of a full build with /usr/bin/time -v, and of a one-record rebuild (median of three),
# 5. the floors: under any build of this output, its entries made as hard links (`cp -al`), and
#    Hugo's; under a one-record rebuild, its catalogue and manifest rewritten, and the no-op,
# 6. an import of 1,000 CSV rows into the corpus (a dry run),
# 7. the site's own pack after the edits (manifest and one-record delta sizes), and on
#    PackBench's generated pack the delta size and the client's apply time,
# then prints a Markdown table (also in bench-work/RESULTS.md) with each time as a ratio to Hugo's.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
n="${BENCH_ANIMALS:-10000}"
runs="${BENCH_RUNS:-3}"
work="$repo/bench-work"
corpus="$work/corpus-$n"
port="${BENCH_PORT:-8089}"

echo "bench: building bestiary (release)"
# As `make release` builds it (Swift's libraries linked in: 6 ms less to start).
swift build -c release --static-swift-stdlib --product bestiary >/dev/null
swift build -c release --static-swift-stdlib --product PackBench >/dev/null
bin="$repo/.build/release/bestiary"
packbench="$repo/.build/release/PackBench"

mkdir -p "$work"
# Full builds' previous outputs are moved aside (see below) and deleted when the script ends,
# after every measurement; what a failed run left is deleted now, before the fetch.
trash="$work/moved-aside"
rm -rf "$trash"
standin=""
trap 'if [ -n "$standin" ]; then kill "$standin" 2>/dev/null || true; fi; if [ -d "$trash" ]; then echo "bench: deleting the outputs moved aside"; rm -rf "$trash"; fi' EXIT
# A corpus names its stand-in's address (in site.yml and the pictures' URLs): one made for
# another BENCH_PORT is made again.
if [ ! -f "$corpus/README.txt" ] || ! grep -qF "127.0.0.1:$port/" "$corpus/site/content/site.yml" 2>/dev/null; then
  echo "bench: generating $n animals into $corpus (GENERATED data)"
  # An old corpus is moved aside, not deleted before the timings (see "aside" below).
  if [ -e "$corpus" ]; then mkdir -p "$trash"; mv "$corpus" "$trash/corpus-$(date +%s%N)"; fi
  python3 scripts/bench/make_corpus.py "$n" "$corpus" --hugo --standin-url "http://127.0.0.1:$port"
fi
site="$corpus/site"

# Fetch from the stand-in (from an empty cache, so the throughput is measured every run;
# BENCH_SKIP_FETCH=1 keeps the cache of an earlier run).
if [ "${BENCH_SKIP_FETCH:-0}" = 1 ] && [ -d "$site/content/wikipedia" ]; then
  articles=0; fetch_rate=0
else
  # Another server on the port would answer the fetch with another corpus's articles (a stand-in
  # left running from an earlier run: 10,710 of 14,555 articles "not found").
  if curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$port/" 2>/dev/null; then
    echo "bench: something already answers on 127.0.0.1:$port (a Wikipedia stand-in left running?); stop it, or choose another port with BENCH_PORT=N" >&2
    exit 1
  fi
  python3 scripts/wikipedia_standin.py serve --data "$corpus/standin" --port "$port" >"$work/standin.log" 2>&1 &
  standin=$!
  for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/__stats" >/dev/null 2>&1 && break; sleep 0.1; done
  if ! kill -0 "$standin" 2>/dev/null; then
    echo "bench: the Wikipedia stand-in did not start ($work/standin.log says why); BENCH_PORT=N chooses another port" >&2
    exit 1
  fi
  rm -rf "$site/content/wikipedia"
  echo "bench: fetching the Wikipedia cache from the stand-in"
  start=$(date +%s.%N)
  "$bin" fetch --root "$site" --concurrency 8 --rate 1000 2>"$work/fetch.log" >/dev/null
  end=$(date +%s.%N)
  articles=$(grep -o 'fetched [0-9]*' "$work/fetch.log" | tail -1 | awk '{print $2}')
  fetch_rate=$(echo "$articles / ($end - $start)" | bc -l)
  kill $standin 2>/dev/null || true
  standin=""
fi

export SOURCE_DATE_EPOCH=1767225600
record=$(cd "$site/content/animals" && for f in *.md; do echo "$f"; break; done)
# A full build from nothing: the previous output (and what a build keeps beside it) is moved
# aside, not deleted, and the moved outputs are deleted when the script ends. This machine's
# ext4 has no journal, and such a file system does not reuse an inode freed in the last 60 s
# (360 s while its table block is unwritten): each new inode is found past every recently freed
# one (`recently_deleted` in the kernel's profile). A build right after an `rm -rf` of the last
# output's 100,000 files measured that deletion as well (Hugo: 6.3–7.3 s instead of 3.6–4.2 s).
aside() { echo "mkdir -p $trash; for p in $*; do if [ -e \$p ]; then mv \$p $trash/\$(date +%s%N); fi; done"; }
clean="$(aside "$site/output" "$site/.output.bestiary-*"); rm -f $site/content/packs.lock"
edit="python3 -c \"import sys,re; p=sys.argv[1]; s=open(p).read(); s=re.sub(r'difficulty: (\\\\d)', lambda m: 'difficulty: ' + str(int(m.group(1)) % 3 + 1), s, 1); open(p,'w').write(s)\" $site/content/animals/$record"

echo "bench: timing (hyperfine, $runs runs each)"
hf=(hyperfine --style basic --export-json)
has_hugo=0
if command -v hugo >/dev/null 2>&1; then has_hugo=1; fi
# Hugo making our build's animal pages and media: two languages, the pictures and sounds. Made
# from the corpus (not fetched), again only when hugo_same.py changed (its hash is the stamp); an
# older one is moved aside, not deleted before the timings.
same_stamp=$(sha256sum scripts/bench/hugo_same.py | cut -d' ' -f1)
if [ "$has_hugo" = 1 ] && [ "$(cat "$corpus/hugo-same/.made-by" 2>/dev/null || true)" != "$same_stamp" ]; then
  echo "bench: making the Hugo site of the same animal pages and media (GENERATED data)"
  if [ -e "$corpus/hugo-same" ]; then mkdir -p "$trash"; mv "$corpus/hugo-same" "$trash/hugo-same-$(date +%s%N)"; fi
  python3 scripts/bench/hugo_same.py "$corpus"
  echo "$same_stamp" > "$corpus/hugo-same/.made-by"
fi
# Our full builds and Hugo's alternate, one run each at a time, so that both meet the machine
# alike (it is shared: Hugo alone took 2.6 s in one run and 3.8 s in another).
rm -f "$work"/full*.json "$work"/hugo*.json
# Each full build finds its inputs in the page cache (scripts/bench/warm_inputs.py: this machine's
# cache lets files go within minutes, and a build reading them cold timed the disk instead), and
# no earlier writes still going to the disk (`sync`: the fetch's 44,000 files and the last
# build's output would otherwise be written back during the next build, whichever it is).
warm="python3 $repo/scripts/bench/warm_inputs.py"
hugo_bin=$(command -v hugo || true)
for i in $(seq "$runs"); do
  "${hf[@]}" "$work/full-$i.json" --runs 1 --prepare "$clean; $warm $site/content $bin; sync" "$bin build --root $site" >/dev/null
  if [ "$has_hugo" = 1 ]; then
    "${hf[@]}" "$work/hugo-$i.json" --runs 1 --prepare "$(aside "$corpus/hugo/public"); $warm $corpus/hugo/content $corpus/hugo/static $corpus/hugo/layouts $corpus/hugo/config.toml $hugo_bin; sync" "hugo --quiet --source $corpus/hugo" >/dev/null
    "${hf[@]}" "$work/hugo-same-$i.json" --runs 1 --prepare "$(aside "$corpus/hugo-same/public"); $warm $corpus/hugo-same $hugo_bin; sync" "hugo --quiet --source $corpus/hugo-same" >/dev/null
  fi
done
"$bin" build --root "$site" >/dev/null 2>&1
"${hf[@]}" "$work/noop.json" --runs 10 --warmup 1 "$bin build --root $site" >/dev/null
# The first rebuild after a full build has no spare output to stage in yet (it links the whole
# output once): it is timed on its own, and the one-record rebuild is the median of the runs after it.
"${hf[@]}" "$work/first-edit.json" --runs 1 --prepare "$edit" "$bin build --root $site" >/dev/null
"${hf[@]}" "$work/edit.json" --runs "$runs" --prepare "$edit" "$bin build --root $site" >/dev/null
# The one-record rebuild's peak memory, the median of three (it reads what the last build kept, and
# holds what it frees for reuse rather than returning it: docs/rebuilds.md).
edit_rss=""
for i in 1 2 3; do
  eval "$edit"
  if ! /usr/bin/time -v -o "$work/edit-rss.txt" "$bin" build --root "$site" >/dev/null 2>"$work/edit-rss.log"; then
    echo "bench: a one-record rebuild failed:" >&2
    cat "$work/edit-rss.log" >&2
    exit 1
  fi
  edit_rss="$edit_rss $(awk '/Maximum resident/ {print $6}' "$work/edit-rss.txt")"
done
# The site's own pack after the edits: its manifest and its delta from the version before.
cp "$site/output/packs/latest.json" "$work/latest-after-edit.json"
hugo_rss=""
hugo_same_rss=""
if [ "$has_hugo" = 1 ]; then
  hugo_rss=$( { eval "$(aside "$corpus/hugo/public")"; /usr/bin/time -v hugo --quiet --source "$corpus/hugo" >/dev/null; } 2>&1 | awk '/Maximum resident/ {print $6}')
  hugo_same_rss=$( { eval "$(aside "$corpus/hugo-same/public")"; /usr/bin/time -v hugo --quiet --source "$corpus/hugo-same" >/dev/null; } 2>&1 | awk '/Maximum resident/ {print $6}')
fi

eval "$clean"
rss=$( { /usr/bin/time -v "$bin" build --root "$site" >/dev/null 2>"$work/build.log"; } 2>&1 | awk '/Maximum resident/ {print $6}')
rss=${rss:-$(awk '/Maximum resident/ {print $6}' "$work/build.log")}
pages=$(grep -o 'built [0-9]* pages' "$work/build.log" | awk '{print $2}')
identical="no"
BESTIARY_JOBS=1 "$bin" build --root "$site" --output "$work/sequential" --force >/dev/null 2>&1
if diff -r -q "$site/output" "$work/sequential" >/dev/null; then identical="yes"; fi
eval "$(aside "$work/sequential" "$work/.sequential.bestiary-*")"  # deleted at the end, not before PackBench's writes

# The floor under any build of this output: its entries made as hard links and folders, no byte
# written (`cp -al` on both cores), and the same for Hugo's output. The copies go with the trash.
mkdir -p "$trash"
floor=$(python3 scripts/bench/link_floor.py "$site/output" "$trash/floor-ours" "$runs")
hugo_floor=""
if [ "$has_hugo" = 1 ] && [ -d "$corpus/hugo/public" ]; then
  hugo_floor=$(python3 scripts/bench/link_floor.py "$corpus/hugo/public" "$trash/floor-hugo" "$runs")
fi
# The floor under a one-record rebuild's writes: the catalogue and the new version's manifest
# mapped, changed, hashed and written (a rebuild must rewrite both whole), as often as the no-op ran.
rewrite_floor=$(python3 scripts/bench/rewrite_floor.py "$site/output" "$trash/floor-rewrite" 10)

# The preview (`bestiary serve`, which keeps the build in memory) after the same one-record edit:
# the rebuild times its own log gives, the first after it starts left out (that one may wait for
# the session's first build). It updates the output in place, as for a user, and runs last of the
# builds for that reason.
preview=$(python3 scripts/bench/preview_edit.py "$bin" "$site" "content/animals/$record" "$runs")
echo "$preview" > "$work/preview.json"

# Importing into a site of this size: 1,000 new CSV rows, each with a sound of its own (GENERATED:
# a corpus sound with the row's number appended), planned against every record (a dry run: nothing
# is written). A scan of the site per row once made 2,000 rows take a minute.
importdir="$work/import"
rm -rf "$importdir" && mkdir -p "$importdir"
python3 - "$site" "$importdir" <<'PY'
import os, sys
site, out = sys.argv[1:]
sounds = os.path.join(site, "content", "sounds")
first = sorted(f for f in os.listdir(sounds) if f.endswith(".wav"))[0]
sound = open(os.path.join(sounds, first), "rb").read()
rows = ["id,name.de,name.en,group,sound.file,sound.credit"]
for i in range(1000):
    with open(os.path.join(out, f"import-{i}.wav"), "wb") as f:
        f.write(sound + i.to_bytes(4, "big"))
    rows.append(f"imported-{i},Importvogel {i},Imported bird {i},bird,import-{i}.wav,Generated for the benchmark")
open(os.path.join(out, "rows.csv"), "w").write("\n".join(rows) + "\n")
PY
"${hf[@]}" "$work/import.json" --runs 3 "$bin import $importdir/rows.csv --format csv --root $site --dry-run" >/dev/null

packs=$("$packbench" "$n" 2>/dev/null | tr -d '\n')

python3 - "$work" "$n" "$pages" "$rss" "$has_hugo" "${hugo_rss:-}" "$fetch_rate" "$articles" "$identical" "$packs" "$floor" "$hugo_floor" "$rewrite_floor" "${hugo_same_rss:-}" "$preview" "$edit_rss" <<'EOF'
import glob, json, platform, statistics, subprocess, sys, datetime, os
work, n, pages, rss, has_hugo, hugo_rss, rate, articles, identical, packs, floor, hugo_floor, rewrite_floor, hugo_same_rss, preview, edit_rss = sys.argv[1:]
def times(name):
    """Every run's time: NAME.json (one hyperfine call) or NAME-1.json, NAME-2.json… (one run each)."""
    files = sorted(glob.glob(os.path.join(work, name + "-[0-9]*.json"))) or [os.path.join(work, name + ".json")]
    return [t for f in files for t in json.load(open(f))["results"][0]["times"]]
def median(name):
    return statistics.median(times(name))
hugo = median("hugo") if has_hugo == "1" else None
def ratio(x, goal):
    if hugo is None:
        return "n/a (no hugo)", ""
    r = x / hugo
    return f"{r:.3f} ×", ("yes" if r <= goal else "**no**")
rows = []
for label, name, goal in (("full build from nothing", "full", 0.5), ("no-op rebuild", "noop", 0.05),
                          ("rebuild after a one-record edit (the runs after the first)", "edit", 0.1)):
    m = median(name)
    r, ok = ratio(m, goal)
    rows.append(f"| {label} | {m:.3f} s | {r} | ≤ {goal} × | {ok} |")
first = median("first-edit")
rows.append(f"| the first rebuild after a full build (no spare output yet: once per full build) | {first:.3f} s | {ratio(first, 0.1)[0]} | | |")
if preview:
    m = statistics.median(json.loads(preview)["seconds"])
    rows.append(f"| the preview's rebuild after the same edit (`bestiary serve`, the build kept in memory; the runs after the first) | {m:.3f} s | {ratio(m, 0.1)[0]} | | |")
mib = int(rss) / 1024 if rss else float("nan")
rows.append(f"| peak memory (RSS), full build | {mib:.0f} MiB | | ≤ 300 MiB | {'yes' if mib <= 300 else '**no**'} |")
edit_peaks = [int(k) for k in edit_rss.split()]
if edit_peaks:
    rows.append(f"| peak memory (RSS), one-record rebuild (median of {len(edit_peaks)}) | {statistics.median(edit_peaks) / 1024:.0f} MiB | | | |")
rows.append(f"| output identical to a sequential build (BESTIARY_JOBS=1) | {identical} | | yes | {'yes' if identical == 'yes' else '**no**'} |")
if hugo is not None:
    rows.append(f"| Hugo {subprocess.run(['hugo', 'version'], capture_output=True, text=True).stdout.split()[1]} full build (same animals, one language) | {hugo:.3f} s | 1 × | | |")
    if hugo_rss:
        rows.append(f"| Hugo peak memory | {int(hugo_rss) / 1024:.0f} MiB | | | |")
    # Not the goal's comparison (that is the issue's site above): Hugo making the same animal pages and
    # site media as our build, all but the quiz and the packs.
    same = median("hugo-same")
    rows.append(f"| Hugo full build of the same animal pages and site media ({2 * int(n):,} pages in 2 languages, their pictures and sounds, copied; no card lists, quiz or packs: scripts/bench/hugo_same.py) | {same:.3f} s | {ratio(same, 1)[0]} | | |")
    if hugo_same_rss:
        rows.append(f"| its peak memory | {int(hugo_same_rss) / 1024:.0f} MiB | | | |")
    rows.append(f"| our full build as a ratio to that Hugo build (ours also makes the card lists, the quiz and the packs) | {median('full') / same:.3f} × | | | |")
for label, measured in (("making this output's {} entries alone, hard links and folders (`cp -al` on both cores, no byte written)", floor),
                        ("the same for Hugo's output ({} entries)", hugo_floor)):
    if measured:
        made = json.loads(measured)
        m = statistics.median(made["seconds"])
        entries = format(made["entries"], ",")
        rows.append(f"| {label.format(entries)} | {m:.3f} s | {ratio(m, 1)[0]} | | |")
if rewrite_floor:
    rewrite = json.loads(rewrite_floor)
    m = statistics.median(rewrite["seconds"])
    megabytes = rewrite["bytes"] / 1e6
    rows.append(f"| rewriting the catalogue and the new version's manifest alone ({megabytes:.0f} MB mapped, one byte changed, hashed, written) | {m:.3f} s | {ratio(m, 1)[0]} | | |")
    floor_edit = m + median("noop")
    rows.append(f"| so the floor under a one-record rebuild: that and the no-op's walk, before any page is rendered | {floor_edit:.3f} s | {ratio(floor_edit, 0.1)[0]} | | |")
rows.append(f"| import of 1,000 new CSV rows with a sound each into this site (planned, a dry run) | {median('import'):.3f} s | | | |")
rows.append(f"| fetch from the local stand-in | {float(rate):.0f} articles/s ({articles} articles) | | | |")
try:
    latest = json.load(open(os.path.join(work, "latest-after-edit.json")))
    delta = next((d for d in latest["deltas"] if d["from"] == latest["version"] - 1), None)
    rows.append(f"| this site's pack after a one-record edit | delta {delta['bytes'] if delta else '?'} bytes, full manifest {latest['manifest']['bytes']} bytes | | | |")
except Exception as e:
    rows.append(f"| this site's pack after a one-record edit | not read ({e}) | | | |")
try:
    p = json.loads(packs)
    rows.append(f"| PackBench's own generated pack ({n} short records): one-record delta | {p.get('delta_bytes', '?')} bytes (full manifest {p.get('manifest_bytes', '?')}) | | | |")
    rows.append(f"| PackBench: client syncs that delta (verify + apply) | {p.get('delta_sync_seconds', '?')} s (full sync {p.get('full_sync_seconds', '?')} s) | | | |")
except Exception:
    rows.append(f"| pack benchmark | {packs or 'did not run'} | | | |")
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
head = [f"Measured {datetime.date.today()} on {platform.node()}: {os.cpu_count()} cores ({cpu}), "
        f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') >> 30} GiB, {platform.platform()}.",
        f"Corpus: {n} GENERATED animals, 2 languages, {pages} pages; medians of hyperfine runs.", "",
        "| measure | ours | ratio to Hugo | goal | met |", "| --- | --- | --- | --- | --- |"]
text = "\n".join(head + rows) + "\n"
open(os.path.join(work, "RESULTS.md"), "w").write(text)
print(text)
EOF
