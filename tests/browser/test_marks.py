"""The board's marks of the last move (issue 22 §5): a capture is marked on the captured
piece's square (from the position before the move) under the pieces, not with an X over the
piece that captured (an Apocalypse mover lost in a collision on the square it left); a Duell L is drawn along its real path (two legs, turning at its
corner) for the last move and the best-line arrows; a one-square arrow keeps a shaft beside
its head, above the pieces."""

import math

from selenium.webdriver.common.by import By

from test_board import set_position
from test_games import download_record

CELL = 64


def centre(p, square):
    """The centre of a board square, from its click target (board units)."""
    r = p.js("const h = document.querySelector(`#board .hit[data-key='${arguments[0]}']`);"
             "return [+h.getAttribute('x'), +h.getAttribute('y'), +h.getAttribute('width')]", square)
    return (r[0] + r[2] / 2, r[1] + r[2] / 2)


def layer_order(p, selector):
    """The index among the board's layers of the layer holding `selector`, and of the pieces."""
    return p.js("""
        const layers = [...document.querySelectorAll('#board > g')];
        const el = document.querySelector(arguments[0]);
        return [layers.indexOf(el.closest('#board > g')), layers.findIndex(g => g.classList.contains('layer-pieces'))];
    """, selector)


def play(p, frm, to):
    n = len(p.moves())
    p.click_key(frm)
    p.click_key(to)
    p.wait_for(lambda: len(p.moves()) == n + 1, what=f"{frm}{to} played")


def test_a_capture_is_marked_on_the_captured_square_under_the_capturer(page):
    p = page()
    p.new_game("duell", "human", "human")
    # Duell rules W6: Black's key takes the White die on d8.
    set_position(p, "3W13BK4/9/9/9/9/9/9/4WK4 b 0 1")
    play(p, "e8", "d8")
    marks = p.js("return [...document.querySelectorAll('#board .capture-mark')].map(g => g.dataset.square)")
    assert marks == ["d8"], marks
    box = p.js("const r = document.querySelector('#board .capture-mark rect');"
               "return [+r.getAttribute('x'), +r.getAttribute('y'), +r.getAttribute('width'), +r.getAttribute('height')]")
    cx, cy = centre(p, "d8")
    assert math.isclose(box[0] + box[2] / 2, cx) and math.isclose(box[1] + box[3] / 2, cy), (box, cx, cy)
    mark_layer, pieces = layer_order(p, "#board .capture-mark")
    assert mark_layer < pieces, "the mark lies under the piece that captured"
    # No cross over the capturing piece.
    assert not p.d.find_elements(By.CSS_SELECTOR, "#board line.removed")
    # R&B's custodial capture (rules §4 example 1): the two emptied squares are marked.
    p.new_game("rnb", "human", "human")
    set_position(p, "2k3/6/3R2/Rrb3/6/3K2 s 0000 0")
    play(p, "d4", "d3")
    marks = p.js("return [...document.querySelectorAll('#board .capture-mark')].map(g => g.dataset.square)")
    assert sorted(marks) == ["b3", "c3"], marks


def test_a_ludo_capture_is_marked_on_the_track_square_of_the_piece_sent_home(page):
    p = page()
    p.new_game("ludo", "human", "human")
    # Red's 27-30 lands on Yellow's piece at 4 (the same track square) and sends it home.
    set_position(p, "b,b,b,27/b,b,b,4 r 3 0")
    [src] = p.keys("source")
    p.click_key(src)
    [dst] = p.targets()
    p.click_key(dst)
    p.wait_for(lambda: p.moves() == ["27-30"], what="the capture played")
    marks = p.js("return [...document.querySelectorAll('#board .capture-mark')].map(g => g.dataset.square)")
    assert marks == [dst], (marks, dst)
    mark_layer, pieces = layer_order(p, "#board .capture-mark")
    assert mark_layer < pieces


def test_apocalypse_movers_lost_in_a_collision_are_marked_where_they_stood(page):
    p = page()
    p.set_delay(0)
    p.new_game("apocalypse", "human", "human")
    # Rules §4 example 2: a1b3/a5b3, a knight-knight collision on b3: both removed.
    for token in ("a1b3", "a5b3"):
        n = p.js("return window.guiStats.states")
        p.js("window.guiSocket().send(JSON.stringify({t: 'move', token: arguments[0]}))", token)
        p.wait_for(lambda: p.js("return window.guiStats.states") > n, what=f"{token} declared")
    p.wait_for(lambda: p.moves() == ["a1b3/a5b3"], what="the turn revealed")
    marks = p.js("return [...document.querySelectorAll('#board .capture-mark')].map(g => g.dataset.square)")
    assert sorted(marks) == ["a1", "a5"], marks
    assert not p.d.find_elements(By.CSS_SELECTOR, "#board line.removed")


def points(p, selector):
    text = p.js("return document.querySelector(arguments[0]).getAttribute('points')", selector)
    return [tuple(map(float, xy.split(","))) for xy in text.split()]


def test_a_duell_l_is_drawn_along_its_path(page):
    p = page()
    p.new_game("duell", "human", "human")
    play(p, "a1", "e2")  # a1e2n: north to a2, then east to e2 (the only path there)
    assert p.moves() == ["a1e2n"]
    pts = points(p, "#board polyline.last-move")
    assert len(pts) == 3, pts
    a1, a2, e2 = centre(p, "a1"), centre(p, "a2"), centre(p, "e2")
    assert pts[1] == a2, (pts, a2)
    # The first leg goes north from a1, the second east to e2, each pulled in at its end.
    assert math.isclose(pts[0][0], a1[0]) and a2[1] < pts[0][1] < a1[1], pts
    assert math.isclose(pts[2][1], e2[1]) and a2[0] < pts[2][0] < e2[0], pts
    layer, pieces = layer_order(p, "#board .last-move")
    assert layer > pieces, "the arrow is above the pieces"


