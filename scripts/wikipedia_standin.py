#!/usr/bin/env python3
"""A local stand-in for Wikipedia's summary endpoint, its image server and Commons' imageinfo API.

It lets `bestiary fetch` be tried (and benchmarked) without the network, with faults injected:

    # a 300-animal site root and the stand-in's data (both generated, not real animals)
    python3 scripts/wikipedia_standin.py generate --animals 300 --site /tmp/trial/site \
        --data /tmp/trial/data --url http://127.0.0.1:8765

    # serve it, failing 10 % of requests with 500 and 5 % with 429 + Retry-After: 1
    python3 scripts/wikipedia_standin.py serve --data /tmp/trial/data --port 8765 \
        --fail-rate 0.1 --throttle-rate 0.05 --retry-after 1 --latency-ms 20

    curl -s http://127.0.0.1:8765/__stats      # request statistics (JSON)
    curl -s -X POST http://127.0.0.1:8765/__reset

Routes (as the real services answer them):
  GET /LANG/api/rest_v1/page/summary/TITLE   summary JSON (gzip when asked); ETag "REV/TID"; If-None-Match -> 304;
                                             a redirect title -> 302 with a protocol-relative
                                             Location (//host/LANG/api/rest_v1/page/summary/TARGET);
                                             unknown -> 404 {"status":404,"type":"Internal error"}
  GET /upload/...                            image bytes; a thumbnail width that is not a standard
                                             step -> 429 "Use thumbnail steps" + Retry-After: 10
  GET /w/api.php?action=query&prop=imageinfo&titles=File:X   Commons imageinfo with extmetadata
  GET /__stats, POST /__reset                statistics (never faulted)

Data folder layout (written by `generate`):
  summaries/LANG/TITLE.json   (TITLE = canonical title, percent-encoded)
  redirects/LANG.json         {"Requested_title": "Canonical_title"}
  upload/...                  image files at their URL paths
  commons.json                {"File:Name.png": {"artist":…, "credit":…, "license":…, "license_url":…}}
Standard library only (Python 3.9+).
"""

import argparse
import collections
import gzip
import hashlib
import json
import os
import random
import re
import struct
import sys
import threading
import time
import urllib.parse
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

STANDARD_WIDTHS = {20, 40, 60, 120, 250, 330, 500, 960, 1280, 1920, 3840}


def normalize(title):
    title = re.sub(r"[ _\u00a0\t]+", "_", title.strip())
    if title and len(title[0].upper()) == 1:
        title = title[0].upper() + title[1:]
    return title


def encode_title(title):
    return urllib.parse.quote(title, safe="")


# --------------------------------------------------------------------------------------------
# serve


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        self.started = time.time()
        self.requests = 0
        self.by_status = collections.Counter()
        self.by_kind = collections.Counter()
        self.injected_500 = 0
        self.injected_429 = 0
        self.not_modified = 0
        self.bodies = 0  # 200 responses with a body
        self.body_bytes = 0
        self.summary_bodies = collections.Counter()  # "lang:Title" -> 200 summary bodies sent
        self.summary_requests = collections.Counter()  # "lang:Title" -> requests (retries included)
        self.image_bodies = collections.Counter()
        self.user_agents = collections.Counter()
        self.in_flight = 0
        self.max_in_flight = 0

    def snapshot(self):
        with self.lock:
            twice = sorted(k for k, v in self.summary_bodies.items() if v > 1)
            return {
                "generated_by": "scripts/wikipedia_standin.py",
                "seconds": round(time.time() - self.started, 3),
                "requests": self.requests,
                "by_status": dict(sorted((str(k), v) for k, v in self.by_status.items())),
                "by_kind": dict(sorted(self.by_kind.items())),
                "injected_500": self.injected_500,
                "injected_429": self.injected_429,
                "not_modified": self.not_modified,
                "bodies": self.bodies,
                "body_bytes": self.body_bytes,
                "summary_bodies": sum(self.summary_bodies.values()),
                "distinct_titles_with_body": len(self.summary_bodies),
                "titles_with_more_than_one_body": twice,
                "max_summary_requests_for_one_title": max(self.summary_requests.values(), default=0),
                "image_bodies": sum(self.image_bodies.values()),
                "images_sent_more_than_once": sorted(k for k, v in self.image_bodies.items() if v > 1),
                "max_in_flight": self.max_in_flight,
                "user_agents": dict(self.user_agents),
            }


