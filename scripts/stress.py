#!/usr/bin/env python3
"""Stress: many position / go nodes / stop / isready cycles against one engine process.

Each cycle picks a game (each in turn, in random order), sets one of a few positions
reached by random legal play (`position startpos moves ...`), starts `go nodes N` with a
random N, waits a random 0-30 ms, sends `stop` and `isready`, and checks:

- exactly one `bestmove` for the `go`, before the `readyok` (answers in order), legal
  or `(none)` with an `info string` reason;
- no hang: every answer within the patience;
- memory stays flat: VmRSS (from /proc/PID/status) sampled every 100 cycles stays below
  the Hash setting plus a constant, and does not grow between the first and last quarter.

It measures the stop latency — from writing `stop` to reading `bestmove` — per game (worst
case, p99, median) over the cycles whose search was still running at `stop`, and, for
comparison, the round trip of an `isready` while idle (what the machine's load alone
costs: on a busy machine both include waiting for a core).

    python3 scripts/stress.py --cycles 10000 --seed 1

Exit status 0 when every check held and the worst stop latency is under --max-latency-ms.
"""

import argparse
import random
import statistics
import sys
import time

from fuzz_session import Engine, Failure
from registry import default_binary, names

GAMES = names()


def positions(e, game, rng, count, plies):
    """`count` legal move lists of up to `plies` tokens from random play in `game`."""
    lines = e.sync() + send_sync(e, f"setoption name Game value {game}")
    assert not lines, lines
    found = [[]]
    while len(found) < count:
        moves = []
        for _ in range(rng.randrange(1, plies + 1)):
            assert not send_sync(e, "position startpos moves " + " ".join(moves))
            legal = query(e, "legalmoves").split()
            if not legal:
                break
            moves.append(rng.choice(legal))
        found.append(moves)
    return found


def send_sync(e, line):
    e.send(line)
    return e.sync()


def query(e, question):
    lines = send_sync(e, f"query {question}")
    assert len(lines) == 1 and lines[0].startswith("response"), lines
    return lines[0][len("response"):].strip()


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def cycle(e, game, moves, rng, stats):
    """One position / go / stop / isready cycle; records the stop latency."""
    e.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
    simultaneous = query(e, "node") == "simultaneous"
    side = f" side {rng.choice('wb')}" if simultaneous else ""
    legal = set(query(e, "legalmoves").split())
    if side:
        legal |= set(query(e, "legalmoves" + side[5:]).split())
    sent = e.send("isready")
    stamp, line = e.recv_timed()
    if line != "readyok":
        raise Failure(f"isready answered by {line!r}")
    stats["ping"][game].append((stamp - sent) * 1000.0)
    nodes = rng.choice([1, 100, 10_000, 1_000_000, 100_000_000])
    e.send(f"go nodes {nodes}{side}")
    time.sleep(rng.random() * 0.03)
    stopped = e.send("stop")
    e.send("isready")
    best, noted = None, False
    while True:
        stamp, line = e.recv_timed()
        if line == "readyok":
            break
        if line.startswith("info string"):
            noted = True
        elif line.startswith("bestmove"):
            if best is not None:
                raise Failure(f"two bestmoves for one go: {best!r}, {line!r}")
            best = line.split()[1]
            if stamp >= stopped:
                stats["latency"][game].append((stamp - stopped) * 1000.0)
            else:
                stats["finished"][game] += 1
        elif not line.startswith("info "):
            raise Failure(f"unexpected line {line!r}")
    if best is None:
        raise Failure(f"readyok before the bestmove of go nodes {nodes}{side} (game {game})")
    if best == "(none)":
        if not noted:
            raise Failure(f"bestmove (none) without a reason in {game} after {moves}")
    elif best not in legal:
        raise Failure(f"{game}: bestmove {best} not legal after {moves}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hash", type=int, default=16, help="Hash option in MiB")
    parser.add_argument("--rss-slack-mib", type=int, default=48,
                        help="allowed RSS above the hash table")
    parser.add_argument("--max-latency-ms", type=float, default=50.0)
    parser.add_argument("--binary", default=None)
    parser.add_argument("--patience", type=float, default=10.0)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    e = Engine(args.binary or default_binary(), patience=args.patience)
    stats = {
        "latency": {g: [] for g in GAMES},
        "finished": {g: 0 for g in GAMES},
        "ping": {g: [] for g in GAMES},
    }
    rss = []
    started = time.monotonic()
    try:
        assert not send_sync(e, f"setoption name Hash value {args.hash}")
        books = {g: positions(e, g, rng, 12, 40) for g in GAMES}
        rss.append(e.rss_kib())
        order = []
        for i in range(args.cycles):
            if not order:
                order = rng.sample(GAMES, len(GAMES))
            game = order.pop()
            e.send(f"setoption name Game value {game}")
            cycle(e, game, rng.choice(books[game]), rng, stats)
            if i % 100 == 99:
                rss.append(e.rss_kib())
    except Failure as f:
        print(f"FAILED after {time.monotonic() - started:.0f} s (seed {args.seed}): {f}")
        for line in e.sent[-10:]:
            print("  >", line.decode(errors="replace"))
        for line in e.received[-10:]:
            print("  <", line)
        e.close()
        sys.exit(1)
    e.close()

    ok = True
    print(f"{args.cycles} cycles in {time.monotonic() - started:.0f} s, seed {args.seed}")
    print("stop -> bestmove (ms)                          idle isready -> readyok (ms)")
    print("game        stops  finished-first  worst    p99  median    worst    p99  median")
    for g in GAMES:
        lat, ping = stats["latency"][g], stats["ping"][g]
        row = f"{g:<11} {len(lat):>5}  {stats['finished'][g]:>14}"
        if lat:
            ok &= max(lat) < args.max_latency_ms
            row += f"  {max(lat):>5.1f} {percentile(lat, 0.99):>6.1f} {statistics.median(lat):>7.2f}"
        else:
            row += " " * 23
        row += f"  {max(ping):>7.1f} {percentile(ping, 0.99):>6.1f} {statistics.median(ping):>7.2f}"
        print(row)
    limit_kib = (args.hash + args.rss_slack_mib) * 1024
    quarter = max(1, len(rss) // 4)
    early, late = max(rss[:quarter]), max(rss[-quarter:])
    print(
        f"VmRSS KiB: after set-up {rss[0]}, max {max(rss)}, last {rss[-1]}; "
        f"limit {limit_kib} (Hash {args.hash} MiB + {args.rss_slack_mib} MiB)"
    )
    if max(rss) > limit_kib:
        print("FAILED: RSS above the limit")
        ok = False
    if late > early + 4096:
        print(f"FAILED: RSS grew from {early} to {late} KiB")
        ok = False
    if not ok:
        print(f"FAILED: worst stop latency not under {args.max_latency_ms} ms or memory grew")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
