"""A session survives a reload and a dropped connection (issue 22 §6): the page reconnects
by itself with backoff, showing "reconnecting…", and the server gives it back its session,
game and engine."""

import random

from selenium.webdriver.common.by import By

from play import human_act, people_game


def pid(p):
    return p.d.find_element(By.ID, "engine-name").get_attribute("data-pid")


def test_a_reload_keeps_the_game_and_the_engine(page):
    p = page()
    rng = people_game(p, "duell", 3, 5)
    moves, engine = p.moves(), pid(p)
    # The pid is in the console pane, not the header (issue 22 §5).
    assert engine and engine not in p.d.find_element(By.TAG_NAME, "header").text
    assert f"(pid {engine})" in p.d.find_element(By.ID, "console").get_attribute("textContent")
    p.d.refresh()
    p.wait_for(lambda: p.js("return window.guiLastState && window.guiLastState.moves.length") == 3,
               what="the game back after the reload")
    assert p.moves() == moves
    p.wait_for(lambda: pid(p) == engine, what="the same engine")
    human_act(p, rng)  # and it goes on


def test_a_dropped_socket_reconnects_by_itself(page):
    p = page()
    p.set_delay(0)
    p.new_game("rnb", "human", "human")
    human_act(p, random.Random(1))
    # Close the page's socket as a network drop would.
    p.js("window.guiSocket().close()")
    p.wait_for(lambda: p.d.find_element(By.ID, "conn").text in ("reconnecting…", "connected"),
               what="reconnecting")
    p.wait_for(lambda: p.d.find_element(By.ID, "conn").text == "connected", what="connected again")
    p.wait_for(lambda: p.js("return window.guiLastState.moves.length") == 1, what="the game kept")


def test_a_second_tab_naming_a_session_in_use_gets_its_own(page):
    """Issue 22 §6, the choice made: a socket that names a session another tab holds (a
    duplicated tab) gets a new session of its own; the first tab keeps its game and engine."""
    p = page()
    rng = people_game(p, "duell", 2, 5)
    held = p.js("return sessionStorage.getItem('quartet-session')")
    assert held and len(held) == 32, held
    got = p.d.execute_async_script("""
        const [id, done] = arguments;
        const ws = new WebSocket(`ws://${location.host}/ws?session=${id}`);
        const seen = [];
        ws.onmessage = ev => {
          const m = JSON.parse(ev.data);
          seen.push(m);
          if (m.t === 'state') { ws.close(); done(seen); }
        };
        ws.onclose = () => done(seen);
        setTimeout(() => done(seen), 10000);
    """, held)
    hello = next(m for m in got if m["t"] == "hello")
    state = next(m for m in got if m["t"] == "state")
    assert hello["session"] and hello["session"] != held, hello
    assert state["moves"] == [], "the new session's own game, not the held one's"
    # The first tab still holds its session, its game and its engine, and plays on.
    assert p.d.find_element(By.ID, "conn").text == "connected"
    assert len(p.moves()) == 2
    human_act(p, rng)
    assert len(p.moves()) == 3
