"""The generic board (issue 22 §8): a game the page has no board module for is drawn from
`query position` alone (`width`, `height`, `pieces` with a `square` or a `cell`) and played
by clicks, from-square then to-square, the token built from the legal moves the page gets.
The game without a module is Duell under another name (renamed_engine.py), so the page
cannot know it; `?board=generic` puts the four games on the generic board too."""

import json
import pathlib
import random
import sys

from selenium.webdriver.common.by import By

from conftest import QUARTET, Engine, Page
from play import human_act, states
from test_board import grid_targets, set_position

RENAMED = str(pathlib.Path(__file__).with_name("renamed_engine.py"))


def drawn_pieces(p):
    """The keys of the pieces the board shows."""
    return sorted(p.js("return [...document.querySelectorAll('#board [data-piece]')].map(g => g.dataset.piece)"))


def board_kind(p):
    return p.js("return document.getElementById('board').dataset.board")


def buttons(p):
    return sorted(b.get_attribute("data-token") for b in p.d.find_elements(By.CSS_SELECTOR, "#actions button[data-token]"))


def test_a_game_without_a_board_module_is_drawn_and_played_by_clicks(page):
    p = page("--engine", f"{sys.executable} {RENAMED} {QUARTET} duell dice")
    p.set_delay(0)
    # The engine has no Duell now, but a game "dice" the page knows nothing of.
    games = p.js("return [...document.querySelectorAll('#game option')].map(o => o.value)")
    assert "dice" in games and "duell" not in games, games
    # First a game the page has a module for: R&B's own drawing, with its hands.
    p.new_game("rnb", "human", "human")
    assert board_kind(p) == "rnb"
    assert p.d.find_elements(By.CSS_SELECTOR, '#board [data-key^="hand:"]')
    # Then the game it has none for: the generic board, and nothing of the old one left.
    p.new_game("dice", "human", "human")
    assert board_kind(p) == "generic"
    assert not p.d.find_elements(By.CSS_SELECTOR, '#board [data-key^="hand:"]')
    # No module names its sides: the engine does (query position's `sides`).
    names = p.js("return [...document.querySelectorAll('.side-name')].map(s => s.textContent)")
    assert names[:2] == ["White", "Black"], names
    # An engine that names none: First and Second.
    p.js("window.guiLastState.position.sides = null; window.guiRender()")
    names = p.js("return [...document.querySelectorAll('.side-name')].map(s => s.textContent)")
    assert names[:2] == ["First", "Second"], names
    start = json.loads(Engine("duell").ask("position startpos", "position")[0])
    assert drawn_pieces(p) == sorted(x["square"] for x in start["pieces"])
    assert len(p.d.find_elements(By.CSS_SELECTOR, "#board .hit")) == start["width"] * start["height"]
    # The sources and each one's targets are the engine's legal moves.
    legal = Engine("duell").ask("position startpos", "legalmoves")[0].split()
    assert p.keys("source") == sorted({t[:2] for t in legal})
    p.click_key("a1")
    assert p.targets() == grid_targets(legal, "a1")
    n0 = states(p)
    p.click_key("e2")  # a1e2n: the only path there
    p.wait_for(lambda: states(p) > n0 and p.moves() == ["a1e2n"], what="a1e2n played by clicks")
    assert p.d.find_elements(By.CSS_SELECTOR, "#board .last-move")
    # Black's move, by clicks too.
    human_act(p, random.Random(3))
    assert len(p.moves()) == 2 and p.next_kind() == "human_move"
    # Two tokens with the same squares (two L paths, Duell rules W3) are a choice of buttons.
    set_position(p, "4BK4/9/9/9/3W325/9/9/4WK4 w 0 1")
    p.click_key("d4")
    assert "e6" in p.targets()
    p.click_key("e6")
    p.wait_for(lambda: buttons(p) == ["d4e6e", "d4e6n"], what="the two paths as buttons")
    n0 = states(p)
    p.d.find_element(By.CSS_SELECTOR, '#actions button[data-token="d4e6e"]').click()
    p.wait_for(lambda: states(p) > n0 and p.moves() == ["d4e6e"], what="the chosen path played")
    after = json.loads(Engine("duell").ask("position fen 4BK4/9/9/9/3W325/9/9/4WK4 w 0 1 moves d4e6e", "position")[0])
    assert drawn_pieces(p) == sorted(x["square"] for x in after["pieces"])


