"""The games as the binary lists them (`quartet games`), for the scripts: none of them
writes a game's name or rule options out, so a new game reaches every script.

    from registry import default_binary, games, names
"""

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def default_binary():
    """$QUARTET, else the release build, else the debug build."""
    if os.environ.get("QUARTET"):
        return os.environ["QUARTET"]
    for build in ("release", "debug"):
        candidate = ROOT / "target" / build / "quartet"
        if candidate.exists():
            return str(candidate)
    sys.exit("no quartet binary: set QUARTET or run cargo build --release")


@functools.lru_cache(maxsize=None)
def games(binary=None):
    """Every game's description (`quartet games`), in the `Game` option's order: `name`,
    `nodes` (`turns`, `simultaneous`, `chance`), `start`, `rule_options`, ..."""
    out = subprocess.run([binary or default_binary(), "games"], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def names(binary=None):
    """Every game's name, in the `Game` option's order."""
    return [g["name"] for g in games(binary)]


def option_values(option):
    """Values to try for a rule option: every legal one, then refused ones."""
    if option["type"] == "check":
        return ["true", "false", "maybe"]
    if option["type"] == "combo":
        return option["values"] + [option["values"][0].upper(), "neither"]
    lo, hi = option["min"], option["max"]
    return [str(v) for v in sorted({lo, hi, (lo + hi) // 2})] + [str(lo - 1), str(hi + 1)]
