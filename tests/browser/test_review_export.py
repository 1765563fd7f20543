"""The review exported as an annotated record (issue 22 §4): each token followed by its mark
(?!, ?, ?? as the move list shows them) and a comment with the evaluation after it, the
engine's best move beside a marked move; `quartet replay` takes the file with no flag, and
the page loads it back as its plain game."""

import random
import re
import subprocess
import time

import pytest

from conftest import QUARTET, game_names
from play import play_random
from test_review import reviewed


def review(p, game, plies, nodes):
    p.set_delay(0)
    p.new_game(game, "human", "human")
    assert not p.d.find_element("id", "export-review").is_displayed(), "no review: nothing to export"
    play_random(p, random.Random(6), plies)
    box = p.d.find_element("id", "review-nodes")
    box.clear()
    box.send_keys(str(nodes))
    p.click_id("review")
    p.wait_for(lambda: reviewed(p), timeout=120, what="the review")


def export(p, downloads, game):
    p.wait_for(lambda: p.d.find_element("id", "export-review").is_displayed(), what="the export button")
    p.click_id("export-review")
    path = downloads / f"quartet-{game}-review.pgn"
    p.wait_for(lambda: path.exists() and path.stat().st_size > 0, what="the exported review")
    time.sleep(0.2)
    return path


def move_text(text):
    """The words of the move list (after the tags), comments left out, and the comments
    (their words joined by one space: a comment may go over lines)."""
    body = text.split("\n\n", 1)[1]
    comments = [" ".join(c.split()) for c in re.findall(r"\{([^}]*)\}", body)]
    words = re.sub(r"\{[^}]*\}", " ", body).split()
    return words, comments


@pytest.mark.parametrize("game", game_names())
def test_the_exported_review_has_marks_and_comments_and_replays(page, downloads, game):
    p = page("--seed", "4")
    review(p, game, 16, 1500)
    moves = p.js("return window.guiLastState.moves")
    marks = dict(p.js("return [...document.querySelectorAll('#moves li[data-mark]')]"
                      ".map(li => [Number(li.dataset.ply), li.dataset.mark])"))
    text = export(p, downloads, game).read_text()
    assert re.search(r'^\[Annotator "Quartet review, 1500 nodes a search"\]$', text, re.M), text
    words, comments = move_text(text)
    # Every token in order, with the move list's mark and nothing else; the result last.
    assert len(words) == len(moves) + 1, (words, moves)
    for ply, (word, token) in enumerate(zip(words, moves), start=1):
        assert word == token + marks.get(ply, ""), (ply, word, token, marks)
    assert words[-1] in ("1-0", "0-1", "1/2-1/2", "*")
    # The start and every position after a token have their evaluation: lichess's
    # [%eval] (the value read on lichess's winning-chance curve, in pawns) and the first
    # player's expected score.
    assert re.match(r"\[%eval -?\d+\.\d\d\] start: \w+ \d+%", comments[0]), comments[0]
    assert len(comments) == len(moves) + 1, (len(comments), len(moves))
    assert all(re.match(r"\[%eval -?\d+\.\d\d\] .*\d+%", c) for c in comments), comments
    made = p.js("return window.guiReview()")
    evals = [float(re.match(r"\[%eval (-?[\d.]+)\]", c).group(1)) for c in comments]
    values = [made["start_value"]] + [q["value"] for q in made["plies"] if q["token"] != "(end)"]
    # Higher values read as higher evaluations.
    assert all((a - b) * (x - y) >= 0 for a, b, x, y in zip(values, values[1:], evals, evals[1:])), (values, evals)
    # A marked move's comment names the mark, its side's loss and (for the searched side) the best move.
    marked = [c for c in comments if re.search(r"(inaccuracy|mistake|blunder)( \(a forced loss\))? by ", c)]
    assert len(marked) >= len(marks), (marked, marks)
    if game != "apocalypse":
        assert all(", best " in c for c in marked), marked
    if game in ("duell", "rnb"):
        assert marks, "random moves lose something"
    assert all(len(line) <= 79 for line in text.splitlines() if " " in line)
    r = subprocess.run([QUARTET, "replay", str(downloads / f"quartet-{game}-review.pgn")],
                       capture_output=True, text=True)
    assert r.returncode == 0 and "every move legal" in r.stdout, r.stderr + text


def test_an_exported_review_loads_back_as_its_game(page, downloads):
    p = page("--seed", "4")
    review(p, "duell", 10, 1000)
    path = export(p, downloads, "duell")
    moves = p.moves()
    q = page("--seed", "4")
    q.new_game("duell", "human", "human")
    q.d.find_element("id", "load").send_keys(str(path))
    q.wait_for(lambda: q.moves() == moves, what="the annotated record loaded")
