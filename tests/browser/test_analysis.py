"""Analysis panes, engine options drawn from the option lines, engine against engine, the
clock, and loading a downloaded record."""

import random
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from play import human_act, load, match_record, people_plies, record_plies, states
from test_board import set_position
from test_games import download_record, replay


def rows(p):
    return p.js("return [...document.querySelectorAll('#pv-table tbody tr')].map(r => r.children[0].textContent)")


def analyse_three_lines(p):
    """MultiPV 3 through the options pane (drawn from the engine's option lines), then
    Analyse, until the three lines are shown."""
    mpv = p.d.find_element(By.CSS_SELECTOR, '#options input[data-option="MultiPV"]')
    mpv.clear()
    mpv.send_keys("3\n")
    p.d.find_element(By.ID, "analyse").click()
    p.wait_for(lambda: rows(p) == ["1", "2", "3"], what="three MultiPV lines")


def test_live_info_multipv_pv_arrows_eval_bar_and_policy(page):
    p = page()
    p.new_game("duell", "human", "engine")
    analyse_three_lines(p)
    p.wait_for(lambda: p.d.find_elements(By.CSS_SELECTOR, "#board .pv-arrow"), what="the best line drawn")
    assert p.d.find_element(By.ID, "evaltext").text
    assert "depth" in p.d.find_element(By.ID, "search-line").text
    p.d.find_element(By.ID, "analyse").click()
    # Apocalypse: the mixed strategy as bars, one per declaration, of the side the person
    # declares for, which the engine gives when its analysis stops (the engine's own, at the
    # end of its declaration's search, goes with its move: the panel shows the position
    # shown only, issue 39 §2).
    p.new_game("apocalypse", "human", "engine")
    p.d.find_element(By.ID, "analyse").click()
    p.wait_for(lambda: rows(p), what="the analysis of the first turn")
    p.d.find_element(By.ID, "analyse").click()
    p.wait_for(lambda: p.js("return document.querySelectorAll('#policy .pbar').length") >= 3, what="policy bars")
    assert "White's mixed strategy" in p.d.find_element(By.ID, "policy").text
    # Ludo: the win probability while analysing.
    p.new_game("ludo", "human", "engine")
    p.d.find_element(By.ID, "analyse").click()
    p.wait_for(lambda: "wins with probability" in p.d.find_element(By.ID, "winprob").text, what="Ludo win probability")


def test_setup_choices_and_controls_hold_still_while_engines_play(page):
    p = page()
    p.set_limit("movetime", 20)
    p.set_delay(100)
    p.new_game("duell", "engine", "engine")
    p.wait_for(lambda: len(p.moves()) >= 1, what="engines play")
    limit_y = p.d.find_element(By.ID, "set-limit").rect["y"]
    # A person picks both players; the states the engine game sends keep those choices.
    p.select("p1", "human")
    p.select("p2", "human")
    # The move list is drawn by the same pass that syncs the selects: its growth proves them redrawn.
    p.wait_for(lambda: len(p.moves()) >= 10 or p.over(), what="ten moves of the engine game")
    assert not p.over(), p.status()
    assert [p.d.find_element(By.ID, s).get_attribute("value") for s in ("p1", "p2")] == ["human", "human"]
    # The move list and the analysis grew; the engine controls below them did not move.
    assert p.d.find_element(By.ID, "set-limit").rect["y"] == limit_y
    p.click_id("new-game")
    p.wait_for(lambda: p.moves() == [] and p.next_kind() == "human_move", what="a game between two people")


