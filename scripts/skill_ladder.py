#!/usr/bin/env python3
"""scripts/skill_ladder.py: calibrate the skill levels on Quartet's own Elo scale.

For each game it plays `quartet match` between neighbouring rungs of a ladder of skill
levels, anchored at the random player (`--player random`, Elo 0 by definition):

    level L0 vs random,  level L1 vs level L0,  ...,  level Ln vs level Ln-1

and chains the matches' Elo differences (pentanomial, 95 %) into an Elo per level,
the errors adding in quadrature along the chain. It prints a Markdown table (a row per
level, a column per game) and each game's `SKILL_ELO` rows for its declaration
(crates/games/src/<game>/mod.rs).

A match whose winner won every pair has no finite Elo; the chain then uses the match's
one-sided 95 % lower bound (marked `>=` in the table), so the levels above it are lower
bounds too. A match whose 95 % interval reaches a 100 % score (no upper end) has its ±
taken from the lower half of the interval (marked `*`).

`--reuse` takes a match's result from the --out directory when it is there (a ladder
stopped half-way goes on where it stopped; the table is recomputed without playing).

Check mode (`--check GAME=ELO ...`): plays an engine with `UCI_LimitStrength true` and
`UCI_Elo ELO` against the calibrated level whose Elo is nearest below-or-at ELO (or the
random player when ELO is below level 0's) and prints the Elo the match implies for it.

Usage:
    python3 scripts/skill_ladder.py [--games N] [--nodes N | --movetime MS]
        [--anchor-games N] [--concurrency K] [--seed S] [--openings SPEC] [--levels 0,2,...,18,19,20]
        [--game G ...] [--out DIR] [--reuse] [--quartet PATH] [--check GAME=ELO ...]

Defaults: 100 games per match, --nodes 2000, concurrency 1, seed 1, openings random:4,
levels 0,2,4,...,18,19,20, every game, a fresh temporary directory,
target/release/quartet. Python 3.11, standard library only.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from registry import games as registry_games, names

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Step:
    """One match: the Elo of `upper` over `lower`, with its 95 % half-width."""

    elo: float
    err: float
    bound: bool  # the Elo is only a one-sided lower bound (every pair won)
    half: bool  # the ± is the lower half of an interval without an upper end
    wdl: str
    seconds: float


@dataclass
class Rung:
    """A level's chained Elo."""

    level: int
    elo: float
    err: float
    bound: bool
    half: bool


def lower_half_width(results: Path) -> float:
    """The lower half of the pentanomial 95 % Elo interval from a --results file (the
    referee's own method: the pairs' mean score ± 1.96 standard errors, in Elo)."""
    penta = json.loads(results.read_text())["report"]["tally"]["penta"]
    value = {"ll": 0.0, "ld": 0.25, "wl": 0.5, "dd": 0.5, "wd": 0.75, "ww": 1.0}
    n = sum(penta.values())
    mu = sum(penta[k] * v for k, v in value.items()) / n
    var = sum(penta[k] * (v - mu) ** 2 for k, v in value.items()) / n
    lo = mu - 1.96 * math.sqrt(var / n)
    elo = lambda s: -400 * math.log10(1 / s - 1)
    return elo(mu) - elo(lo) if 0 < lo < mu < 1 else math.inf


def parse_report(text: str, results: Path) -> Step:
    """The Elo of a `quartet match` report (its first engine over its second)."""
    games = re.search(r"^Games: \d+ of \d+, Wins: (\d+), Losses: (\d+), Draws: (\d+)", text, re.M)
    wdl = f"{games.group(1)}-{games.group(3)}-{games.group(2)}" if games else "?"
    pairs = re.search(r"^Elo \(pairs\): (\S+) \+/- (\S+)", text, re.M)
    lower = re.search(r"^Elo >= (\S+)", text, re.M)
    upper = re.search(r"^Elo <= (\S+)", text, re.M)
    if pairs:
        elo, err = pairs.group(1), pairs.group(2)
        if elo not in ("inf", "-inf", "n/a") and err not in ("inf", "n/a"):
            return Step(float(elo), float(err), False, False, wdl, 0.0)
    if lower:
        return Step(float(lower.group(1)), 0.0, True, False, wdl, 0.0)
    if upper:
        return Step(float(upper.group(1)), 0.0, True, False, wdl, 0.0)
    if pairs and pairs.group(1) not in ("inf", "-inf", "n/a"):
        # A finite Elo whose interval reaches a 100 % score: the lower half of it.
        return Step(float(pairs.group(1)), lower_half_width(results), False, True, wdl, 0.0)
    raise ValueError("no Elo in the match report:\n" + text)


