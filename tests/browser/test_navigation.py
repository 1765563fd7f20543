"""Stepping through the game (issue 22 §3): a click on a move, the arrow keys, Home/End and
the buttons show earlier positions (from the engine's `query position`), with their own
moves (a move there starts a variation, test_variations.py); the game goes on meanwhile; the move list scrolls down, not sideways."""

import random
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from play import human_act, people_game


def shown_fen(p):
    """The position the board shows: the viewed one, else the game's."""
    return p.js("return (window.guiView && window.guiView()) || window.guiLastState.position.fen")


def test_step_through_a_game_by_click_keys_and_buttons(page):
    p = page()
    p.set_delay(0)
    p.new_game("duell", "human", "human")
    rng = random.Random(4)
    fens = [p.js("return window.guiLastState.position.fen")]
    for _ in range(6):
        human_act(p, rng)
        fens.append(p.js("return window.guiLastState.position.fen"))
    # A click on the second token shows the position after it.
    p.d.find_element(By.CSS_SELECTOR, '#moves li[data-ply="2"]').click()
    p.wait_for(lambda: shown_fen(p) == fens[2], what="the position after ply 2")
    assert "after 2 of 6" in p.d.find_element(By.ID, "nav-text").text
    # Its own moves are offered there: one played starts a variation (test_variations.py).
    assert p.keys("source"), "the position looked at has its side's moves"
    body = p.d.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_LEFT)
    p.wait_for(lambda: shown_fen(p) == fens[1], what="back one with the left arrow")
    body.send_keys(Keys.HOME)
    p.wait_for(lambda: shown_fen(p) == fens[0], what="Home: the start")
    p.click_id("nav-next")
    p.wait_for(lambda: shown_fen(p) == fens[1], what="the forward button")
    body.send_keys(Keys.ARROW_RIGHT)
    p.wait_for(lambda: shown_fen(p) == fens[2], what="forward with the right arrow")
    p.wait_for(lambda: p.js("const c = document.querySelector('#moves li.current'); return c && c.dataset.ply") == "2",
               what="the move list marks the token shown")
    body.send_keys(Keys.END)
    p.wait_for(lambda: p.js("return window.guiView()") is None, what="End: the game now")
    assert p.keys("source"), "the person can move again"


def test_the_move_list_scrolls_down_after_many_plies(page):
    p = page()
    p.set_delay(0)
    p.new_game("ludo", "human", "human")
    rng = random.Random(2)
    for _ in range(60):
        if p.over():
            break
        human_act(p, rng)
    box = p.d.find_element(By.ID, "moves")
    width = p.js("const m = arguments[0]; return [m.scrollWidth, m.clientWidth, m.scrollHeight, m.clientHeight]", box)
    assert width[0] <= width[1], f"sideways overflow: {width}"
    assert width[2] > width[3], f"it scrolls down: {width}"
    # The newest move is in view.
    last = p.d.find_elements(By.CSS_SELECTOR, "#moves li")[-1]
    assert p.js("const r = arguments[0].getBoundingClientRect(), b = arguments[1].getBoundingClientRect();"
                "return r.top >= b.top - 1 && r.bottom <= b.bottom + 1", last, box)


def last_analysis_position(p):
    """The `position` line sent before the last `go infinite`, from the console pane."""
    lines = p.js("return [...document.querySelectorAll('#console div')].map(d => d.textContent)")
    for i in range(len(lines) - 1, 0, -1):
        if lines[i].endswith("go infinite"):
            for j in range(i - 1, -1, -1):
                if "position " in lines[j]:
                    return lines[j].split("position ", 1)[1]
    return None


