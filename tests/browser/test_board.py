"""What the boards show, checked against the engine's own answers (asked directly, not
through the GUI) and against the rules' worked examples."""

import random

from selenium.webdriver.common.by import By

from conftest import Engine, retype
from play import human_act, states


def grid_targets(tokens, source):
    """Destination squares of the tokens from `source` (the token's 3rd-4th characters)."""
    return sorted({t[2:4] for t in tokens if t.startswith(source)})


def set_position(p, fen):
    retype(p.d.find_element(By.ID, "fen"), fen)
    n0 = states(p)
    p.click_id("set-fen")
    p.wait_for(lambda: states(p) > n0 and p.fen() == fen, what=f"position {fen}")


def test_highlighted_targets_are_the_engines_legal_moves(page):
    p = page()
    # Duell from the start: every white piece's targets against query legalmoves.
    p.new_game("duell", "human", "human")
    legal = Engine("duell").ask("position startpos", "legalmoves")[0].split()
    sources = p.keys("source")
    assert sources == sorted({t[:2] for t in legal})
    for sq in sources:
        p.click_key(sq)
        assert p.targets() == grid_targets(legal, sq), sq
    p.screenshot("duell")
    # R&B placement: the hand's red soldier goes to the zone's empty squares.
    p.new_game("rnb", "human", "human")
    legal = Engine("rnb").ask("position startpos", "legalmoves")[0].split()
    p.click_key("hand:p1:R")
    assert p.targets() == sorted(t[2:] for t in legal if t.startswith("R@"))
    assert len(p.targets()) == 11  # rules §4: 11 empty zone squares
    p.click_key("b2")
    # North's turn once the server has taken South's placement (a click before is South's).
    p.wait_for(lambda: "hand:p2:B" in p.keys("source"), what="North to place")
    p.click_key("hand:p2:B")
    p.wait_for(lambda: p.targets() != [], what="North's hand selected")
    legal = Engine("rnb").ask("position startpos moves R@b2", "legalmoves")[0].split()
    assert p.targets() == sorted(t[2:] for t in legal if t.startswith("B@"))
    # Apocalypse: White's declarations (query legalmoves w).
    p.new_game("apocalypse", "human", "engine")
    legal = Engine("apocalypse").ask("position startpos", "legalmoves w")[0].split()
    assert len(legal) == 12  # rules §4: 12 with DoubleStep
    for sq in p.keys("source"):
        p.click_key(sq)
        assert p.targets() == grid_targets(legal, sq), sq


def test_two_l_paths_to_one_square_are_two_choices(page):
    # Duell rules W3: from d4 (T3 N2) both L paths reach e6; d4e6e leaves W15 there.
    p = page()
    p.new_game("duell", "human", "human")
    set_position(p, "4BK4/9/9/9/3W325/9/9/4WK4 w 0 1")
    p.click_key("d4")
    assert "e6" in p.targets()
    p.click_key("e6")
    buttons = {b.get_attribute("data-token") for b in p.d.find_elements(By.CSS_SELECTOR, "#actions button[data-token]")}
    assert buttons == {"d4e6n", "d4e6e"}
    assert sorted(p.keys("choice")) == ["d6", "e4"]  # the corners of the two paths
    n0 = states(p)
    p.click_key("e4")  # east first
    p.wait_for(lambda: states(p) > n0 and p.moves() == ["d4e6e"])
    die = p.d.find_element(By.CSS_SELECTOR, '#board [data-piece="e6"]')
    assert (die.get_attribute("data-top"), die.get_attribute("data-north")) == ("1", "5")


