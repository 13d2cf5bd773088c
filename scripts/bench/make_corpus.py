#!/usr/bin/env python3
"""Generates a synthetic Bestiary corpus for benchmarks and scale tests.

    make_corpus.py N OUT [--seed S] [--hugo] [--standin-url URL]

Everything it writes is GENERATED, not real: invented names, random words, tones and flat-colour
pictures. It is a load, never a fixture of real animals. Deterministic for a given N and seed.

  OUT/site/                  a Bestiary site root: content/site.yml (languages de, en), N records in
                             content/animals/, one small distinct WAV per record in content/sounds/
  OUT/standin/               data for scripts/wikipedia_standin.py serve --data OUT/standin: a
                             page-summary response per referenced title (summaries/LANG/TITLE.json,
                             the real endpoint's shape), the lead images at their thumbnail URLs
                             (upload/…, 330 and 960 px), their Commons attributions (commons.json)
  OUT/hugo/                  with --hugo: the same records as an equivalent Hugo site (one page
                             per animal with its summary inlined, a list page, the sounds)
"""
import argparse
import hashlib
import json
import os
import random
import struct
import sys
import urllib.parse
import wave
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from wikipedia_standin import encode_title, normalize, png  # noqa: E402  (one stand-in data format)

SYLLABLES = "ka ro mi tu sel var no pe lix dra qua bel zor fen ul tis mo ran gal vu ste ori pan cy".split()
KINDS_EN = ["finch", "vole", "toad", "beetle", "lizard", "trout", "owl", "shrew"]
KINDS_DE = ["fink", "maus", "kröte", "käfer", "eidechse", "forelle", "eule", "spitzmaus"]
GROUPS = ["bird", "mammal", "amphibian", "insect", "reptile", "fish"]
WORDS = ("the of and in is a to it was by with for as on are from this its or which forest wetland "
         "song call nest winter summer migrates feeds insects seeds small large species genus family "
         "found across europe asia africa meadow river coastal mountain nocturnal diurnal territory "
         "breeding season males females plumage fur tail wings burrow predator prey population stable").split()


def sentence(r, n=None):
    words = [r.choice(WORDS) for _ in range(n or r.randint(8, 18))]
    return " ".join(words).capitalize() + "."


def invented_name(r):
    return "".join(r.choice(SYLLABLES) for _ in range(r.randint(2, 3))).capitalize()


def write_wav(path, r):
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(1)
        w.setframerate(8000)
        w.writeframes(bytes(r.randint(96, 160) for _ in range(800)))


PALETTE = [(r * 85, g * 85, b * 85) for r in range(4) for g in range(4) for b in range(4)]
_pictures = {}


