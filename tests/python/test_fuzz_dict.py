"""scripts/fuzz_dict.py builds the fuzz targets' dictionary from the registry: every game
the binary lists, with its rule options and their values, its start position and tokens it
accepts, is in it, besides the protocol's keywords (fuzz/keywords.dict).

Run with `python3 -m pytest tests/python`. The binary is `$QUARTET`, else the release build,
else the debug build.
"""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from fuzz_dict import dictionary, start_and_tokens  # noqa: E402
from registry import default_binary, games  # noqa: E402


def test_every_game_its_options_and_the_keywords_are_in_it():
    binary = default_binary()
    lines = set(dictionary(binary).splitlines())
    keywords = (ROOT / "fuzz" / "keywords.dict").read_text().splitlines()
    assert {l for l in keywords if l.startswith('"')} <= lines
    for game in games(binary):
        words = [game["name"]]
        for option in game["rule_options"]:
            words += [option["name"]] + option.get("values", [])
        for word in words:
            assert json.dumps(word) in lines, word


def test_the_tokens_of_a_game_are_legal_in_it():
    binary = default_binary()
    for game in games(binary):
        fen, tokens = start_and_tokens(binary, game)
        select = f"setoption name Game value {game['name']}"
        for token in tokens[:3]:
            out = subprocess.run([binary], input=f"{select}\nposition fen {fen}\n"
                                 f"query islegal {token}\n", capture_output=True,
                                 text=True, check=True).stdout
            assert "response true" in out, (game["name"], token, out)
