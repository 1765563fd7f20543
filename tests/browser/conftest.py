"""Fixtures for the browser tests of `quartet gui`: the server, headless Chromium over
WebDriver (Debian's chromium and chromium-driver), and a direct engine for checking what the
page shows against the engine's own answers."""

import os
import pathlib
import subprocess
import tempfile
import time

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = pathlib.Path(__file__).resolve().parents[2]
QUARTET = os.environ.get("QUARTET", str(ROOT / "target" / "debug" / "quartet"))
# Screenshots go to target/screenshots (or the folder QUARTET_SCREENSHOTS names), never
# into the repository's tracked files: the README's own (docs/screenshots) are copied from
# there by hand, chosen.
_SHOTS = os.environ.get("QUARTET_SCREENSHOTS")
SHOTS = pathlib.Path(_SHOTS).resolve() if _SHOTS else ROOT / "target" / "screenshots"
if SHOTS.is_relative_to(ROOT) and not SHOTS.is_relative_to(ROOT / "target"):
    raise SystemExit(f"QUARTET_SCREENSHOTS={_SHOTS}: the tests write no file of the repository "
                     "(a folder under target/ or outside it)")


def game_names():
    """The registry's games, in the `Game` option's order, from the binary: no test writes
    the list out, so a new game is tested with no line changed here."""
    out = subprocess.run([QUARTET, "games", "--names"], capture_output=True, text=True, check=True)
    return out.stdout.split()


class Server:
    """A `quartet gui` process on a free port."""

    def __init__(self, *args, port=0):
        self.args = args
        self.proc = subprocess.Popen(
            [QUARTET, "gui", "--port", str(port), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        line = self.proc.stdout.readline()
        assert "http://127.0.0.1:" in line, line
        self.url = line.split()[2]
        self.port = int(self.url.rsplit(":", 1)[1].strip("/"))

    def engines(self):
        """The server's child processes (its engines) now."""
        out = subprocess.run(["pgrep", "-P", str(self.proc.pid)], capture_output=True, text=True).stdout
        return len(out.split())

    def restart(self):
        """Ends the server and starts a new one on the same port (a restart: every session
        is gone)."""
        self.stop()
        self.__init__(*self.args, port=self.port)

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture
def server():
    servers = []

    def start(*args):
        s = Server(*args)
        servers.append(s)
        return s

    yield start
    for s in servers:
        s.stop()


def new_driver(download_dir):
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for a in [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--window-size=1500,1100",
        f"--user-data-dir={tempfile.mkdtemp(prefix='quartet-chromium-')}",
    ]:
        opts.add_argument(a)
    opts.add_experimental_option(
        "prefs",
        {
            "download.default_directory": str(download_dir),
            "download.prompt_for_download": False,
        },
    )
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)


@pytest.fixture
def downloads(tmp_path):
    d = tmp_path / "downloads"
    d.mkdir()
    return d


@pytest.fixture
def browser(downloads):
    drivers = []

    def start():
        d = new_driver(downloads)
        drivers.append(d)
        return d

    yield start
    for d in drivers:
        try:
            d.quit()
        except Exception:
            pass


class Engine:
    """The engine itself, asked directly (not through the GUI), to check the page."""

    def __init__(self, game, rules=()):
        self.game = game
        self.rules = list(rules)

    def ask(self, position, *queries):
        lines = [f"setoption name Game value {self.game}", *self.rules, position]
        lines += [f"query {q}" for q in queries]
        out = subprocess.run(
            [QUARTET], input="\n".join(lines) + "\nquit\n", capture_output=True, text=True, timeout=30
        ).stdout
        return [l[len("response"):].strip() for l in out.splitlines() if l.startswith("response")]


def retype(field, text):
    """Replaces a text field's value as a person does (select all, type), keeping the focus
    throughout: WebDriver's clear() blurs the field, and the page rewrites an unfocused
    position or seed field from the next state, so a state arriving between clear() and the
    typing would put the old value before the new one."""
    from selenium.webdriver.common.keys import Keys

    field.click()
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(str(text))


class Page:
    """The GUI page in a browser, with helpers that act as a person would: clicks."""

    def __init__(self, driver, url):
        self.d = driver
        self.d.get(url)
        self.wait_for(lambda: self.state() is not None)

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def state(self):
        return self.js("return window.guiStats && window.guiStats.states > 0 ? document.getElementById('status').dataset.next : null")

    def wait_for(self, cond, timeout=30, what="condition"):
        WebDriverWait(self.d, timeout, poll_frequency=0.05).until(lambda _: cond(), message=what)

    def select(self, element_id, value):
        from selenium.webdriver.support.ui import Select

        Select(self.d.find_element(By.ID, element_id)).select_by_value(value)

    def click_id(self, element_id):
        self.d.find_element(By.ID, element_id).click()

    def click_key(self, key):
        """A real click on a board key; the board is redrawn once per animation frame, so
        an element found just before a redraw is found again."""
        from selenium.common.exceptions import StaleElementReferenceException

        for attempt in range(5):
            try:
                el = self.d.find_element(By.CSS_SELECTOR, f'#board [data-key="{key}"]')
                webdriver.ActionChains(self.d, duration=0).move_to_element(el).click().perform()
                return
            except StaleElementReferenceException:
                if attempt == 4:
                    raise

    def keys(self, cls):
        """The board keys whose click targets have class `cls` (source, target, choice)."""
        return sorted(self.js(
            "return [...document.querySelectorAll('#board .hit.' + arguments[0])].map(e => e.dataset.key)", cls))

    def targets(self):
        return self.keys("target")

    def status(self):
        return self.js("return document.getElementById('status').textContent")

    def next_kind(self):
        return self.js("return document.getElementById('status').dataset.next")

    def moves(self):
        return self.js("return [...document.querySelectorAll('#moves li')].map(e => e.textContent)")

    def fen(self):
        return self.d.find_element(By.ID, "fen").get_attribute("value")

    def new_game(self, game, p1="human", p2="engine", seed=None):
        self.select("game", game)
        self.select("p1", p1)
        self.select("p2", p2)
        if seed is not None:
            s = self.d.find_element(By.ID, "seed")
            if not s.is_displayed():
                # The seed shows for a game with dice once the page has seen its dice, as a
                # person sees it: after a first game of it.
                self.new_game(game, p1, p2)
            retype(s, seed)
        before = self.js("return window.guiStats.states")
        self.click_id("new-game")
        # The new game's own state: its board, its players and no move yet (a state of the
        # game before, an engine game going on, may come first; engines alone may have moved).
        fresh = "s.moves.length === 0" if "human" in (p1, p2) else "true"
        self.wait_for(lambda: self.js("return window.guiStats.states") > before and self.js(
            "return document.getElementById('board').dataset.game") == game and self.js(
            f"const s = window.guiLastState; return {fresh} && s.players.join() === arguments[0]",
            f"{p1},{p2}"), what=f"new {game} game")

    def set_limit(self, kind, value):
        self.select("limit-kind", kind)
        v = self.d.find_element(By.ID, "limit-value")
        v.clear()
        v.send_keys(str(value))
        self.click_id("set-limit")

    def set_delay(self, ms):
        self.js("const d = document.getElementById('delay'); d.value = arguments[0]; d.dispatchEvent(new Event('change'));", ms)

    def screenshot(self, name):
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.d.find_element(By.ID, "play").screenshot(str(SHOTS / f"{name}.png"))

    def over(self):
        return self.status().startswith("Game over")


@pytest.fixture
def page(server, browser):
    def open_page(*server_args):
        s = server(*server_args)
        return Page(browser(), s.url)

    return open_page