def test_the_generic_board_plays_rnb_placements_and_moves_by_clicks(server, browser):
    s = server()
    p = Page(browser(), s.url + "?board=generic")
    p.set_delay(0)
    p.new_game("rnb", "human", "human")
    assert board_kind(p) == "generic"
    # A placement names one square: a click on it and one more, then the colour's button.
    legal = p.js("return window.guiLastState.legal")
    assert p.keys("source") == sorted({t[2:] for t in legal})
    p.click_key("b2")
    assert p.targets() == ["b2"]
    p.click_key("b2")
    p.wait_for(lambda: buttons(p) == ["B@b2", "R@b2"], what="the two colours for b2")
    n0 = states(p)
    p.d.find_element(By.CSS_SELECTOR, '#actions button[data-token="R@b2"]').click()
    p.wait_for(lambda: states(p) > n0 and p.moves() == ["R@b2"], what="R@b2 played")
    # A few more placements, by clicks as a person makes them.
    rng = random.Random(7)
    for _ in range(5):
        human_act(p, rng)
        pieces = p.js("return window.guiLastState.position.pieces")
        assert drawn_pieces(p) == sorted({x["square"] for x in pieces})
    assert len(p.moves()) == 6
    # A move from square to square, and its capture marked (rules §4 example 1: custodial).
    set_position(p, "2k3/6/3R2/Rrb3/6/3K2 s 0000 0")
    p.click_key("d4")
    assert "d3" in p.targets()
    n0 = states(p)
    p.click_key("d3")
    p.wait_for(lambda: states(p) > n0 and p.moves() == ["d4d3"], what="d4d3 played by clicks")
    marks = p.js("return [...document.querySelectorAll('#board .capture-mark')].map(g => g.dataset.square)")
    assert sorted(marks) == ["b3", "c3"], marks
    human_act(p, rng)
    assert len(p.moves()) == 2


def test_the_generic_board_draws_a_board_of_cells_and_plays_ludo_by_buttons(server, browser):
    s = server()
    p = Page(browser(), s.url + "?board=generic")
    p.set_delay(0)
    p.new_game("ludo", "human", "human", seed=5)
    assert board_kind(p) == "generic"
    assert len(p.d.find_elements(By.CSS_SELECTOR, "#board .hit")) == 15 * 15
    rng = random.Random(2)
    for _ in range(8):
        human_act(p, rng)
        pieces = p.js("return window.guiLastState.position.pieces")
        assert drawn_pieces(p) == sorted({f"{x['cell'][0]},{x['cell'][1]}" for x in pieces})
    assert len(p.moves()) >= 8


def seed_shown(p):
    return p.d.find_element(By.ID, "seed").is_displayed()


def test_the_dice_seed_is_shown_for_a_game_with_dice_whatever_its_name(page):
    """The seed is for a game whose positions the engine showed as chance nodes: Ludo, here
    under another name (`race`), so that the page cannot know it by name."""
    p = page("--engine", f"{sys.executable} {RENAMED} {QUARTET} ludo race")
    p.set_delay(0)
    p.new_game("duell", "human", "human")
    assert not seed_shown(p), "Duell has no dice"
    p.new_game("race", "human", "human")
    assert seed_shown(p), "the renamed Ludo rolls a die"
    p.new_game("apocalypse", "human", "human")
    assert not seed_shown(p)
    # Chosen for a new game, a game with dice shows its seed before it starts.
    p.select("game", "race")
    assert seed_shown(p)
    p.select("game", "rnb")
    assert not seed_shown(p)


def test_the_generic_board_names_the_sides_and_plays_rnbs_joint_setup(server, browser, downloads):
    """On the generic board a game keeps its side names (South and North for R&B: the
    engine's, as its module's; First and Second only for a game without either), and R&B's
    `Placement together` is arranged by clicks and declared with Ready, as on its own board."""
    from test_together import left, ready, together, wait_reveal
    from test_games import download_record, replay

    s = server()
    p = Page(browser(), s.url + "?board=generic")
    together(p)
    assert board_kind(p) == "generic"
    names = p.js("return [...document.querySelectorAll('.side-name')].map(s => s.textContent)")
    assert names[:2] == ["South", "North"], names
    assert p.targets() == sorted(["a1", "b1", "c1", "e1", "f1", "a2", "b2", "c2", "d2", "e2", "f2"])
    # The generic board draws no hand: the panel's colour buttons choose from it.
    p.click_id("arrange-red")
    for sq in ["a2", "b2", "e2", "f2"]:
        p.click_key(sq)
    p.click_id("arrange-black")
    for sq in ["a1", "b1", "e1", "f1"]:
        p.click_key(sq)
    assert left(p, "red") == 0 and left(p, "black") == 0
    assert drawn_pieces(p) == sorted(["a1", "b1", "e1", "f1", "a2", "b2", "e2", "f2", "d1", "c6"])
    ready(p)
    r = wait_reveal(p)
    assert r["w"] == "R@a2,R@b2,R@e2,R@f2,B@a1,B@b1,B@e1,B@f1"
    assert "South arranged R@a2" in p.d.find_element(By.ID, "reveal").text
    st = p.js("return window.guiLastState")
    assert st["position"]["phase"] == "movement" and st["next"] == {"kind": "human_move", "side": "p1"}
    # South moves by clicks on the generic board, and the record replays.
    human_act(p, random.Random(1))
    p.wait_for(lambda: len(p.moves()) >= 3, timeout=60, what="North's move")
    text = replay("rnb", download_record(p, downloads, "rnb"))
    assert '[Placement "together"]' in text and r["w"] + "/" + r["b"] in text