def test_the_analysis_runs_on_the_position_shown(page):
    p = page()
    people_game(p, "duell", 4, 4)
    moves = p.js("return window.guiLastState.moves")
    p.d.find_element(By.ID, "analyse").click()
    p.wait_for(lambda: last_analysis_position(p) == "startpos moves " + " ".join(moves),
               what="the analysis of the game now")
    p.d.find_element(By.CSS_SELECTOR, '#moves li[data-ply="2"]').click()
    p.wait_for(lambda: last_analysis_position(p) == "startpos moves " + " ".join(moves[:2]),
               what="the analysis of the position after ply 2")
    p.wait_for(lambda: p.js("return document.querySelectorAll('#pv-table tbody tr').length") > 0,
               what="its lines shown")
    p.d.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    p.wait_for(lambda: last_analysis_position(p) == "startpos moves " + " ".join(moves),
               what="back to the game now")
    p.d.find_element(By.ID, "analyse").click()


def clock_texts(p):
    """Each clock's text, with '*' when it runs."""
    return p.js("return [...document.querySelectorAll('.clock')]"
                ".map(c => c.textContent + (c.classList.contains('running') ? '*' : ''))")


def test_the_clocks_follow_the_position_shown(page):
    """Stepping back shows the clocks as they were when that ply was reached, stopped; the
    game's own clocks come back at its end."""
    p = page()
    p.set_delay(0)
    p.new_game("duell", "human", "human")
    p.set_limit("clock", 60)
    p.wait_for(lambda: p.js("return !!window.guiLastState.clocks"), what="the clocks")
    rng = random.Random(4)
    for _ in range(2):
        time.sleep(1.2)
        human_act(p, rng)
    p.wait_for(lambda: len(p.moves()) == 2, what="two moves")
    now = clock_texts(p)
    assert "1:00.0" not in now[1], now
    p.d.find_element(By.CSS_SELECTOR, '#moves li[data-ply="1"]').click()
    p.wait_for(lambda: p.js("return window.guiView()") is not None, what="ply 1 shown")
    p.wait_for(lambda: clock_texts(p)[1].endswith("1:00.0"), what="the second side's full time then")
    shown = clock_texts(p)
    assert not any(t.endswith("*") for t in shown), shown
    time.sleep(0.5)
    assert clock_texts(p) == shown, "stopped while looking back"
    p.d.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    p.wait_for(lambda: p.js("return window.guiView()") is None, what="the game now")
    p.wait_for(lambda: any(t.endswith("*") for t in clock_texts(p)), what="the game's clock running")


def move_rows(p):
    """The move list's rows: the plies of each row's tokens."""
    return p.js("return [...document.querySelectorAll('#moves .move-row')]"
                ".map(r => [...r.querySelectorAll('li')].map(li => +li.dataset.ply))")


def test_the_move_list_has_a_row_per_move_per_joint_turn_and_per_roll_and_move(page):
    """A numbered row per move number with a column per side; a row per Apocalypse joint
    turn; a row per Ludo roll and the move after it (issue 22 §3)."""
    p = page()
    p.set_delay(0)
    p.new_game("duell", "human", "human")
    rng = random.Random(4)
    for _ in range(5):
        human_act(p, rng)
    p.wait_for(lambda: move_rows(p) == [[1, 2], [3, 4], [5]], what="two plies a row")
    nums = p.js("return [...document.querySelectorAll('#moves .move-num')].map(n => n.textContent)")
    assert nums == ["1.", "2.", "3."], nums
    p.new_game("apocalypse", "human", "human")
    while len(p.moves()) < 2:
        human_act(p, rng)
    p.wait_for(lambda: move_rows(p) == [[1], [2]], what="a row per joint turn")
    assert p.js("return [...document.querySelectorAll('#moves li')].every(li => li.classList.contains('joint'))")
    p.new_game("ludo", "human", "human")
    while len(p.moves()) < 8:
        human_act(p, rng)
    rows = p.js("return [...document.querySelectorAll('#moves .move-row')]"
                ".map(r => [...r.querySelectorAll('li')].map(li => li.classList.contains('roll')))")
    assert rows and all(r[0] and not any(r[1:]) for r in rows), rows
    assert sum(len(r) for r in rows) == len(p.moves())
