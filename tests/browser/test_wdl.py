"""The GUI asks its engine for `wdl` (`UCI_ShowWDL`, which engines leave off unless asked,
as Stockfish does): the winning chances the page draws for Ludo come from the engine's
`wdl` when it gives one (README, "Game review"; protocol.md §3)."""

from selenium.webdriver.common.by import By


def console(p):
    return p.js("return document.getElementById('console').innerText").splitlines()


def test_the_gui_asks_for_wdl_and_ludo_analysis_lines_carry_it(page):
    p = page()
    p.new_game("ludo", "human", "engine")
    p.d.find_element(By.ID, "analyse").click()
    p.wait_for(
        lambda: any(l.startswith("< info depth") and " wdl " in l for l in console(p)),
        what="an info line with wdl",
    )
    assert "> setoption name UCI_ShowWDL value true" in console(p)
