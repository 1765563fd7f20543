"""R&B under `Placement together` (issue 27, docs/rules/rnb.md 1.3(d)): a person arranges its
4 red and 4 black soldiers in its zone by click or by drag, sees the count left of each
colour, can take soldiers back, and presses Ready; the engine's arrangement reaches the page
only after that (commit-reveal), the reveal shows both and says who broke the line rule, and
the game goes on with South to move; its record replays."""

import json
import random

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from play import human_act
from test_games import download_record, replay


def together(p, p1="human", p2="engine"):
    """A new R&B game under Placement together, every message to the page kept in
    `window.seen` from before the option is set."""
    p.set_delay(0)
    p.new_game("rnb", p1, p2)
    p.js("window.seen = []; window.guiSocket().addEventListener('message', e => window.seen.push(e.data));")
    Select(p.d.find_element(By.CSS_SELECTOR, 'select[data-option="Placement"]')).select_by_value("together")
    p.wait_for(lambda: p.js("const s = window.guiLastState; return s.position && s.position.node") == "simultaneous"
               and p.next_kind() == "human_declare", what="the setup turn")
    assert " sn " in p.js("return window.guiLastState.position.fen")


def left(p, colour):
    return int(p.d.find_element(By.ID, f"arrange-{colour}").get_attribute("data-left"))


def click_arrangement(p, reds, blacks):
    p.click_key("hand:p1:R")
    for sq in reds:
        p.click_key(sq)
    p.click_id("arrange-black")
    for sq in blacks:
        p.click_key(sq)


def drag(p, a, b):
    src = p.d.find_element(By.CSS_SELECTOR, f'#board [data-key="{a}"]')
    dst = p.d.find_element(By.CSS_SELECTOR, f'#board [data-key="{b}"]')
    webdriver.ActionChains(p.d, duration=50).click_and_hold(src).move_to_element(dst).release().perform()


def ready(p):
    p.wait_for(lambda: p.d.find_element(By.ID, "arrange-ready").is_enabled(), what="Ready enabled")
    p.click_id("arrange-ready")


def wait_reveal(p):
    p.wait_for(lambda: p.js("return window.guiLastState.reveal") is not None
               and not p.d.find_element(By.ID, "reveal").get_attribute("class").count("hidden"),
               timeout=60, what="the reveal")
    return p.js("return window.guiLastState.reveal")


def test_arrange_by_clicks_the_engine_answers_after_ready(page, downloads):
    p = page()
    together(p)
    assert left(p, "red") == 4 and left(p, "black") == 4
    assert not p.d.find_element(By.ID, "arrange-ready").is_enabled()
    # The free squares of South's zone are the targets (d1 holds the king).
    assert p.targets() == sorted(["a1", "b1", "c1", "e1", "f1", "a2", "b2", "c2", "d2", "e2", "f2"])
    click_arrangement(p, ["a2", "b2", "e2", "f2"], ["a1", "b1", "e1"])
    assert left(p, "red") == 0 and left(p, "black") == 1
    assert not p.d.find_element(By.ID, "arrange-ready").is_enabled()
    # A click on a placed soldier takes it back; Clear takes back all; then again.
    p.click_key("b2")
    assert left(p, "red") == 1
    p.click_id("arrange-clear")
    assert left(p, "red") == 4 and left(p, "black") == 4
    click_arrangement(p, ["a2", "b2", "e2", "f2"], ["a1", "b1", "e1", "f1"])
    assert left(p, "red") == 0 and left(p, "black") == 0
    p.js("window.scrollTo(0, 0)")
    p.screenshot("rnb-together")
    # Nothing of North's arrangement has reached the page before South's is in.
    assert p.js("return window.guiLastState.declared") == [None, None]
    ready(p)
    r = wait_reveal(p)
    assert r["w"] == "R@a2,R@b2,R@e2,R@f2,B@a1,B@b1,B@e1,B@f1"
    north = r["b"]
    seen = p.js("return window.seen")
    # The first message naming North's arrangement comes after South's was declared.
    first_north = next(i for i, m in enumerate(seen) if north in m)
    south_in = next(i for i, m in enumerate(seen)
                    if m.startswith('{"') and json.loads(m).get("t") == "state"
                    and json.loads(m)["declared"][0] is not None)
    assert south_in < first_north, (south_in, first_north)
    text = p.d.find_element(By.ID, "reveal").text
    assert "South arranged R@a2" in text and north in text
    assert "Neither broke the line rule: South to move" in text
    st = p.js("return window.guiLastState")
    assert st["position"]["phase"] == "movement" and st["next"] == {"kind": "human_move", "side": "p1"}
    assert len([x for x in st["position"]["pieces"] if x["owner"] == "p2"]) == 9
    # The game goes on: South moves by clicks, the engine answers.
    human_act(p, random.Random(1))
    p.wait_for(lambda: len(p.js("return window.guiLastState.moves")) >= 3, timeout=60, what="North's move")
    # The record names the rule and replays.
    text = replay("rnb", download_record(p, downloads, "rnb"))
    assert '[Placement "together"]' in text and r["w"] + "/" + north in text


