"""Engine faults (crash, hang, illegal move) are shown, the game so far is kept and can be
saved, the engine can be restarted; closing the tab ends its engine; bad messages from a
page are refused and never reach the engine."""

import json
import os
import pathlib
import random
import subprocess
import sys
import time

from selenium.webdriver.common.by import By

from conftest import QUARTET
from play import human_act, states
from test_games import download_record, replay

FAULT = str(pathlib.Path(__file__).with_name("fault_engine.py"))


def engine_cmd(mode, n):
    return f"{sys.executable} {FAULT} {QUARTET} {mode} {n}"


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is not alive.
    try:
        return pathlib.Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except FileNotFoundError:
        return False


def fault_shown(p):
    return p.js("return !document.getElementById('fault').classList.contains('hidden')")


def play_until_fault(p, rng):
    for _ in range(20):
        p.wait_for(lambda: fault_shown(p) or (p.next_kind() or "").startswith("human"), timeout=30)
        if fault_shown(p):
            return
        human_act(p, rng)
    raise AssertionError("no fault")


def test_a_crashing_engine_is_shown_the_game_kept_saved_and_restarted(page, downloads):
    p = page("--engine", engine_cmd("crash", 3))
    p.set_limit("movetime", 30)
    p.new_game("duell", "human", "engine")
    play_until_fault(p, random.Random(7))
    assert "crash" in p.d.find_element(By.ID, "fault-text").text
    assert "Stopped: engine crash playing Black" in p.status()
    # The person's three moves and the engine's two answers are kept...
    assert len(p.moves()) == 5
    # ... and saved as a game Black lost by crashing, which quartet replay accepts.
    text = replay("duell", download_record(p, downloads, "duell"))
    assert '[Termination "crash"]' in text and '[Result "1-0"]' in text
    # A restart brings a new engine, which answers the position.
    n0 = len(p.moves())
    p.click_id("restart")
    p.wait_for(lambda: len(p.moves()) == n0 + 1, what="the restarted engine's move")
    assert not fault_shown(p)


def test_a_hanging_engine_and_an_illegal_move_are_faults(page):
    p = page("--engine", engine_cmd("hang", 1), "--margin-ms", "300")
    p.set_limit("movetime", 100)
    p.new_game("duell", "engine", "human")
    p.wait_for(lambda: "hang" in p.d.find_element(By.ID, "fault-text").text, timeout=10, what="the hang")
    assert "no bestmove after" in p.d.find_element(By.ID, "fault-text").text
    p = page("--engine", engine_cmd("illegal", 1))
    p.set_limit("movetime", 30)
    p.new_game("duell", "engine", "human")
    p.wait_for(lambda: "illegal" in p.d.find_element(By.ID, "fault-text").text, timeout=10, what="the illegal move")
    assert "a1a1" in p.d.find_element(By.ID, "fault-text").text
    assert p.moves() == []


def test_closing_the_tab_ends_its_engine_once_its_session_is_no_longer_kept(server, browser):
    from conftest import Page

    s = server("--keep-seconds", "2")
    d = browser()
    p = Page(d, s.url)
    p.wait_for(lambda: p.d.find_element(By.ID, "engine-name").get_attribute("data-pid"))
    pid = int(p.d.find_element(By.ID, "engine-name").get_attribute("data-pid"))
    assert alive(pid)
    first = d.current_window_handle
    d.switch_to.new_window("tab")
    d.switch_to.window(first)
    # Stamped before the close: under load the server may see the socket go before
    # close() returns, and the session is kept from then.
    closed = time.time()
    d.close()  # the tab with the page
    time.sleep(1)
    assert alive(pid), "kept for a reload"
    deadline = closed + 7
    while alive(pid) and time.time() < deadline:
        time.sleep(0.05)
    assert not alive(pid), "the engine outlived its kept session"
    assert time.time() - closed >= 2


def test_bad_messages_are_refused_and_never_reach_the_engine(page):
    p = page()
    p.new_game("duell", "human", "engine")
    got = p.d.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        const ws = new WebSocket(`ws://${location.host}/ws`);
        const seen = [];
        const bad = ['quit', '{"t":"raw","line":"quit"}', '{"t":"move","token":"d1d7\\nquit"}',
                     '{"t":"set_option","name":"Hash","value":"1\\nquit"}', '{"t":"new_game","game":"chess","p1":"human","p2":"engine"}',
                     '{"t":"new_game","game":"duell","p1":"human","p2":"engine","fen":"9/9 w 0 1 moves d1d7"}'];
        ws.onmessage = ev => {
          const m = JSON.parse(ev.data);
          seen.push(m);
          if (m.t === 'hello') setTimeout(() => bad.forEach(b => ws.send(b)), 200);
          if (seen.filter(x => x.t === 'error').length === bad.length) { setTimeout(() => { ws.close(); done(seen); }, 300); }
        };
        setTimeout(() => done(seen), 8000);
        """
    )
    errors = [m["message"] for m in got if m["t"] == "error"]
    assert len(errors) == 6, errors
    sent = [l for m in got if m["t"] == "console" for d, l in m["lines"] if d == ">"]
    assert sent and not any("quit" in l or "chess" in l or "\n" in l for l in sent), sent


def test_an_engine_without_query_gets_one_clear_message(page):
    p = page("--engine", engine_cmd("noquery", 0))
    p.wait_for(lambda: fault_shown(p), what="the fault")
    text = p.d.find_element(By.ID, "fault-text").text
    assert "query position" in text and "needs an engine that answers" in text, text
    name = p.d.find_element(By.ID, "engine-name").text
    assert "Quartet" in name and "connecting" not in name, name
