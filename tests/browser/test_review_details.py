"""The detail of a reviewed ply (issue 39 §3): a Ludo roll's luck and gnubg's temperature
map (the value after each face), an Apocalypse turn's two equilibrium policies with each
side's loss, and the review on a phone. Each as the review crate computed it (the page's
`guiReview()`); the README's screenshots of them are taken here."""

import random

from selenium.webdriver.common.by import By

from conftest import SHOTS
from play import play_random
from test_drag import phone
from test_review import reviewed


def reviewed_game(p, game, plies, nodes, seed=6):
    p.set_delay(0)
    p.new_game(game, "human", "human")
    play_random(p, random.Random(seed), plies)
    box = p.d.find_element(By.ID, "review-nodes")
    box.clear()
    box.send_keys(str(nodes))
    p.click_id("review")
    p.wait_for(lambda: reviewed(p), timeout=180, what="the review")
    return p.js("return window.guiReview()")


def show_ply(p, k):
    """Shows the position after ply `k` from the move list, as a person clicks it."""
    p.d.find_element(By.CSS_SELECTOR, f'#moves li[data-ply="{k}"]').click()
    p.wait_for(lambda: p.js("const c = document.querySelector('#moves li.current'); return c && +c.dataset.ply") == k,
               what=f"ply {k} shown")


def screenshot(p, name):
    """The window, the empty analysis and engine panels folded so that the review shows."""
    p.js("for (const id of ['analysis-panel', 'engine-panel', 'console-panel'])"
         " document.getElementById(id).open = false;")
    SHOTS.mkdir(parents=True, exist_ok=True)
    p.d.save_screenshot(str(SHOTS / name))


def test_a_ludo_roll_shows_its_luck_and_temperature_map(page):
    p = page("--seed", "4")
    r = reviewed_game(p, "ludo", 30, 2000)
    rolls = [q for q in r["plies"] if q["node"] == "chance"]
    assert rolls, r
    # The roll whose luck is largest, as a person studying the game would look at it.
    roll = max(rolls, key=lambda q: abs(q["luck"]))
    outcomes = roll["outcomes"]
    mean = sum(o["weight"] * o["value"] for o in outcomes) / sum(o["weight"] for o in outcomes)
    assert abs(roll["value"] - mean - roll["luck"]) < 1e-9, roll  # gnubg's luck
    show_ply(p, roll["ply"])
    cells = p.js("return [...document.querySelectorAll('#review-detail .temperature')]"
                 ".map(c => [c.dataset.token, +c.dataset.value, c.classList.contains('played')])")
    first = roll["mover"] == "first"
    assert [c[0] for c in cells] == [o["token"] for o in outcomes], cells
    for c, o in zip(cells, outcomes):
        assert abs(c[1] - (o["value"] if first else 1 - o["value"])) < 1e-9, (c, o)
    assert [c[0] for c in cells if c[2]] == [roll["token"]], cells
    detail = p.d.find_element(By.ID, "review-detail").text
    sign = 1 if first else -1
    assert f"luck {'+' if sign * roll['luck'] >= -0.0005 else '−'}{abs(100 * roll['luck']):.1f}" in detail, detail
    # Each roll of the move list has its luck beside it; each side's summary its luck and
    # luck-adjusted result.
    notes = p.js("return [...document.querySelectorAll('#moves li.roll')].map(li => li.dataset.note)")
    assert notes and all("luck" in n for n in notes), notes
    texts = p.js("return [...document.querySelectorAll('.review-side')].map(d => d.textContent)")
    assert all(" luck " in t for t in texts), texts
    screenshot(p, "review-ludo-luck.png")


def test_an_apocalypse_turn_shows_both_policies(page):
    p = page("--seed", "4")
    r = reviewed_game(p, "apocalypse", 10, 1500)
    joint = [q for q in r["plies"] if q["node"] == "joint"]
    assert joint, r
    # The turn with the most declarations mixed, as the most telling one.
    turn = max(joint, key=lambda q: sum(d["probability"] > 0 for d in q["first"]["policy"] + q["second"]["policy"]))
    show_ply(p, turn["ply"])
    tables = p.js("return [...document.querySelectorAll('#review-detail .policy-table')].map(t => [t.dataset.side,"
                  " [...t.querySelectorAll('tr')].slice(1).map(r => [r.cells[0].textContent, r.cells[1] && r.cells[1].textContent,"
                  " r.classList.contains('played')]), t.caption.textContent])")
    assert [t[0] for t in tables] == ["p1", "p2"], tables
    for (side, rows, caption), part in zip(tables, [turn["first"], turn["second"]]):
        # The mixed declarations and the one played, then how many more there are at 0 %.
        shown = [d for d in part["policy"] if d["probability"] > 0 or d["token"] == part["declaration"]]
        rest = len(part["policy"]) - len(shown)
        assert [row[0] for row in rows] == [d["token"] for d in shown] + ([f"and {rest} more at 0%"] if rest else []), rows
        assert [row[1] for row in rows[:len(shown)]] == [f"{round(100 * d['probability'])}%" for d in shown], rows
        assert [row[0] for row in rows if row[2]] == [d["token"] for d in part["policy"] if d["token"] == part["declaration"]]
        assert f"declared {part['declaration']}: loss {100 * part['loss']:.1f} %" in caption, caption
        assert abs(sum(d["probability"] for d in part["policy"]) - 1) < 1e-6, part
    screenshot(p, "review-apocalypse-policies.png")


