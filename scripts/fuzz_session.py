#!/usr/bin/env python3
"""Structured protocol fuzzer: random legal and illegal commands against one engine.

Plays a seeded random mix of commands for every game the binary lists (`quartet games`)
— `setoption` (Game, every rule option the games declare, out-of-range and unknown values), `position` with legal prefixes taken from
`query legalmoves` plus garbage tokens, `go` with random limits (and garbage limits),
`stop`, `isready`, `d`, `query ...`, `ucinewgame`, garbage lines and bytes — and checks
after every step:

- the engine answers `isready` at once (within `--latency`), whatever runs or waits: a
  search, and `go`, `position`, `setoption`, `ucinewgame` or refused lines queued behind it,
  among them lines that once held the reader (a `Hash` of 256 MiB, an `EvalFile` naming
  `/dev/zero`, a FIFO or a 1 GiB file, a `position` line of 4 MiB of garbage);
- `stop` ends the running search at once: a `bestmove` comes within `--latency`; `quit`
  ends the program within `--latency`, whatever waits (then a fresh engine is started);
- a rejected command (`info string error: ...`) leaves `query fen` and `d`'s Key as they
  were;
- every `go` gets exactly one `bestmove` (never two), in order; a `go` with a huge limit
  is ended by `stop`;
- every `bestmove` is a legal token of the position searched (the side's declarations
  with `side`), or `(none)` with an `info string` giving the reason;
- a move list built from `query legalmoves` is accepted.

The command sequence depends only on the seed (and the engine's answers to queries), so a
failure is reproduced by the same `--seed` and `--iterations`. `--log FILE` writes every
line sent. Exit status 0 when every check held.

    python3 scripts/fuzz_session.py --seed 1 --seconds 30
    python3 scripts/fuzz_session.py --seed 7 --iterations 2000 --log sent.txt

The engine driver `Engine` is also used by scripts/stress.py.
"""

import argparse
import atexit
import os
import queue
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from registry import default_binary, games, names, option_values

# A search that only `stop` or `quit` ends within a fuzzing run.
ENDLESS = "go depth 60"
# Numbers at the edges of the 64-bit ranges (a GUI bug or an attacker may send them).
EXTREMES = [2**31, 2**32, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 10**30, -(2**63), -(2**63) - 1]


class Failure(Exception):
    """An invariant did not hold."""


