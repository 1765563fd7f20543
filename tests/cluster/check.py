"""Checks of tests/cluster/sprt_watch.sh on the files of a sharded match (DIR/shard-*).

  check.py stopped DIR      every shard ended, none began more than one game after the
                            stop marker DIR/STOP appeared; prints the decision
  check.py resumed DIR I    shard I resumed (its results file counts two sessions or more)
                            and played each of its games exactly once, in its records and
                            its JSON lines
  check.py same MERGED WHOLE  two results files have the same report (tally, pairings,
                            terminations, faults, distinct games and openings)
"""

import glob
import os
import json
import sys

# The coarse clock's tick that file times lag by, at most (HZ=100).
TICK_MS = 10


def lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def stopped(d):
    with open(f"{d}/STOP") as f:
        marker = f.read()
    # The marker appeared when it was renamed into place: its inode's change time (on a
    # loaded machine, later than the decision's time in its text).
    # The kernel stamps files from its coarse clock (one tick, up to 10 ms, behind the
    # clock the shards read), so a game begun in the tick before the marker may look later.
    decided = os.stat(f"{d}/STOP").st_ctime_ns // 1_000_000 + TICK_MS
    shards = sorted(glob.glob(f"{d}/shard-*.json"))
    assert len(shards) >= 2, shards
    worst = 0
    for path in shards:
        with open(path) as f:
            stop = json.load(f)["report"]["stop"]
        assert stop == "Completed" or "Halted" in stop, f"{path}: {stop}"
        late = [g["game"] for g in lines(path + "l") if g["started_ms"] > decided]
        assert len(late) <= 1, f"{path}: games {late} began after the decision"
        worst = max(worst, len(late))
    print(f"decision: {marker.strip()}; {len(shards)} shards, at most {worst} game begun "
          "after it per shard")


def resumed(d, i):
    with open(f"{d}/shard-{i}.json") as f:
        results = json.load(f)
    sessions = results["resume"]["sessions"]
    assert sessions >= 2, f"shard {i} ran in {sessions} session: it was not resumed"
    assert results["report"]["stop"] == "Completed", results["report"]["stop"]
    games = [g["game"] for g in lines(f"{d}/shard-{i}.jsonl")]
    assert len(games) == len(set(games)), f"a game twice: {games}"
    assert len(games) == results["report"]["scheduled"], (games, results["report"]["scheduled"])
    with open(f"{d}/shard-{i}.pgn") as f:
        rounds = [l for l in f if l.startswith("[Round ")]
    assert len(rounds) == len(games), (len(rounds), len(games))
    print(f"shard {i}: resumed ({sessions} sessions), {len(games)} games, each once")


def same(merged, whole):
    keys = ["tally", "pairings", "terminations", "faults", "distinct_games",
            "distinct_openings", "scheduled"]
    with open(merged) as f:
        a = json.load(f)["report"]
    with open(whole) as f:
        b = json.load(f)["report"]
    for k in keys:
        assert a.get(k) == b.get(k), f"{k}: merged {a.get(k)} != unsharded {b.get(k)}"
    print(f"merged report equals the unsharded run's ({b['tally']})")


if __name__ == "__main__":
    {"stopped": stopped, "resumed": resumed, "same": same}[sys.argv[1]](*sys.argv[2:])
