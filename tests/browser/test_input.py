"""Input (issue 22 §5): Enter confirms a choice (the first of two L paths, Ready after an
arrangement, the roll), and the setting "Play forced moves" plays a person's only legal move
by itself (a Ludo pass after a roll that cannot move)."""

import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from test_together import click_arrangement, together, wait_reveal


def send_move(p, token):
    n = len(p.js("return window.guiLastState.moves"))
    p.js("window.guiSocket().send(JSON.stringify({t: 'move', token: arguments[0]}))", token)
    p.wait_for(lambda: len(p.js("return window.guiLastState.moves")) > n, what=f"{token} played")


def enter(p):
    p.d.find_element(By.TAG_NAME, "body").send_keys(Keys.ENTER)


def moves(p):
    return p.js("return window.guiLastState.moves")


def test_enter_plays_the_first_of_two_paths(page):
    p = page()
    p.set_delay(0)
    p.new_game("duell", "human", "human")
    # After these, the die on c3 has two L paths to g4 (protocol: c3g4n and c3g4e).
    for tok in ["c1c3", "i8i3"]:
        send_move(p, tok)
    p.click_key("c3")
    p.click_key("g4")
    sel = "#actions button[data-token^='c3g4']"
    p.wait_for(lambda: len(p.d.find_elements(By.CSS_SELECTOR, sel)) == 2, what="the choice of two paths")
    buttons = p.d.find_elements(By.CSS_SELECTOR, sel)
    first = buttons[0].get_attribute("data-token")
    assert "default" in buttons[0].get_attribute("class")
    assert "default" not in buttons[1].get_attribute("class")
    enter(p)
    p.wait_for(lambda: len(moves(p)) == 3, what="the chosen path played")
    assert moves(p)[-1] == first


def test_enter_declares_a_complete_arrangement(page):
    p = page()
    together(p)
    click_arrangement(p, ["a2", "b2", "e2", "f2"], ["a1", "b1", "e1"])
    enter(p)
    time.sleep(0.5)
    assert p.js("return window.guiLastState.declared[0]") is None, "an incomplete arrangement is not declared"
    p.click_key("f1")
    enter(p)
    r = wait_reveal(p)
    assert r["w"] == "R@a2,R@b2,R@e2,R@f2,B@a1,B@b1,B@e1,B@f1"


def test_forced_moves_play_themselves_when_set(page):
    p = page()
    p.set_delay(0)
    # A seed whose first roll cannot bring a piece out (not a 6): only `pass` is legal.
    for seed in range(1, 20):
        p.new_game("ludo", "human", "human", seed=seed)
        enter(p)  # Enter rolls (the Roll button is the default)
        p.wait_for(lambda: len(moves(p)) == 1, what="the roll")
        if p.js("return window.guiLastState.legal") == ["pass"]:
            break
    assert p.js("return window.guiLastState.legal") == ["pass"]
    # The setting off: the pass waits for the person, as the default button.
    time.sleep(1)
    assert len(moves(p)) == 1
    b = p.d.find_element(By.CSS_SELECTOR, "#actions button[data-token='pass']")
    assert "default" in b.get_attribute("class")
    # On: the pass is played by itself.
    p.click_id("auto-forced")
    p.wait_for(lambda: moves(p)[1:] == ["pass"], what="the forced pass played")
    assert p.next_kind() == "human_roll" or p.js("return window.guiLastState.next.kind") == "human_roll"
    # And after each roll: a single legal move is played by itself, a choice waits.
    for _ in range(8):
        n = len(moves(p))
        if p.js("return window.guiLastState.next.kind") != "human_roll":
            break
        p.click_id("roll")
        p.wait_for(lambda: len(moves(p)) > n, what="a roll")
        legal = p.js("return window.guiLastState.legal")
        if len(legal) == 1:
            p.wait_for(lambda: len(moves(p)) == n + 2 and moves(p)[-1] == legal[0], what="the forced move played")
        else:
            time.sleep(0.8)
            assert len(moves(p)) == n + 1, "a choice is the person's"
            break
    # The setting is kept in this browser.
    assert p.js("return localStorage.getItem('quartet-auto-forced')") == "true"
