#!/usr/bin/env python3
"""Lazy SMP speed-up: time to a fixed depth with `Threads 2` against `Threads 1`, with the
CPU time beside the wall time.

For each game of the binary (`quartet games`), from a few positions (the start position and
positions reached by seeded random legal plies from it, kept as `query fen` gives them), it
runs `go depth N` once with each thread count, alternately (1, 2, 1, 2, ... for --rounds
rounds), each search in a fresh engine process with a fresh table, and measures:

- wall: from sending `go` to reading `bestmove` (the time to depth);
- CPU: user + sys of the engine process over the same span, from /proc/PID/stat (every
  thread's, the helper threads' included); start-up and the table's allocation are left
  out. The process's whole CPU time (getrusage of the children) is printed too;
- nodes: the last `info depth` line's count (with two threads, both threads' nodes).

A game's ratios are taken within one round (the sum over the positions with two threads
over the sum with one), then their geometric mean over the rounds is printed with the
range. The machine's load average (os.getloadavg) is printed at the start, after each game
and at the end: with 2 cores, any other busy process takes the second thread's core, so
read the ratios beside the load.

Each game's depth is --depth GAME=N if given, else the deepest depth that one thread
reaches from every position within --target seconds on average (found from one
`go movetime` search per position; the calibration prints what it found).

    python3 scripts/threads_speedup.py [--rounds 3] [--positions 3] [--plies 12]
        [--target 3] [--depth GAME=N ...] [--games GAME,...] [--hash 64] [--rolled]
        [--quartet Q]

Python 3.11, standard library only; Linux (/proc) for the search's CPU time.
"""

import argparse
import math
import os
import random
import resource
import subprocess
import sys
import time

from registry import default_binary, names


