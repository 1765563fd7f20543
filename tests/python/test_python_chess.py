"""python-chess's UCI client (`chess.engine`) drives the `quartet` binary.

Quartet plays board games that are not chess, so python-chess cannot read our move
tokens: these tests check the protocol layer a chess GUI or library relies on — the
handshake, the option declarations (against protocol.md §3), `configure`, `ucinewgame`,
`isready`, searches from the start position of every game and the parsing of `info`
lines — and document what python-chess refuses.

Run with `python3 -m pytest tests/python` or `python3 tests/python/test_python_chess.py`.
The binary is `$QUARTET`, else target/release/quartet, else target/debug/quartet.
"""

import asyncio
import logging
import re
import sys
from pathlib import Path

import chess
import chess.engine

ROOT = Path(__file__).resolve().parents[2]
PATIENCE = 30.0  # seconds; generous for a loaded CI machine


sys.path.insert(0, str(ROOT / "scripts"))
from registry import default_binary as quartet_path, games  # noqa: E402

# The games as the binary lists them (`quartet games`), in the order of the Game option's vars.
REGISTRY = games(quartet_path())
GAMES = [g["name"] for g in REGISTRY]
# Games whose start position has no move to give: `go` ends with a reason and `(none)`.
NO_MOVE_AT_START = {g["name"] for g in REGISTRY if g["start"] != "turn"}


class EngineOutput(logging.Handler):
    """Collects what python-chess logs about the engine (unexpected lines, parse errors)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())

    def errors(self):
        """The engine's `info string error:` lines that python-chess received."""
        return [m.split(">> ", 1)[1] for m in self.messages if ">> info string error" in m]


class Raw(chess.engine.BaseCommand):
    """Sends raw lines and collects the replies up to the first line satisfying `done`."""

    def __init__(self, engine, lines, done):
        super().__init__(engine)
        self.engine = engine
        self.lines = lines
        self.done = done
        self.got = []

    def start(self):
        for line in self.lines:
            self.engine.send_line(line)

    def line_received(self, line):
        self.got.append(line)
        if self.done(line):
            self.result.set_result(self.got)
            self.set_finished()


async def raw(engine, lines, done=lambda line: line == "readyok"):
    """Sends `lines` then `isready` (when waiting for readyok); returns the replies."""
    if done("readyok"):
        lines = lines + ["isready"]
    return await asyncio.wait_for(
        engine.communicate(lambda e: Raw(e, lines, done)), PATIENCE
    )


async def query(engine, question):
    """The answer of `query <question>`, without the `response` word."""
    lines = await raw(engine, [f"query {question}"])
    assert len(lines) == 2 and lines[0].startswith("response"), lines
    return lines[0][len("response"):].strip()


async def start():
    transport, engine = await asyncio.wait_for(
        chess.engine.popen_uci(quartet_path()), PATIENCE
    )
    return transport, engine


def run(test):
    """Runs an async test with its own engine and a log capture, and quits the engine."""

    async def main():
        log = EngineOutput()
        logger = logging.getLogger("chess.engine")
        logger.addHandler(log)
        logger.setLevel(logging.DEBUG)
        logger.propagate = False
        # python-chess reports a bestmove it cannot parse after an analysis has started
        # to the loop's exception handler; keep it in the log instead of on stderr.
        asyncio.get_running_loop().set_exception_handler(
            lambda loop, context: log.messages.append(context["message"])
        )
        _, engine = await start()
        try:
            await test(engine, log)
        finally:
            logger.removeHandler(log)
            await asyncio.wait_for(engine.quit(), PATIENCE)

    asyncio.run(main())


ELIDED = "..."


