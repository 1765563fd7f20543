"""Issue 22 §8: the page knows no game by name where it can avoid it. A game's name may
appear as a string only in its own board module (`crates/gui/src/static/<game>.js`); the table
that maps a game to its module (ui.js's `GAMES`, the one place the names must stay) holds
them as module identifiers, not strings; every other page file, app.js and panels.js
included, names none in a string, so it cannot branch on one. The names come from the
engine (`quartet games --names`), so a fifth game is checked too."""

import re
import subprocess

from conftest import QUARTET, ROOT

STATIC = ROOT / "src" / "gui" / "static"


def test_no_page_file_but_a_games_own_module_and_the_module_table_names_a_game():
    names = subprocess.run([QUARTET, "games", "--names"], capture_output=True, text=True,
                           check=True, timeout=30).stdout.split()
    assert len(names) >= 4, names
    found = []
    for f in sorted(STATIC.glob("*.js")):
        if f.stem in names:
            continue
        text = f.read_text()
        for name in names:
            for m in re.finditer(r"""(['"`])""" + re.escape(name) + r"\1", text):
                line = text.count("\n", 0, m.start()) + 1
                found.append(f"{f.name}:{line}: {name}")
    assert not found, "game names outside their modules:\n" + "\n".join(found)
