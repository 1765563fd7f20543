#!/usr/bin/env python3
"""Writes an opening book for `quartet match --openings file:PATH`: positions reached by
random plies from the start whose short search score is close to level, so that a pair of
games (colours swapped) is not decided by the opening alone.

    python3 scripts/make_book.py --game duell --count 2000 --plies 4 --depth 7 \
        --max-score 150 --seed 1 --out duell-book.txt

Why: from `random:4` openings most Duell pairs split 1-1 (the random plies leave a key or a
king en prise, and the side that takes it wins both games), and such a pair says nothing
about which engine is stronger. An SPRT's information grows with the share of pairs that
are not decided by the opening, so a level book shortens it. Candidates are drawn one by
one (each ply uniform among `query legalmoves`; an Apocalypse ply joins one declaration of
each side), a position that ends the game or repeats an earlier candidate is skipped, and a
candidate is kept when `go depth D` scores it within ±max-score centipawns for the side to
move (White's declaration at Apocalypse), without a mate score. Ludo has dice instead of
openings and is not supported. The same seed, options and binary give the same file; the
header line records them.
"""

import argparse
import random
import sys

from fuzz_session import Engine
from registry import default_binary, games
from time_use import query

# Books are for the games without dice (a chance game opens with a roll).
GAMES = [g["name"] for g in games() if not g["nodes"]["chance"]]


def score_of(e, go_line):
    """Sends `go_line`; returns the last `score cp` before `bestmove`, or None for a mate
    score or no score."""
    e.send(go_line)
    score = None
    while True:
        line = e.recv()
        if line.startswith("info") and " score " in line:
            words = line.split()
            i = words.index("score")
            score = int(words[i + 2]) if words[i + 1] == "cp" else None
        if line.startswith("bestmove"):
            return score


def random_ply(e, game, rng):
    """One random legal token at the current position, or None when there is none."""
    if query(e, "node") == "simultaneous":
        white, black = query(e, "legalmoves w").split(), query(e, "legalmoves b").split()
        if not white or not black:
            return None
        return f"{rng.choice(white)}/{rng.choice(black)}"
    moves = query(e, "legalmoves").split()
    return rng.choice(moves) if moves else None


def candidate(e, game, plies, rng):
    """The position string after `plies` random plies, or None when the game ended."""
    moves = []
    for _ in range(plies):
        e.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        if query(e, "node") == "over":
            return None
        token = random_ply(e, game, rng)
        if token is None:
            return None
        moves.append(token)
    e.send("position startpos moves " + " ".join(moves))
    if query(e, "node") == "over":
        return None
    return query(e, "fen")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=GAMES, required=True)
    ap.add_argument("--count", type=int, default=1000, help="positions to write")
    ap.add_argument("--plies", type=int, default=4, help="random plies from the start")
    ap.add_argument("--depth", type=int, default=7, help="depth of the scoring search")
    ap.add_argument("--max-score", type=int, default=150, help="keep |score| <= this (cp)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--attempts", type=int, default=100000, help="give up after this many candidates")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    rng = random.Random(args.seed)
    e = Engine(default_binary(), patience=60.0)
    e.send(f"setoption name Game value {args.game}")
    e.sync()
    kept, seen, tried = [], set(), 0
    while len(kept) < args.count and tried < args.attempts:
        tried += 1
        fen = candidate(e, args.game, args.plies, rng)
        if fen is None or fen in seen:
            continue
        seen.add(fen)
        e.send(f"position fen {fen}")
        side = " side w" if query(e, "node") == "simultaneous" else ""
        score = score_of(e, f"go depth {args.depth}{side}")
        if score is not None and abs(score) <= args.max_score:
            kept.append(fen)
            if len(kept) % 100 == 0:
                print(f"{len(kept)} kept of {tried} candidates", file=sys.stderr, flush=True)
    e.send("quit")
    if len(kept) < args.count:
        sys.exit(f"only {len(kept)} of {args.count} positions in {tried} candidates")
    with open(args.out, "w") as f:
        f.write(
            f"# quartet book: game {args.game} plies {args.plies} depth {args.depth} "
            f"max-score {args.max_score} seed {args.seed}; kept {len(kept)} of {tried} candidates\n"
        )
        for fen in kept:
            f.write(fen + "\n")
    print(f"{args.out}: {len(kept)} positions kept of {tried} candidates", file=sys.stderr)


if __name__ == "__main__":
    main()
