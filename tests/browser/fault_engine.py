#!/usr/bin/env python3
"""An engine that misbehaves on purpose, for the GUI's fault tests: it passes every line on
to a real engine (the first argument) and its answers back, until its N-th `go`, where it
  crash    exits at once (status 3) without answering,
  hang     swallows the `go` (no bestmove ever comes),
  illegal  answers `bestmove a1a1` (not a move of any game here);
or, with mode
  noquery  answers every `query` line as a plain UCI engine does (Stockfish's words), from
           the start.
Usage: fault_engine.py QUARTET crash|hang|illegal|noquery N"""

import subprocess
import sys
import threading

engine, mode, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
child = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
lock = threading.Lock()
swallow_bestmove = [False]


def pump():
    for line in child.stdout:
        with lock:
            if line.startswith("bestmove") and swallow_bestmove[0]:
                swallow_bestmove[0] = False
                line = "bestmove a1a1\n"
            sys.stdout.write(line)
            sys.stdout.flush()


threading.Thread(target=pump, daemon=True).start()
gos = 0
for line in sys.stdin:
    if mode == "noquery" and line.startswith("query"):
        with lock:
            sys.stdout.write(f"Unknown command: '{line.strip()}'. Type help for more information.\n")
            sys.stdout.flush()
        continue
    if line.startswith("go"):
        gos += 1
        if gos == n:
            if mode == "crash":
                child.kill()
                sys.exit(3)
            if mode == "hang":
                continue
            if mode == "illegal":
                with lock:
                    swallow_bestmove[0] = True
    child.stdin.write(line)
    child.stdin.flush()
    if line.strip() == "quit":
        break
child.stdin.close()
child.wait()