def documented_options():
    """The `option` lines of protocol.md §3's `uci` example, parsed like python-chess. A
    value written `...` (the list of games, `UCI_Elo`'s calibrated range) is elided:
    `None` here, and not compared."""
    text = (ROOT / "protocol.md").read_text()
    pattern = re.compile(
        r"^\s*option name (?P<name>.+?) type (?P<type>\w+)"
        r"(?: default (?P<default>\S+))?(?: min (?P<min>-?\d+|\.\.\.))?"
        r"(?: max (?P<max>-?\d+|\.\.\.))?(?P<vars>(?: var \S+)*)\s*$"
    )
    options = {}
    for line in text.splitlines():
        m = pattern.match(line)
        if not m:
            continue
        kind, default = m["type"], m["default"]
        if default == ELIDED:
            default = ELIDED
        elif kind == "spin":
            default = int(default)
        elif kind == "check":
            default = default == "true"
        options[m["name"]] = {
            "type": kind,
            "default": default,
            "min": m["min"] if m["min"] in (None, ELIDED) else int(m["min"]),
            "max": m["max"] if m["max"] in (None, ELIDED) else int(m["max"]),
            "var": m["vars"].split()[1::2],
        }
    assert options, "protocol.md has no option lines"
    return options


def agrees(documented, declared):
    """Whether an option as the engine declares it is the documented one: an elided value
    agrees with any, and a list of vars ending in `...` with any list it begins."""
    for key in ("type", "default", "min", "max"):
        if documented[key] != ELIDED and documented[key] != declared[key]:
            return False
    shown = documented["var"]
    if shown and shown[-1] == ELIDED:
        return declared["var"][: len(shown) - 1] == shown[:-1]
    return declared["var"] == shown


def test_handshake_names_the_engine_and_declares_the_documented_options():
    async def check(engine, log):
        assert engine.id["name"].startswith("Quartet "), engine.id
        assert engine.id["author"] == "the Quartet developers"
        declared = {
            name: {
                "type": o.type,
                "default": o.default,
                "min": o.min,
                "max": o.max,
                "var": list(o.var),
            }
            for name, o in engine.options.items()
        }
        documented = documented_options()
        for name, option in documented.items():
            assert name in declared, name
            assert agrees(option, declared[name]), (name, option, declared[name])
        # What the example elides: the rule options of every game but the first shown.
        rule_options = {o["name"] for g in REGISTRY for o in g["rule_options"]}
        assert set(declared) - set(documented) <= rule_options
        # python-chess manages MultiPV and Ponder itself (analysis(multipv=N),
        # play(ponder=True)); our other options are plain ones.
        managed = [o.name for o in engine.options.values() if o.is_managed()]
        assert managed == ["MultiPV", "Ponder"]
        assert engine.options["Game"].var == GAMES

    run(check)


def test_configure_sets_plain_options_without_errors():
    async def check(engine, log):
        await engine.configure(
            {"Hash": 32, "Seed": 7, "Move Overhead": 20, "Clear Hash": None}
        )
        await engine.configure({"Game": "apocalypse"})
        assert await query(engine, "fen") == "npppn/p3p/5/P3P/NPPPN 00 0"
        # The pawn on b1 stands on its start square: it may step two squares...
        assert {"b1b2", "b1b3"} <= set((await query(engine, "legalmoves w")).split())
        await engine.configure({"DoubleStep": False})
        await asyncio.wait_for(engine.ping(), PATIENCE)
        # ... unless DoubleStep is off.
        declarations = set((await query(engine, "legalmoves w")).split())
        assert "b1b2" in declarations and "b1b3" not in declarations, declarations
        await engine.configure({"Game": "ludo", "Pieces": 2})
        await asyncio.wait_for(engine.ping(), PATIENCE)
        assert await query(engine, "fen") == "b,b/b,b r - 0"
        assert log.errors() == []

    run(check)


def test_a_refused_line_is_seen_by_the_client():
    async def check(engine, log):
        engine.send_line("setoption name Hash value 0")
        await asyncio.wait_for(engine.ping(), PATIENCE)
        assert log.errors() == [
            "info string error: setoption: Hash: 0 is out of range 1..16384"
        ], log.messages
        assert any("Unexpected engine output" in m for m in log.messages)

    run(check)