def test_a_review_on_a_phone(page):
    """A phone (390x844, touch): the review panel under the board, nothing wider than the
    screen, the temperature map's six faces in one row."""
    p = page("--seed", "4")
    phone(p)
    r = reviewed_game(p, "ludo", 24, 1500)
    roll = next(q for q in reversed(r["plies"]) if q["node"] == "chance")
    show_ply(p, roll["ply"])
    assert p.js("return document.documentElement.scrollWidth <= innerWidth")
    boxes = p.js("return [...document.querySelectorAll('#review-detail .temperature')].map(c => c.getBoundingClientRect())"
                 ".map(b => [b.top, b.right])")
    assert len(boxes) == 6 and len({round(b[0]) for b in boxes}) == 1 and max(b[1] for b in boxes) <= 390, boxes
    graph = p.js("const b = document.getElementById('review-graph').getBoundingClientRect(); return [b.left, b.right]")
    assert 0 <= graph[0] and graph[1] <= 390, graph
    # The README's phone screenshot: the board, and under it the review (the other
    # panels folded, as a person studying the game on a phone would).
    p.js("for (const id of ['game-panel', 'analysis-panel']) document.getElementById(id).open = false;"
         "document.getElementById('board').scrollIntoView({block: 'start'})")
    SHOTS.mkdir(parents=True, exist_ok=True)
    p.d.save_screenshot(str(SHOTS / "phone-review.png"))


def test_a_temperature_map_on_demand_where_a_roll_is_due(page):
    """gnubg's temperature map of any position where a roll is due, asked on the page (the
    review crate's temperature_map, with an engine of its own): the six faces, each with
    the value after it for the side to roll; their weighted mean is the position's value.
    Where no roll is due there is no button, and the server says why when asked."""
    p = page("--seed", "4")
    p.set_delay(0)
    p.new_game("ludo", "human", "human")
    play_random(p, random.Random(3), 7)
    st = p.js("return window.guiLastState")
    if st["position"]["node"] != "chance":
        play_random(p, random.Random(4), 1)
    p.wait_for(lambda: p.js("return window.guiLastState.position.node") == "chance", what="a roll due")
    box = p.d.find_element(By.ID, "review-nodes")
    box.clear()
    box.send_keys("1500")
    p.wait_for(lambda: p.d.find_element(By.ID, "temperature").is_displayed(), what="the button")
    p.click_id("temperature")
    p.wait_for(lambda: len(p.d.find_elements(By.CSS_SELECTOR, "#temperature-box .temperature")) == 6,
               timeout=60, what="the map")
    cells = p.js("return [...document.querySelectorAll('#temperature-box .temperature')]"
                 ".map(c => [c.dataset.token, +c.dataset.value])")
    assert [c[0] for c in cells] == ["r1", "r2", "r3", "r4", "r5", "r6"], cells
    assert all(0 <= c[1] <= 1 for c in cells), cells
    # A step away hides it (it is that position's); the position after the roll has none.
    p.click_id("nav-prev")
    p.wait_for(lambda: not p.d.find_elements(By.CSS_SELECTOR, "#temperature-box .temperature"),
               what="the map gone with the position")
    p.click_id("nav-last")
    p.wait_for(lambda: p.js("return window.guiLastState.viewing") is None, what="the game now")
    p.js("window.guiSocket().send(JSON.stringify({t: 'roll'}))")
    p.wait_for(lambda: p.js("return window.guiLastState.position.node") != "chance", what="rolled")
    p.wait_for(lambda: not p.d.find_element(By.ID, "temperature").is_displayed(), what="no button")
    p.js("window.guiSocket().send(JSON.stringify({t: 'temperature', nodes: 100}))")
    p.wait_for(lambda: "where a roll is due" in p.d.find_element(By.ID, "message").text, what="the error")
