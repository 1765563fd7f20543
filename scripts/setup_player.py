#!/usr/bin/env python3
"""An engine for measuring R&B's setup under `Placement together`: a proxy that forwards
every line between a referee and an engine, and sets the engine's `Player` option to KIND
for each `go ... side w|b` (the joint setup is R&B's only simultaneous turn) and back to
`search` for every other `go`. So the arrangement comes from the baseline KIND (`random`:
uniform over the 11,550 arrangements; `greedy`: the best one-ply mean against a sample of
the opponent's) while the movement phase is the engine's own search.

    python3 scripts/setup_player.py random ./target/release/quartet [ARGS...]

The README's strength figures use it as the second engine of `quartet match` (see
"R&B's joint setup" there).
"""

import subprocess
import sys
import threading


def main() -> int:
    if len(sys.argv) < 3 or sys.argv[1] not in ("random", "greedy", "mcts", "search"):
        print(__doc__, file=sys.stderr)
        return 2
    kind, command = sys.argv[1], sys.argv[2:]
    engine = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )

    def answers() -> None:
        for line in engine.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()

    reader = threading.Thread(target=answers, daemon=True)
    reader.start()
    player = "search"
    for line in sys.stdin:
        words = line.split()
        if words and words[0] == "go":
            wanted = kind if "side" in words else "search"
            if wanted != player:
                engine.stdin.write(f"setoption name Player value {wanted}\n")
                player = wanted
        engine.stdin.write(line)
        engine.stdin.flush()
        if words and words[0] == "quit":
            break
    engine.stdin.close()
    engine.wait()
    reader.join(timeout=5)
    return 0


if __name__ == "__main__":
    sys.exit(main())