def test_engine_against_engine_pause_and_clock(page):
    p = page()
    p.set_limit("movetime", 50)
    p.set_delay(0)
    # Paused engines do not start; resumed, they play; paused again, they stop.
    p.d.find_element(By.ID, "pause").click()
    p.new_game("duell", "engine", "engine")
    p.wait_for(lambda: "paused" in p.status())
    time.sleep(0.6)
    assert p.moves() == []
    p.d.find_element(By.ID, "pause").click()
    p.wait_for(lambda: len(p.moves()) >= 4, what="engines play")
    p.d.find_element(By.ID, "pause").click()
    # The game may end (a repetition) before the pause takes effect; then nothing is paused.
    p.wait_for(
        lambda: p.over() or ("paused" in p.status() and "thinking" not in p.status()),
        what=f"paused (status: {p.status()!r})",
    )
    n = len(p.moves())
    time.sleep(0.6)
    assert len(p.moves()) == n
    p.d.find_element(By.ID, "pause").click()
    p.wait_for(lambda: len(p.moves()) > n or p.over(), what="play resumes")
    # A clock: 30 s each; the engine's clock shows and runs.
    Select(p.d.find_element(By.ID, "limit-kind")).select_by_value("clock")
    v = p.d.find_element(By.ID, "limit-value")
    v.clear()
    v.send_keys("30")
    p.click_id("set-limit")
    p.new_game("duell", "human", "engine")
    p.wait_for(lambda: "hidden" not in p.d.find_element(By.ID, "clocks").get_attribute("class"))
    human_act(p, random.Random(1))
    p.wait_for(lambda: len(p.moves()) == 2, what="the engine's move on the clock")
    black = p.d.find_element(By.CSS_SELECTOR, '.clock[data-side="p2"]').text
    assert black.startswith("Black 0:2"), black


def test_a_downloaded_record_loads_again(page, downloads):
    p = page()
    p.set_limit("movetime", 30)
    p.set_delay(0)
    p.new_game("ludo", "human", "engine", seed=9)
    rng = random.Random(2)
    while len(p.moves()) < 20:
        human_act(p, rng)
        p.wait_for(lambda: (p.next_kind() or "").startswith("human") and "thinking" not in p.status())
    moves = p.moves()
    path = download_record(p, downloads, "ludo")
    assert '[Result "*"]' in path.read_text()
    # A game under way replays too (its moves are checked, its end is not).
    replay("ludo", path)
    q = page()
    q.new_game("duell", "human", "human")
    n0 = states(q)
    q.d.find_element(By.ID, "load").send_keys(str(path))
    q.wait_for(lambda: states(q) > n0 and q.moves() == moves, what="the loaded game")
    assert q.d.find_element(By.ID, "board").get_attribute("data-game") == "ludo"
    assert q.fen() == p.fen()


def test_the_analysis_is_cleared_when_the_game_changes(page):
    p = page()
    p.new_game("duell", "human", "human")
    p.d.find_element(By.ID, "analyse").click()
    p.wait_for(lambda: rows(p), what="an analysis line")
    p.d.find_element(By.ID, "analyse").click()
    p.new_game("rnb", "human", "human")
    p.wait_for(lambda: not rows(p), what="no Duell line on the R&B board")
    assert not p.d.find_elements(By.CSS_SELECTOR, "#board .pv-arrow")
    # Start from a position, and a new game of the same game after moves: cleared too.
    for clear in ("start from a position", "a new game"):
        p.new_game("duell", "human", "human")
        p.d.find_element(By.ID, "analyse").click()
        p.wait_for(lambda: rows(p), what="an analysis line")
        p.d.find_element(By.ID, "analyse").click()
        if clear == "start from a position":
            set_position(p, "3W13BK4/9/9/9/9/9/9/4WK4 b 0 1")
        else:
            human_act(p, random.Random(1))
            p.wait_for(lambda: len(p.moves()) == 1, what="a move")
            p.new_game("duell", "human", "human")
        p.wait_for(lambda: not rows(p), what=f"no analysis line after {clear}")
        assert not p.d.find_elements(By.CSS_SELECTOR, "#board .pv-arrow"), clear