def test_best_line_arrows_follow_an_l(page):
    """The analysis arrows come from the same marks: an L first move is a two-leg polyline."""
    p = page()
    p.new_game("duell", "human", "human")
    p.js("""
        const l = document.createElementNS('http://www.w3.org/2000/svg', 'g');
        l.id = 'probe'; document.getElementById('board').appendChild(l);
    """)
    out = p.d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        Promise.all([import('/svg.js'), import('/duell.js')]).then(([svg, duell]) => {
          const m = duell.marks('d4e6e')[0];
          const c = k => ({ x: k.charCodeAt(0) * 10, y: Number(k[1]) * 10 });
          const a = svg.arrow(document.getElementById('probe'), c(m.from), c(m.to), 'pv', 1, m.via.map(c));
          const b = svg.arrow(document.getElementById('probe'), c('d1'), c('d7'), 'pv', 1, duell.marks('d1d7')[0].via.map(c));
          done([m.via, a.tagName, a.getAttribute('points'), b.tagName]);
        });
    """)
    via, tag, pts, straight = out
    assert via == ["e4"] and tag == "polyline" and straight == "line", out
    assert pts.split()[1] == f"{ord('e') * 10},40", pts


def test_a_one_square_arrow_keeps_its_shaft_above_the_piece(page):
    p = page()
    p.new_game("duell", "human", "human")
    play(p, "e1", "e2")  # the key: one square
    x1, y1, x2, y2 = p.js("const l = document.querySelector('#board line.last-move');"
                          "return ['x1', 'y1', 'x2', 'y2'].map(a => +l.getAttribute(a))")
    # The head (3.2 strokes of 7, centred on the line's end) leaves at least 0.4 of a square
    # of shaft: more than half the line is shaft, not head.
    length = math.hypot(x2 - x1, y2 - y1)
    assert length - 3.2 * 7 / 2 >= 0.4 * CELL, length
    layer, pieces = layer_order(p, "#board line.last-move")
    assert layer > pieces, "the arrow is above the pieces"


def capture_marks(p):
    return sorted(p.js("return [...document.querySelectorAll('#board .capture-mark')].map(g => g.dataset.square)"))


def test_capture_marks_follow_the_position_shown_while_stepping_back(page):
    """The captures marked are the last token's to the position shown: stepping back to the
    capture marks it again, and a position after a quiet move marks none."""
    from test_navigation import shown_fen

    p = page()
    p.set_delay(0)
    p.new_game("duell", "human", "human")
    set_position(p, "3W13BK4/9/9/9/9/9/9/4WK4 b 0 1")
    play(p, "e8", "d8")  # Black's key takes the White die on d8 (rules W6)
    play(p, "e1", "e2")
    play(p, "d8", "e8")
    fens = [p.js("return window.guiLastState.position.fen")]
    assert capture_marks(p) == [], "the last move took nothing"
    body = p.d.find_element(By.TAG_NAME, "body")
    from selenium.webdriver.common.keys import Keys
    expected = {2: [], 1: ["d8"], 0: []}
    for ply in (2, 1, 0):
        body.send_keys(Keys.ARROW_LEFT)
        p.wait_for(lambda: p.js("return document.getElementById('nav-text').textContent").startswith(f"after {ply} "),
                   what=f"the position after {ply}")
        p.wait_for(lambda: capture_marks(p) == expected[ply], timeout=5,
                   what=f"capture marks {expected[ply]} after {ply}, not {capture_marks(p)}")
    # Forward again from the start, and the game now.
    p.click_id("nav-next")
    p.wait_for(lambda: capture_marks(p) == ["d8"], timeout=5, what="the capture marked going forward")
    body.send_keys(Keys.END)
    p.wait_for(lambda: shown_fen(p) == fens[0] and capture_marks(p) == [], what="the game now")


def capture_marks(p):
    return p.js("return [...document.querySelectorAll('#board .capture-mark')].map(g => g.dataset.square)")


def test_a_record_just_loaded_marks_its_captures_at_the_end_and_a_step_back(page, downloads):
    """The page has not seen the positions of a record it loads: the server sends the one
    before the position shown (the state's and each view's `before`)."""
    p = page()
    p.new_game("duell", "human", "human")
    set_position(p, "3W13BK4/9/9/9/9/9/9/4WK4 b 0 1")
    play(p, "e8", "d8")
    one = downloads / "capture-last.pgn"
    download_record(p, downloads, "duell").rename(one)
    # One more move (White's first legal one), so that the capture is a step back.
    p.js("window.guiSocket().send(JSON.stringify({t: 'move', token: window.guiLastState.legal[0]}))")
    p.wait_for(lambda: len(p.moves()) == 2, what="White's move")
    two = download_record(p, downloads, "duell")
    q = page()
    q.new_game("duell", "human", "human")
    q.d.find_element(By.ID, "load").send_keys(str(one))
    q.wait_for(lambda: len(q.moves()) == 1, what="the one-move record loaded")
    q.wait_for(lambda: capture_marks(q) == ["d8"], what="the capture marked at the end")
    r = page()
    r.new_game("duell", "human", "human")
    r.d.find_element(By.ID, "load").send_keys(str(two))
    r.wait_for(lambda: len(r.moves()) == 2, what="the two-move record loaded")
    r.click_id("nav-prev")
    r.wait_for(lambda: r.js("return window.guiView && window.guiView()") is not None,
               what="a step back")
    r.wait_for(lambda: capture_marks(r) == ["d8"], what="the capture marked a step back")
