"""What the page shows when the server refuses it (issue 22 §2): a record over 1 MiB gets a
message instead of a closed socket, and a tab past `--max-sessions` is told why it has no
session. The hostile messages themselves are in tests/gui_hostile.rs."""

from selenium.webdriver.common.by import By


def message(p):
    return p.d.find_element(By.ID, "message").text


def test_a_record_over_a_mebibyte_is_refused_on_the_page_and_the_socket_stays(page, tmp_path):
    p = page()
    big = tmp_path / "big.pgn"
    big.write_text("x" * (2 << 20))
    p.d.find_element(By.ID, "load").send_keys(str(big))
    p.wait_for(lambda: "1 MiB" in message(p), what="the size message")
    assert p.d.find_element(By.ID, "conn").text == "connected"
    # The same page still plays.
    p.new_game("duell", "human", "human")


def test_a_tab_past_max_sessions_is_told_why(page):
    p = page("--max-sessions", "1")
    first = p.d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const ws = new WebSocket(`ws://${location.host}/ws`);
        ws.onmessage = ev => { done(ev.data); ws.close(); };
        ws.onclose = () => done('closed');
    """)
    assert '"fatal":true' in first and "--max-sessions" in first, first
    # The page that holds the one place is unaffected.
    assert p.d.find_element(By.ID, "conn").text == "connected"
