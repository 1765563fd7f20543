#!/usr/bin/env python3
"""Writes the libFuzzer dictionary of the protocol targets, fuzz/protocol.dict: the
protocol's keywords (fuzz/keywords.dict) and, for every game the binary registers
(`quartet games`), its name, its rule options and their values, its start position and
the tokens of its first plies (`go perft 1`), so that mutations build whole commands in
every game. No game is written out here, so a new game reaches the dictionary by itself.

    python3 scripts/fuzz_dict.py            # uses $QUARTET, else target/{release,debug}
    cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run command -- -dict=protocol.dict
"""

import json
import subprocess

from registry import ROOT, default_binary, games

# The most first-ply tokens taken from each game (Apocalypse has 144 joint ones).
TOKENS_PER_GAME = 12


def ask(binary, lines):
    """The binary's answer to `lines` piped in, without its banner."""
    out = subprocess.run([binary], input="\n".join(lines) + "\n", check=True,
                         capture_output=True, text=True).stdout
    return out.splitlines()[1:]


def game_words(binary, game):
    """The dictionary words of one game."""
    words = [game["name"]]
    for option in game["rule_options"]:
        words.append(option["name"])
        words.extend(option.get("values", []))
    start, tokens = start_and_tokens(binary, game)
    return words + [start] + tokens


def start_and_tokens(binary, game):
    """A game's start position string, and tokens of its first two plies (after the last
    token of the first ply: Ludo's `r6`)."""
    select = f"setoption name Game value {game['name']}"
    [described] = [l for l in ask(binary, [select, "query position"])
                   if l.startswith("response ")]
    start = json.loads(described.removeprefix("response "))["fen"]
    first = first_tokens(binary, [select])
    second = first_tokens(binary, [select, f"position startpos moves {first[-1]}"])
    return start, first[:TOKENS_PER_GAME] + second[:TOKENS_PER_GAME]


def first_tokens(binary, setup):
    """The tokens `go perft 1` lists after the lines `setup` (its `<token>: <count>` lines)."""
    rows = [line.split(": ") for line in ask(binary, setup + ["go perft 1"])]
    return [row[0] for row in rows
            if len(row) == 2 and row[1].isdigit() and " " not in row[0]]


def dictionary(binary):
    """The whole dictionary's text."""
    text = (ROOT / "fuzz" / "keywords.dict").read_text()
    seen = set()
    for game in games(binary):
        for word in game_words(binary, game):
            if word not in seen:
                seen.add(word)
                text += json.dumps(word) + "\n"
    return text


def main():
    path = ROOT / "fuzz" / "protocol.dict"
    path.write_text(dictionary(default_binary()))
    print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
