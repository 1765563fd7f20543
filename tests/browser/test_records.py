"""Records keep everything (issue 22 §7): a record carries every rule option and the dice
seed, `quartet replay` takes it without flags, and loading it restores both; a take back
does not re-draw the dice."""

import random
import subprocess

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import QUARTET
from play import human_act
from test_games import download_record


def set_pieces(p, n):
    box = p.d.find_element(By.CSS_SELECTOR, '#options input[data-option="Pieces"]')
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(f"{n}\n")


def pieces_on_board(p):
    return p.js("return window.guiLastState && window.guiLastState.position.pieces.length")


def test_a_pieces_2_record_round_trip(page, downloads, browser):
    p = page("--seed", "5")
    p.set_delay(0)
    p.new_game("ludo", "human", "human")
    set_pieces(p, 2)
    p.wait_for(lambda: pieces_on_board(p) == 4 and p.d.find_elements(By.ID, "roll"),
               what="two pieces a side, and Red to roll")
    rng = random.Random(3)
    for _ in range(12):
        human_act(p, rng)
    path = download_record(p, downloads, "ludo")
    text = path.read_text()
    assert '[Pieces "2"]' in text and "[DiceSeed " in text, text
    # quartet replay reads the rule from the record: no --pieces.
    r = subprocess.run([QUARTET, "replay", str(path)], capture_output=True, text=True)
    assert r.returncode == 0 and "every move legal" in r.stdout, r.stderr + text
    moves = p.moves()
    # A new tab with the default four pieces loads it back: two pieces and the same moves.
    q = page("--seed", "9")
    q.new_game("ludo", "human", "human")
    assert pieces_on_board(q) == 8
    q.d.find_element(By.ID, "load").send_keys(str(path))
    q.wait_for(lambda: pieces_on_board(q) == 4 and q.moves() == moves, what="the record loaded")
    # And its dice seed, not the new tab's: the seed shown is the record's.
    seed = text.split('[DiceSeed "')[1].split('"')[0]
    q.wait_for(lambda: q.js("return String(window.guiLastState.seed)") == seed, what="the record's dice seed")
    assert q.d.find_element(By.ID, "seed").get_attribute("value") == seed


def tokens(p):
    return p.js("return window.guiLastState.moves")


def test_a_take_back_does_not_redraw_the_dice(page):
    """The same decisions after a take back meet the same rolls (three tries: a re-drawn die
    would match all three times with probability 1/216)."""
    p = page()
    p.set_delay(0)
    p.new_game("ludo", "human", "human")
    human_act(p, random.Random(1))  # p1's roll
    human_act(p, random.Random(1))  # p1's move (or pass)
    p.wait_for(lambda: p.next_kind() == "human_roll", what="p2's roll")
    human_act(p, random.Random(1))  # p2's roll
    first = tokens(p)
    for _ in range(3):
        p.click_id("takeback")
        p.wait_for(lambda: len(tokens(p)) == 1, what="back to after the first roll")
        human_act(p, random.Random(1))  # the same move again
        p.wait_for(lambda: p.next_kind() == "human_roll", what="p2's roll")
        human_act(p, random.Random(1))
        assert tokens(p) == first


def test_resign_ends_the_game_with_its_reason_and_the_record_replays(page, downloads):
    p = page()
    p.set_delay(0)
    p.set_limit("movetime", 50)
    p.new_game("duell", "human", "engine")
    human_act(p, random.Random(2))
    p.wait_for(lambda: p.next_kind() == "human_move", what="the person's turn again")
    p.click_id("resign")
    p.wait_for(lambda: p.over(), what="the game over")
    assert "resignation" in p.status(), p.status()
    path = download_record(p, downloads, "duell")
    text = path.read_text()
    assert '[Termination "adjudicated"]' in text and '[Adjudicated "the first player resigned"]' in text, text
    assert "0-1" in text
    r = subprocess.run([QUARTET, "replay", str(path)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr + text