class Engine:
    """One running engine: lines in, timestamped lines out (read by a thread)."""

    def __init__(self, binary, args=(), patience=10.0, log=None):
        self.binary = binary
        self.proc = subprocess.Popen(
            [binary, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.patience = patience
        self.lines = queue.Queue()
        self.log = log
        self.sent = []  # the last lines sent, for failure reports
        self.received = []
        threading.Thread(target=self._read, daemon=True).start()
        self.banner = self.recv()

    def _read(self):
        for raw in self.proc.stdout:
            line = raw.decode("utf-8", errors="replace").rstrip("\n")
            self.lines.put((time.perf_counter(), line))
        self.lines.put((time.perf_counter(), None))

    def send(self, line):
        """Sends one line (str or bytes); returns the time just before it was written."""
        data = line if isinstance(line, bytes) else line.encode()
        if self.log:
            self.log.write(data.decode("utf-8", errors="replace") + "\n")
        self.sent = (self.sent + [data[:200]])[-30:]
        stamp = time.perf_counter()
        try:
            self.proc.stdin.write(data + b"\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise Failure(f"the engine closed its input (exit code {self.proc.poll()})")
        return stamp

    def recv_timed(self, timeout=None):
        """The next (arrival time, line); fails after the patience or at end of output."""
        try:
            stamp, line = self.lines.get(timeout=self.patience if timeout is None else timeout)
        except queue.Empty:
            raise Failure(f"no answer within {self.patience} s (hang)")
        if line is None:
            raise Failure(f"the engine exited (code {self.proc.wait()})")
        self.received = (self.received + [line[:200]])[-30:]
        return stamp, line

    def recv(self, timeout=None):
        return self.recv_timed(timeout)[1]

    def sync(self, observe=None, latency=None):
        """Sends `isready`; returns the lines before `readyok` (each passed to `observe`).
        With `latency`, fails unless `readyok` came within that many seconds."""
        sent = self.send("isready")
        got = []
        while True:
            stamp, line = self.recv_timed()
            if line == "readyok":
                if latency is not None and stamp - sent > latency:
                    raise Failure(f"readyok after {stamp - sent:.3f} s (latency {latency} s)")
                return got
            if observe:
                observe(line)
            got.append(line)

    def rss_kib(self):
        """The process's resident set size (VmRSS) in KiB, Linux only."""
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise Failure("no VmRSS")

    def close(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write(b"quit\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=self.patience)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()


class PendingGo:
    """A `go` waiting for its `bestmove`: what may be answered, and whether a reason came."""

    def __init__(self, line, legal):
        self.line = line
        self.legal = legal
        self.noted = False


class Session:
    """The fuzzer's model of the engine and the checks on its output."""

    def __init__(self, engine, rng, latency, restart):
        self.e = engine
        self.rng = rng
        self.latency = latency
        self.restart = restart  # starts a fresh engine after `quit`
        self.game = "duell"
        self.moves = []  # our legal move list from the start position
        self.pending = []  # PendingGo, oldest first
        self.counts = {"steps": 0, "go": 0, "bestmove": 0, "rejected": 0, "none": 0,
                       "queued": 0, "quit": 0, "slowest": 0.0}

    # Output bookkeeping -----------------------------------------------------------------

    def observe(self, line):
        if line.startswith("info string error") and self.pending:
            # An error answers the newest command. (A malformed go's error comes before
            # the bestmove of the search it stops.)
            self.pending[-1].noted = True
        elif line.startswith("info string") and self.pending:
            if not line.startswith("info string policy"):
                self.pending[0].noted = True
        if not line.startswith("bestmove"):
            return
        if not self.pending:
            raise Failure(f"a bestmove without a go (two for one go?): {line!r}")
        go = self.pending.pop(0)
        self.counts["bestmove"] += 1
        best = line.split()[1] if len(line.split()) > 1 else ""
        if best == "(none)":
            self.counts["none"] += 1
            if not go.noted:
                raise Failure(f"{go.line!r}: bestmove (none) without a reason")
        elif go.legal is not None and best not in go.legal:
            raise Failure(f"{go.line!r}: bestmove {best} is not legal: {sorted(go.legal)}")

    def sync(self):
        started = time.perf_counter()
        lines = self.e.sync(self.observe, self.latency)
        self.counts["slowest"] = max(self.counts["slowest"], time.perf_counter() - started)
        return lines

    def stop_one(self):
        """Sends `stop`: with a search outstanding, a `bestmove` must come at once."""
        had = self.counts["bestmove"]
        sent = self.e.send("stop")
        got = []
        while self.pending and self.counts["bestmove"] == had:
            stamp, line = self.e.recv_timed(timeout=self.latency)
            if stamp - sent > self.latency:
                raise Failure(f"stop: no bestmove within {self.latency} s")
            got.append(line)
            self.observe(line)
        return got + self.sync()

    def drain(self):
        """Stops searches until none is outstanding."""
        lines = []
        for _ in range(20):
            if not self.pending:
                return lines
            lines += self.stop_one()
        raise Failure(f"{len(self.pending)} searches outstanding after 20 stops")

    def ask(self, line):
        self.e.send(line)
        return self.sync()

    def query(self, question):
        lines = [l for l in self.ask(f"query {question}") if not is_search_output(l)]
        if len(lines) != 1 or not lines[0].startswith("response"):
            raise Failure(f"query {question}: {lines}")
        return lines[0][len("response"):].strip()

    def key(self):
        lines = [l for l in self.ask("d") if l.startswith(("Fen: ", "Key: "))]
        return tuple(lines)

    def legal(self, side=""):
        return self.query(f"legalmoves {side}".strip()).split()

    def simultaneous(self):
        """Whether both sides declare now (`go` then needs `side`)."""
        return self.query("node") == "simultaneous"

    def random_token(self):
        """A legal token here, or None at the end: at a simultaneous turn a joint token of
        the two sides' declarations (the joint list may be too long to print)."""
        if self.simultaneous():
            white, black = self.legal("w"), self.legal("b")
            if not white or not black:
                return None
            return f"{self.rng.choice(white)}/{self.rng.choice(black)}"
        legal = self.legal()
        return self.rng.choice(legal) if legal else None

    # Steps ------------------------------------------------------------------------------

    def step(self):
        """One random command (or short burst), checked."""
        self.counts["steps"] += 1
        before = self.key()
        kind = self.rng.choices(
            ["extend", "position", "garbage_position", "go", "option", "query",
             "stop", "newgame", "garbage", "burst", "queued", "quit"],
            weights=[14, 6, 10, 16, 8, 8, 5, 2, 8, 4, 6, 1],
        )[0]
        lines = getattr(self, "do_" + kind)()
        errors = [l for l in lines if l.startswith("info string error")]
        if errors:
            self.counts["rejected"] += 1
            if kind not in ("burst", "queued", "quit") and self.key() != before:
                raise Failure(f"rejected command changed the position: {errors}")
        # Searches may run on (a `go` waits for the one before it); keep a few at most.
        while len(self.pending) > 2:
            self.stop_one()

    def send_go(self, line):
        """Sends a go line, registering what its bestmove may be."""
        words = line.split()
        if "perft" in words:
            return self.ask(line)
        legal = None
        if words[:1] == ["go"]:
            # A repeated limit: the last one counts.
            sides = [w for k, w in zip(words, words[1:]) if k == "side"]
            side = sides[-1] if sides else ""
            legal = set(self.legal())
            if side in ("w", "b"):
                legal |= set(self.legal(side))
        self.pending.append(PendingGo(line, legal))
        self.counts["go"] += 1
        self.e.send(line)
        return self.sync()

    def set_moves(self, moves):
        line = "position startpos" + (" moves " + " ".join(moves) if moves else "")
        lines = self.ask(line)
        if [l for l in lines if not is_search_output(l)]:
            raise Failure(f"a legal move list was refused: {line[:300]!r}: {lines}")
        self.moves = moves
        return lines

    def do_extend(self):
        """Plays one more legal token (resetting at the end of a game)."""
        self.set_moves(self.moves)
        token = self.random_token()
        if token is None or len(self.moves) > 300:
            return self.set_moves([])
        return self.set_moves(self.moves + [token])

    def do_position(self):
        r = self.rng.random()
        if r < 0.3:
            return self.set_moves(self.moves[: self.rng.randrange(len(self.moves) + 1)])
        if r < 0.6:
            fen = self.query("fen")
            lines = self.ask(f"position fen {fen}")
            if [l for l in lines if not is_search_output(l)]:
                raise Failure(f"the engine's own position string was refused: {fen!r}: {lines}")
            if self.query("fen") != fen:
                raise Failure(f"position fen {fen!r} reads back as {self.query('fen')!r}")
            return lines
        return self.set_moves(self.moves)

    def do_garbage_position(self):
        """A legal prefix with one garbage token put in, or a mangled position string."""
        moves = list(self.moves)
        if self.rng.random() < 0.7:
            moves.insert(self.rng.randrange(len(moves) + 1), garbage_token(self.rng, moves))
            line = "position startpos moves " + " ".join(moves)
        else:
            fen = mangle(self.rng, self.query("fen"))
            line = f"position fen {fen}"
        lines = self.ask(line)
        if not any(l.startswith("info string error: position:") for l in lines):
            # The garbage happened to be legal: our move list no longer describes it.
            self.set_moves([])
        return lines

    def do_go(self):
        rng = self.rng
        limits = []
        huge = []

        def extreme(usual):
            """Mostly `usual`, sometimes a number at or beyond the 64-bit limits."""
            if rng.random() < 0.1:
                huge.append(True)
                return str(rng.choice(EXTREMES))
            return str(usual)

        for _ in range(rng.randrange(1, 4)):
            limits += rng.choice([
                lambda: ["depth", extreme(rng.randrange(0, 5))],
                lambda: ["nodes", extreme(rng.choice([0, 1, 10, 500, 5000, 50000]))],
                lambda: ["movetime", extreme(rng.randrange(0, 60))],
                lambda: ["wtime", extreme(rng.randrange(-100, 3000)),
                         "btime", extreme(rng.randrange(-100, 3000))],
                # Huge increments are left to tests/fuzz_regressions.rs (they overflow
                # clock_budget in builds with overflow checks until time.rs is fixed).
                lambda: ["winc", str(rng.randrange(-50, 100))],
                lambda: ["movestogo", extreme(rng.randrange(0, 40))],
                lambda: ["side", rng.choice(["w", "b"])],
                lambda: ["infinite"],
                lambda: [rng.choice(["depth", "nodes", "side", "wtime", "bogus", "-1"])],
            ])()
        if self.simultaneous() and rng.random() < 0.7 and "side" not in limits:
            limits += ["side", rng.choice(["w", "b"])]
        if rng.random() < 0.05:
            # Perft prints no bestmove; its lines end with `Nodes searched: N` (and an
            # empty line). It would wait for a running search.
            # At a simultaneous turn the joint list may be huge (R&B's joint setup has 133
            # million rows), so the perft is stopped: its rows so far, then a note.
            wide = self.simultaneous()
            self.drain()
            self.e.send(f"go perft {rng.randrange(0, 3)}")
            if wide:
                time.sleep(rng.random() * 0.05)
                self.e.send("stop")
            lines = []
            while not (len(lines) >= 2 and lines[-2].startswith("Nodes searched: ")):
                lines.append(self.e.recv())
                self.observe(lines[-1])
                if wide and lines[-1].startswith("info string perft stopped"):
                    return lines + self.sync()
            if lines[-1] != "":
                raise Failure(f"perft: no empty line after the total: {lines[-2:]}")
            return lines + self.sync()
        lines = self.send_go(" ".join(["go"] + limits))
        # A search with a huge limit runs for ever, and a `go` after it waits for it
        # (protocol.md §4): like a GUI, end it with `stop`.
        if huge or rng.random() < 0.7:
            time.sleep(rng.random() * 0.02)
            lines += self.stop_one()
        return lines

    def do_option(self):
        rng = self.rng
        game_names = names(self.e.binary)
        rules = [o for g in games(self.e.binary) for o in g["rule_options"]]
        name, value = rng.choice([
            ("Game", lambda: rng.choice(game_names + [n.upper() for n in game_names] + ["chess"])),
            ("Hash", lambda: str(rng.choice([1, 2, 16, 0, 16385, -1, 999999999]))),
            ("MultiPV", lambda: str(rng.choice([1, 2, 3, 0, 257]))),
            ("Seed", lambda: str(rng.choice([0, 1, 2147483647, 2147483648, -3]))),
            ("Move Overhead", lambda: str(rng.choice([0, 10, 5000, 5001]))),
            *[(o["name"], lambda o=o: rng.choice(option_values(o))) for o in rules],
            ("Clear Hash", lambda: None),
            ("NoSuchOption", lambda: "1"),
        ])
        v = value()
        lines = self.ask(f"setoption name {name}" + ("" if v is None else f" value {v}"))
        if not any(l.startswith("info string error") for l in lines):
            # Accepted: it applies to the next go at once (a running search goes on).
            if name == "Game":
                self.game = v.lower()
            if name == "Game" or name in [o["name"] for o in rules]:
                self.set_moves([])
        return lines

    def do_query(self):
        rng = self.rng
        q = rng.choice([
            "gameover", "chance", "p1turn", "result", "fen", "legalmoves", "legalmoves w",
            "legalmoves b", f"islegal {garbage_token(rng, self.moves)}", "nonsense",
            "islegal", "legalmoves x",
        ])
        return self.ask(f"query {q}")

    def do_stop(self):
        if self.rng.random() < 0.5:
            return self.sync()  # a bare isready
        return self.stop_one()

    def do_newgame(self):
        return self.ask(self.rng.choice(["ucinewgame", "uginewgame"]))

    def do_garbage(self):
        rng = self.rng
        line = rng.choice([
            lambda: bytes(rng.randrange(1, 256) for _ in range(rng.randrange(1, 60)))
            .replace(b"\n", b" ").replace(b"\r", b" "),
            lambda: " ".join(garbage_token(rng, self.moves) for _ in range(rng.randrange(1, 6))),
            lambda: rng.choice(["uci", "ugi", "help", "d", "position", "position fen",
                                "setoption", "setoption name", "query", "GO", "\t", ""]),
        ])()
        if isinstance(line, bytes):
            words = line.split()
            if words[:1] in ([b"quit"], [b"go"]) or b"perft" in words:
                line = b"x" + line
        elif line.split()[:1] in (["quit"], ["go"]):
            line = "x" + line
        return self.ask(line)

    def do_burst(self):
        """Several commands without waiting: go, then position/setoption/go, then sync."""
        rng = self.rng
        self.set_moves(self.moves)
        side = " side w" if self.simultaneous() else ""
        legal = set(self.legal()) | (set(self.legal("w")) if side else set())
        self.pending.append(PendingGo(f"go infinite{side}", legal))
        self.counts["go"] += 1
        self.e.send(f"go infinite{side}")
        if rng.random() < 0.5:
            self.pending.append(PendingGo(f"go nodes 2000{side}", legal))
            self.counts["go"] += 1
            self.e.send(f"go nodes 2000{side}")
        self.e.send(rng.choice(["stop", "ucinewgame", "position startpos moves "
                                + " ".join(self.moves)]))
        return self.sync()

    def queue_behind(self, side):
        """An endless search with lines queued behind it: a go, and state lines."""
        rng = self.rng
        legal = set(self.legal()) | (set(self.legal("w")) if side else set())
        self.pending.append(PendingGo(ENDLESS + side, legal))
        self.counts["go"] += 1
        self.e.send(ENDLESS + side)
        for _ in range(rng.randrange(1, 5)):
            line = rng.choice([
                f"go depth 1{side}", f"go nodes 300{side}", "ucinewgame",
                "setoption name Hash value 2", "setoption name MultiPV value 2",
                "setoption name Foo value 1", "go depth x", "position startpos moves zz",
                "position startpos moves " + " ".join(self.moves), "query fen", "d",
                *slow_lines(),
            ])
            if line.startswith("go"):
                # Refused or not, each go gets its bestmove; the position is unchanged
                # by the lines before it (state lines here keep it or are refused).
                go = PendingGo(line, None if " x" in line else legal)
                # A refused go's error comes at once, while later lines are still being
                # sent: the reason cannot be matched to it by arrival here.
                go.noted = " x" in line
                self.pending.append(go)
                self.counts["go"] += 1
            self.e.send(line)
        self.counts["queued"] += 1

    def do_queued(self):
        """isready and stop during an endless search with lines queued behind it."""
        self.set_moves(self.moves)
        side = " side w" if self.simultaneous() else ""
        self.queue_behind(side)
        lines = self.sync()  # timed: readyok at once
        return lines + self.stop_one()  # timed: the endless search's bestmove at once

    def do_quit(self):
        """quit during an endless search with lines queued behind it ends the program at once."""
        self.set_moves(self.moves)
        side = " side w" if self.simultaneous() else ""
        self.queue_behind(side)
        sent = time.perf_counter()
        self.e.send("quit")
        try:
            self.e.proc.wait(timeout=self.latency)
        except subprocess.TimeoutExpired:
            raise Failure(f"quit: still running after {self.latency} s")
        took = time.perf_counter() - sent
        self.counts["quit"] += 1
        self.counts["slowest"] = max(self.counts["slowest"], took)
        self.e = self.restart()
        self.game, self.moves, self.pending = "duell", [], []
        return self.sync()

    def finish(self):
        self.drain()


_SLOW = []


def slow_lines():
    """Lines that once held the reader (issue 40 §2), made once: a big `Hash`, `EvalFile`
    on a device, a FIFO and a 1 GiB (sparse) file, and a long garbage `position` line.
    Each is refused or applied without holding `isready` and `stop`."""
    if not _SLOW:
        tmp = tempfile.mkdtemp(prefix="quartet-fuzz-")
        atexit.register(shutil.rmtree, tmp, ignore_errors=True)
        fifo = os.path.join(tmp, "fifo")
        os.mkfifo(fifo)
        huge = os.path.join(tmp, "huge.bin")
        with open(huge, "wb") as f:
            f.truncate(1 << 30)
        _SLOW.extend([
            "setoption name Hash value 256",
            "setoption name EvalFile value /dev/zero",
            f"setoption name EvalFile value {fifo}",
            f"setoption name EvalFile value {huge}",
            "position startpos moves " + " ".join(["zz"] * ((4 << 20) // 3)),
        ])
    return _SLOW


def is_search_output(line):
    return line.startswith(("info ", "bestmove"))


def garbage_token(rng, moves):
    """A token that is probably not legal here: mutated, foreign or random."""
    foreign = ["d1d7", "a1e2n", "R@a2", "B@f6", "c1c2", "d4d5@b2", "0000", "a1b3/a5b3",
               "b-0", "27-30", "pass", "r1", "r6", "r7", "(none)", "moves", "fen"]
    choice = rng.random()
    if choice < 0.4:
        return rng.choice(foreign)
    if choice < 0.7 and moves:
        return mangle(rng, rng.choice(moves))
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789@/-,RBWKnesw"
    return "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 9)))


def mangle(rng, text):
    """`text` with one character changed, removed or doubled (never whitespace-only)."""
    if not text:
        return "x"
    i = rng.randrange(len(text))
    op = rng.randrange(3)
    if op == 0:
        text = text[:i] + rng.choice("0123456789abcdefgxyz/@-, ") + text[i + 1:]
    elif op == 1:
        text = text[:i] + text[i + 1:]
    else:
        text = text[:i] + text[i] + text[i:]
    return text.strip() or "x"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=30.0, help="stop after this long")
    parser.add_argument("--iterations", type=int, default=None, help="stop after this many steps")
    parser.add_argument("--binary", default=None, help="default: $QUARTET or target/*/quartet")
    parser.add_argument("--patience", type=float, default=10.0, help="seconds before a hang")
    parser.add_argument("--latency", type=float, default=1.0,
                        help="seconds within which isready, stop and quit must act")
    parser.add_argument("--log", default=None, help="write every line sent to this file")
    args = parser.parse_args()

    log = open(args.log, "w") if args.log else None
    def start():
        return Engine(args.binary or default_binary(), patience=args.patience, log=log)

    engine = start()
    rng = random.Random(args.seed)
    session = Session(engine, rng, args.latency, start)
    deadline = time.monotonic() + args.seconds
    try:
        session.sync()
        while time.monotonic() < deadline and (
            args.iterations is None or session.counts["steps"] < args.iterations
        ):
            session.step()
        session.finish()
    except Failure as f:
        print(f"FAILED at step {session.counts['steps']} (seed {args.seed}): {f}")
        print("last lines sent:")
        for line in session.e.sent[-15:]:
            print("  >", line.decode("utf-8", errors="replace")[:200])
        print("last lines received:")
        for line in session.e.received[-15:]:
            print("  <", line[:200])
        session.e.close()
        sys.exit(1)
    finally:
        if log:
            log.close()
    session.e.close()
    c = session.counts
    print(
        f"ok: seed {args.seed}, {c['steps']} steps, {c['go']} go, {c['bestmove']} bestmove "
        f"({c['none']} none), {c['rejected']} rejected commands, {c['queued']} searches "
        f"with lines queued behind them, {c['quit']} quits; slowest isready/stop/quit "
        f"{c['slowest'] * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
