"""One whole game of each of the four games, a person (clicking) against the engine, to its
end; then the record is downloaded and `quartet replay` must accept it."""

import random
import re
import subprocess
import time

import pytest
from selenium.webdriver.common.by import By

from conftest import QUARTET, game_names
from play import play_out


def download_record(p, downloads, game):
    p.click_id("download")
    path = downloads / f"quartet-{game}.pgn"
    p.wait_for(lambda: path.exists() and path.stat().st_size > 0, what="the downloaded record")
    time.sleep(0.2)
    return path


def replay(game, path):
    r = subprocess.run([QUARTET, "replay", "--game", game, str(path)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr + path.read_text()
    assert "every move legal" in r.stdout
    return path.read_text()


@pytest.mark.parametrize("game,seed", [(g, i + 1) for i, g in enumerate(game_names())])
def test_a_whole_game_against_the_engine(page, downloads, game, seed):
    p = page("--seed", "11")
    p.set_limit("movetime", 40)
    p.set_delay(0)
    p.new_game(game, "human", "engine")
    actions = play_out(p, random.Random(seed))
    assert actions > 0
    status = p.status()
    assert status.startswith("Game over:") and "(" in status, status
    text = replay(game, download_record(p, downloads, game))
    # The reason is shown in the engine's words, the record's Reason tag (not its token).
    words = re.search(r'\[Reason "([^"]*)"\]', text)
    assert words and f"({words.group(1)})" in status, (status, text[:400])
    assert f'[Game "{game}"]' in text
    assert '[Termination "normal"]' in text or '[Termination "repetition"]' in text
    # The record's moves are the moves the page listed.
    assert " ".join(p.moves()) in " ".join(text.split("\n\n", 1)[1].split())
