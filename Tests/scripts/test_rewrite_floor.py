"""scripts/bench/rewrite_floor.py: the bench's floor under a one-record rebuild's writes."""
import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bench" / "rewrite_floor.py"


def make_output(root: Path) -> tuple[bytes, bytes]:
    catalog, manifest = b'{"animals":[' + b'{"id":"fox"},' * 500 + b']}', b'{"records":[' + b'"r",' * 900 + b']}'
    (root / "assets").mkdir(parents=True)
    (root / "assets" / "catalog.0123456789.json").write_bytes(catalog)
    (root / "packs" / "v").mkdir(parents=True)
    (root / "packs" / "v" / "3.json").write_bytes(manifest)
    (root / "packs" / "v" / "2.json").write_bytes(b"older")
    (root / "packs" / "latest.json").write_text(json.dumps({"version": 3, "manifest": {"path": "v/3.json"}}))
    return catalog, manifest


def test_rewrites_the_catalogue_and_the_latest_manifest_with_one_byte_changed(tmp_path):
    output = tmp_path / "output"
    catalog, manifest = make_output(output)
    result = subprocess.run([sys.executable, str(SCRIPT), str(output), str(tmp_path / "out"), "3"], capture_output=True, text=True, check=True)
    report = json.loads(result.stdout)
    assert report["bytes"] == len(catalog) + len(manifest)
    assert len(report["seconds"]) == 3 and all(s > 0 for s in report["seconds"])
    for i, original in enumerate((catalog, manifest)):
        written = (tmp_path / "out" / f"file-{i}").read_bytes()
        assert len(written) == len(original)
        assert sum(a != b for a, b in zip(written, original)) == 1
    # The output itself is left as it was (the mappings are copies on write).
    assert (output / "assets" / "catalog.0123456789.json").read_bytes() == catalog
    assert (output / "packs" / "v" / "3.json").read_bytes() == manifest


def test_an_output_without_a_catalogue_is_an_error(tmp_path):
    output = tmp_path / "output"
    make_output(output)
    (output / "assets" / "catalog.0123456789.json").unlink()
    result = subprocess.run([sys.executable, str(SCRIPT), str(output), str(tmp_path / "out")], capture_output=True, text=True)
    assert result.returncode != 0 and "no single assets/catalog" in result.stderr