def engine(quartet: str, name: str, options: dict[str, str], args: str = "") -> list[str]:
    spec = ["--engine", f"cmd={quartet}", f"name={name}"]
    if args:
        spec.append(f"args={args}")
    spec += [f"option.{k}={v}" for k, v in options.items()]
    return spec


def level_engine(quartet: str, level: int | None) -> list[str]:
    """Level `level`, or the random player for `None`."""
    if level is None:
        return engine(quartet, "random", {}, "--player random")
    return engine(quartet, f"L{level}", {"Skill Level": str(level)})


def play(opts, game: str, first: list[str], second: list[str], tag: str,
         games: int | None = None) -> Step:
    """Plays one match and returns its Elo (the first engine over the second)."""
    base = Path(opts.out) / f"{game}-{tag}"
    cmd = [
        "nice", "-n", "19", opts.quartet, "match", "--game", game, *first, *second,
        "--games", str(games or opts.games), *opts.limit, "--concurrency", str(opts.concurrency),
        "--seed", str(opts.seed), "--openings", opts.openings, "--no-progress",
        "--pgnout", f"{base}.pgn", "--results", f"{base}.json",
    ]
    report, results = Path(f"{base}.txt"), Path(f"{base}.json")
    if opts.reuse and report.exists() and results.exists():
        return parse_report(report.read_text(), results)
    started = time.monotonic()
    run = subprocess.run(cmd, capture_output=True, text=True)
    report.write_text(run.stdout + run.stderr)
    if run.returncode != 0:
        sys.exit(f"quartet match failed ({run.returncode}), see {base}.txt")
    step = parse_report(run.stdout, results)
    step.seconds = time.monotonic() - started
    return step


def ladder(opts, game: str) -> list[Rung]:
    rungs: list[Rung] = []
    below: Rung | None = None
    for level in opts.levels:
        lower = below.level if below else None
        step = play(opts, game, level_engine(opts.quartet, level),
                    level_engine(opts.quartet, lower), f"L{level}-{'random' if lower is None else f'L{lower}'}",
                    opts.anchor_games if lower is None else None)
        base_elo, base_err, base_bound = (below.elo, below.err, below.bound) if below else (0.0, 0.0, False)
        rung = Rung(level, base_elo + step.elo, math.hypot(base_err, step.err),
                    base_bound or step.bound, (below.half if below else False) or step.half)
        print(f"  {game}: L{level} vs {'random' if lower is None else f'L{lower}'}: "
              f"{step.wdl} (W-D-L), {step.elo:+.0f} ± {step.err:.0f}"
              f"{' (lower bound)' if step.bound else ''}{' (lower half)' if step.half else ''}, "
              f"{step.seconds:.0f} s; "
              f"L{level} = {rung.elo:.0f} ± {rung.err:.0f}", file=sys.stderr, flush=True)
        rungs.append(rung)
        below = rung
    return rungs


def cell(r: Rung) -> str:
    return f"{'>= ' if r.bound else ''}{r.elo:.0f} ± {r.err:.0f}{'*' if r.half else ''}"


def monotone(rungs: list[Rung]) -> list[tuple[int, int]]:
    """(level, Elo) ascending in both, as crates/engine/src/skill.rs needs: a level whose Elo
    does not exceed the one below it (noise) is pooled with it (their mean), then Elos
    are made strictly increasing by at least 1."""
    blocks: list[list[Rung]] = []
    for r in rungs:
        blocks.append([r])
        while len(blocks) > 1 and mean(blocks[-1]) <= mean(blocks[-2]):
            last = blocks.pop()
            blocks[-1] += last
    out: list[tuple[int, int]] = []
    for b in blocks:
        for r in b:
            e = round(mean(b))
            if out and e <= out[-1][1]:
                e = out[-1][1] + 1
            out.append((r.level, e))
    return out


def mean(block: list[Rung]) -> float:
    return sum(r.elo for r in block) / len(block)


