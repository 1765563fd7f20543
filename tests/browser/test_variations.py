"""Variations (issue 22 §3): a move played at an earlier position looked at starts a variation
instead of cutting the game; it is shown in the move list under the move it leaves, the main
line is kept, a variation can be promoted to the main line or deleted, and the record holds
the main line."""

import random
import re

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import Engine
from play import human_act, people_game
from test_games import download_record
from test_navigation import last_analysis_position, shown_fen


def fen_after(tokens):
    pos = "position startpos" + (" moves " + " ".join(tokens) if tokens else "")
    return Engine("duell").ask(pos, "fen")[0]


def record_moves(path):
    """The move tokens of a saved record (tags, move numbers, comments and result left out)."""
    text = path.read_text()
    body = "\n".join(l for l in text.splitlines() if not l.startswith("["))
    body = re.sub(r"\{[^}]*\}", " ", body)
    return [t for t in body.split() if not re.fullmatch(r"\d+\.+|1-0|0-1|1/2-1/2|\*", t)]


def variation_rows(p):
    return p.js("return [...document.querySelectorAll('#moves .variation')].map(r => "
                "[...r.querySelectorAll('.var-move')].map(s => s.textContent))")


def play_token(p, tok):
    """A Duell move by clicks: its die, its square, and the path's button when two L paths lead there."""
    p.click_key(tok[:2])
    p.click_key(tok[2:4])
    buttons = p.d.find_elements(By.CSS_SELECTOR, f'#actions button[data-token="{tok}"]')
    if buttons:
        buttons[0].click()


def test_variation_promote_delete_and_the_record_keeps_the_main_line(page, downloads):
    p = page()
    rng = people_game(p, "duell", 4, 4)
    main = p.moves()
    assert len(main) == 4
    # Back to the position after 2 tokens, and another move than the game's there.
    p.d.find_element(By.CSS_SELECTOR, '#moves li[data-ply="2"]').click()
    p.wait_for(lambda: shown_fen(p) == fen_after(main[:2]), what="the position after ply 2")
    assert p.keys("source"), "a move can be made at the position looked at"
    legal = Engine("duell").ask("position startpos moves " + " ".join(main[:2]), "legalmoves")[0].split()
    other = next(t for t in sorted(legal) if t != main[2] and t[:4] != main[2][:4])
    play_token(p, other)
    p.wait_for(lambda: variation_rows(p) == [[other]], what="a variation of one move")
    assert p.moves() == main, "the main line is kept"
    p.wait_for(lambda: shown_fen(p) == fen_after(main[:2] + [other]), what="the variation's position")
    # Under the row of the move it leaves (plies 3 and 4).
    assert p.js("return [...document.querySelector('#moves .variation').previousElementSibling"
                ".querySelectorAll('li')].map(li => li.dataset.ply)") == ["3", "4"]
    assert "variation 1" in p.d.find_element(By.ID, "nav-text").text
    # It goes on: a second move extends it; the arrows step along it.
    human_act(p, rng)
    p.wait_for(lambda: len(variation_rows(p)[0]) == 2, what="the variation extended")
    line = main[:2] + variation_rows(p)[0]
    p.wait_for(lambda: shown_fen(p) == fen_after(line), what="the extended variation's position")
    # The analysis runs on the variation's position.
    p.d.find_element(By.ID, "analyse").click()
    p.wait_for(lambda: last_analysis_position(p) == "startpos moves " + " ".join(line),
               what="the analysis of the variation's position")
    p.wait_for(lambda: p.js("return document.querySelectorAll('#pv-table tbody tr').length") > 0,
               what="its lines shown")
    p.d.find_element(By.ID, "analyse").click()
    body = p.d.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_LEFT)
    p.wait_for(lambda: shown_fen(p) == fen_after(line[:3]), what="back one along the variation")
    body.send_keys(Keys.ARROW_LEFT)
    p.wait_for(lambda: shown_fen(p) == fen_after(main[:2]), what="back to where it leaves the game")
    assert p.moves() == main and len(variation_rows(p)) == 1
    # The record holds the main line.
    assert record_moves(download_record(p, downloads, "duell")) == main
    (downloads / "quartet-duell.pgn").unlink()
    # Promoted, the variation is the main line and the old main line a variation.
    p.d.find_element(By.CSS_SELECTOR, "#moves .var-promote").click()
    p.wait_for(lambda: p.moves() == line, what="the variation promoted")
    assert variation_rows(p) == [main[2:]]
    p.wait_for(lambda: p.js("return window.guiView()") is None, what="the game's end shown")
    assert p.js("return window.guiLastState.position.fen") == fen_after(line)
    # Deleted, it is gone; the main line stays, and is what the record holds.
    p.d.find_element(By.CSS_SELECTOR, "#moves .var-delete").click()
    p.wait_for(lambda: variation_rows(p) == [], what="the variation deleted")
    assert p.moves() == line
    assert record_moves(download_record(p, downloads, "duell")) == line
    # The game goes on from the promoted line's end.
    human_act(p, rng)
    assert len(p.moves()) == 5 and p.moves()[:4] == line