class StandIn:
    def __init__(self, args):
        self.data = args.data
        self.fail_rate = args.fail_rate
        self.throttle_rate = args.throttle_rate
        self.retry_after = args.retry_after
        self.latency = args.latency_ms / 1000.0
        self.random = random.Random(args.seed)
        self.random_lock = threading.Lock()
        self.stats = Stats()
        self.redirects = {}
        rdir = os.path.join(self.data, "redirects")
        if os.path.isdir(rdir):
            for name in os.listdir(rdir):
                if name.endswith(".json"):
                    with open(os.path.join(rdir, name), encoding="utf-8") as f:
                        self.redirects[name[:-5]] = {normalize(k): v for k, v in json.load(f).items()}
        commons = os.path.join(self.data, "commons.json")
        self.commons = {}
        if os.path.exists(commons):
            with open(commons, encoding="utf-8") as f:
                self.commons = json.load(f)

    def roll(self):
        with self.random_lock:
            return self.random.random()


def make_handler(standin):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "WikipediaStandIn/1"

        def log_message(self, fmt, *args):  # quiet; statistics tell the story
            pass

        def send(self, status, body=b"", headers=(), control=False):
            stats = standin.stats
            if not control:  # /__stats and /__reset are not part of the statistics
                with stats.lock:
                    stats.by_status[status] += 1
                    if status == 200 and body:
                        stats.bodies += 1
                        stats.body_bytes += len(body)
                    if status == 304:
                        stats.not_modified += 1
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if body and self.command != "HEAD":
                self.wfile.write(body)

        def do_POST(self):
            if self.path == "/__reset":
                standin.stats.reset()
                self.send(200, b'{"reset":true}', [("Content-Type", "application/json")], control=True)
            else:
                self.send(405, control=True)

        def do_GET(self):
            parsed = urllib.parse.urlsplit(self.path)
            if parsed.path == "/__stats":
                body = json.dumps(standin.stats.snapshot(), indent=2, sort_keys=True).encode()
                self.send(200, body, [("Content-Type", "application/json")], control=True)
                return
            stats = standin.stats
            with stats.lock:
                stats.requests += 1
                stats.user_agents[self.headers.get("User-Agent", "(none)")] += 1
                stats.in_flight += 1
                stats.max_in_flight = max(stats.max_in_flight, stats.in_flight)
            try:
                if standin.latency:
                    time.sleep(standin.latency)
                roll = standin.roll()
                if roll < standin.fail_rate:
                    with stats.lock:
                        stats.injected_500 += 1
                    self.send(500, b"Injected failure", [("Content-Type", "text/plain")])
                    return
                if roll < standin.fail_rate + standin.throttle_rate:
                    with stats.lock:
                        stats.injected_429 += 1
                    self.send(429, b"Too many requests (injected)",
                              [("Content-Type", "text/plain"), ("Retry-After", str(standin.retry_after))])
                    return
                m = re.match(r"^/([a-z][a-z0-9-]*)/api/rest_v1/page/summary/([^/]+)$", parsed.path)
                if m:
                    self.summary(m.group(1), urllib.parse.unquote(m.group(2)))
                elif parsed.path.startswith("/upload/"):
                    self.upload(parsed.path)
                elif parsed.path == "/w/api.php":
                    self.imageinfo(urllib.parse.parse_qs(parsed.query))
                else:
                    self.send(404, b'{"status":404,"type":"Internal error"}', [("Content-Type", "application/json")])
            finally:
                with stats.lock:
                    stats.in_flight -= 1

        def summary(self, lang, raw_title):
            stats = standin.stats
            title = normalize(raw_title)
            key = f"{lang}:{title}"
            with stats.lock:
                stats.by_kind["summary"] += 1
                stats.summary_requests[key] += 1
            target = standin.redirects.get(lang, {}).get(title)
            if target:
                host = self.headers.get("Host", "127.0.0.1")
                location = f"//{host}/{lang}/api/rest_v1/page/summary/{encode_title(target)}"
                self.send(302, b"", [("Location", location)])
                return
            path = os.path.join(standin.data, "summaries", lang, encode_title(title) + ".json")
            if not os.path.exists(path):
                self.send(404, b'{"status":404,"type":"Internal error"}', [("Content-Type", "application/json")])
                return
            with open(path, "rb") as f:
                body = f.read()
            doc = json.loads(body)
            etag = f'"{doc.get("revision")}/{doc.get("tid", "0")}"'
            headers = [("ETag", etag), ("Cache-Control", "s-maxage=1209600, max-age=300"),
                       ("Content-Language", lang)]
            if self.headers.get("If-None-Match") == etag:
                self.send(304, b"", headers)
                return
            with stats.lock:
                stats.summary_bodies[key] += 1
            if "gzip" in self.headers.get("Accept-Encoding", ""):
                # As Wikimedia's servers do; Content-Length counts the compressed bytes.
                body = gzip.compress(body, mtime=0)
                headers.append(("Content-Encoding", "gzip"))
            self.send(200, body, headers + [
                ("Content-Type", 'application/json; charset=utf-8; profile="https://www.mediawiki.org/wiki/Specs/Summary/1.5.0"')])

        def upload(self, path):
            stats = standin.stats
            with stats.lock:
                stats.by_kind["image"] += 1
            last = path.rsplit("/", 1)[-1]
            m = re.match(r"^(?:lang[a-z-]+-)?(\d+)px-", last)
            if "/thumb/" in path and m and int(m.group(1)) not in STANDARD_WIDTHS:
                self.send(429, b"Use thumbnail steps listed on https://w.wiki/GHai",
                          [("Content-Type", "text/plain"), ("Retry-After", "10")])
                return
            file = os.path.normpath(os.path.join(standin.data, urllib.parse.unquote(path).lstrip("/")))
            if not file.startswith(os.path.abspath(standin.data) + os.sep) and not file.startswith(standin.data + os.sep):
                self.send(404)
                return
            if not os.path.isfile(file):
                self.send(404, b"Not found", [("Content-Type", "text/plain")])
                return
            with open(file, "rb") as f:
                body = f.read()
            with stats.lock:
                stats.image_bodies[path] += 1
            ctype = "image/png" if file.endswith(".png") else "image/jpeg"
            self.send(200, body, [("Content-Type", ctype)])

        def imageinfo(self, query):
            stats = standin.stats
            with stats.lock:
                stats.by_kind["imageinfo"] += 1
            title = (query.get("titles") or [""])[0]
            name = title.split(":", 1)[-1].replace(" ", "_")
            info = standin.commons.get("File:" + name)
            if info is None:
                page = {"ns": 6, "title": "File:" + name.replace("_", " "), "missing": True, "known": False}
            else:
                def field(v):
                    return {"value": v, "source": "commons-desc-page"}
                page = {"ns": 6, "title": "File:" + name.replace("_", " "), "imagerepository": "local",
                        "imageinfo": [{
                            "url": info.get("url", ""),
                            "descriptionurl": "//commons.example.invalid/wiki/File:" + urllib.parse.quote(name),
                            "extmetadata": {
                                "Artist": field(info["artist"]),
                                "Credit": field(info.get("credit", "")),
                                "LicenseShortName": field(info["license"]),
                                "LicenseUrl": field(info.get("license_url", "")),
                                "AttributionRequired": field("true"),
                                "UsageTerms": field(info.get("usage_terms", "")),
                            }}]}
            body = json.dumps({"batchcomplete": True, "query": {"pages": [page]}}).encode()
            self.send(200, body, [("Content-Type", "application/json; charset=utf-8")])

    return Handler


