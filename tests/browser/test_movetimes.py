"""The move-time chart (issue 39 §3): the time each decision took, from the clock readings
that records carry as lichess writes them (`[%clk h:mm:ss]` after a token), drawn for a
game played on the page's clocks and for a record loaded; the records the page writes carry
the readings and still replay."""

import re

from selenium.webdriver.common.by import By

from play import states
from test_games import download_record, replay


def bars(p):
    """The chart's bars: [ply, side, ms, tooltip]."""
    return p.js("return [...document.querySelectorAll('#movetime-chart rect.movetime')]"
                ".map(r => [+r.dataset.ply, r.classList.contains('movetime-p1') ? 'p1' : 'p2',"
                " +r.dataset.ms, r.querySelector('title').textContent])")


def test_an_engine_game_on_the_clock_is_charted_and_its_record_carries_the_clocks(page, downloads):
    p = page()
    p.set_delay(0)
    p.set_limit("clock", 10)
    p.new_game("duell", "engine", "engine")
    p.wait_for(lambda: len(p.moves()) >= 8, timeout=60, what="eight engine moves on the clock")
    p.d.find_element(By.ID, "pause").click()
    p.wait_for(lambda: "thinking" not in p.status(), what="the engines paused")
    moves = p.moves()
    p.wait_for(lambda: len(bars(p)) == len(moves), what="a bar per move")
    got = bars(p)
    assert [b[0] for b in got] == list(range(1, len(moves) + 1)), got
    assert [b[1] for b in got] == ["p1", "p2"] * (len(moves) // 2) + ["p1"] * (len(moves) % 2), got
    # Each decision took some of its side's 10 s, and less than all of it.
    assert all(0 <= b[2] < 10000 for b in got), got
    assert got[0][3].startswith(f"1. {moves[0]} (White): "), got[0]
    assert not p.d.find_element(By.ID, "movetimes").get_attribute("class").count("hidden")
    # The record carries a reading after each move, and the referee still replays it.
    path = download_record(p, downloads, "duell")
    text = path.read_text()
    readings = re.findall(r"\[%clk\s+(\d+):(\d\d):(\d\d(?:\.\d)?)\]", text)
    assert len(readings) == len(moves), text
    assert '[TimeControl "10+0"]' in text, text
    replay("duell", path)
    # Loaded on another page, its chart is the same (to the tenth of a second the record
    # keeps).
    q = page()
    q.new_game("rnb", "human", "human")
    n0 = states(q)
    q.d.find_element(By.ID, "load").send_keys(str(path))
    q.wait_for(lambda: states(q) > n0 and q.moves() == moves, what="the loaded game")
    q.wait_for(lambda: len(bars(q)) == len(moves), what="the loaded game's chart")
    for a, b in zip(got, bars(q)):
        assert a[:2] == b[:2] and abs(a[2] - b[2]) <= 200, (a, b)


def test_the_times_of_a_joint_turn_and_a_roll(page):
    """A roll is no one's decision; a joint turn's two readings are the first player's, then
    the second's; a side's first decision is timed from the clock's start when the record
    says it (TimeControl), else it has no bar."""
    p = page()
    clk = {"readings": [[9500], [], [9000, 8000], [8800]], "base_ms": 10000, "inc_ms": 100}
    actors = [{"kind": "move", "side": "p1"}, {"kind": "roll", "side": "p2"}, {"kind": "joint"},
              {"kind": "move", "side": "p2"}]
    times = p.d.execute_async_script("""
        const [clk, actors, done] = arguments;
        import('/movetimes.js').then(m => done(m.moveTimes(clk, actors))).catch(e => done(String(e)));
    """, clk, actors)
    assert times == [{"ply": 1, "side": "p1", "ms": 600}, {"ply": 3, "side": "p1", "ms": 600},
                     {"ply": 3, "side": "p2", "ms": 2100}, {"ply": 4, "side": "p2", "ms": 0}], times
    clk["base_ms"] = None
    times = p.d.execute_async_script("""
        const [clk, actors, done] = arguments;
        import('/movetimes.js').then(m => done(m.moveTimes(clk, actors))).catch(e => done(String(e)));
    """, clk, actors)
    assert [t["ply"] for t in times] == [3, 4], times