def test_bad_variation_requests_get_an_error_and_change_nothing(page):
    p = page()
    p.set_delay(0)
    p.new_game("duell", "human", "human")
    human_act(p, random.Random(1))
    before = p.js("return JSON.stringify([window.guiLastState.moves, window.guiLastState.variations])")
    for msg, words in [({"t": "promote", "line": 3}, "no variation 3"),
                       ({"t": "delete_line", "line": 0}, "no variation 0"),
                       ({"t": "view", "ply": 1, "line": 7}, "no variation 7"),
                       ({"t": "view", "ply": 9}, "not 9")]:
        p.js("document.getElementById('message').textContent = ''")
        p.js("window.guiSocket().send(JSON.stringify(arguments[0]))", msg)
        p.wait_for(lambda: words in p.js("return document.getElementById('message').textContent"),
                   what=f"the error for {msg}")
    assert p.js("return JSON.stringify([window.guiLastState.moves, window.guiLastState.variations])") == before


def test_a_ludo_variation_with_the_servers_roll(page):
    p = page()
    p.set_delay(0)
    p.new_game("ludo", "human", "human", seed=5)
    rng = random.Random(3)
    # Play until a person has two moves to choose from; play one, keep the other.
    for _ in range(300):
        st = p.js("return window.guiLastState")
        if st["next"]["kind"] == "human_move" and len(st["legal"]) >= 2:
            break
        human_act(p, rng)
    st = p.js("return window.guiLastState")
    assert len(st["legal"]) >= 2, "a choice within 300 actions"
    at, other = len(st["moves"]), st["legal"][1]
    p.js("window.guiSocket().send(JSON.stringify({t: 'move', token: arguments[0]}))", st["legal"][0])
    p.wait_for(lambda: len(p.moves()) == at + 1, what="the main line's move")
    human_act(p, rng)
    main = p.moves()
    # Back there, the other move starts a variation; then the die is rolled in it.
    p.d.find_element(By.CSS_SELECTOR, f'#moves li[data-ply="{at}"]').click()
    p.wait_for(lambda: p.js("return window.guiView()") is not None and p.keys("source"), what="the position looked at")
    p.js("window.guiSocket().send(JSON.stringify({t: 'move', token: arguments[0]}))", other)
    p.wait_for(lambda: variation_rows(p) == [[other]], what="the variation")
    # After a move a die is rolled (the next side's, or an extra roll).
    p.wait_for(lambda: p.d.find_elements(By.ID, "roll"), what="the Roll button at the variation's chance node")
    p.click_id("roll")
    p.wait_for(lambda: len(variation_rows(p)[0]) == 2, what="the roll in the variation")
    assert re.fullmatch(r"r[1-6]", variation_rows(p)[0][1])
    assert p.moves() == main, "the main line is kept"


def test_a_joint_turn_declared_at_an_earlier_apocalypse_turn_starts_a_variation(page):
    """At a simultaneous turn looked back at, the person declares both sides by clicks,
    first White's then Black's: the joint token starts a variation there."""
    p = page()
    people_game(p, "apocalypse", 4, 5)  # two turns, each side declaring by clicks
    main = p.moves()
    assert len(main) == 2 and all("/" in t for t in main), main
    p.d.find_element(By.CSS_SELECTOR, '#moves li[data-ply="1"]').click()
    p.wait_for(lambda: "after 1 of 2 · White declares for a variation" in p.d.find_element(By.ID, "nav-text").text,
               what="White declares at the turn looked at")
    engine = Engine("apocalypse")
    legal = {side: engine.ask(f"position startpos moves {main[0]}", f"legalmoves {side}")[0].split() for side in "wb"}
    white = next(t for t in sorted(legal["w"]) if "@" not in t and t != main[1].split("/")[0])
    black = next(t for t in sorted(legal["b"]) if "@" not in t)
    assert p.keys("source") == sorted({t[:2] for t in legal["w"]})
    p.click_key(white[:2])
    p.click_key(white[2:4])
    p.wait_for(lambda: "Black declares for a variation" in p.d.find_element(By.ID, "nav-text").text,
               what="then Black declares")
    assert p.keys("source") == sorted({t[:2] for t in legal["b"]})
    assert variation_rows(p) == [], "nothing is sent before both have declared"
    p.click_key(black[:2])
    p.click_key(black[2:4])
    joint = f"{white}/{black}"
    p.wait_for(lambda: variation_rows(p) == [[joint]], what=f"a variation of {joint}")
    assert p.moves() == main, "the main line is kept"
    after = engine.ask(f"position startpos moves {main[0]} {joint}", "fen")[0]
    p.wait_for(lambda: shown_fen(p) == after, what="the variation's position")
    # The variation goes on from there: White declares again.
    assert "variation 1, after 2 · White declares for a variation" in p.d.find_element(By.ID, "nav-text").text


def test_a_joint_token_not_of_the_position_shown_is_refused_with_its_reason(page):
    p = page()
    people_game(p, "apocalypse", 4, 5)
    p.d.find_element(By.CSS_SELECTOR, '#moves li[data-ply="1"]').click()
    p.wait_for(lambda: "White declares" in p.d.find_element(By.ID, "nav-text").text, what="the turn looked at")
    # One side's declaration alone, and a pair with an illegal half, are refused.
    for token in ("a1b3", "a1b3/a1b3"):
        p.js("window.guiSocket().send(JSON.stringify({t: 'move', token: arguments[0]}))", token)
        p.wait_for(lambda: f"'{token}' is not a legal move in the position shown" in p.js(
            "return document.getElementById('message').textContent"), what=f"{token} refused")
        assert "both sides' declarations" in p.js("return document.getElementById('message').textContent")
    assert variation_rows(p) == []
