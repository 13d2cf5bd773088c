"""scripts/theme_history.py: the list of earlier default-theme files is what the git history makes."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not (ROOT / ".git").exists() or shutil.which("git") is None, reason="not a git checkout")
def test_the_committed_list_is_what_the_history_makes():
    shallow = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--is-shallow-repository"], capture_output=True, text=True).stdout.strip()
    if shallow == "true":
        pytest.skip("a shallow clone lacks the history")
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "theme_history.py"), "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
