"""Drag and drop as well as click (issue 22 §5): a piece dragged to a target square is
played as the two clicks would be."""

from selenium import webdriver
from selenium.webdriver.common.by import By


def test_a_piece_dragged_to_its_target_is_played(page):
    p = page()
    p.set_delay(0)
    p.new_game("duell", "human", "human")
    src = sorted(p.keys("source"))[0]
    # A target from the engine's list (a Duell token is <from><to>[n|s|e|w]), not a click.
    legal = p.js("return window.guiLastState.legal")
    dst = next(t[2:4] for t in legal if t.startswith(src))
    assert not p.targets(), "nothing selected before the drag"
    a = p.d.find_element(By.CSS_SELECTOR, f'#board [data-key="{src}"]')
    b = p.d.find_element(By.CSS_SELECTOR, f'#board [data-key="{dst}"]')
    n = len(p.js("return window.guiLastState.moves"))
    webdriver.ActionChains(p.d, duration=50).click_and_hold(a).move_to_element(b).release().perform()
    # A Duell die with two L paths to the square asks which: pick the first.
    def played():
        buttons = p.d.find_elements(By.CSS_SELECTOR, "#actions button[data-token]")
        if buttons and len(p.js("return window.guiLastState.moves")) == n:
            buttons[0].click()
        return len(p.js("return window.guiLastState.moves")) == n + 1
    p.wait_for(played, what="the dragged move played")
