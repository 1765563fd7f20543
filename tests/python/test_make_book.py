"""scripts/make_book.py writes opening books that `quartet match --openings file:` plays.

Each game's book is made twice with one seed (it must be the same file), every position in
it is rescored by the engine (within the bound, side to move as the script reads it), and a
two-game match is played from it, so a book the referee would refuse fails here.

Run with `python3 -m pytest tests/python`. The binary is `$QUARTET`, else the release build,
else the debug build.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from fuzz_session import Engine  # noqa: E402
from registry import default_binary  # noqa: E402
from make_book import score_of  # noqa: E402

MAX_SCORE = 60
DEPTH = {"rnb": 3, "duell": 3, "apocalypse": 1}


def make(game, out, seed=5):
    """Runs the script for a 4-position book of `game`."""
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_book.py"), "--game", game, "--count", "4",
         "--plies", "3", "--depth", str(DEPTH[game]), "--max-score", str(MAX_SCORE),
         "--seed", str(seed), "--out", str(out)],
        check=True, env={**os.environ, "QUARTET": default_binary()}, capture_output=True,
    )
    lines = out.read_text().splitlines()
    assert lines[0].startswith(f"# quartet book: game {game} plies 3"), lines[0]
    return lines[1:]


@pytest.mark.parametrize("game", ["rnb", "duell", "apocalypse"])
def test_a_book_is_reproducible_level_and_playable(game, tmp_path):
    first = make(game, tmp_path / "a.txt")
    assert len(first) == 4 and len(set(first)) == 4
    assert make(game, tmp_path / "b.txt") == first
    assert make(game, tmp_path / "c.txt", seed=6) != first

    e = Engine(default_binary(), patience=60.0)
    e.send(f"setoption name Game value {game}")
    e.sync()
    side = " side w" if game == "apocalypse" else ""
    for fen in first:
        e.send(f"position fen {fen}")
        score = score_of(e, f"go depth {DEPTH[game]}{side}")
        assert score is not None and abs(score) <= MAX_SCORE, (fen, score)
    e.send("quit")

    q = default_binary()
    match = subprocess.run(
        [q, "match", "--game", game, "--engine", f"cmd={q}", "name=a", "--engine", f"cmd={q}",
         "name=b", "--games", "2", "--depth", "1", "--openings", f"file:{tmp_path / 'a.txt'}",
         "--no-progress"],
        capture_output=True, text=True, timeout=120,
    )
    assert match.returncode == 0, match.stderr
    assert "Games: 2 of 2" in match.stdout, match.stdout
