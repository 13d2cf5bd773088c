#!/usr/bin/env python3
"""Makes a second Hugo site from a bench corpus: the animal pages and the site media Bestiary makes.

    hugo_same.py CORPUS

CORPUS is what make_corpus.py wrote (its site/ and standin/ folders). The site goes to
CORPUS/hugo-same/ (replaced when there): GENERATED data, like the corpus.

The issue's Hugo site (make_corpus.py --hugo) makes 10,000 pages in one language and the
sounds. Bestiary's build of the same corpus makes every animal page in two languages, each
animal's lead pictures (two sizes per article, the English article's where there is no German
one) and the sounds, and beside them the collection, sightings and credits lists (a card per
animal), the quiz and the content packs. This site is Hugo making the first part: 2 languages
(German at the root, English under /en/, like Bestiary's output), an animal page per language
with its names, summary, pictures and sound, a plain list of links per language, and the
39,110 media files copied into its output (Hugo copies static files; Bestiary links them). No
card lists, related animals, quiz or packs. `make bench` times it beside the issue's Hugo site
so that the build can also be compared with a Hugo build of the same animal pages and media.

The records are read in the shape make_corpus.py writes them (front matter of two-level keys
with JSON-quoted values), not as YAML in general.
"""
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from wikipedia_standin import encode_title, normalize  # noqa: E402  (how the stand-in names its files)

LANGUAGES = ("de", "en")  # German first: the corpus's site.yml lists it first, so it is at the root

CONFIG = """baseURL = "https://example.org/"
title = "Generated benchmark (the same animal pages as Bestiary's build)"
defaultContentLanguage = "de"
disableKinds = ["taxonomy", "term", "RSS"]
[languages.de]
weight = 1
languageName = "Deutsch"
[languages.en]
weight = 2
languageName = "English"
"""

LAYOUTS = {
    "baseof.html": '<!doctype html><html lang="{{ .Site.Language.Lang }}"><head><meta charset="utf-8">'
                   '<title>{{ .Title }}</title>{{ range .Translations }}<link rel="alternate" '
                   'hreflang="{{ .Language.Lang }}" href="{{ .Permalink }}">{{ end }}</head><body><main>'
                   '{{ block "main" . }}{{ end }}</main></body></html>\n',
    "single.html": '{{ define "main" }}<article><h1>{{ .Title }}</h1><p>{{ .Params.other_name }} · {{ .Params.group }}</p>'
                   '{{ with .Params.images }}<img src="{{ index . 0 }}" srcset="{{ index . 0 }} 330w, {{ index . 1 }} 960w" '
                   'alt="{{ $.Title }}">{{ end }}<p>{{ .Params.summary_text }}</p>'
                   '<audio controls src="{{ .Params.sound }}"></audio>{{ .Content }}</article>{{ end }}\n',
    "list.html": '{{ define "main" }}<ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> '
                 '<span>{{ .Params.group }}</span></li>{{ end }}</ul>{{ end }}\n',
}


def fail(message):
    print(f"hugo_same.py: {message}", file=sys.stderr)
    sys.exit(1)


def read_record(path):
    """The front matter of a generated record as {key: value or {subkey: value}}, and its body."""
    text = open(path, encoding="utf-8").read()
    if not text.startswith("---\n") or "\n---\n" not in text[4:]:
        raise ValueError(f"{path}: no front matter")
    head, body = text[4:].split("\n---\n", 1)
    fields, current = {}, None
    value_of = lambda v: json.loads(v) if v.startswith('"') else v  # noqa: E731
    for line in head.split("\n"):
        if line.startswith("  ") and current is not None:
            key, _, value = line.strip().partition(": ")
            fields[current][key] = value_of(value)
        elif line.endswith(":"):
            current = line[:-1]
            fields[current] = {}
        else:
            key, _, value = line.partition(": ")
            current = None
            fields[key] = value_of(value)
    return fields, body


def summary_of(standin, language, title):
    path = os.path.join(standin, "summaries", language, encode_title(normalize(title)) + ".json")
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def pictures_of(summary, standin):
    """The two sizes the stand-in serves for a summary's lead picture (what `bestiary fetch`
    stores): their files under standin/."""
    thumb = summary["thumbnail"]["source"]
    path = thumb[thumb.index("/upload/"):]
    small = os.path.join(standin, path.lstrip("/"))
    return [small, small.replace("/330px-", "/960px-")]


def add_animal(path, site, standin, out, add_media):
    """The animal's page in each language, its sound and pictures linked into static/media."""
    fields, body = read_record(path)
    animal_id, names, titles = fields["id"], fields["name"], fields["wikipedia"]
    sound = add_media(os.path.join(site, "content", fields["sound"]["file"]))
    for language in LANGUAGES:
        # A page falls back to the English article, as Bestiary's does.
        shown = language if language in titles else "en"
        summary = summary_of(standin, shown, titles[shown])
        other = next(names[l] for l in LANGUAGES if l != language)
        params = {"title": names[language], "other_name": other, "group": fields["group"],
                  "summary_text": summary["extract"], "images": [add_media(p) for p in pictures_of(summary, standin)],
                  "sound": sound}
        with open(os.path.join(out, "content", "animals", f"{animal_id}.{language}.md"), "w", encoding="utf-8") as f:
            f.write(json.dumps(params, ensure_ascii=False, indent=1) + "\n\n" + body)


def main():
    if len(sys.argv) != 2:
        fail("usage: hugo_same.py CORPUS")
    corpus = sys.argv[1]
    site, standin = os.path.join(corpus, "site"), os.path.join(corpus, "standin")
    animals = os.path.join(site, "content", "animals")
    if not os.path.isdir(animals) or not os.path.isdir(os.path.join(standin, "summaries")):
        fail(f"{corpus} is not a corpus from make_corpus.py (no site/content/animals or standin/summaries)")
    out = os.path.join(corpus, "hugo-same")
    if os.path.exists(out):
        shutil.rmtree(out)
    media = os.path.join(out, "static", "media")
    for folder in ("content/animals", "layouts/_default"):
        os.makedirs(os.path.join(out, folder))
    os.makedirs(media)

    def add_media(source):
        """Links a file into static/media (once) and returns its URL."""
        name = os.path.basename(source)
        target = os.path.join(media, name)
        if not os.path.exists(target):
            os.link(source, target)
        return "/media/" + name

    for file in sorted(os.listdir(animals)):
        if not file.endswith(".md"):
            continue
        try:
            add_animal(os.path.join(animals, file), site, standin, out, add_media)
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
            fail(f"{file}: not a record as make_corpus.py writes it, or its stand-in data is missing ({type(error).__name__}: {error})")
    with open(os.path.join(out, "config.toml"), "w") as f:
        f.write(CONFIG)
    for name, text in LAYOUTS.items():
        with open(os.path.join(out, "layouts", "_default", name), "w") as f:
            f.write(text)
    with open(os.path.join(out, "README.txt"), "w") as f:
        f.write("GENERATED by scripts/bench/hugo_same.py from the bench corpus: not real data.\n")


if __name__ == "__main__":
    main()
