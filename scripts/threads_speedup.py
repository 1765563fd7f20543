#!/usr/bin/env python3
"""Lazy SMP speed-up: nodes per second with `Threads 2` against `Threads 1`.

For each alternating game (and Ludo, whose chance nodes share the same table) it searches
a few positions for --movetime ms with each thread count and prints the nps of the last
`info` line, and the ratio. Run it on an otherwise idle machine: with 2 cores, another busy
process takes the second thread's core.

    python3 scripts/threads_speedup.py --movetime 3000
"""

import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

POSITIONS = {
    "duell": ["startpos", "startpos moves a1a6 i8i3 b1b2"],
    "rnb": ["fen bbkbr1/1rrbr1/6/B5/R1B1RR/1RBKB1 n 0000 1", "fen 1rkrr1/bb1b1b/6/2Kr2/B2BRB/RB2RR s 0000 4"],
    "ludo": ["fen b,10,20,30/b,5,40,b r 6 1"],
}


def nps(binary, game, position, threads, movetime):
    """The nps of the last info line of one search."""
    script = (
        f"setoption name Game value {game}\nsetoption name Threads value {threads}\n"
        f"position {position}\ngo movetime {movetime}\n"
    )
    out = subprocess.run([binary], input=script, capture_output=True, text=True, check=True)
    infos = [l.split() for l in out.stdout.splitlines() if l.startswith("info depth")]
    if not infos:
        sys.exit(f"no info line for {game} {position}: {out.stdout}")
    last = infos[-1]
    return int(last[last.index("nps") + 1]), int(last[last.index("depth") + 1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--movetime", type=int, default=3000)
    parser.add_argument("--quartet", default=os.path.join(ROOT, "target", "release", "quartet"))
    args = parser.parse_args()
    with open("/proc/loadavg") as f:
        print("load before:", f.read().strip())
    for game, positions in POSITIONS.items():
        for position in positions:
            one, d1 = nps(args.quartet, game, position, 1, args.movetime)
            two, d2 = nps(args.quartet, game, position, 2, args.movetime)
            print(f"{game:6} {position[:48]:48}  1 thread {one:>9} nps (depth {d1})  "
                  f"2 threads {two:>9} nps (depth {d2})  x{two / one:.2f}")
    with open("/proc/loadavg") as f:
        print("load after:", f.read().strip())


if __name__ == "__main__":
    main()
