"""scripts/bench/preview_edit.py: the bench's timing of the preview's rebuild after an edit."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "bench" / "preview_edit.py"
BINARY = os.environ.get("BESTIARY", str(REPO / ".build" / "debug" / "bestiary"))
TUXPAINT = REPO / "Tests" / "Fixtures" / "sites" / "tuxpaint"


def run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), BINARY, *map(str, args)], capture_output=True, text=True, timeout=300)


def site_with_difficulty(tmp_path):
    """A copy of the Tux Paint site whose badger has a difficulty (its records have none)."""
    root = tmp_path / "site"
    shutil.copytree(TUXPAINT, root)
    record = root / "content" / "animals" / "badger.md"
    text = record.read_text()
    assert "group: mammal\n" in text and "difficulty" not in text
    record.write_text(text.replace("group: mammal\n", "group: mammal\ndifficulty: 1\n", 1))
    return root, record


def test_times_each_rebuild_after_the_first_and_edits_the_record(tmp_path):
    root, record = site_with_difficulty(tmp_path)
    before = record.read_text()
    result = run(root, "content/animals/badger.md", 2)
    assert result.returncode == 0, result.stderr
    seconds = json.loads(result.stdout)["seconds"]
    assert len(seconds) == 2 and all(0 < s < 60 for s in seconds)
    # Three edits, each a step of the cycle 1 → 2 → 3 → 1: back where it began.
    assert record.read_text() == before
    # The preview wrote the site, as for a user, and recorded no pack version.
    assert (root / "output" / "animals" / "badger" / "index.html").is_file()
    assert not (root / "content" / "packs.lock").exists()


def test_a_record_without_a_difficulty_is_an_error(tmp_path):
    root = tmp_path / "site"
    shutil.copytree(TUXPAINT, root)
    result = run(root, "content/animals/badger.md", 1)
    assert result.returncode != 0
    assert "has no `difficulty: N` line" in result.stderr