def test_the_arrows_are_the_first_move_of_each_multipv_line(page):
    p = page()
    p.new_game("duell", "human", "human")
    analyse_three_lines(p)
    p.wait_for(lambda: len(p.d.find_elements(By.CSS_SELECTOR, "#board .pv-arrow")) == 3, what="three arrows")
    ranks = p.js("return [...document.querySelectorAll('#board .pv-arrow')].map(a => [...a.classList].find(c => c.startsWith('pv-rank-')))")
    assert ranks == ["pv-rank-1", "pv-rank-2", "pv-rank-3"], ranks
    p.d.find_element(By.ID, "analyse").click()


def test_the_evaluation_number_is_legible(page):
    p = page()
    p.new_game("duell", "human", "human")
    p.d.find_element(By.ID, "analyse").click()
    p.wait_for(lambda: p.d.find_element(By.ID, "evaltext").text, what="a number on the bar")
    size, color, back = p.js("const s = getComputedStyle(document.getElementById('evaltext'));"
                             "return [parseFloat(s.fontSize), s.color, s.backgroundColor]")
    assert size >= 12, size
    assert color == "rgb(17, 17, 17)" and back.startswith("rgba(255, 255, 255"), (color, back)
    p.d.find_element(By.ID, "analyse").click()


def test_the_evaluation_bar_is_from_the_viewers_side(page):
    """Issue 22 §5: the bar and its number are from the side of the person at the board (the
    one person against an engine; between two people, the side at the bottom: flipping the
    board turns the bar over and the number's sign)."""
    p = page()
    p.new_game("duell", "human", "human")
    p.d.find_element(By.ID, "analyse").click()
    p.wait_for(lambda: p.d.find_element(By.ID, "evaltext").text, what="a number on the bar")
    p.d.find_element(By.ID, "analyse").click()  # stopped: the last score stays
    time.sleep(0.5)
    bar = lambda: p.js("return [document.getElementById('evalbar').dataset.viewer,"
                       "parseFloat(document.getElementById('evalfill').style.height),"
                       "document.getElementById('evaltext').textContent]")
    viewer, height, text = bar()
    assert viewer == "p1", viewer
    p.click_id("flip")
    p.wait_for(lambda: bar()[0] == "p2", what="the bar from the second player's side")
    _, flipped, flipped_text = bar()
    assert abs(height + flipped - 100) < 0.2, (height, flipped)
    number = lambda t: float(t.lstrip("+").replace("−", "-") or 0) if t[:1] in "+-−0123456789" else None
    if number(text) not in (None, 0.0):
        assert number(flipped_text) == -number(text), (text, flipped_text)
    # One person, playing Black against the engine: the bar is Black's.
    p.new_game("duell", "engine", "human")
    p.d.find_element(By.ID, "analyse").click()
    p.wait_for(lambda: p.d.find_element(By.ID, "evaltext").text and bar()[0] == "p2", what="Black's bar")
    p.d.find_element(By.ID, "analyse").click()


def analysis_at(p):
    """The position (`line:ply`) the analysis panel's lines are of, and its rows."""
    return p.js("return document.getElementById('analysis-body').dataset.at"), rows(p)


def note(p):
    return p.d.find_element(By.ID, "search-line").text


def test_a_finished_game_loaded_is_analysed_at_whatever_position_is_shown(page, tmp_path):
    """Issue 39 §1.3: with Analyse ticked nothing ran at any position of a finished game,
    and nothing said why (the session waited because no one was to move). Analysis runs on
    the position shown; at the game's end, where there is nothing to search, it says so."""
    record = match_record(tmp_path / "duell.pgn", "duell", 3)
    plies = record_plies(record)
    p = page()
    p.new_game("duell", "human", "human")
    load(p, record, plies)
    p.wait_for(lambda: p.over(), what="the finished game")
    p.d.find_element(By.ID, "analyse").click()
    p.wait_for(lambda: "over" in note(p), what=f"the reason no analysis runs at the end (shown: {note(p)!r})")
    assert rows(p) == []
    p.d.find_element(By.CSS_SELECTOR, '#moves li[data-ply="2"]').click()
    p.wait_for(lambda: analysis_at(p) == (":2", ["1"]), what=f"the analysis of the position after ply 2 ({analysis_at(p)})")
    p.d.find_element(By.CSS_SELECTOR, '#moves li[data-ply="1"]').click()
    p.wait_for(lambda: analysis_at(p) == (":1", ["1"]), what="the analysis following the position shown")
    p.d.find_element(By.ID, "analyse").click()