def test_two_people_arrange_by_drag_each_hidden_from_the_other(page):
    p = page()
    together(p, "human", "human")
    for sq in ["a2", "b2", "c2", "f2"]:
        drag(p, "hand:p1:R", sq)
    for sq in ["a1", "b1", "e1", "e2"]:
        drag(p, "hand:p1:B", sq)
    assert left(p, "red") == 0 and left(p, "black") == 0
    # A placed soldier dragged to another free square moves; dragged off the zone, it goes back.
    drag(p, "c2", "d2")
    drag(p, "f2", "d4")
    assert left(p, "red") == 1
    drag(p, "hand:p1:R", "f1")
    ready(p)
    p.wait_for(lambda: p.js("return window.guiLastState.next") == {"kind": "human_declare", "side": "p2"},
               what="North's turn to arrange")
    # South's arrangement is hidden from North: in the state and on the board.
    assert p.js("return window.guiLastState.declared[0]") == "hidden"
    p.wait_for(lambda: p.targets() == sorted(["a5", "b5", "c5", "d5", "e5", "f5", "a6", "b6", "d6", "e6", "f6"]),
               what="North's free squares as targets (the board drawn after the state)")
    drawn_south = p.js("return document.querySelectorAll('#board .layer-pieces rect.piece').length")
    assert drawn_south == 1 + 2, "only South's king and its two hand icons are drawn"
    for sq in ["a5", "b5", "e5", "f5"]:
        drag(p, "hand:p2:R", sq)
    for sq in ["a6", "b6", "e6", "f6"]:
        drag(p, "hand:p2:B", sq)
    ready(p)
    r = wait_reveal(p)
    assert r["w"] == "R@f1,R@a2,R@b2,R@d2,B@a1,B@b1,B@e1,B@e2"
    assert r["b"] == "R@a5,R@b5,R@e5,R@f5,B@a6,B@b6,B@e6,B@f6"
    assert p.js("return window.guiLastState.next") == {"kind": "human_move", "side": "p1"}


def test_the_reveal_says_who_broke_the_line_rule(page):
    p = page()
    together(p)
    # Five soldiers on rank 1 with the king: six of South's pieces in a rank.
    click_arrangement(p, ["a1", "b1", "c1", "e1"], ["f1", "a2", "b2", "c2"])
    ready(p)
    wait_reveal(p)
    text = p.d.find_element(By.ID, "reveal").text
    assert "South broke the line rule: six own pieces in a rank (rank 1)" in text, text
    assert "North wins" in text
    p.wait_for(lambda: p.over(), what="the game over")
    assert "North wins" in p.status()


def test_a_person_playing_north_arranges_and_the_engine_opens(page):
    p = page()
    together(p, "engine", "human")
    assert p.d.find_element(By.ID, "board").get_attribute("data-flipped") == "true"
    p.wait_for(lambda: p.targets() == sorted(["a5", "b5", "c5", "d5", "e5", "f5", "a6", "b6", "d6", "e6", "f6"]),
               what="North's free squares")
    p.click_key("hand:p2:R")
    for sq in ["a5", "b5", "e5", "f5"]:
        p.click_key(sq)
    p.click_id("arrange-black")
    for sq in ["a6", "b6", "e6", "f6"]:
        p.click_key(sq)
    ready(p)
    r = wait_reveal(p)
    assert r["b"] == "R@a5,R@b5,R@e5,R@f5,B@a6,B@b6,B@e6,B@f6"
    # South, the engine, moves first after the setup.
    p.wait_for(lambda: len(p.js("return window.guiLastState.moves")) >= 2, timeout=60, what="South's first move")
    assert p.js("return window.guiLastState.actors[1]") == {"kind": "move", "side": "p1"}