def serve(args):
    standin = StandIn(args)
    server = ThreadingHTTPServer((args.host, args.port), make_handler(standin))
    server.daemon_threads = True
    port = server.server_address[1]
    if args.port_file:
        with open(args.port_file, "w") as f:
            f.write(str(port))
    print(f"wikipedia stand-in on http://{args.host}:{port} (data {args.data}; fail {args.fail_rate}, "
          f"429 {args.throttle_rate}, latency {args.latency_ms} ms)", file=sys.stderr, flush=True)
    deadline = time.time() + args.max_seconds if args.max_seconds else None
    server.timeout = 0.5
    try:
        while deadline is None or time.time() < deadline:
            server.handle_request()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


# --------------------------------------------------------------------------------------------
# generate


def png(width, height, rgb):
    """A solid-colour PNG (real, decodable bytes)."""
    raw = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


GERMAN = ["Fuchs", "Dachs", "Eule", "Specht", "Frosch", "Igel", "Luchs", "Otter", "Kranich", "Biber"]
ENGLISH = ["fox", "badger", "owl", "woodpecker", "frog", "hedgehog", "lynx", "otter", "crane", "beaver"]


def generate(args):
    n = args.animals
    site, data, url = args.site, args.data, args.url.rstrip("/")
    os.makedirs(os.path.join(site, "content", "animals"), exist_ok=True)
    for sub in ("summaries/de", "summaries/en", "redirects", "upload"):
        os.makedirs(os.path.join(data, sub), exist_ok=True)
    with open(os.path.join(site, "content", "site.yml"), "w", encoding="utf-8") as f:
        f.write("# GENERATED by scripts/wikipedia_standin.py generate: test data for a local trial, not real animals.\n"
                "title: {de: Erzeugte Testseite, en: Generated test site}\n"
                "base_url: https://example.invalid/trial/\n"
                "languages: [de, en]\n"
                "wikipedia:\n"
                f"  url: \"{url}/{{lang}}/api/rest_v1\"\n"
                f"  commons_url: \"{url}/w/api.php\"\n"
                "  contact: trial@example.invalid\n")
    redirects = {"de": {}, "en": {}}
    commons = {}
    rev = 1000

    def title_for(lang, i):
        base = GERMAN[i % 10] if lang == "de" else ENGLISH[i % 10].capitalize()
        # A few shapes real titles have: a slash, a colon, umlauts and diacritics, parentheses.
        shape = i % 12
        if shape == 3:
            return f"{base} {i:03d}/Unterart" if lang == "de" else f"{base} {i:03d}/subspecies"
        if shape == 5:
            return f"{base}: Art {i:03d}" if lang == "de" else f"{base}: species {i:03d}"
        if shape == 8:
            return f"Größerer {base} {i:03d}" if lang == "de" else f"Café {base} {i:03d} (Việt)"
        if shape == 11:
            return f"{base} {i:03d} (Gattung)" if lang == "de" else f"{base} {i:03d} (genus)"
        return f"{base} {i:03d}"

    def write_summary(lang, canonical, i, name):
        nonlocal rev
        rev += 1
        file = f"Standin_{lang}_{i:03d}.png"
        h = hashlib.md5(file.encode()).hexdigest()
        thumb_dir = f"/upload/wikipedia/commons/thumb/{h[0]}/{h[:2]}/{file}"
        rgb = ((i * 37) % 256, (i * 91 + (lang == "en") * 50) % 256, (i * 53) % 256)
        for w in (330, 960):
            path = os.path.join(data, thumb_dir.lstrip("/"), f"{w}px-{file}")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(png(w, w * 3 // 4, rgb))
        commons[f"File:{file}"] = {
            "artist": f"<a href=\"//commons.example.invalid/wiki/User:Generator\">Generated Artist {i:03d}</a>",
            "credit": "<span class=\"int-own-work\">Own work (generated)</span>",
            "license": "CC BY-SA 4.0",
            "license_url": "https://creativecommons.org/licenses/by-sa/4.0",
        }
        text = (f"GENERATED stand-in text ({lang}) for {name}, record {i:03d}: not a real Wikipedia article."
                if lang == "en" else
                f"ERZEUGTER Platzhaltertext ({lang}) für {name}, Eintrag {i:03d}: kein echter Wikipedia-Artikel.")
        page = f"https://{lang}.wikipedia.org/wiki/{urllib.parse.quote(canonical)}"
        doc = {
            "type": "standard", "title": canonical.replace("_", " "),
            "displaytitle": f"<span class=\"mw-page-title-main\">{canonical.replace('_', ' ')}</span>",
            "namespace": {"id": 0, "text": ""},
            "titles": {"canonical": canonical, "normalized": canonical.replace("_", " "),
                       "display": canonical.replace("_", " ")},
            "pageid": 10000 + i, "lang": lang, "dir": "ltr", "revision": str(rev),
            "tid": f"00000000-0000-11f0-8000-{i:012d}", "timestamp": "2026-01-01T00:00:00Z",
            "description": "generated test animal",
            "thumbnail": {"source": f"{url}{thumb_dir}/330px-{file}", "width": 330, "height": 248},
            "originalimage": {"source": f"{url}/upload/wikipedia/commons/{h[0]}/{h[:2]}/{file}", "width": 1200,
                              "height": 900},
            "content_urls": {"desktop": {"page": page}, "mobile": {"page": page}},
            "extract": text, "extract_html": f"<p>{text}</p>",
        }
        with open(os.path.join(data, "summaries", lang, encode_title(canonical) + ".json"), "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False)

    written = set()
    for i in range(1, n + 1):
        name_de = f"{GERMAN[i % 10]} {i:03d}"
        name_en = f"{ENGLISH[i % 10].capitalize()} {i:03d}"
        titles = {}
        for lang in ("de", "en"):
            if lang == "de" and i % 10 == 0:
                continue  # no German article: the German page falls back to English
            title = title_for(lang, i)
            if i % 15 == 0 and lang == "en":
                title = title_for("en", i - 1)  # two records, one article: fetched once
            canonical = normalize(title)
            if i % 7 == 0:
                # The record names a redirect; the article lives under another title.
                target = canonical + ("_(Tier)" if lang == "de" else "_(animal)")
                redirects[lang][canonical] = target
                canonical = target
            titles[lang] = title
            if (lang, canonical) not in written:
                write_summary(lang, canonical, i, name_de if lang == "de" else name_en)
                written.add((lang, canonical))
        wiki = ", ".join(f"{lang}: {json.dumps(t, ensure_ascii=False)}" for lang, t in titles.items())
        with open(os.path.join(site, "content", "animals", f"animal-{i:03d}.md"), "w", encoding="utf-8") as f:
            f.write("---\n"
                    f"# GENERATED by scripts/wikipedia_standin.py: not a real animal.\n"
                    f"name: {{de: \"{name_de}\", en: \"{name_en}\"}}\n"
                    "group: generated\n"
                    f"wikipedia: {{{wiki}}}\n"
                    f"description: {{de: \"Eigene Beschreibung {i:03d}\", en: \"Own description {i:03d}\"}}\n"
                    "---\n")
    for lang, table in redirects.items():
        with open(os.path.join(data, "redirects", f"{lang}.json"), "w", encoding="utf-8") as f:
            json.dump(table, f, ensure_ascii=False, indent=1, sort_keys=True)
    with open(os.path.join(data, "commons.json"), "w", encoding="utf-8") as f:
        json.dump(commons, f, ensure_ascii=False, indent=1, sort_keys=True)
    with open(os.path.join(data, "README.txt"), "w", encoding="utf-8") as f:
        f.write("GENERATED by scripts/wikipedia_standin.py generate. Stand-in Wikipedia data for local trials "
                "and benchmarks; none of it is real.\n")
    print(f"generated {n} records in {site}/content/animals and {len(written)} articles "
          f"({sum(len(t) for t in redirects.values())} redirects) in {data}", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("serve", help="serve a data folder")
    s.add_argument("--data", required=True)
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8765, help="0 picks a free port (see --port-file)")
    s.add_argument("--port-file", help="write the port here once listening")
    s.add_argument("--fail-rate", type=float, default=0.0, help="share of requests answered 500")
    s.add_argument("--throttle-rate", type=float, default=0.0, help="share answered 429 with Retry-After")
    s.add_argument("--retry-after", type=int, default=1, help="seconds in the injected Retry-After")
    s.add_argument("--latency-ms", type=int, default=0, help="delay before each answer")
    s.add_argument("--seed", type=int, default=1, help="seed of the fault injection (reproducible runs)")
    s.add_argument("--max-seconds", type=float, default=0, help="stop by itself after this long (0: never)")
    g = sub.add_parser("generate", help="generate a site root and stand-in data")
    g.add_argument("--animals", type=int, default=300)
    g.add_argument("--site", required=True)
    g.add_argument("--data", required=True)
    g.add_argument("--url", default="http://127.0.0.1:8765", help="where the stand-in will listen")
    args = parser.parse_args()
    if args.command == "serve":
        if args.host not in ("127.0.0.1", "localhost", "::1"):
            parser.error("the stand-in only listens on the loopback interface")
        serve(args)
    else:
        generate(args)


if __name__ == "__main__":
    main()
