#!/usr/bin/env python3
"""Time use on a clock: one engine plays both sides of each game, move after move, on a
real clock (`wtime`/`btime` start at --clock-ms, each move's time measured from sending
`go` to reading `bestmove` is taken off the mover's clock, then --inc-ms added), and the
script reports, per game, how the time used compares with the cap protocol.md promises:
no move over four fifths of the remaining clock less `Move Overhead`.

    python3 scripts/time_use.py --moves 100 --clock-ms 1000 --inc-ms 10 [--player mcts]

For each game: moves played, the largest share of the cap one move used, the mean time
per move, the lowest clock seen and the number of flags (a clock at or below 0 after a
move, which a runner with no margin, such as cutegames, scores as a loss). Games that end
are restarted; Ludo rolls come from a seeded generator; Apocalypse asks both sides.
Exit status 0 when no move went over its cap (plus --slack-ms for the pipe) and nothing
flagged.
"""

import argparse
import random
import sys
import time

from fuzz_session import Engine
from registry import default_binary, names

GAMES = names()


def timed_go(e, go_line, slack):
    """Sends `go_line`; returns the bestmove token and the milliseconds it took."""
    sent = time.monotonic()
    e.send(go_line)
    while True:
        line = e.recv()
        if line.startswith("bestmove"):
            took = (time.monotonic() - sent) * 1000
            return line.split()[1], took


def query(e, question):
    e.send(f"query {question}")
    while True:
        line = e.recv()
        if line.startswith("response"):
            return line[len("response"):].strip()


def play(e, game, args, rng):
    """Plays `args.moves` engine moves of `game`; returns the rows of the report."""
    e.send(f"setoption name Game value {game}")
    e.send(f"setoption name Move Overhead value {args.overhead_ms}")
    e.sync()
    clocks = [args.clock_ms, args.clock_ms]
    moves = []
    worst_share, total, lowest, flags, over, played = 0.0, 0.0, args.clock_ms, 0, 0, 0
    while played < args.moves:
        e.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        node = query(e, "node")
        if node == "over":
            moves, clocks = [], [args.clock_ms, args.clock_ms]
            continue
        if node.startswith("chance"):
            moves.append(f"r{rng.randrange(1, 7)}")
            continue
        clock = f"wtime {int(clocks[0])} btime {int(clocks[1])} winc {args.inc_ms} binc {args.inc_ms}"
        if node == "simultaneous":
            halves, movers = [], [0, 1]
            for side in ("w", "b"):
                token, took = timed_go(e, f"go {clock} side {side}", args.slack_ms)
                halves.append((token, took))
            token = "/".join(t for t, _ in halves)
            tooks = [t for _, t in halves]
        else:
            mover = 0 if node == "turn p1" else 1
            token, took = timed_go(e, f"go {clock}", args.slack_ms)
            movers, tooks = [mover], [took]
        for mover, took in zip(movers, tooks):
            cap = max(1.0, clocks[mover] * 4 / 5 - args.overhead_ms)
            worst_share = max(worst_share, took / cap)
            over += took > cap + args.slack_ms
            clocks[mover] -= took
            flags += clocks[mover] <= 0
            lowest = min(lowest, clocks[mover])
            clocks[mover] = max(clocks[mover], 0) + args.inc_ms
            total += took
            played += 1
        moves.append(token)
    return {
        "game": game,
        "moves": played,
        "worst": worst_share,
        "mean": total / played,
        "lowest": lowest,
        "flags": flags,
        "over": over,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", default=default_binary())
    ap.add_argument("--moves", type=int, default=100)
    ap.add_argument("--clock-ms", type=int, default=1000)
    ap.add_argument("--inc-ms", type=int, default=10)
    ap.add_argument("--overhead-ms", type=int, default=10)
    ap.add_argument("--slack-ms", type=float, default=15.0, help="pipe and scheduling allowance")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", nargs="*", default=GAMES)
    ap.add_argument("--player", default="search", help="the engine's --player (a baseline too)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    e = Engine(args.binary, args=["--player", args.player], patience=30.0)
    rows = [play(e, g, args, rng) for g in args.games]
    e.close()
    print(f"player {args.player}, clock {args.clock_ms} ms + {args.inc_ms} ms, "
          f"Move Overhead {args.overhead_ms} ms, {args.moves} moves per game")
    print("| game | moves | most of the cap one move used | mean ms per move | lowest clock ms | over cap | flags |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['game']} | {r['moves']} | {r['worst']:.0%} | {r['mean']:.1f} | "
              f"{r['lowest']:.0f} | {r['over']} | {r['flags']} |")
    return 0 if all(r["over"] == 0 and r["flags"] == 0 for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
