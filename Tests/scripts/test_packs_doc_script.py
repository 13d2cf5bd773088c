"""docs/packs.md section 14 says the example pack can be checked from the document alone, with
the Python script it gives: the script is taken from the document and run on the committed
example pack (a client written from the docs failed on a signature line's trailing space, and
on keys the script's json.dumps sorted by code point where the format sorts by UTF-16)."""
import os
import pathlib
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parents[2]


def docs_script():
    text = (REPO / "docs" / "packs.md").read_text(encoding="utf-8")
    start = text.index("```python\nimport base64, hashlib, json")
    end = text.index("```\n", start + 10)
    return text[start + len("```python\n"):end]


def test_the_docs_script_verifies_the_example_pack(tmp_path):
    script = tmp_path / "check.py"
    script.write_text(docs_script(), encoding="utf-8")
    example = REPO / "Tests" / "Fixtures" / "packs" / "example"
    run = subprocess.run([sys.executable, str(script)], cwd=example, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "version 2 verified\n"


def test_the_docs_canonical_json_sorts_keys_by_utf16_and_reads_signature_lines_leniently(tmp_path):
    namespace = {}
    exec(compile(docs_script().split("\npub = ")[0], "packs.md", "exec"), namespace)
    canonical = namespace["canonical"]
    assert canonical({"\ue000": 2, "😀": 1, "a": [True, None, -3, "x\n\u2028\u001f"]}) == \
        '{"a":[true,null,-3,"x\\n\u2028\\u001f"],"😀":1,"\ue000":2}'.encode()
    # A trailing space and a line by another key before the valid one (section 7).
    import base64
    import hashlib
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    key = Ed25519PrivateKey.generate()
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    data = b'{"format":1}'
    line = f"ed25519 {hashlib.sha256(public).hexdigest()} {base64.b64encode(key.sign(data)).decode()}"
    other = f"ed25519 {'0' * 64} {base64.b64encode(bytes(64)).decode()}"
    namespace["verify_sig"](data, f"\ufeff{other}\r\n{line}  \r\n".encode(), public)
