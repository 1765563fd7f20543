"""No module of any crate imports back into a module that imports it (issue 42):
scripts/import_circles.py over the workspace finds no circle, and finds one when there is."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "import_circles.py"


def circles(*roots):
    run = subprocess.run([sys.executable, str(SCRIPT), *map(str, roots)],
                         capture_output=True, text=True, timeout=60)
    return run.returncode, run.stdout


def test_no_crate_has_an_import_circle():
    crates = sorted(p / "src" for p in (ROOT / "crates").iterdir() if (p / "src").is_dir())
    roots = [ROOT / "src", *crates]
    code, out = circles(*roots)
    assert code == 0 and out == "", out


def test_a_circle_is_found(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "lib.rs").write_text("mod a;\nmod b;\nmod c;\n")
    (src / "a.rs").write_text("use super::b::B;\npub struct A;\n")
    (src / "b.rs").write_text("use crate::a::A;\npub struct B;\n")
    (src / "c.rs").write_text(
        "use super::a::A;\n#[cfg(test)]\nmod tests { use super::super::c; }\n")
    code, out = circles(src)
    assert code == 1 and out.split(" ", 1)[1].strip() == "a <-> b", out
