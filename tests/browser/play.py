"""Playing through the page as a person does: click a highlighted piece, click one of its
highlighted targets (or a choice button), roll the die with the Roll button."""

import random
import re
import subprocess
import time

from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By

from conftest import QUARTET


def states(p):
    return p.js("return window.guiStats.states")


def human_act(p, rng):
    """One action of the person whose turn it is; waits until the server has taken it. Like
    a person who clicks while the board is being redrawn, it tries again (three times) when
    a click found a piece without targets, a button it found was redrawn before the click,
    or the server took nothing."""
    kind = p.next_kind()
    n0 = states(p)
    for _ in range(3):
        try:
            if not click_once(p, rng, kind, n0):
                time.sleep(0.2)
                continue
        except StaleElementReferenceException:
            time.sleep(0.2)
            kind = p.next_kind()
            continue
        try:
            p.wait_for(lambda: states(p) > n0, timeout=10, what=f"the server takes the person's {kind}")
            return
        except TimeoutException:
            kind = p.next_kind()
    raise AssertionError(f"the person's {kind} was not taken in three tries")


def click_once(p, rng, kind, n0):
    """The clicks of one try at the person's action of `kind`; false when the piece clicked
    had no targets."""
    if kind == "human_roll":
        p.click_id("roll")
        return True
    sources = p.keys("source")
    if not sources:
        # Only a move without a square (Ludo's pass).
        p.d.find_element(By.CSS_SELECTOR, "#actions button[data-token]").click()
        return True
    p.click_key(rng.choice(sorted(sources)))
    targets = p.targets()
    if not targets:
        return False
    p.click_key(rng.choice(targets))
    buttons = p.d.find_elements(By.CSS_SELECTOR, "#actions button[data-token]")
    if buttons and states(p) == n0:
        rng.choice(buttons).click()
    return True


def people_game(p, game, actions, seed):
    """A new game of `game` between two people at the page, without pause, and `actions` of
    their actions played with random choices from `seed`; returns that generator, to go on
    with."""
    p.set_delay(0)
    p.new_game(game, "human", "human")
    rng = random.Random(seed)
    for _ in range(actions):
        human_act(p, rng)
    return rng


def play_out(p, rng, max_actions=3000):
    """Plays the person's side until the game is over; returns the number of actions."""
    for i in range(max_actions):
        p.wait_for(
            lambda: p.over() or (p.next_kind() or "").startswith("human") and "thinking" not in p.status(),
            timeout=60,
            what="the person's turn or the end",
        )
        if p.over():
            return i
        human_act(p, rng)
    raise AssertionError("the game did not end")


def play_random(p, rng, plies):
    """Random legal actions for both people, sent as the page sends them (rolls included)."""
    for _ in range(plies):
        st = p.js("return window.guiLastState")
        if st["over"]:
            return
        n = len(st["moves"])
        kind = st["next"]["kind"]
        if kind == "human_roll":
            p.js("window.guiSocket().send(JSON.stringify({t: 'roll'}))")
        elif kind == "human_declare":
            side = 0 if st["next"]["side"] == "p1" else 1
            p.js("window.guiSocket().send(JSON.stringify({t: 'move', token: arguments[0]}))",
                 rng.choice(st["legal_side"][side]))
            p.wait_for(lambda: p.js("return window.guiLastState.next.kind") != kind
                       or p.js("return window.guiLastState.next.side") != st["next"]["side"],
                       what="the declaration taken")
            continue
        else:
            p.js("window.guiSocket().send(JSON.stringify({t: 'move', token: arguments[0]}))",
                 rng.choice(st["legal"]))
        p.wait_for(lambda: len(p.js("return window.guiLastState.moves")) > n
                   or p.js("return window.guiLastState.over"), what="the action played")


def random_ludo_records(path, games, seed):
    """Writes to `path` the records of `games` Ludo games between the engine's random
    players (`quartet match`, seeded: the same games each time, well under a second)."""
    subprocess.run([QUARTET, "match", "--game", "ludo", "--games", str(games), "--depth", "1",
                    "--seed", str(seed),
                    "--engine", f"cmd={QUARTET}", "args=--player random",
                    "--engine", f"cmd={QUARTET}", "args=--player random",
                    "--pgnout", str(path), "--no-progress"],
                   check=True, capture_output=True, text=True, timeout=60)
    return path


def people_plies(p, rng, plies):
    """Plays `plies` random actions of the people by clicks; returns the position before
    the first and after each."""
    fens = [p.js("return window.guiLastState.position.fen")]
    for _ in range(plies):
        human_act(p, rng)
        fens.append(p.js("return window.guiLastState.position.fen"))
    return fens


def match_record(path, game, seed, *rules, names=("Alpha", "Beta"), players=("random", "greedy")):
    """Writes to `path` the record of one finished game of `game` between two of the
    engine's own players named `names` (`quartet match`, seeded, `rules` its rule flags such
    as "--pieces", "2"); returns the path."""
    engines = []
    for name, player in zip(names, players):
        engines += ["--engine", f"cmd={QUARTET}", f"name={name}", f"args=--player {player}"]
    subprocess.run([QUARTET, "match", "--game", game, "--games", "1", "--depth", "1",
                    "--seed", str(seed), *rules, *engines, "--pgnout", str(path), "--no-progress"],
                   check=True, capture_output=True, text=True, timeout=60)
    return path


def record_plies(path):
    """The number of tokens of the one game recorded at `path`: the words after the tags,
    without the `{...}` comments (a match's records carry each move's score and time) and
    without the result."""
    body = path.read_text().split("\n\n", 1)[1]
    return len(re.sub(r"\{[^}]*\}", " ", body).split()) - 1


def load(p, path, plies):
    """Loads the record at `path` with Load record, as a person picks the file, and waits
    for its `plies` tokens."""
    p.d.find_element(By.ID, "load").send_keys(str(path))
    p.wait_for(lambda: len(p.js("return window.guiLastState.moves")) == plies, what=f"{path.name} loaded")
