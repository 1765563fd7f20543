#!/usr/bin/env python3
"""Measures issue 12's targets in headless Chromium against `quartet gui` (not a test: it
prints numbers). Run after `cargo build --release`:

    QUARTET=target/release/quartet python3 tests/browser/measure.py

- page load: navigation start to the load event, and to the first drawn board (5 loads);
- engine reply: a person's click to the engine's answer drawn (the board's elements made)
  and painted (the first task after that frame's style, layout and paint), at 200 ms per
  move, minus the 200 ms limit (10 moves), and the server's own go-to-bestmove time;
- engine against engine at 100 ms per move: for every state, its age (since the server made
  it) when the page handled its message and when the page drew it (a move queued behind
  drawing would show as an age of 100 ms or more), and the time to draw it;
- game review at 20,000 nodes a search (the review of `quartet review`, with an engine of
  its own): a 60-ply Duell game and a whole Ludo game of random play, from the click on
  Review game to the review drawn, with the review's own count of searches and nodes."""

import pathlib
import random
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from conftest import Page, Server, new_driver  # noqa: E402
from play import human_act, play_random  # noqa: E402


def summary(xs):
    xs = sorted(xs)
    return f"n={len(xs)} median={statistics.median(xs):.1f} p90={xs[int(0.9 * (len(xs) - 1))]:.1f} max={xs[-1]:.1f} ms"


def main():
    s = Server()
    d = new_driver(pathlib.Path(tempfile.mkdtemp()))
    try:
        loads, boards = [], []
        for _ in range(5):
            p = Page(d, s.url)
            p.wait_for(lambda: p.js("return window.guiStats.firstStateAt") is not None and p.js(
                "return performance.getEntriesByType('navigation')[0].loadEventEnd") > 0)
            loads.append(p.js("return performance.getEntriesByType('navigation')[0].loadEventEnd"))
            boards.append(p.js("return window.guiStats.firstStateAt"))
        print("page load (navigation start to load event):", summary(loads))
        print("page load (navigation start to the first board drawn):", summary(boards))

        p = Page(d, s.url)
        p.set_limit("movetime", 200)
        p.set_delay(0)
        p.new_game("duell", "human", "engine")
        rng = random.Random(3)
        while len(p.js("return window.guiStats.replies")) < 10:
            p.wait_for(lambda: p.over() or (p.next_kind() or "").startswith("human") and "thinking" not in p.status())
            if p.over():
                p.new_game("duell", "human", "engine")
            else:
                human_act(p, rng)
        p.wait_for(lambda: p.over() or (p.next_kind() or "").startswith("human"))
        p.wait_for(lambda: all(r["painted_ms"] is not None for r in p.js("return window.guiStats.replies")))
        replies = p.js("return window.guiStats.replies")
        print("engine reply drawn, click to board, minus the 200 ms limit:", summary([r["ms"] - 200 for r in replies]))
        print("engine reply painted, click to the frame's paint, minus 200 ms:", summary([r["painted_ms"] - 200 for r in replies]))
        print("engine reply at the server, go to bestmove, minus 200 ms:", summary([r["engine_ms"] - 200 for r in replies]))

        p = Page(d, s.url)
        p.set_limit("movetime", 100)
        p.set_delay(0)
        p.new_game("duell", "engine", "engine")
        t0 = time.time()
        p.wait_for(lambda: p.over() or len(p.moves()) >= 80, timeout=120)
        elapsed = time.time() - t0
        n = len(p.moves())
        lags = p.js("return window.guiStats.lags")
        arrivals = p.js("return window.guiStats.arrivals")
        renders = p.js("return window.guiStats.renders")
        print(f"engine vs engine at 100 ms/move: {n} moves in {elapsed:.1f} s ({1000 * elapsed / n:.0f} ms per move)")
        print("  state age when its message was handled:", summary(arrivals))
        print("  state age when it was drawn:", summary(lags))
        print("  render time per state:", summary(renders))

        for game, plies in (("duell", 60), ("ludo", 3000)):
            p = Page(d, s.url)
            p.new_game(game, "human", "human")
            p.set_delay(0)
            play_random(p, random.Random(1), plies)
            n = len(p.moves())
            box = p.d.find_element("id", "review-nodes")
            box.clear()
            box.send_keys("20000")
            t0 = time.time()
            p.click_id("review")
            p.wait_for(lambda: p.js("return window.guiReview() !== null"), timeout=900)
            r = p.js("return window.guiReview()")
            print(f"review of a {n}-ply {game} game at 20000 nodes a search: {time.time() - t0:.1f} s "
                  f"({r['searches']} searches, {r['nodes']} nodes)")
    finally:
        d.quit()
        s.stop()


if __name__ == "__main__":
    main()
