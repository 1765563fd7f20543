"""The page fits the screen (issue 22 §5): at 1024x768 everything needed to play is in view
without scrolling, for every game (Ludo's Roll button included), with the panel beside the
board; at 390x844 (a phone) the panel goes under the board and nothing is wider than the
screen."""

import pytest

from conftest import SHOTS, game_names


def viewport(p, w, h, mobile):
    p.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                        {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": mobile})
    p.d.refresh()
    p.wait_for(lambda: p.state() is not None, what="the page after the resize")


def box(p, element_id):
    return p.js("const r = document.getElementById(arguments[0]).getBoundingClientRect();"
                "return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}", element_id)


@pytest.mark.parametrize("game", game_names())
def test_at_1024x768_the_board_status_and_actions_are_in_view(page, game):
    p = page()
    viewport(p, 1024, 768, False)
    p.new_game(game, "human", "engine")
    p.wait_for(lambda: p.d.find_elements("css selector", "#board .hit"), what="the board")
    assert p.js("return document.documentElement.scrollWidth <= innerWidth")
    for part in ("board", "status", "actions", "setup", "tools"):
        b = box(p, part)
        assert 0 <= b["top"] and b["bottom"] <= 768 and b["right"] <= 1024, (part, b)
    if game == "ludo":
        b = box(p, "roll")
        assert b["bottom"] <= 768, b
    side, board = box(p, "side"), box(p, "board")
    assert side["left"] >= board["right"], "the panel beside the board"


def test_at_390x844_the_panel_goes_under_the_board_and_nothing_is_cut_off(page):
    p = page()
    viewport(p, 390, 844, True)
    for game in ("ludo", "duell"):
        p.new_game(game, "human", "engine")
        p.wait_for(lambda: p.d.find_elements("css selector", "#board .hit"), what="the board")
        assert p.js("return document.documentElement.scrollWidth <= innerWidth"), game
        board, side = box(p, "board"), box(p, "side")
        assert board["right"] <= 390 and side["top"] >= board["bottom"], (board, side)
        assert box(p, "actions")["bottom"] <= 844, game
    # The README's phone screenshot: the whole screen.
    SHOTS.mkdir(parents=True, exist_ok=True)
    p.d.save_screenshot(str(SHOTS / "phone.png"))


def test_at_1024x768_a_redeploy_choice_keeps_every_control_on_the_page(page):
    """An Apocalypse pawn reaching the last rank with two knights kept redeploys to any empty
    square (rules §3): 17 choices, a picker, and no control outside the viewport."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from test_board import set_position

    p = page()
    viewport(p, 1024, 768, False)
    p.new_game("apocalypse", "human", "human")
    set_position(p, "n3n/2P2/5/p4/N3N 00 0")
    p.click_key("c4")
    p.click_key("c5")
    p.wait_for(lambda: len(p.keys("choice")) == 17, what="the 17 redeploy squares marked on the board")
    off = p.js("""
        return [...document.querySelectorAll('button, select, input, label')].filter(e => e.offsetParent !== null)
          .map(e => [e.id || e.textContent.trim().slice(0, 30), e.getBoundingClientRect()])
          .filter(([, r]) => r.left < 0 || r.top < 0 || r.right > innerWidth || (r.bottom > innerHeight && !e_in_side(r)))
          .map(([name, r]) => [name, r.left, r.top, r.right, r.bottom]);
        function e_in_side(r) { return r.left >= document.getElementById('side').getBoundingClientRect().left; }
    """)
    assert off == [], off
    b = box(p, "actions")
    assert b["bottom"] <= 768 and b["right"] <= 1024, b
    side, board = box(p, "side"), box(p, "board")
    assert side["left"] >= board["right"], "the panel stays beside the board"
    picker = Select(p.d.find_element(By.ID, "choice-picker"))
    assert len(picker.options) == 17, [o.text for o in picker.options]
    # The picker's choice is played with Play (Enter's default).
    picker.select_by_value("c4c5@d3")
    p.click_id("choice-play")
    p.wait_for(lambda: "White has declared" in p.status(), what="the redeploy declared")


def test_a_long_message_does_not_move_the_panel(page):
    """An error of many words (here an unknown option's long name, said back) leaves the
    board and the panel's controls where they were."""
    p = page()
    viewport(p, 1024, 768, False)
    p.new_game("duell", "human", "engine")
    p.wait_for(lambda: p.d.find_elements("css selector", "#board .hit"), what="the board")
    before = {part: box(p, part) for part in ("board", "side", "actions", "setup", "tools")}
    name = " ".join(["word"] * 120)
    p.js("window.guiSocket().send(JSON.stringify({t: 'set_option', name: arguments[0], value: '1'}))",
         name)
    p.wait_for(lambda: "no option" in p.js("return document.getElementById('message').textContent"),
               what="the long error shown")
    after = {part: box(p, part) for part in before}
    assert after == before, (before, after)
