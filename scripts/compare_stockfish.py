#!/usr/bin/env python3
"""Side by side with Stockfish: the pipe scripts of the protocol review (lines during a
search, refused lines, ponder, EOF), each sent to Quartet (Duell) and to Stockfish (with a
chess move where Quartet gets a Duell one). Prints a Markdown table: the lines each engine
answered (search `info` lines left out), the milliseconds from `stop` (else the first
`isready`) to `readyok` and `bestmove`, and the exit status.

    python3 scripts/compare_stockfish.py [QUARTET] [STOCKFISH]

QUARTET defaults to $QUARTET or the built binary, STOCKFISH to `stockfish` on the PATH
(Debian's package puts it in /usr/games). Python 3.11, standard library only."""
import queue
import shutil
import subprocess
import sys
import threading
import time

from registry import default_binary

Q = sys.argv[1] if len(sys.argv) > 1 else default_binary()
SF = sys.argv[2] if len(sys.argv) > 2 else (shutil.which("stockfish") or "/usr/games/stockfish")
# Lines left out of the table: the search's progress, identification and banners.
NOISE = ("info depth", "info nodes", "id ", "option ", "Stockfish", "Quartet")


def run(cmd, lines, wait):
    """Sends `lines` (`sleep S` pauses) to a fresh `cmd`; returns the answers kept, the ms
    from the first `stop` (else `isready`, else `quit`) to `readyok` and `bestmove`, and
    the exit status."""
    p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
    out = queue.Queue()

    def read():
        for line in p.stdout:
            out.put((time.monotonic(), line.rstrip("\n")))

    threading.Thread(target=read, daemon=True).start()
    marks = {}
    for line in lines:
        if line.startswith("sleep "):
            time.sleep(float(line[6:]))
            continue
        if line in ("stop", "isready", "quit"):
            marks.setdefault(line, time.monotonic())
        p.stdin.write(line + "\n")
        p.stdin.flush()
    got = []
    end = time.monotonic() + wait
    while time.monotonic() < end:
        try:
            got.append(out.get(timeout=0.05))
        except queue.Empty:
            if p.poll() is not None and out.empty():
                break
    try:
        p.stdin.close()
    except OSError:
        pass
    try:
        rc = p.wait(timeout=2)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = "killed"
    base = marks.get("stop") or marks.get("isready") or marks.get("quit")
    keep = [l for _, l in got if not l.startswith(NOISE)
            and not (l.startswith("info string") and not l.startswith("info string error"))]
    firsts = {}
    for t, line in got:
        for k in ("readyok", "bestmove"):
            if line.startswith(k) and k not in firsts and base:
                firsts[k] = int((t - base) * 1000)
    return keep[:4], firsts, rc


CASES = [
    ("go depth 40; position ... moves M; stop; isready; quit",
     ["go depth 40", "position startpos moves {m}", "stop", "isready", "quit"]),
    ("go depth 40; setoption name Foo value 1; isready; stop; quit",
     ["go depth 40", "setoption name Foo value 1", "isready", "stop", "quit"]),
    ("go depth 40; position startpos moves zz; isready; stop; quit",
     ["go depth 40", "position startpos moves zz", "isready", "stop", "quit"]),
    ("go infinite; go depth x; isready; stop; quit",
     ["go infinite", "go depth x", "isready", "stop", "quit"]),
    ("go depth 40; go depth 1; stop; isready; quit",
     ["go depth 40", "go depth 1", "stop", "isready", "quit"]),
    ("go nodes 0; isready", ["go nodes 0", "isready"]),
    ("setoption name Hash value 999999999999999999999999; isready",
     ["setoption name Hash value 999999999999999999999999", "isready"]),
    ("go ponder movetime 500; (0.7 s) ponderhit; isready",
     ["go ponder movetime 500", "sleep 0.7", "ponderhit", "isready"]),
    ("go mate 3 at EOF (no mate in 3)", ["go mate 3"]),
    # Slow lines in front of stop, isready and quit (issue 40 §2): none may hold the reader.
    ("go depth 40; setoption name Hash value 1024; stop; isready; quit",
     ["go depth 40", "setoption name Hash value 1024", "stop", "isready", "quit"]),
    ("go depth 40; setoption name EvalFile value /dev/zero; stop; isready; quit",
     ["go depth 40", "setoption name EvalFile value /dev/zero", "stop", "isready", "quit"]),
    ("go depth 40; position startpos moves (16 MB of zz); stop; isready; quit",
     ["go depth 40", "position startpos moves {big}", "stop", "isready", "quit"]),
    # The rest of the review (issue 40 §3).
    ("go depth 40; go depth x; quit (the refused go's bestmove)",
     ["go depth 40", "go depth x", "quit"]),
    ("go depth 3 searchmoves; isready (an empty searchmoves)",
     ["go depth 3 searchmoves", "sleep 1", "isready"]),
]

# 16 MB of tokens no game has, for the long position line.
BIG = " ".join(["zz"] * ((16 << 20) // 3 - 16))


def main():
    print("| script | Quartet (duell) | Stockfish |")
    print("|---|---|---|")
    for name, lines in CASES:
        row = []
        for engine, move in ((Q, "a1a6"), (SF, "e2e4")):
            wait = 8.0 if "EOF" in name else 4.0
            keep, firsts, rc = run(engine, [l.format(m=move, big=BIG) for l in lines], wait)
            times = ", ".join(f"{k} +{v} ms" for k, v in firsts.items())
            row.append(f"{' / '.join(keep) or '(nothing)'}{'; ' + times if times else ''}; exit {rc}")
        print(f"| `{name}` | {row[0]} | {row[1]} |")


if __name__ == "__main__":
    main()
