"""The README's python-chess snippet ("Connect it"), run as written against the binary.

Run with `python3 -m pytest tests/python`; the binary is `$QUARTET`, else
target/release/quartet, else target/debug/quartet.
"""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from registry import default_binary as quartet_path  # noqa: E402


def readme_snippet():
    """The one ```python block of README.md."""
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert len(blocks) == 1, f"{len(blocks)} python blocks in README.md"
    return blocks[0]


def test_the_readme_snippet_analyses_to_depth_8():
    code = readme_snippet()
    assert 'popen_uci("quartet")' in code
    code = code.replace('popen_uci("quartet")', f"popen_uci({str(quartet_path())!r})")
    # In a process of its own: the snippet turns logging off.
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    depth, score = run.stdout.split()
    assert depth == "8"
    assert re.fullmatch(r"[+-]\d+|#[+-]?\d+", score), score


if __name__ == "__main__":
    test_the_readme_snippet_analyses_to_depth_8()
    print("ok")