def test_the_analysis_panel_is_cleared_on_a_view_change(page):
    """Issue 39 §2: the panel showed the last position's lines with the next position's
    board until new lines came (none come once analysis is off)."""
    p = page()
    p.set_delay(0)
    p.new_game("duell", "human", "human")
    fens = people_plies(p, random.Random(4), 3)
    p.d.find_element(By.ID, "analyse").click()
    p.wait_for(lambda: rows(p), what="an analysis line")
    p.d.find_element(By.ID, "analyse").click()  # stopped: its last lines stay
    p.wait_for(lambda: not p.js("return window.guiLastState.thinking"), what="the analysis stopped")
    assert rows(p)
    p.d.find_element(By.CSS_SELECTOR, '#moves li[data-ply="1"]').click()
    p.wait_for(lambda: p.js("return window.guiView()") == fens[1], what="the position after ply 1")
    assert rows(p) == [] and not p.d.find_elements(By.CSS_SELECTOR, "#board .pv-arrow"), analysis_at(p)


def test_the_engines_search_lines_are_cleared_after_its_move(page):
    """Issue 39 §2: after every engine move the panel shows nothing of the search before it."""
    p = page()
    p.set_delay(0)
    p.set_limit("movetime", 400)
    p.new_game("duell", "human", "engine")
    human_act(p, random.Random(3))
    p.wait_for(lambda: rows(p), what="the engine's lines while it thinks")
    p.wait_for(lambda: len(p.moves()) == 2 and not p.js("return window.guiLastState.thinking"),
               what="the engine's move")
    p.wait_for(lambda: p.js("return window.guiStats.states") and p.js(
        "return window.guiLastState.moves.length") == 2, what="the state after it")
    time.sleep(0.3)
    assert rows(p) == [], analysis_at(p)


def option_names(p):
    return p.js("return [...document.querySelectorAll('#options .opt[data-option]')].map(e => e.dataset.option)")


def option_value(p, name):
    return p.js("const e = document.querySelector(`#options .opt > [data-option='${arguments[0]}']`);"
                "return e.type === 'checkbox' ? String(e.checked) : e.value", name)


def test_the_options_panel_has_the_current_games_rules_as_a_loaded_record_set_them(page, tmp_path):
    """Issue 39 §2: the panel listed every game's rule options with their defaults, whatever
    the game and whatever a loaded record had set."""
    p = page()
    p.new_game("duell", "human", "human")
    names = option_names(p)
    assert "Hash" in names and not {"Pieces", "Placement", "DoubleStep"} & set(names), names
    p.new_game("ludo", "human", "human")
    p.wait_for(lambda: "Pieces" in option_names(p), what="Ludo's rule")
    assert not {"Placement", "DoubleStep"} & set(option_names(p)), option_names(p)
    assert option_value(p, "Pieces") == "4"
    ludo = match_record(tmp_path / "ludo.pgn", "ludo", 2, "--pieces", "2")
    load(p, ludo, record_plies(ludo))
    p.wait_for(lambda: option_value(p, "Pieces") == "2", what="the record's Pieces 2 in the panel")
    apo = match_record(tmp_path / "apocalypse.pgn", "apocalypse", 2, "--double-step", "false")
    load(p, apo, record_plies(apo))
    p.wait_for(lambda: "DoubleStep" in option_names(p) and option_value(p, "DoubleStep") == "false",
               what="the record's DoubleStep false in the panel")
    assert "Pieces" not in option_names(p)
