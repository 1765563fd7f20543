"""Stepping through the game (issue 22 §3): a click on a move, the arrow keys, Home/End and
the buttons show earlier positions (from the engine's `query position`), with their own
moves (a move there starts a variation, test_variations.py); the game goes on meanwhile; the move list scrolls down, not sideways."""

import re
import random
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from play import human_act, people_game, people_plies, random_ludo_records


def shown_fen(p):
    """The position the board shows: the viewed one, else the game's."""
    return p.js("return (window.guiView && window.guiView()) || window.guiLastState.position.fen")


def test_step_through_a_game_by_click_keys_and_buttons(page):
    p = page()
    p.set_delay(0)
    p.new_game("duell", "human", "human")
    rng = random.Random(4)
    fens = people_plies(p, rng, 6)
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



def test_keys_pressed_faster_than_the_server_answers_all_count(page):
    """Five right arrows sent at once from the start step five plies, as on lichess: each
    press steps on from the ply asked for, not from the one the server has shown so far."""
    p = page()
    p.set_delay(0)
    p.new_game("duell", "human", "human")
    fens = people_plies(p, random.Random(4), 6)
    body = p.d.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    p.wait_for(lambda: shown_fen(p) == fens[0], what="Home: the start")
    body.send_keys(Keys.ARROW_RIGHT * 5)
    p.wait_for(lambda: shown_fen(p) == fens[5], what="the position after ply 5")
    body.send_keys(Keys.ARROW_LEFT * 3)
    p.wait_for(lambda: shown_fen(p) == fens[2], what="back three, to the position after ply 2")


def test_the_position_string_is_the_position_shown(page):
    """As on lichess, the position-string box shows the position looked at while stepping
    back, the game's own at its head, and Start from this position starts from the one
    shown (it showed the game's position whatever was viewed)."""
    p = page()
    p.set_delay(0)
    p.new_game("duell", "human", "human")
    rng = random.Random(4)
    fens = people_plies(p, rng, 6)
    assert len(set(fens)) == len(fens), fens
    assert p.fen() == fens[6]
    p.d.find_element(By.CSS_SELECTOR, '#moves li[data-ply="2"]').click()
    p.wait_for(lambda: shown_fen(p) == fens[2], what="the position after ply 2")
    p.wait_for(lambda: p.fen() == fens[2], what="the box showing the position after ply 2")
    body = p.d.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    p.wait_for(lambda: p.fen() == fens[0], what="the box showing the start")
    p.click_id("nav-next")
    p.wait_for(lambda: p.fen() == fens[1], what="the box after the forward button")
    body.send_keys(Keys.END)
    p.wait_for(lambda: p.js("return window.guiView()") is None and p.fen() == fens[6],
               what="End: the box showing the game now")
    # Start from this position, looking back at ply 3: a new game from that position.
    p.d.find_element(By.CSS_SELECTOR, '#moves li[data-ply="3"]').click()
    p.wait_for(lambda: p.fen() == fens[3], what="the box showing the position after ply 3")
    p.click_id("set-fen")
    p.wait_for(lambda: p.js("return window.guiLastState.start_fen") == fens[3] and p.moves() == [],
               what="a new game from the position after ply 3")
    assert p.js("return window.guiView()") is None
    assert p.fen() == fens[3]
    assert p.js("return window.guiLastState.position.fen") == fens[3]

def long_ludo_record(tmp_path, plies=400):
    """A Ludo record of `plies` plies, the game not over: the start of the longest of a few
    games between the engine's random players (`quartet match`, well under a second)."""
    path = tmp_path / "long-ludo.pgn"
    random_ludo_records(path, 6, 3)
    games = []
    for rec in path.read_text().split("\n\n[")[0:]:
        head, _, body = rec.partition("\n\n")
        # The tokens, without the result and the comments (a match's records carry each
        # move's score and time).
        games.append((head, re.sub(r"\{[^}]*\}", " ", body).split()[:-1]))
    head, tokens = max(games, key=lambda g: len(g[1]))
    assert len(tokens) > plies, f"no game longer than {plies} plies"
    tags = [t for t in head.lstrip("[").split("\n[")
            if t.split()[0] in ("Event", "Game", "Pieces", "FEN")]
    path.write_text("".join(f"[{t}\n" for t in tags) + "\n" + " ".join(tokens[:plies]) + " *\n")
    return path