def test_configure_refuses_managed_and_invalid_values_before_sending():
    async def check(engine, log):
        refused = [
            {"MultiPV": 2},  # managed: set through analyse(..., multipv=N)
            {"Hash": 999999999},  # above the declared max
            {"Game": "chess"},  # not a declared var
            {"Game": "RNB"},  # python-chess compares combo values case-sensitively
            {"Seed": "x"},
            {"UCI_Variant": "chess"},  # not declared
        ]
        for options in refused:
            try:
                await engine.configure(options)
            except chess.engine.EngineError:
                continue
            raise AssertionError(f"{options} was accepted")
        await asyncio.wait_for(engine.ping(), PATIENCE)
        assert log.errors() == []

    run(check)


async def search_start(engine, game, limit, multipv=None, options=None):
    """Searches `game` from its start position through `analysis` and returns the infos.

    python-chess sends `ucinewgame`, `isready`, `position startpos` and `go`. It cannot
    parse our `bestmove` tokens (the analysis would then never finish), so reading stops
    as protocol.md §5 says: at the last expected iteration, or at an `info string` (the
    engine's note that no search follows: a roll it drew, a chance node, a simultaneous
    turn), or at `bestmove (none)` when the engine has no move.
    """
    await engine.configure({"Game": game, **(options or {})})
    infos = []
    selector = chess.engine.INFO_BASIC | chess.engine.INFO_SCORE
    with await engine.analysis(chess.Board(), limit, multipv=multipv, info=selector) as a:

        async def read():
            async for info in a:
                infos.append(info)
                last = info.get("depth") == limit.depth and info.get("multipv", 1) == (
                    multipv or 1
                )
                if (last and game not in NO_MOVE_AT_START) or "string" in info:
                    return

        await asyncio.wait_for(read(), PATIENCE)
    await asyncio.wait_for(engine.ping(), PATIENCE)
    return infos


def check_iteration(info):
    """The fields of one iteration's `info` line as python-chess parsed them."""
    for field in ("depth", "seldepth", "multipv", "score", "nodes", "nps", "time", "hashfull"):
        assert field in info, (field, info)
    assert isinstance(info["score"].relative, (chess.engine.Cp, chess.engine.Mate)), info
    assert info["nodes"] > 0 and info["nps"] >= 0 and info["time"] >= 0, info
    assert 0 <= info["hashfull"] <= 1000, info


def test_go_depth_from_every_start_position_gives_parsable_info_lines():
    async def check(engine, log):
        for game in GAMES:
            infos = await search_start(engine, game, chess.engine.Limit(depth=2))
            iterations = [i for i in infos if "depth" in i]
            assert [i["depth"] for i in iterations] == [1, 2], (game, infos)
            for info in iterations:
                check_iteration(info)
            notes = [i["string"] for i in infos if "string" in i]
            if game == "ludo":  # the start waits for a roll: no move, a reason
                assert any("chance node" in n for n in notes), notes
            if game == "apocalypse":  # simultaneous: `go` without `side` has no move
                assert any("side" in n for n in notes), notes
        assert log.errors() == []

    run(check)


def test_iterating_analysis_ends_where_the_engine_rolls_instead_of_searching():
    """protocol.md §5: with `EngineRolls` at a Ludo chance node, `go` answers a roll that
    python-chess cannot parse, so its analysis never ends; the `info string` before the
    roll is where the documented loop breaks, and it names the roll."""

    async def check(engine, log):
        limit = chess.engine.Limit(depth=2)
        infos = await search_start(engine, "ludo", limit, options={"EngineRolls": True})
        notes = [i["string"] for i in infos if "string" in i]
        assert len(notes) == 1 and re.match(r"roll r[1-6]: ", notes[0]), infos
        # The engine goes on: the same loop at a decision node (after a roll) searches.
        await raw(engine, ["position startpos moves r6"])
        lines = await raw(engine, ["go depth 2"], lambda line: line.startswith("bestmove"))
        assert any(line.startswith("info depth 2 ") for line in lines), lines
        assert log.errors() == []

    run(check)