def test_apocalypse_reveal_collision_void_and_hidden_declarations(page):
    p = page()
    p.new_game("apocalypse", "human", "human")
    # Rules §4 example 2: a1b3/a5b3 is a knight-knight collision: both removed.
    p.click_key("a1")
    p.click_key("b3")
    p.wait_for(lambda: "White has declared (hidden)" in p.status(), what="White's hidden declaration")
    assert p.moves() == []
    p.click_key("a5")
    p.click_key("b3")
    p.wait_for(lambda: p.moves() == ["a1b3/a5b3"], what="the reveal")
    reveal = p.d.find_element(By.ID, "reveal").text
    assert "White declared a1b3, Black declared a5b3" in reveal
    assert "Collision on b3: both are removed" in reveal
    assert p.fen() == "1pppn/p3p/5/P3P/1PPPN 00 0"
    p.screenshot("apocalypse")
    # Example 9: White already has a point; the void a2b3 is the second: Black wins.
    set_position(p, "npppn/p3p/5/P3P/NPPPN 10 0")
    p.d.find_element(By.ID, "void-mode").click()
    p.click_key("a2")
    p.click_key("b3")
    p.wait_for(lambda: "White has declared" in p.status())
    p.click_key("a5")
    p.click_key("b3")
    p.wait_for(lambda: p.over(), what="the game over by penalties")
    assert "void: +1 penalty point" in p.d.find_element(By.ID, "reveal").text
    assert "Black wins (two penalty points)" in p.status()
    filled = p.d.find_elements(By.CSS_SELECTOR, '#board .penalty[data-side="p1"][data-filled="true"]')
    assert len(filled) == 2
    # Against the engine: the person's declaration is not sent before the engine declared.
    p.new_game("apocalypse", "human", "engine")
    p.click_key("c1")
    p.click_key("c2")
    p.wait_for(lambda: len(p.moves()) == 1, what="the engine's declaration and the reveal")
    log = p.js("return document.getElementById('console').innerText").splitlines()
    go = max(i for i, l in enumerate(log) if l.startswith("> go") and l.endswith("side b"))
    best = next(i for i in range(go, len(log)) if log[i].startswith("< bestmove"))
    assert not any("c1c2" in l for l in log[: best + 1] if l.startswith(">"))
    assert p.moves()[0].startswith("c1c2/")


def test_ludo_rolls_extra_rolls_and_the_third_six(page):
    p = page()
    p.new_game("ludo", "human", "human", seed=5)
    # The server's dice: the same seed gives the same rolls.
    rolls = []
    for _ in range(2):
        p.new_game("ludo", "human", "human", seed=5)
        rng = random.Random(1)
        while len(p.moves()) < 12:
            human_act(p, rng)
        rolls.append([m for m in p.moves() if m.startswith("r")])
    assert rolls[0] == rolls[1] and all(r in {f"r{i}" for i in range(1, 7)} for r in rolls[0])
    # Rules §4 example 4: 27-30 captures Yellow's piece on A30; Red rolls again.
    set_position(p, "b,b,b,27/b,b,b,4 r 3 0")
    legal = Engine("ludo").ask("position fen b,b,b,27/b,b,b,4 r 3 0", "legalmoves")[0].split()
    assert legal == ["27-30"]
    src = p.keys("source")
    assert len(src) == 1
    p.click_key(src[0])
    p.click_key(p.targets()[0])
    p.wait_for(lambda: p.moves() == ["27-30"])
    assert "extra roll" in p.status()
    assert p.d.find_elements(By.ID, "extra-roll")
    assert p.fen() == "b,b,b,30/b,b,b,b r - 0"
    # A pending third six: the roll is void, the only move is to pass.
    set_position(p, "b,b,b,6/b,b,b,b r 6 3")
    assert p.d.find_element(By.ID, "sixes").get_attribute("data-sixes") == "3"
    assert "third six" in p.d.find_element(By.ID, "board").text
    assert [b.get_attribute("data-token") for b in p.d.find_elements(By.CSS_SELECTOR, "#actions button[data-token]")] == ["pass"]
    p.d.find_element(By.CSS_SELECTOR, '#actions button[data-token="pass"]').click()
    p.wait_for(lambda: p.fen() == "b,b,b,6/b,b,b,b y - 0")
    # Stacked pieces show their count (example 15's stack on 6).
    set_position(p, "b,b,6,6/b,b,b,b r - 0")
    assert p.js("return [...document.querySelectorAll('#board .stack')].map(e => e.textContent)") == ["2"]
    p.screenshot("ludo")


def test_flip_takeback_and_rnb_captures(page):
    p = page()
    p.new_game("rnb", "human", "human")
    # Rules §4 example 1: d4d3 takes b3 and c3.
    set_position(p, "2k3/6/3R2/Rrb3/6/3K2 s 0000 0")
    p.click_key("d4")
    p.click_key("d3")
    p.wait_for(lambda: p.fen() == "2k3/6/6/R2R2/6/3K2 n 0000 0")
    assert len(p.d.find_elements(By.CSS_SELECTOR, "#board .removed-mark")) == 2
    assert p.d.find_elements(By.CSS_SELECTOR, "#board .last-move")
    p.screenshot("rnb")
    a3 = p.d.find_element(By.CSS_SELECTOR, '#board .hit[data-key="a3"]').rect
    p.click_id("flip")
    assert p.d.find_element(By.CSS_SELECTOR, "#board").get_attribute("data-flipped") == "true"
    assert p.d.find_element(By.CSS_SELECTOR, '#board .hit[data-key="a3"]').rect != a3
    n0 = states(p)
    p.click_id("takeback")
    p.wait_for(lambda: states(p) > n0 and p.moves() == [])
    assert p.fen() == "2k3/6/3R2/Rrb3/6/3K2 s 0000 0"