def labelled_png(width, rgb, label):
    """A flat-colour PNG, distinct per label (a tEXt chunk after IHDR): compressing each picture
    anew would make generating 40,000 of them take minutes."""
    key = (width, rgb)
    if key not in _pictures:
        _pictures[key] = png(width, width * 3 // 4, rgb)
    whole = _pictures[key]
    text = b"Comment\x00generated " + label.encode()
    chunk = struct.pack(">I", len(text)) + b"tEXt" + text + struct.pack(">I", zlib.crc32(b"tEXt" + text) & 0xFFFFFFFF)
    return whole[:33] + chunk + whole[33:]  # signature (8) + IHDR chunk (25)


def summary(lang, title, r, standin_url, data, commons, index):
    """A summary response in the real endpoint's shape, its lead image written at its thumbnail URL."""
    extract = " ".join(sentence(r) for _ in range(r.randint(3, 6)))
    key = normalize(title)
    page = f"https://{lang}.wikipedia.org/wiki/{urllib.parse.quote(key)}"
    file = f"Generated_{lang}_{index}.png"
    h = hashlib.md5(file.encode()).hexdigest()
    thumb_dir = f"/upload/wikipedia/commons/thumb/{h[0]}/{h[:2]}/{file}"
    rgb = PALETTE[r.randrange(len(PALETTE))]
    for width in (330, 960):
        path = os.path.join(data, thumb_dir.lstrip("/"), f"{width}px-{file}")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(labelled_png(width, rgb, file))
    commons[f"File:{file}"] = {
        "artist": f"Generated Artist {index}", "credit": "Own work (generated)",
        "license": "CC BY-SA 4.0", "license_url": "https://creativecommons.org/licenses/by-sa/4.0",
    }
    return {
        "type": "standard", "title": title, "displaytitle": title,
        "namespace": {"id": 0, "text": ""}, "wikibase_item": f"Q{r.randint(1000, 9999999)}",
        "titles": {"canonical": key, "normalized": title, "display": title},
        "pageid": r.randint(1000, 9999999), "lang": lang, "dir": "ltr",
        "revision": str(r.randint(10**8, 10**9)), "tid": f"00000000-0000-11f0-8000-{index:012d}",
        "timestamp": "2026-10-01T12:00:00Z", "description": sentence(r, 5)[:-1].lower(),
        "description_source": "central",
        "thumbnail": {"source": f"{standin_url}{thumb_dir}/330px-{file}", "width": 330, "height": 247},
        "originalimage": {"source": f"{standin_url}/upload/wikipedia/commons/{h[0]}/{h[:2]}/{file}", "width": 1200, "height": 900},
        "content_urls": {"desktop": {"page": page}, "mobile": {"page": page}},
        "extract": extract, "extract_html": "<p>" + extract + "</p>",
    }


def body(r, earlier):
    parts = [f"## Notes\n\n{sentence(r)} {sentence(r)} *{r.choice(WORDS)}* and **{r.choice(WORDS)}**.\n",
             "\n".join(f"- {sentence(r, 6)}" for _ in range(r.randint(2, 5))) + "\n"]
    if earlier:
        other = r.choice(earlier)
        parts.append(f"Often confused with [{other}](../{other}/). {sentence(r)}\n")
    parts.append(f"> {sentence(r)}\n")
    return "\n".join(parts)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("n", type=int)
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hugo", action="store_true")
    parser.add_argument("--standin-url", default="http://127.0.0.1:8089",
                        help="where wikipedia_standin.py serve will listen (written into site.yml)")
    args = parser.parse_args()
    r = random.Random(args.seed)
    content = os.path.join(args.out, "site", "content")
    for folder in ("animals", "sounds"):
        os.makedirs(os.path.join(content, folder), exist_ok=True)
    data = os.path.join(args.out, "standin")
    for folder in ("summaries/de", "summaries/en", "redirects", "upload"):
        os.makedirs(os.path.join(data, folder), exist_ok=True)
    commons = {}
    url = args.standin_url.rstrip("/")
    with open(os.path.join(args.out, "README.txt"), "w") as f:
        f.write(f"GENERATED benchmark corpus ({args.n} invented animals, seed {args.seed}); not real data.\n")
    with open(os.path.join(content, "site.yml"), "w") as f:
        f.write("title: Generated benchmark bestiary\nbase_url: https://example.org/\nlanguages: [de, en]\n"
                f"wikipedia: {{url: \"{url}/{{lang}}/api/rest_v1\", commons_url: \"{url}/w/api.php\", contact: bench@example.org}}\n"
                "packs: {id: bench, keep_deltas: 10}\n")
    hugo = os.path.join(args.out, "hugo")
    if args.hugo:
        for folder in ("content/animals", "layouts/_default", "static/sounds"):
            os.makedirs(os.path.join(hugo, folder), exist_ok=True)
    ids = []
    for i in range(args.n):
        en = invented_name(r) + " " + r.choice(KINDS_EN)
        de = invented_name(r) + r.choice(KINDS_DE)
        animal_id = f"{en.lower().replace(' ', '-')}-{i}"
        write_wav(os.path.join(content, "sounds", f"{animal_id}.wav"), r)
        summaries = {}
        for lang, title in (("de", de), ("en", en)):
            if lang == "de" and i % 5 == 4:
                continue  # every fifth animal has no German article: the page falls back to English
            s = summary(lang, title, r, url, data, commons, i)
            summaries[lang] = s
            with open(os.path.join(data, "summaries", lang, encode_title(normalize(title)) + ".json"), "w") as f:
                json.dump(s, f, ensure_ascii=False)
        text = body(r, ids[-20:])
        front = [f"id: {animal_id}", "name:", f"  en: {json.dumps(en)}", f"  de: {json.dumps(de, ensure_ascii=False)}",
                 f"scientific: {json.dumps(invented_name(r) + ' ' + invented_name(r).lower())}",
                 f"group: {GROUPS[i % len(GROUPS)]}", f"difficulty: {1 + i % 3}", "wikipedia:", f"  en: {json.dumps(en)}"]
        if "de" in summaries:
            front.append(f"  de: {json.dumps(de, ensure_ascii=False)}")
        front += ["sound:", f"  file: sounds/{animal_id}.wav", f"  credit: {json.dumps('Generated tone ' + str(i))}",
                  "  license: CC0-1.0", f"tags: [{r.choice(WORDS)}, {r.choice(WORDS)}]"]
        with open(os.path.join(content, "animals", f"{animal_id}.md"), "w") as f:
            f.write("---\n" + "\n".join(front) + "\n---\n\n" + text)
        if args.hugo:
            s = summaries.get("de") or summaries["en"]
            params = {"title": de, "name_en": en, "group": GROUPS[i % len(GROUPS)], "summary_text": s["extract"],
                      "image": s["thumbnail"]["source"], "sound": f"/sounds/{animal_id}.wav"}
            with open(os.path.join(hugo, "content", "animals", f"{animal_id}.md"), "w") as f:
                f.write(json.dumps(params, ensure_ascii=False, indent=1) + "\n\n" + text)
            write_wav(os.path.join(hugo, "static", "sounds", f"{animal_id}.wav"), r)
        ids.append(animal_id)
    for lang in ("de", "en"):
        with open(os.path.join(data, "redirects", f"{lang}.json"), "w") as f:
            f.write("{}\n")
    with open(os.path.join(data, "commons.json"), "w") as f:
        json.dump(commons, f, ensure_ascii=False, indent=1, sort_keys=True)
    with open(os.path.join(data, "README.txt"), "w") as f:
        f.write("GENERATED by scripts/bench/make_corpus.py: stand-in Wikipedia data for benchmarks; none of it is real.\n")
    if args.hugo:
        with open(os.path.join(hugo, "config.toml"), "w") as f:
            f.write('baseURL = "https://example.org/"\ntitle = "Generated benchmark"\n'
                    'disableKinds = ["taxonomy", "term", "RSS"]\n')
        layouts = {
            "baseof.html": '<!doctype html><html lang="de"><head><meta charset="utf-8"><title>{{ .Title }}</title>'
                           '<link rel="stylesheet" href="/style.css"></head><body><main>{{ block "main" . }}{{ end }}'
                           '</main></body></html>\n',
            "single.html": '{{ define "main" }}<article><h1>{{ .Title }}</h1><p class="en">{{ .Params.name_en }}</p>'
                           '<img src="{{ .Params.image }}" alt="{{ .Title }}"><p>{{ .Params.summary_text }}</p>'
                           '<audio controls src="{{ .Params.sound }}"></audio>{{ .Content }}</article>{{ end }}\n',
            "list.html": '{{ define "main" }}<ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> '
                         '<span>{{ .Params.group }}</span></li>{{ end }}</ul>{{ end }}\n',
        }
        for name, text in layouts.items():
            with open(os.path.join(hugo, "layouts", "_default", name), "w") as f:
                f.write(text)


if __name__ == "__main__":
    main()