def move_list_layout(p):
    """The move list's box and contents: its scroll and client sizes, the tokens cut off
    (ellipsised, or reaching past the box's right edge) and the newest token's place."""
    return p.js("""
        const m = document.getElementById('moves'), b = m.getBoundingClientRect();
        const lis = [...m.querySelectorAll('li')];
        const cut = lis.filter(li => li.scrollWidth > li.clientWidth + 1
                                   || li.getBoundingClientRect().right > b.right + 1).length;
        const r = lis.length ? lis[lis.length - 1].getBoundingClientRect() : null;
        return {scrollWidth: m.scrollWidth, clientWidth: m.clientWidth,
                scrollHeight: m.scrollHeight, clientHeight: m.clientHeight,
                tokens: lis.length, cut,
                lastInView: !!r && r.top >= b.top - 1 && r.bottom <= b.bottom + 1,
                rowHeights: [...new Set([...m.querySelectorAll('.move-num')]
                    .map(n => Math.round(n.getBoundingClientRect().height)))]};
    """)


def test_the_move_list_scrolls_down_after_400_plies(page, tmp_path):
    """Issue 22 §3: after 400 plies the move list scrolls down, never sideways, every token
    reads whole on one line, and the newest move is in view; so after a few more plies
    played by clicks."""
    plies = 400
    record = long_ludo_record(tmp_path, plies)
    p = page()
    p.set_delay(0)
    p.new_game("ludo", "human", "human")
    p.d.find_element(By.ID, "load").send_keys(str(record))
    p.wait_for(lambda: len(p.moves()) == plies, timeout=60, what=f"the {plies}-ply record loaded")
    p.wait_for(lambda: move_list_layout(p)["lastInView"], what="the newest move scrolled into view")
    lay = move_list_layout(p)
    assert lay["tokens"] >= 400, lay
    assert lay["scrollWidth"] <= lay["clientWidth"], f"sideways overflow: {lay}"
    assert lay["scrollHeight"] > lay["clientHeight"], f"it scrolls down: {lay}"
    assert lay["cut"] == 0, f"tokens cut off: {lay}"
    assert len(lay["rowHeights"]) == 1 and lay["rowHeights"][0] >= 12, f"rows of one readable line: {lay}"
    # The game goes on from the record and the list follows it.
    assert not p.over()
    rng = random.Random(2)
    for _ in range(4):
        human_act(p, rng)
    p.wait_for(lambda: len(p.moves()) == plies + 4, what="four more plies")
    p.wait_for(lambda: move_list_layout(p)["lastInView"], what="the newest move in view")
    lay = move_list_layout(p)
    assert lay["scrollWidth"] <= lay["clientWidth"] and lay["cut"] == 0, lay


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


def test_the_die_follows_the_position_shown(page):
    """Issue 22 §3: stepping back in Ludo shows the die as it was at that ply: after each
    roll `rN` the die shows N, and the game's own die comes back at its end."""
    p = page()
    p.set_delay(0)
    p.new_game("ludo", "human", "human")
    rng = random.Random(5)
    while len(p.moves()) < 6:
        human_act(p, rng)
    tokens = p.js("return window.guiLastState.moves")
    die = lambda: p.js("const d = document.getElementById('ludo-die'); return d && d.dataset.value")
    now = die()
    body = p.d.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    p.wait_for(lambda: p.js("return window.guiView()") is not None and die() == "", what="no die at the start")
    for ply, token in enumerate(tokens, 1):
        body.send_keys(Keys.ARROW_RIGHT)
        if token.startswith("r"):
            p.wait_for(lambda: p.js("const c = document.querySelector('#moves li.current'); return c && +c.dataset.ply") == ply
                       and die() == token[1:], what=f"the die of {token} after ply {ply}")
    body.send_keys(Keys.END)
    p.wait_for(lambda: p.js("return window.guiView()") is None and die() == now, what="the game's die again")
