"""Drag and drop as well as click (issue 22 §5, issue 39 §2): a piece dragged to a target
square is played as the two clicks would be, with the mouse and on a phone's touch screen
(a touch pointer is captured by the element it went down on, so the drop square is found
under the pointer, not from the event's target), and the dragged piece follows the pointer
on both."""

from selenium import webdriver
from selenium.webdriver.common.by import By


def a_move(p):
    """A source square and one of its targets, from the engine's list (a Duell token is
    <from><to>[n|s|e|w]), not from a click."""
    src = sorted(p.keys("source"))[0]
    legal = p.js("return window.guiLastState.legal")
    return src, next(t[2:4] for t in legal if t.startswith(src))


def played(p, n):
    """Whether the move is played (a Duell die with two L paths to the square asks which:
    the first is picked)."""
    buttons = p.d.find_elements(By.CSS_SELECTOR, "#actions button[data-token]")
    if buttons and len(p.js("return window.guiLastState.moves")) == n:
        buttons[0].click()
    return len(p.js("return window.guiLastState.moves")) == n + 1


def ghost_centre(p):
    """The centre of the dragged piece drawn under the pointer (client pixels), or None."""
    return p.js("""
        const g = document.querySelector('#board .drag-ghost');
        if (!g) return null;
        const r = g.getBoundingClientRect();
        return r.width ? [r.left + r.width / 2, r.top + r.height / 2] : null;
    """)


def centre(p, key):
    return p.js("const r = document.querySelector(`#board [data-key='${arguments[0]}']`).getBoundingClientRect();"
                "return [r.left + r.width / 2, r.top + r.height / 2]", key)


def near(a, b, tolerance):
    return a is not None and abs(a[0] - b[0]) <= tolerance and abs(a[1] - b[1]) <= tolerance


def test_a_piece_dragged_to_its_target_is_played_and_follows_the_mouse(page):
    p = page()
    p.set_delay(0)
    p.new_game("duell", "human", "human")
    src, dst = a_move(p)
    assert not p.targets(), "nothing selected before the drag"
    a = p.d.find_element(By.CSS_SELECTOR, f'#board [data-key="{src}"]')
    b = p.d.find_element(By.CSS_SELECTOR, f'#board [data-key="{dst}"]')
    n = len(p.js("return window.guiLastState.moves"))
    (x0, y0), (x1, y1) = centre(p, src), centre(p, dst)
    mid = (round((x1 - x0) / 2), round((y1 - y0) / 2))
    webdriver.ActionChains(p.d, duration=50).click_and_hold(a).move_by_offset(*mid).perform()
    p.wait_for(lambda: near(ghost_centre(p), (x0 + mid[0], y0 + mid[1]), 12),
               what=f"the piece under the pointer half way (drawn at {ghost_centre(p)})")
    webdriver.ActionChains(p.d, duration=50).move_to_element(b).release().perform()
    p.wait_for(lambda: played(p, n), what="the dragged move played")
    assert ghost_centre(p) is None, "no piece left floating"


def phone(p):
    """A phone: 390x844 at twice the pixels, a touch screen."""
    p.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                        {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    p.d.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    p.d.refresh()
    p.wait_for(lambda: p.state() is not None, what="the page on the phone")


def touch(p, kind, x=None, y=None):
    points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
    p.d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def test_a_touch_drag_on_a_phone_plays_the_move_and_the_piece_follows_the_finger(page):
    p = page()
    p.set_delay(0)
    phone(p)
    p.new_game("duell", "human", "human")
    assert p.js("return matchMedia('(pointer: coarse)').matches || navigator.maxTouchPoints > 0")
    src, dst = a_move(p)
    n = len(p.js("return window.guiLastState.moves"))
    (x0, y0), (x1, y1) = centre(p, src), centre(p, dst)
    p.js("""window.pointerTypes = new Set();
            document.getElementById('board').addEventListener('pointermove', e => window.pointerTypes.add(e.pointerType));""")
    touch(p, "touchStart", x0, y0)
    steps = 6
    for k in range(1, steps + 1):
        touch(p, "touchMove", x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps)
        if k == steps // 2:
            here = (x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps)
            p.wait_for(lambda: near(ghost_centre(p), here, 12),
                       what=f"the piece under the finger half way (drawn at {ghost_centre(p)}, finger {here})")
    touch(p, "touchEnd")
    assert p.js("return [...window.pointerTypes]") == ["touch"]
    p.wait_for(lambda: played(p, n), what="the touch-dragged move played")
    assert ghost_centre(p) is None
