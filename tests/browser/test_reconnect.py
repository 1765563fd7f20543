"""A session survives a reload and a dropped connection (issue 22 §6, issue 39 §1): the page
shows at once when it is not connected, the server answers a close at once, the page
reconnects by itself with backoff and gets its session, game and engine back. Two tabs on
one session: the newer takes the game over and the older says so (it takes it back with
Play here). Closed tabs never lock out a new one, and a server restart says the game is
gone."""

import random
import time

from selenium.webdriver.common.by import By

from conftest import Page
from play import human_act, people_game


def pid(p):
    return p.d.find_element(By.ID, "engine-name").get_attribute("data-pid")


def conn(p):
    return p.d.find_element(By.ID, "conn").text


def message(p):
    return p.js("return document.getElementById('message').textContent")


def test_a_reload_keeps_the_game_and_the_engine(page):
    p = page()
    rng = people_game(p, "duell", 3, 5)
    moves, engine = p.moves(), pid(p)
    # The pid is in the console pane, not the header (issue 22 §5).
    assert engine and engine not in p.d.find_element(By.TAG_NAME, "header").text
    assert f"(pid {engine})" in p.d.find_element(By.ID, "console").get_attribute("textContent")
    p.d.refresh()
    # The state arrives first and is drawn on the next animation frame: wait for the list.
    p.wait_for(lambda: p.moves() == moves, what="the game back after the reload")
    p.wait_for(lambda: pid(p) == engine, what="the same engine")
    human_act(p, rng)  # and it goes on


def watch_badge(p):
    """Every text the connection badge shows from now on, in window.badges."""
    p.js("""
        window.badges = [];
        new MutationObserver(() => window.badges.push(document.getElementById('conn').textContent))
          .observe(document.getElementById('conn'), {childList: true, characterData: true, subtree: true});
    """)


def test_a_dropped_socket_is_shown_at_once_answered_and_reconnected(page):
    """Issue 39 §1.2: the page closed its own socket and the server never answered the
    close, so the page said "connected" for a minute and dropped moves. Now the page shows
    at once that it is not connected, the server answers the close (a clean close, not the
    browser's timeout), and the page plays on over a new socket with its game."""
    p = page()
    p.set_delay(0)
    p.new_game("rnb", "human", "human")
    human_act(p, random.Random(1))
    watch_badge(p)
    p.js("""
        const ws = window.guiSocket();
        window.dropped = ws;
        window.droppedClose = null;
        ws.addEventListener('close', e => { window.droppedClose = {clean: e.wasClean, code: e.code}; });
        ws.close();
    """)
    p.wait_for(lambda: p.js("return window.badges.some(t => t !== 'connected')"), timeout=2,
               what=f"the page saying it is not connected (badge: {conn(p)!r})")
    p.wait_for(lambda: p.js("return window.droppedClose"), timeout=5,
               what="the server's answer to the close")
    assert p.js("return window.droppedClose.clean"), p.js("return window.droppedClose")
    p.wait_for(lambda: p.js("const s = window.guiSocket(); return !!s && s !== window.dropped && s.readyState === 1")
               and conn(p) == "connected", what="connected again on a new socket")
    p.wait_for(lambda: p.js("return window.guiLastState.moves.length") == 1, what="the game kept")
    human_act(p, random.Random(2))
    p.wait_for(lambda: p.js("return window.guiLastState.moves.length") == 2, what="a move after the drop")


def test_a_second_tab_on_a_session_takes_it_over_and_the_first_says_so(server, browser):
    """Issue 39 §1.2, the way chosen: a tab that names a session another tab holds (a
    duplicated tab, or a tab whose socket dropped while the other took the session) takes
    the game over; the first tab is told, does not take it back by itself (two tabs would
    take it from each other for ever), and takes it back with Play here. Neither loses the
    game."""
    s = server()
    d = browser()
    p = Page(d, s.url)
    rng = people_game(p, "duell", 2, 5)
    held = p.js("return sessionStorage.getItem('quartet-session')")
    assert held and len(held) == 32, held
    first = d.current_window_handle
    d.switch_to.new_window("tab")
    second = d.current_window_handle
    q = Page(d, s.url)
    q.js("sessionStorage.setItem('quartet-session', arguments[0])", held)
    q.d.refresh()
    q.wait_for(lambda: q.js("return window.guiLastState && window.guiLastState.moves.length") == 2,
               what="the first tab's game in the second tab")
    d.switch_to.window(first)
    p.wait_for(lambda: conn(p) == "in another tab", what="the first tab saying so")
    assert "another tab" in message(p), message(p)
    time.sleep(1)
    assert conn(p) == "in another tab", "it does not take the game back by itself"
    assert p.keys("source") == [], "its board is not playable"
    p.click_id("play-here")
    p.wait_for(lambda: conn(p) == "connected", what="the game back in the first tab")
    p.wait_for(lambda: len(p.moves()) == 2, what="its moves")
    human_act(p, rng)
    p.wait_for(lambda: len(p.moves()) == 3, what="a move in the first tab")
    d.switch_to.window(second)
    q.wait_for(lambda: conn(q) == "in another tab", what="the second tab told in turn")


def test_closed_tabs_never_lock_out_a_new_one(server, browser):
    """Issue 39 §1.1: nine tabs opened and closed kept nine sessions, and the eight of
    --max-sessions (default) refused the ninth and every reload. Kept sessions give way to
    a live page, the oldest first, and their engines end."""
    s = server()
    d = browser()
    blank = d.current_window_handle
    for i in range(9):
        d.switch_to.new_window("tab")
        p = Page(d, s.url)
        assert conn(p) == "connected", (i, conn(p), message(p))
        d.close()
        d.switch_to.window(blank)
    d.switch_to.new_window("tab")
    p = Page(d, s.url)
    p.wait_for(lambda: conn(p) == "connected", what="the tenth tab connected")
    assert "close another tab" not in message(p), message(p)
    p.new_game("duell", "human", "human")
    assert s.engines() <= 8, s.engines()


def test_a_server_restart_says_the_game_is_gone_and_a_page_offline_cannot_play(server, browser):
    """Issue 39 §2 (low): while the page is not connected its board takes no move (a move
    would be lost), and a server that no longer has the tab's session (restarted) is said
    to have lost the game, not passed over in silence."""
    s = server()
    p = Page(browser(), s.url)
    people_game(p, "duell", 1, 5)
    assert p.keys("source"), "the person to move"
    s.stop()
    p.wait_for(lambda: conn(p) != "connected", what="not connected")
    p.wait_for(lambda: p.keys("source") == [], what="no piece to move while offline")
    assert p.js("return document.body.classList.contains('offline')")
    assert "not connected" in p.status().lower(), p.status()
    s.restart()
    p.wait_for(lambda: conn(p) == "connected", timeout=30, what="connected to the new server")
    p.wait_for(lambda: "game" in message(p) and "restart" in message(p), what="the game said to be gone")
    assert p.js("return window.guiLastState.moves.length") == 0
    assert not p.js("return document.body.classList.contains('offline')")
