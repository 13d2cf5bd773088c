"""scripts/bench/hugo_same.py: the bench's second Hugo site, the same pages and site media as our build."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "scripts" / "bench"
ANIMALS = 10


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """A GENERATED corpus of ten animals (every fifth has no German article), and its Hugo site."""
    root = tmp_path_factory.mktemp("corpus")
    subprocess.run([sys.executable, str(BENCH / "make_corpus.py"), str(ANIMALS), str(root)], check=True, capture_output=True)
    subprocess.run([sys.executable, str(BENCH / "hugo_same.py"), str(root)], check=True, capture_output=True, text=True)
    return root


def page(corpus, animal_id, language):
    text = (corpus / "hugo-same" / "content" / "animals" / f"{animal_id}.{language}.md").read_text()
    head, _, body = text.partition("\n}\n")
    return json.loads(head + "\n}"), body


def test_every_animal_has_a_page_in_both_languages_with_its_record_text(corpus):
    records = sorted((corpus / "site" / "content" / "animals").glob("*.md"))
    assert len(records) == ANIMALS
    pages = sorted(p.name for p in (corpus / "hugo-same" / "content" / "animals").iterdir())
    assert pages == sorted(f"{r.stem}.{lang}.md" for r in records for lang in ("de", "en"))
    config = (corpus / "hugo-same" / "config.toml").read_text()
    assert 'defaultContentLanguage = "de"' in config and "[languages.en]" in config
    record = records[0].read_text()
    params, body = page(corpus, records[0].stem, "en")
    assert body.strip() and body.strip() in record
    names = {line.split(": ", 1)[0].strip(): json.loads(line.split(": ", 1)[1])
             for line in record.split("\nscientific:")[0].split("name:\n", 1)[1].splitlines()}
    assert (params["title"], params["other_name"]) == (names["en"], names["de"])
    assert page(corpus, records[0].stem, "de")[0]["title"] == names["de"]


def test_the_media_are_the_sounds_and_both_sizes_of_every_article_picture_linked_once(corpus):
    media = corpus / "hugo-same" / "static" / "media"
    # Ten English articles, eight German ones (every fifth animal has none): two sizes each.
    assert len(list(media.iterdir())) == ANIMALS + 2 * (ANIMALS + ANIMALS - ANIMALS // 5)
    # The first animal: it has a German article (every fifth, from the fifth, has none).
    sound = next(p for p in (corpus / "site" / "content" / "sounds").iterdir() if p.stem.endswith("-0"))
    assert os.stat(media / sound.name).st_ino == os.stat(sound).st_ino
    params, _ = page(corpus, sound.stem, "de")
    assert params["sound"] == f"/media/{sound.name}"
    assert [Path(i).name.split("px-")[0] for i in params["images"]] == ["330", "960"]
    for url in params["images"]:
        assert (media / Path(url).name).read_bytes().startswith(b"\x89PNG")
        # The German article's picture (this animal has one), linked from the stand-in's file.
        assert "Generated_de_" in url
        source = next((corpus / "standin" / "upload").rglob(Path(url).name))
        assert os.stat(media / Path(url).name).st_ino == os.stat(source).st_ino


def test_a_page_without_its_language_s_article_shows_the_english_one(corpus):
    animal_id = next(p.stem for p in (corpus / "site" / "content" / "animals").glob("*-4.md"))
    de, _ = page(corpus, animal_id, "de")
    en, _ = page(corpus, animal_id, "en")
    assert de["summary_text"] == en["summary_text"] and de["images"] == en["images"]
    assert de["title"] != en["title"]
    other_id = next(p.stem for p in (corpus / "site" / "content" / "animals").glob("*-3.md"))
    assert page(corpus, other_id, "de")[0]["images"] != page(corpus, other_id, "en")[0]["images"]


def test_a_folder_that_is_not_a_corpus_is_refused_with_a_message(tmp_path):
    result = subprocess.run([sys.executable, str(BENCH / "hugo_same.py"), str(tmp_path)], capture_output=True, text=True)
    assert result.returncode == 1
    assert "is not a corpus from make_corpus.py" in result.stderr and "Traceback" not in result.stderr
    result = subprocess.run([sys.executable, str(BENCH / "hugo_same.py")], capture_output=True, text=True)
    assert result.returncode == 1 and "usage: hugo_same.py CORPUS" in result.stderr


def test_a_record_whose_stand_in_data_is_missing_is_named(corpus, tmp_path):
    broken = tmp_path / "corpus"
    shutil.copytree(corpus / "site", broken / "site")
    shutil.copytree(corpus / "standin", broken / "standin")
    summary = next((broken / "standin" / "summaries" / "en").iterdir())
    summary.unlink()
    result = subprocess.run([sys.executable, str(BENCH / "hugo_same.py"), str(broken)], capture_output=True, text=True)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "its stand-in data is missing" in result.stderr and ".md:" in result.stderr
    assert summary.name in result.stderr  # which file is missing


@pytest.mark.skipif(shutil.which("hugo") is None, reason="hugo is not installed (make bench installs it)")
def test_hugo_builds_both_languages_and_copies_the_media(corpus, tmp_path):
    out = tmp_path / "public"
    subprocess.run(["hugo", "--quiet", "--source", str(corpus / "hugo-same"), "--destination", str(out)], check=True)
    animal_id = sorted((corpus / "site" / "content" / "animals").glob("*.md"))[0].stem
    german = (out / "animals" / animal_id / "index.html").read_text()
    english = (out / "en" / "animals" / animal_id / "index.html").read_text()
    assert '<html lang="de">' in german and '<html lang="en">' in english
    assert len(list((out / "media").iterdir())) == len(list((corpus / "hugo-same" / "static" / "media").iterdir()))