def load():
    """The 1-, 5- and 15-minute load averages as text."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def cpu_seconds(pid):
    """User + sys CPU seconds of process `pid` so far (every thread), from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # After the command: state is field 3, utime 14 and stime 15 (1-based, man 5 proc).
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Engine:
    """One engine process driven line by line."""

    def __init__(self, binary, game, threads=1, hash_mb=None):
        self.proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send(f"setoption name Game value {game}")
        self.send(f"setoption name Threads value {threads}")
        if hash_mb:
            self.send(f"setoption name Hash value {hash_mb}")
        self.send("isready")
        self.until("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        """The lines read up to and including the first that starts with `prefix`."""
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit(f"the engine ended while waiting for {prefix!r}: {lines[-5:]}")
            line = line.rstrip("\n")
            if line.startswith("info string error"):
                sys.exit(f"engine error: {line}")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def query(self, question):
        """The answer to `query QUESTION`, without the `response` word."""
        self.send(f"query {question}")
        return self.until("response")[-1][len("response"):].strip()

    def close(self):
        """Quits and waits for the process (so getrusage of the children counts it)."""
        self.send("quit")
        self.proc.stdin.close()
        self.proc.wait()


def side_for(node):
    """What `go` needs at a node of this kind: a side at a simultaneous turn."""
    return " side w" if node == "simultaneous" else ""


def positions(binary, game, count, plies, seed, rolled=False):
    """The start position and `count - 1` positions reached by seeded random legal plies
    (`plies`, `2 * plies`, ... from the start; a game that ends on the way keeps the
    position before its end), as (position string, node kind). With `rolled`, each
    position found at a chance node is replaced by the turn after a seeded random outcome
    (a die's roll), where a dice game chooses its moves."""
    rng = random.Random(f"{seed}:{game}")
    engine = Engine(binary, game)
    engine.send("position startpos")
    found = [(engine.query("fen"), engine.query("node"))]
    moves = []
    while len(found) < count:
        for _ in range(plies):
            node = engine.query("node")
            if node == "over":
                break
            if node.startswith("chance"):
                tokens = [t.split(":")[0] for t in engine.query("chance").split()]
            else:
                tokens = engine.query("legalmoves").split()
            if not tokens:
                break
            trial = moves + [rng.choice(tokens)]
            engine.send("position startpos moves " + " ".join(trial))
            if engine.query("node") == "over":
                engine.send("position startpos moves " + " ".join(moves))
                break
            moves = trial
        fen, node = engine.query("fen"), engine.query("node")
        if (fen, node) in found:
            break
        found.append((fen, node))
    if rolled:
        found = [roll(engine, rng, fen, node) for fen, node in found]
    engine.close()
    return found


def roll(engine, rng, fen, node):
    """The position after a seeded random outcome of the chance node `fen` (and again
    while it is one), preferring an outcome after which the mover has a choice of moves;
    `fen` itself if it is not a chance node."""
    engine.send(f"position fen {fen}")
    while node.startswith("chance"):
        here = engine.query("fen")
        outcomes = [t.split(":")[0] for t in engine.query("chance").split()]
        rng.shuffle(outcomes)
        for outcome in outcomes:
            engine.send(f"position fen {here} moves {outcome}")
            node = engine.query("node")
            if not node.startswith("turn") or len(engine.query("legalmoves").split()) > 1:
                break
    return engine.query("fen"), node


def search(binary, game, fen, node, threads, hash_mb, limit):
    """One search from `fen` with `go LIMIT` in a fresh engine: its `info depth` lines
    (parsed), wall seconds, search CPU seconds and process CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    engine = Engine(binary, game, 1, hash_mb)
    engine.send(f"position fen {fen}")
    # `readyok` does not wait for the table's allocation, the first `go` does (64 MiB:
    # about 40 ms); a one-node search with one thread waits for it here, outside the
    # measured span, and leaves the same table for both thread counts.
    engine.send(f"go nodes 1{side_for(node)}")
    engine.until("bestmove")
    engine.send(f"setoption name Threads value {threads}")
    engine.send("isready")
    engine.until("readyok")
    cpu0 = cpu_seconds(engine.proc.pid)
    t0 = time.monotonic()
    engine.send(f"go {limit}{side_for(node)}")
    lines = engine.until("bestmove")
    wall = time.monotonic() - t0
    cpu = cpu_seconds(engine.proc.pid) - cpu0
    engine.close()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    process_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    infos = []
    for line in lines:
        words = line.split()
        if line.startswith("info depth") and "nodes" in words:
            infos.append({k: int(words[words.index(k) + 1]) for k in ("depth", "nodes", "time")})
    return infos, wall, cpu, process_cpu


def calibrate(binary, game, found, hash_mb, target):
    """The deepest depth one thread completes from every position within twice `target`
    seconds, with a mean time to it within `target`."""
    times = []
    for fen, node in found:
        infos, _, _, _ = search(binary, game, fen, node, 1, hash_mb,
                                f"movetime {int(2000 * target)}")
        times.append({i["depth"]: i["time"] / 1000 for i in infos})
    common = set.intersection(*(set(t) for t in times))
    good = [d for d in common if sum(t[d] for t in times) / len(times) <= target]
    depth = max(good or common or {1})
    means = {d: sum(t[d] for t in times) / len(times) for d in sorted(common)}
    print(f"  calibration ({game}): mean seconds to depth with 1 thread: "
          + ", ".join(f"{d}: {s:.2f}" for d, s in means.items()) + f" -> depth {depth}",
          flush=True)
    return depth


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def ratio(a, b):
    """a / b, or None when either is 0 (a search too short for the clock)."""
    return a / b if a > 0 and b > 0 else None


def ratio_text(xs):
    """The geometric mean of the ratios, with their range."""
    if None in xs:
        return "-"
    return f"{geomean(xs):.2f} ({min(xs):.2f}-{max(xs):.2f})"


def per_second(count, seconds):
    """Thousands per second, or '-' for a span too short for the clock."""
    return f"{count / seconds / 1000:.0f}" if seconds > 0 else "-"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quartet", default=None, help="the binary (default: $QUARTET or "
                        "target/release/quartet)")
    parser.add_argument("--games", default=None, help="comma-separated games (default: all)")
    parser.add_argument("--depth", action="append", default=[], metavar="GAME=N",
                        help="a game's depth (repeatable); otherwise calibrated")
    parser.add_argument("--target", type=float, default=3.0,
                        help="seconds one thread should take per position (calibration)")
    parser.add_argument("--positions", type=int, default=3)
    parser.add_argument("--plies", type=int, default=12,
                        help="random plies between two positions")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--hash", type=int, default=64, help="Hash option, MiB")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rolled", action="store_true",
                        help="search a dice game's positions after a seeded roll (turn "
                        "roots, where it chooses its moves), not before it")
    parser.add_argument("--verbose", action="store_true", help="print every search")
    args = parser.parse_args()
    binary = args.quartet or default_binary()
    registered = names(binary)
    chosen = args.games.split(",") if args.games else registered
    depths = {}
    for item in args.depth:
        game, _, n = item.partition("=")
        if game not in registered or not n.isdigit():
            sys.exit(f"--depth {item}: expected GAME=N with GAME one of {registered}")
        depths[game] = int(n)
    for game in chosen:
        if game not in registered:
            sys.exit(f"--games: {game} is not one of {registered}")

    print(f"load at start: {load()}  ({os.cpu_count()} CPUs)  binary: {binary}", flush=True)
    rows = []
    started = time.monotonic()
    for game in chosen:
        found = positions(binary, game, args.positions, args.plies, args.seed, args.rolled)
        depth = depths.get(game) or calibrate(binary, game, found, args.hash, args.target)
        load_before = load()
        per_round = []
        for r in range(args.rounds):
            sums = {1: [0.0, 0.0, 0, 0.0], 2: [0.0, 0.0, 0, 0.0]}  # wall, cpu, nodes, proc cpu
            for i, (fen, node) in enumerate(found):
                for threads in (1, 2):
                    infos, wall, cpu, proc_cpu = search(binary, game, fen, node, threads,
                                                        args.hash, f"depth {depth}")
                    if not infos or infos[-1]["depth"] != depth:
                        sys.exit(f"{game} {fen}: depth {depth} not reached: {infos[-1:]}")
                    nodes = infos[-1]["nodes"]
                    s = sums[threads]
                    s[0] += wall
                    s[1] += cpu
                    s[2] += nodes
                    s[3] += proc_cpu
                    if args.verbose:
                        print(f"    {game} round {r + 1} position {i + 1} threads {threads}: "
                              f"wall {wall:.3f} s  cpu {cpu:.2f} s  process cpu "
                              f"{proc_cpu:.2f} s  nodes {nodes}  load {load()}", flush=True)
            per_round.append(sums)
        load_after = load()
        row = {"game": game, "depth": depth, "positions": len(found),
               "load": f"{load_before} / {load_after}"}
        for threads in (1, 2):
            rs = [s[threads] for s in per_round]
            row[threads] = {
                "wall": sum(s[0] for s in rs) / len(rs),
                "cpu": sum(s[1] for s in rs) / len(rs),
                "nodes": sum(s[2] for s in rs) / len(rs),
                "proc": sum(s[3] for s in rs) / len(rs),
            }
        row["time ratio"] = [ratio(s[2][0], s[1][0]) for s in per_round]
        row["cpu ratio"] = [ratio(s[2][1], s[1][1]) for s in per_round]
        row["npc ratio"] = [ratio(s[2][2] * s[1][1], s[1][2] * s[2][1]) for s in per_round]
        row["nodes ratio"] = [ratio(s[2][2], s[1][2]) for s in per_round]
        rows.append(row)
        print(f"  {game}: depth {depth}, {len(found)} positions, {args.rounds} rounds, "
              f"time ratio {ratio_text(row['time ratio'])}, load {row['load']}", flush=True)

    print()
    print(f"Per game, summed over its positions and averaged over {args.rounds} rounds "
          "(1 = Threads 1, 2 = Threads 2); ratios are 2 threads / 1 thread per round, "
          "geometric mean (range).")
    print()
    print("| game | depth | pos | wall 1 s | wall 2 s | **time to depth 2/1** | CPU 1 s | "
          "CPU 2 s | CPU 2/1 | CPU/wall 1 | CPU/wall 2 | nodes 2/1 | knps 1 | knps 2 | "
          "k nodes/CPU-s 1 | k nodes/CPU-s 2 | nodes/CPU-s 2/1 | load before / after |")
    print("|" + "---|" * 18)
    for row in rows:
        one, two = row[1], row[2]
        print(f"| {row['game']} | {row['depth']} | {row['positions']} | {one['wall']:.2f} | "
              f"{two['wall']:.2f} | **{ratio_text(row['time ratio'])}** | {one['cpu']:.2f} | "
              f"{two['cpu']:.2f} | {ratio_text(row['cpu ratio'])} | "
              f"{one['cpu'] / one['wall']:.2f} | {two['cpu'] / two['wall']:.2f} | "
              f"{ratio_text(row['nodes ratio'])} | "
              f"{per_second(one['nodes'], one['wall'])} | "
              f"{per_second(two['nodes'], two['wall'])} | "
              f"{per_second(one['nodes'], one['cpu'])} | "
              f"{per_second(two['nodes'], two['cpu'])} | "
              f"{ratio_text(row['npc ratio'])} | {row['load']} |")
    print()
    total = sum(r[t]["proc"] for r in rows for t in (1, 2)) * args.rounds
    print(f"load at end: {load()}; {time.monotonic() - started:.0f} s wall; engine processes' "
          f"CPU (getrusage, calibration left out): {total:.1f} s")


if __name__ == "__main__":
    main()
