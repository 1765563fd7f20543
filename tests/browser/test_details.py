"""The small things of issue 39 §2 (low), each checked the way a person sees it: Ludo's
move rows name the colour, Red's pieces show in Red's home column, a variation's moves are
numbered with its last move's arrow and the status says so, a loaded engine game keeps its
players' names, and Apocalypse's evaluation never reads -0.000."""

import random
import re

from selenium.webdriver.common.by import By

from conftest import Engine
from play import load, match_record, people_game, random_ludo_records, record_plies
from test_board import set_position
from test_games import download_record
from test_variations import fen_after, play_token
from test_navigation import shown_fen


def test_ludo_move_rows_name_the_colour(page, tmp_path):
    record = random_ludo_records(tmp_path / "ludo.pgn", 1, 5)
    plies = record_plies(record)
    p = page()
    p.new_game("ludo", "human", "human")
    load(p, record, plies)
    rows = p.js("return [...document.querySelectorAll('#moves .move-row')].slice(0, 6)"
                ".map(r => [r.querySelector('.move-side') && r.querySelector('.move-side').textContent,"
                " [...r.querySelectorAll('li')].map(li => li.textContent)])")
    assert rows and all(side in ("Red", "Yellow") for side, _ in rows), rows
    assert rows[0][0] == "Red", rows
    # Each row's side is the side whose roll starts it.
    actors = p.js("return window.guiLastState.actors")
    first = [a["side"] for a in actors if a["kind"] == "roll"][:6]
    assert [s for s, _ in rows] == [{"p1": "Red", "p2": "Yellow"}[x] for x in first], (rows, first)


def colour(text):
    """An SVG fill ('#e53935' or 'rgb(...)') as (r, g, b)."""
    m = re.fullmatch(r"#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})", text.strip().lower())
    if m:
        return tuple(int(x, 16) for x in m.groups())
    return tuple(int(x) for x in re.findall(r"\d+", text)[:3])


def test_reds_pieces_in_reds_home_column_stand_out(page):
    """A Red piece in Red's home column was drawn red on red."""
    p = page()
    p.new_game("ludo", "human", "human")
    set_position(p, "b,b,b,53/b,b,b,b r - 0")
    fills = p.js("""
        const piece = [...document.querySelectorAll('#board circle.piece')].find(c => c.dataset.progress === '53');
        const x = +piece.getAttribute('cx'), y = +piece.getAttribute('cy');
        const cells = [...document.querySelectorAll('#board .layer-board rect')].filter(r => {
          const rx = +r.getAttribute('x'), ry = +r.getAttribute('y');
          return rx <= x && x <= rx + +r.getAttribute('width') && ry <= y && y <= ry + +r.getAttribute('height');
        });
        return [piece.getAttribute('fill'), cells[cells.length - 1].getAttribute('fill')];
    """)
    piece, cell = (colour(f) for f in fills)
    distance = sum((a - b) ** 2 for a, b in zip(piece, cell)) ** 0.5
    assert distance > 100, (fills, distance)


def test_a_variation_is_numbered_with_its_last_move_arrow_and_the_status_says_so(page):
    p = page()
    people_game(p, "duell", 4, 4)
    main = p.moves()
    p.d.find_element(By.CSS_SELECTOR, '#moves li[data-ply="2"]').click()
    p.wait_for(lambda: shown_fen(p) == fen_after(main[:2]), what="the position after ply 2")
    legal = Engine("duell").ask("position startpos moves " + " ".join(main[:2]), "legalmoves")[0].split()
    other = next(t for t in sorted(legal) if t != main[2] and t[:4] != main[2][:4])
    play_token(p, other)
    p.wait_for(lambda: shown_fen(p) == fen_after(main[:2] + [other]), what="the variation's position")
    # Ply 3 is White's second move: "2." before it.
    nums = p.js("return [...document.querySelectorAll('#moves .variation .var-num')].map(s => s.textContent)")
    assert nums == ["2."], nums
    p.wait_for(lambda: p.d.find_elements(By.CSS_SELECTOR, "#board .last-move"), what="the variation's last move arrow")
    assert "variation" in p.status(), p.status()


def test_a_loaded_engine_game_keeps_its_players_names(page, tmp_path, downloads):
    record = match_record(tmp_path / "duell.pgn", "duell", 3, names=("Alpha", "Beta"))
    plies = record_plies(record)
    p = page()
    p.new_game("duell", "human", "human")
    load(p, record, plies)
    p.wait_for(lambda: "Alpha" in p.d.find_element(By.ID, "players-names").text, what="the names shown")
    assert "Beta" in p.d.find_element(By.ID, "players-names").text
    p.d.refresh()
    p.wait_for(lambda: p.state() is not None and "Alpha" in p.d.find_element(By.ID, "players-names").text,
               what="the names after a reload")
    text = download_record(p, downloads, "duell").read_text()
    assert '[White "Alpha"]' in text and '[Black "Beta"]' in text, text
    # A new game is the people's own again.
    p.new_game("duell", "human", "human")
    assert "Alpha" not in p.d.find_element(By.ID, "players-names").text


def test_an_apocalypse_evaluation_never_reads_minus_zero(page):
    p = page()
    got = p.d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/panels.js').then(m => done([-3, -4, 0, 3, -5000].map(cp => m.scoreText({ cp }, 'value'))));
    """)
    assert got == ["0.000", "0.000", "0.000", "0.000", "-0.500"], got
