"""scripts/bench/link_floor.py: the bench's floor under a build (an output's entries made as hard links)."""
import json
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bench" / "link_floor.py"


def make_tree(root: Path) -> int:
    """A small output-like tree; returns its number of entries (files and folders below root)."""
    (root / "media").mkdir(parents=True)
    for i in range(30):
        (root / "media" / f"{i:02x}.png").write_bytes(bytes([i]) * 10)
    for page in ("fox", "owl"):
        (root / "animals" / page).mkdir(parents=True)
        (root / "animals" / page / "index.html").write_text(page)
    (root / "index.html").write_text("home")
    return 1 + 30 + 1 + 2 + 2 + 1


def test_links_every_entry_on_two_processes_and_counts_them(tmp_path):
    source = tmp_path / "output"
    expected = make_tree(source)
    result = subprocess.run(
        [sys.executable, str(SCRIPT), str(source), str(tmp_path / "copy"), "2"], capture_output=True, text=True, check=True)
    report = json.loads(result.stdout)
    assert report["entries"] == expected
    assert len(report["seconds"]) == 2 and all(s > 0 for s in report["seconds"])
    for run in (1, 2):
        copy = tmp_path / f"copy-{run}"
        made = sorted(str(p.relative_to(copy)) for p in copy.rglob("*"))
        assert made == sorted(str(p.relative_to(source)) for p in source.rglob("*"))
        # Hard links: the same inode, no byte copied.
        assert os.stat(copy / "media" / "1d.png").st_ino == os.stat(source / "media" / "1d.png").st_ino
        assert os.stat(copy / "animals" / "owl" / "index.html").st_ino == os.stat(source / "animals" / "owl" / "index.html").st_ino


def test_an_existing_destination_is_refused_with_a_message_before_anything_is_linked(tmp_path):
    source = tmp_path / "output"
    make_tree(source)
    (tmp_path / "copy-2").mkdir()
    result = subprocess.run([sys.executable, str(SCRIPT), str(source), str(tmp_path / "copy"), "2"], capture_output=True, text=True)
    assert result.returncode != 0
    assert "copy-2 is already there" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "copy-1").exists()


def test_a_missing_source_is_refused_with_a_message(tmp_path):
    result = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "nothing"), str(tmp_path / "copy")], capture_output=True, text=True)
    assert result.returncode != 0
    assert "is not a folder" in result.stderr and "Traceback" not in result.stderr
