#!/usr/bin/env python3
"""An engine with a game the page has no board module for: it passes every line on to a
real engine (the first argument) and its answers back, with one of its games under a new
name (Duell as `dice` by default): in the `Game` option's list and the `game` field of
`query position` going out, in `setoption name Game value` coming in.
Usage: renamed_engine.py QUARTET [GAME NEW_NAME]"""

import re
import subprocess
import sys
import threading

engine = sys.argv[1]
game, new = (sys.argv[2], sys.argv[3]) if len(sys.argv) > 3 else ("duell", "dice")
child = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def out(line):
    if line.startswith("option name Game "):
        return re.sub(rf"\b{game}\b", new, line)
    if line.startswith("response {"):
        return line.replace(f'"game":"{game}"', f'"game":"{new}"')
    return line


def pump():
    for line in child.stdout:
        sys.stdout.write(out(line))
        sys.stdout.flush()


threading.Thread(target=pump, daemon=True).start()
for line in sys.stdin:
    if line.startswith("setoption name Game value "):
        line = re.sub(rf"value {new}\b", f"value {game}", line)
    child.stdin.write(line)
    child.stdin.flush()
    if line.strip() == "quit":
        break
child.stdin.close()
child.wait()
