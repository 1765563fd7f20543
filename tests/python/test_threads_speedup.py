"""scripts/threads_speedup.py (issue 40, section 4): `--rolled` gives a dice game's
positions after the roll, where it chooses its moves, and a run prints each game's row of
time to depth, CPU time and nodes, Threads 2 against 1.

The binary is `$QUARTET`, else target/release/quartet, else target/debug/quartet."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import threads_speedup  # noqa: E402
from registry import default_binary  # noqa: E402


def test_rolled_positions_are_turns_and_the_later_ones_give_a_choice():
    binary = default_binary()
    before = threads_speedup.positions(binary, "ludo", 4, 12, 1)
    after = threads_speedup.positions(binary, "ludo", 4, 12, 1, rolled=True)
    assert all(node.startswith("chance") for _, node in before), before
    assert all(node.startswith("turn") for _, node in after), after
    engine = threads_speedup.Engine(binary, "ludo")
    try:
        for fen, _ in after[1:]:
            engine.send(f"position fen {fen}")
            assert len(engine.query("legalmoves").split()) > 1, fen
    finally:
        engine.close()


def test_a_run_prints_each_games_row():
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "threads_speedup.py"), "--quartet",
         default_binary(), "--games", "rnb,ludo", "--depth", "rnb=3", "--depth", "ludo=2",
         "--rounds", "1", "--positions", "2", "--rolled"],
        capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    rows = [line.split("|")[1].strip() for line in run.stdout.splitlines()
            if line.startswith("| ") and not line.startswith("| game")]
    assert rows == ["rnb", "ludo"], run.stdout