def test_multipv_is_set_through_analysis():
    async def check(engine, log):
        infos = await search_start(engine, "duell", chess.engine.Limit(depth=2), multipv=3)
        last = [i for i in infos if i.get("depth") == 2]
        assert [i["multipv"] for i in last] == [1, 2, 3], infos
        scores = [i["score"].relative.score(mate_score=100000) for i in last]
        assert scores == sorted(scores, reverse=True), scores
        assert log.errors() == []

    run(check)


def test_play_refuses_our_move_tokens_but_the_engine_stays_usable():
    async def check(engine, log):
        await engine.configure({"Game": "duell"})
        try:
            await asyncio.wait_for(
                engine.play(chess.Board(), chess.engine.Limit(depth=2)), PATIENCE
            )
            raise AssertionError("python-chess parsed a Duell move as chess")
        except chess.engine.EngineError as e:
            # A Duell token either does not parse as chess (`i1i3` is off the board:
            # "invalid uci") or parses to a move the chess board forbids (`a1d3n`: "illegal uci").
            assert "invalid uci" in str(e) or "illegal uci" in str(e), e
        await asyncio.wait_for(engine.ping(), PATIENCE)
        # Where the engine has no move (Ludo waiting for a roll), play returns None,
        # also under a clock (python-chess sends `go wtime .. btime ..`).
        await engine.configure({"Game": "ludo"})
        limit = chess.engine.Limit(white_clock=0.5, black_clock=0.5, white_inc=0.01)
        result = await asyncio.wait_for(engine.play(chess.Board(), limit), PATIENCE)
        assert result.move is None, result

    run(check)


def test_raw_lines_reach_every_game():
    async def check(engine, log):
        for game in GAMES:
            await raw(engine, [f"setoption name Game value {game}", "position startpos"])
            first = (await query(engine, "legalmoves")).split()[0]
            await raw(engine, [f"position startpos moves {first}"])
            legal = (await query(engine, "legalmoves")).split()
            side = " side w" if game == "apocalypse" else ""
            if game == "ludo":  # after a roll the mover chooses
                assert first.startswith("r"), first
            lines = await raw(
                engine, [f"go depth 2{side}"], lambda line: line.startswith("bestmove")
            )
            best = lines[-1].split()[1]
            if game == "apocalypse":  # `side w` asks for White's declaration
                legal = (await query(engine, "legalmoves w")).split()
            assert best in legal, (game, best, legal)
        rejected = await raw(engine, ["position startpos moves z9z9"])
        assert rejected[0].startswith("info string error: position:"), rejected

    run(check)


if __name__ == "__main__":
    tests = [(n, f) for n, f in sorted(globals().items()) if n.startswith("test_")]
    failed = 0
    for name, test in tests:
        try:
            test()
            print(f"ok      {name}")
        except Exception as e:  # report every test, then fail
            failed += 1
            print(f"FAILED  {name}: {type(e).__name__}: {e}")
    print(f"{len(tests) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


def test_analyse_never_returns_on_our_moves_but_iterating_analysis_does():
    """protocol.md §5: `analyse()` waits for a `bestmove` python-chess cannot parse."""

    async def check(engine, log):
        await engine.configure({"Game": "duell"})
        try:
            await asyncio.wait_for(
                engine.analyse(chess.Board(), chess.engine.Limit(depth=2)), 3
            )
            raise AssertionError("analyse returned on a Duell bestmove")
        except (asyncio.TimeoutError, chess.engine.EngineError):
            pass
        # The documented way: iterate and break at the wanted depth.
        infos = await search_start(engine, "duell", chess.engine.Limit(depth=3))
        assert [i["depth"] for i in infos if "depth" in i] == [1, 2, 3], infos
        assert all("pv" not in i for i in infos), infos

    run(check)