def check(opts, game: str, elo: int, table: list[tuple[int, int]]) -> None:
    """Plays UCI_Elo `elo` against the calibrated rung nearest below it (or random)."""
    below = [(lvl, e) for lvl, e in table if e <= elo]
    anchor, anchor_elo = (below[-1] if below else (None, 0))
    asked = engine(opts.quartet, f"Elo{elo}", {"UCI_LimitStrength": "true", "UCI_Elo": str(elo)})
    step = play(opts, game, asked, level_engine(opts.quartet, anchor),
                f"Elo{elo}-{'random' if anchor is None else f'L{anchor}'}")
    measured = anchor_elo + step.elo
    name = "random" if anchor is None else f"level {anchor}"
    print(f"| {game} | {elo} | {name} ({anchor_elo}) | {step.wdl} | {step.elo:+.0f} ± {step.err:.0f} "
          f"| {measured:.0f} | {measured - elo:+.0f} |", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=100)
    lim = p.add_mutually_exclusive_group()
    lim.add_argument("--nodes", type=int)
    lim.add_argument("--movetime", type=int)
    p.add_argument("--anchor-games", type=int,
                   help="games of the first match (the lowest level against random), "
                        "where one side wins nearly every game (default: --games)")
    p.add_argument("--concurrency", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--openings", default="random:4")
    p.add_argument("--levels", default="0,2,4,6,8,10,12,14,16,18,19,20")
    p.add_argument("--game", action="append", help="default: every game `quartet games` lists")
    p.add_argument("--out")
    p.add_argument("--reuse", action="store_true",
                   help="take a match's result from --out when it is there")
    p.add_argument("--quartet", default=str(ROOT / "target" / "release" / "quartet"))
    p.add_argument("--check", action="append", metavar="GAME=ELO",
                   help="measure UCI_Elo ELO in GAME instead of the ladder (needs the "
                        "calibration in the build)")
    p.add_argument("--table", action="append", metavar="GAME=L:E,L:E,...",
                   help="the calibration --check compares with (default: the one the "
                        "game declares, from `quartet games`)")
    opts = p.parse_args()
    opts.limit = ["--movetime", str(opts.movetime)] if opts.movetime else ["--nodes", str(opts.nodes or 2000)]
    opts.levels = [int(l) for l in opts.levels.split(",")]
    opts.out = opts.out or tempfile.mkdtemp(prefix="quartet-skill.")
    Path(opts.out).mkdir(parents=True, exist_ok=True)
    every = names(opts.quartet)
    games = opts.game or every
    if set(games) - set(every):
        p.error(f"--game: one of {', '.join(every)}")
    anchor = f" ({opts.anchor_games} against random)" if opts.anchor_games else ""
    setting = (f"{' '.join(opts.limit)}, {opts.games} games per match{anchor}, concurrency "
               f"{opts.concurrency}, seed {opts.seed}, openings {opts.openings}")
    print(f"Quartet skill ladder: {setting}; files in {opts.out}", file=sys.stderr)

    if opts.check:
        tables = read_tables(opts.table, opts.quartet)
        print("| game | UCI_Elo | against (its Elo) | W-D-L | Elo difference | measured Elo | error |")
        print("|---|---|---|---|---|---|---|")
        for spec in opts.check:
            game, elo = spec.split("=")
            check(opts, game, int(elo), tables[game])
        return

    results = {g: ladder(opts, g) for g in games}
    print(f"\nElo per level ({setting}; random = 0):\n")
    print("| level | " + " | ".join(games) + " |")
    print("|---|" + "---|" * len(games))
    for i, level in enumerate(opts.levels):
        print(f"| {level} | " + " | ".join(cell(results[g][i]) for g in games) + " |")
    print("\nSKILL_ELO of crates/games/src/<game>/mod.rs (made ascending where noise was not):\n")
    for g in games:
        pairs = ", ".join(f"({l}, {e})" for l, e in monotone(results[g]))
        print(f"    {g}: &[{pairs}]")


def read_tables(specs: list[str] | None, binary: str) -> dict[str, list[tuple[int, int]]]:
    """The calibrated (level, Elo) per game: from --table, else as each game declares it
    (`skill_elo` of `quartet games`; a game without one is not calibrated yet)."""
    tables: dict[str, list[tuple[int, int]]] = {}
    if specs:
        for spec in specs:
            game, rows = spec.split("=")
            tables[game] = [(int(l), int(e)) for l, e in (r.split(":") for r in rows.split(","))]
        return tables
    for g in registry_games(binary):
        if g["skill_elo"] is not None:
            tables[g["name"]] = [(int(l), int(e)) for l, e in g["skill_elo"]]
    return tables


if __name__ == "__main__":
    main()
