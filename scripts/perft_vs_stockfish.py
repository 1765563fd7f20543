#!/usr/bin/env python3
"""Perft speed against Stockfish: leaves per CPU-second of `quartet perft` from each game's
start position and of Stockfish's chess perft from the start (`go perft D`), run
alternately (Stockfish, Quartet, Stockfish, Quartet, ...) so that both meet the same load.
CPU time is user + sys of each process (the children's getrusage), start-up included.
Prints a Markdown table: per game both rates, their ratio (Quartet / Stockfish; the range
over the rounds in brackets) and the load average before and after.

    python3 scripts/perft_vs_stockfish.py [--rounds 2] [--quick] [--depth duell=6 ...]
        [--quartet Q] [--stockfish SF]

The games are the binary's (`quartet games`). Each game's depth is the deepest whose leaves,
foretold from small perfts, stay within --max-leaves (default 3.2e9, chess perft 7's count;
4e8 with --quick): the next ply is foretold to multiply the leaves as the ply two before
did (a chance ply and a decision ply alternate in Ludo), and depths are probed only while
three plies more would still fit, so a probe costs a small part of the run. Chess perft 7
takes about 10 CPU-seconds, so that Stockfish's start-up (some 0.05 CPU-seconds: it loads
its network) does not count; --quick compares with chess perft 6 (1.2e8 leaves), where it
does. `--depth GAME=N` (repeatable) runs only the games given, at the depths given. Quartet defaults to $QUARTET or
the release build, Stockfish to `stockfish` on the PATH or Debian's /usr/games/stockfish.
Python 3.11, standard library only."""

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys

from registry import default_binary, names

CHESS_DEPTH = (7, 6)
MAX_LEAVES = (3.2e9, 4e8)
NODES = re.compile(r"^Nodes searched: (\d+)$", re.M)


def run(argv, stdin=None):
    """Runs `argv` to its end (feeding `stdin`), returns (leaves it reports, CPU seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(argv, input=stdin, capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    found = NODES.findall(out)
    if not found:
        sys.exit(f"no 'Nodes searched' line from {argv}: {out[-300:]!r}")
    return int(found[-1]), cpu


def stockfish(binary, depth):
    """Stockfish's chess perft from the start position."""
    return run([binary], f"position startpos\ngo perft {depth}\nquit\n")


def quartet(binary, game, depth):
    """`quartet perft` from the game's start position."""
    return run([binary, "perft", "--game", game, "--depth", str(depth)])


def depth_for(binary, game, max_leaves):
    """The deepest depth whose foretold leaves stay within `max_leaves` (see the top)."""
    leaves = [1]  # leaves[d]: perft d; perft 0 is the root
    while True:
        k = len(leaves)
        leaves.append(quartet(binary, game, k)[0])
        if k < 2:
            continue
        foretold, ratio = [leaves[k]], [None] + [leaves[d] / max(leaves[d - 1], 1)
                                                for d in range(1, k + 1)]
        for i in range(1, 4):
            ratio.append(ratio[k + i - 2])
            foretold.append(foretold[-1] * ratio[k + i])
        if foretold[3] > max_leaves or k >= 60:
            fits = [i for i in (2, 1) if foretold[i] <= max_leaves]
            return k + (fits[0] if fits else 0)


def load():
    """The 1-minute load average."""
    return os.getloadavg()[0]


def compare(q, sf, game, depth, chess_depth, rounds):
    """One table row: alternating runs, Stockfish first."""
    load_before = load()
    ours, theirs, ratios = [0, 0.0], [0, 0.0], []
    for _ in range(rounds):
        sf_leaves, sf_cpu = stockfish(sf, chess_depth)
        q_leaves, q_cpu = quartet(q, game, depth)
        for total, (n, cpu) in ((theirs, (sf_leaves, sf_cpu)), (ours, (q_leaves, q_cpu))):
            total[0] += n
            total[1] += cpu
        ratios.append((q_leaves / max(q_cpu, 1e-9)) / (sf_leaves / max(sf_cpu, 1e-9)))
    rate_q = ours[0] / max(ours[1], 1e-9)
    rate_sf = theirs[0] / max(theirs[1], 1e-9)
    return (f"| {game} | `quartet perft --game {game} --depth {depth}` | {ours[0] // rounds:,} "
            f"| {ours[1] / rounds:.2f} | {rate_q / 1e6:,.0f} M | {rate_sf / 1e6:,.0f} M "
            f"| **{rate_q / rate_sf:.2f}x** ({min(ratios):.2f}-{max(ratios):.2f}) "
            f"| {load_before:.1f} / {load():.1f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quartet", default=None)
    parser.add_argument("--stockfish", default=None)
    parser.add_argument("--rounds", type=int, default=2, help="Stockfish/Quartet pairs per game")
    parser.add_argument("--quick", action="store_true", help="chess perft 6 and smaller trees")
    parser.add_argument("--chess-depth", type=int, default=None)
    parser.add_argument("--max-leaves", type=float, default=None,
                        help="the most leaves a game's perft may have (foretold)")
    parser.add_argument("--depth", action="append", default=[], metavar="GAME=PLIES",
                        help="a game and its plies (repeatable); only these games run")
    args = parser.parse_args()
    q = args.quartet or default_binary()
    sf = args.stockfish or shutil.which("stockfish") or "/usr/games/stockfish"
    pick = 1 if args.quick else 0
    chess_depth = args.chess_depth or CHESS_DEPTH[pick]
    max_leaves = args.max_leaves or MAX_LEAVES[pick]
    if not args.depth:
        depths = {g: depth_for(q, g, max_leaves) for g in names(q)}
    else:
        depths = {}
        for item in args.depth:
            game, _, plies = item.partition("=")
            depths[game] = int(plies)
    version = subprocess.run([sf], input="quit\n", capture_output=True, text=True).stdout
    print(f"Stockfish: {version.splitlines()[0] if version else sf}; chess perft {chess_depth} "
          f"from the start; {args.rounds} rounds per game, Stockfish first; CPU = user + sys")
    print()
    print("| game | command | leaves | CPU s per run | Quartet leaves/CPU-s "
          "| Stockfish leaves/CPU-s | ratio (range) | load before / after |")
    print("|---|---|---|---|---|---|---|---|")
    for game, depth in depths.items():
        print(compare(q, sf, game, depth, chess_depth, args.rounds), flush=True)


if __name__ == "__main__":
    main()
