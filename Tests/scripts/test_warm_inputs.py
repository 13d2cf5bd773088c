"""scripts/bench/warm_inputs.py: reads every input of a timed build once, beforehand."""
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bench" / "warm_inputs.py"


def run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True, text=True)


def test_reads_every_file_under_the_folders_and_the_files_named(tmp_path):
    (tmp_path / "content" / "animals").mkdir(parents=True)
    (tmp_path / "content" / "animals" / "fox.md").write_bytes(b"x" * 10)
    (tmp_path / "content" / "site.yml").write_bytes(b"y" * 5)
    big = tmp_path / "content" / "big.bin"
    big.write_bytes(b"z" * (3 << 20))  # read in more than one chunk
    (tmp_path / "bin").write_bytes(b"b" * 7)
    (tmp_path / "content" / "link").symlink_to(tmp_path / "bin")  # followed, as a build reads it
    result = run(tmp_path / "content", tmp_path / "bin", tmp_path / "missing")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"warm_inputs: 5 files, {10 + 5 + (3 << 20) + 7 + 7} bytes read"


def test_without_a_path_it_says_how_to_call_it():
    result = run()
    assert result.returncode != 0
    assert "usage: warm_inputs.py" in result.stderr
