//! The `quartet` binary: the protocol loop by default; `perft`, `match` and `replay`
//! subcommands.

use clap::{ArgMatches, Args, FromArgMatches, Parser, Subcommand};
use quartet::eval::Evaluate;
use quartet::game::RuleOptions;
use quartet::games::{GameKind, GameVisitor};
use quartet::notation::Notation;
use quartet::players::PlayerKind;
use quartet::protocol::output::Output;
use quartet::protocol::session::{ENGINE_AUTHOR, ENGINE_NAME, Flow, Session};
use quartet::referee::{self, MatchArgs, MergeArgs, StopReason};
use std::io::{BufRead, Read};
use std::path::PathBuf;
use std::process::ExitCode;

/// Prints a line of a subcommand's output. A closed pipe (`quartet bench | head -1`) ends
/// the program quietly, as it does other command-line tools; any other write error ends
/// it with the error on stderr and a failure status.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout(), $($arg)*) {
            stdout_failed(e);
        }
    }};
}

/// Ends the program after a failed write to stdout (see `say!`).
fn stdout_failed(e: std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("quartet: writing output: {e}");
    std::process::exit(1);
}

/// Quartet: one engine for R&B, Duell, Apocalypse and Ludo, speaking a UCI-style protocol
/// on standard input and output (see protocol.md).
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    /// The game to play at start (rnb, duell, apocalypse, ludo).
    #[arg(long, default_value = "duell", value_parser = parse_game)]
    game: GameKind,
    /// Who chooses the moves: the engine's search or a baseline (search, random, greedy,
    /// mcts); the `Player` option changes it later.
    #[arg(long, default_value = "search")]
    player: PlayerKind,
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Count the leaves of the game tree (every token one ply), per root move.
    Perft {
        /// The game.
        #[arg(long, default_value = "duell", value_parser = parse_game)]
        game: GameKind,
        /// Plies to count.
        #[arg(long)]
        depth: u32,
        /// Position string (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play from the position first.
        #[arg(long, num_args = 0.., allow_hyphen_values = true)]
        moves: Vec<String>,
        #[command(flatten)]
        rules: RuleArgs,
    },
    /// Play engines against each other under a referee that checks every move; or
    /// `match merge FILES...` to combine the results of shards.
    Match(MatchCommand),
    /// Search fixed positions of each game to a fixed depth: prints the node count (a
    /// deterministic signature), nodes per second, the depth reached in one second and
    /// perft leaves per second.
    Bench {
        /// Only this game (default: all four).
        #[arg(long, value_parser = parse_game)]
        game: Option<GameKind>,
        /// Search depth instead of each game's default.
        #[arg(long)]
        depth: Option<u32>,
        /// Skip the one-second searches (the output is then fully deterministic but for
        /// the times).
        #[arg(long)]
        untimed: bool,
    },
    /// Solve a small game exactly and print the position's value: Apocalypse by backward
    /// induction over the whole game (with both sides' optimal root strategies), Ludo with
    /// 1 or 2 pieces (`--pieces`) by value iteration over every state (with every move's
    /// value at a decision node).
    Solve {
        /// The game (apocalypse or ludo).
        #[arg(long, value_parser = parse_game)]
        game: GameKind,
        /// Position string (default: the start position, far too big to solve).
        #[arg(long)]
        fen: Option<String>,
        /// Let either side also declare a void move (a pass costing a penalty point).
        #[arg(long)]
        void: bool,
        #[command(flatten)]
        rules: RuleArgs,
    },
    /// Re-check every move of the game records in a file written by `match --pgnout`.
    Replay {
        /// The game.
        #[arg(long, default_value = "duell", value_parser = parse_game)]
        game: GameKind,
        /// The records file.
        file: PathBuf,
    },
    /// Serve a browser board for the four games on 127.0.0.1 that drives an engine (this
    /// one by default) over the protocol.
    #[cfg(feature = "gui")]
    Gui(quartet::gui::GuiArgs),
}

/// `match ARGS` or `match merge FILES`. Written by hand: clap's derive cannot tell when a
/// flattened `Option<MatchArgs>` is present, because `MatchArgs` itself flattens the
/// hand-written `--engine` groups.
enum MatchCommand {
    Play(Box<MatchArgs>),
    Merge(MergeArgs),
}

impl FromArgMatches for MatchCommand {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        match matches.subcommand() {
            Some(("merge", sub)) => Ok(MatchCommand::Merge(MergeArgs::from_arg_matches(sub)?)),
            _ => Ok(MatchCommand::Play(Box::new(MatchArgs::from_arg_matches(
                matches,
            )?))),
        }
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = MatchCommand::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for MatchCommand {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        MatchArgs::augment_args(cmd)
            .subcommand(MergeArgs::augment_args(clap::Command::new("merge").about(
                "Combine the --results files of a match's shards into one report",
            )))
            .args_conflicts_with_subcommands(true)
            .subcommand_negates_reqs(true)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        MatchCommand::augment_args(cmd)
    }
}

/// Rule options of the games, as on the command line.
#[derive(Args, Clone, Copy)]
struct RuleArgs {
    /// Apocalypse: pawns on their start squares may step two squares.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    double_step: bool,
    /// Ludo: pieces per side (1 to 4).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=4))]
    pieces: u8,
}

impl RuleArgs {
    fn options(self) -> RuleOptions {
        RuleOptions {
            double_step: self.double_step,
            pieces: self.pieces,
        }
    }
}

fn parse_game(name: &str) -> Result<GameKind, String> {
    GameKind::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = GameKind::ALL.iter().map(|g| g.name()).collect();
        format!("unknown game '{name}' (one of {})", names.join(", "))
    })
}

/// The longest input line read whole; longer lines are refused.
const MAX_LINE_BYTES: u64 = 16 << 20;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        None => protocol_loop(cli.game, cli.player),
        Some(Cmd::Perft {
            game,
            depth,
            fen,
            moves,
            rules,
        }) => perft(game, rules.options(), depth, fen, &moves),
        Some(Cmd::Bench {
            game,
            depth,
            untimed,
        }) => bench(game, depth, !untimed),
        Some(Cmd::Solve {
            game,
            fen,
            void,
            rules,
        }) => solve(game, rules.options(), fen.as_deref(), void),
        Some(Cmd::Match(MatchCommand::Merge(args))) => referee::run_merge(&args)
            .map(|report| say!("{report}"))
            .map_err(|e| e.to_string()),
        Some(Cmd::Match(MatchCommand::Play(args))) => run_match(&args),
        Some(Cmd::Replay { game, file }) => game.visit(Replay(file)),
        #[cfg(feature = "gui")]
        Some(Cmd::Gui(args)) => quartet::gui::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("quartet: {e}");
            ExitCode::FAILURE
        }
    }
}

fn protocol_loop(game: GameKind, player: PlayerKind) -> Result<(), String> {
    let out = Output::stdout();
    out.line(&format!(
        "{ENGINE_NAME} by {ENGINE_AUTHOR} · game {} · type 'uci' to start or 'help' for the commands",
        game.name()
    ));
    let mut session = Session::new(out.clone(), game, player)?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let n = (&mut input)
            .take(MAX_LINE_BYTES)
            .read_until(b'\n', &mut buf)
            .map_err(|e| format!("reading input: {e}"))?;
        if n == 0 {
            break;
        }
        if buf.last() != Some(&b'\n') && n as u64 == MAX_LINE_BYTES {
            skip_line(&mut input)?;
            out.line(&format!(
                "info string error: line longer than {MAX_LINE_BYTES} bytes ignored"
            ));
            continue;
        }
        let line = String::from_utf8_lossy(&buf);
        if session.handle_line(line.trim_end_matches(['\n', '\r'])) == Flow::Quit {
            return Ok(());
        }
    }
    session.finish();
    Ok(())
}

/// Reads and drops the rest of an over-long line.
fn skip_line(input: &mut impl BufRead) -> Result<(), String> {
    let mut chunk = Vec::new();
    loop {
        chunk.clear();
        let m = input
            .take(MAX_LINE_BYTES)
            .read_until(b'\n', &mut chunk)
            .map_err(|e| format!("reading input: {e}"))?;
        if m == 0 || chunk.ends_with(b"\n") {
            return Ok(());
        }
    }
}

fn perft(
    game: GameKind,
    rules: RuleOptions,
    depth: u32,
    fen: Option<String>,
    moves: &[String],
) -> Result<(), String> {
    let mut g = game.new_game(rules);
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    g.set_position(fen.as_deref(), &moves)
        .map_err(|e| e.to_string())?;
    let started = std::time::Instant::now();
    let mut total = 0;
    let never = std::sync::atomic::AtomicBool::new(false);
    g.divide(depth, &never, &mut |token, count| {
        say!("{token}: {count}");
        total += count;
    });
    if depth == 0 {
        total = 1;
    }
    let secs = started.elapsed().as_secs_f64();
    say!();
    say!("Nodes searched: {total}");
    say!(
        "Time: {secs:.3} s, {:.0} leaves/s",
        total as f64 / secs.max(1e-9)
    );
    Ok(())
}

fn bench(only: Option<GameKind>, depth: Option<u32>, timed: bool) -> Result<(), String> {
    let mut total_nodes = 0;
    let mut total_time = 0.0;
    for spec in quartet::bench::SPECS
        .iter()
        .filter(|s| only.is_none_or(|g| g == s.game))
    {
        let r = quartet::bench::run(spec, depth, timed)?;
        let secs = r.search_time.as_secs_f64().max(1e-9);
        let perft_secs = r.perft_time.as_secs_f64().max(1e-9);
        let one_second = r.depth_in_one_second.map_or(String::new(), |d| {
            format!(", depth {d} in 1 s from the start")
        });
        say!(
            "{:<10} search depth {}: {} nodes in {:.3} s = {:.0} nodes/s{one_second}; perft {}: {} leaves in {:.3} s = {:.0} leaves/s",
            spec.game.name(),
            depth.unwrap_or(spec.depth),
            r.nodes,
            secs,
            r.nodes as f64 / secs,
            spec.perft_depth,
            r.perft_leaves,
            perft_secs,
            r.perft_leaves as f64 / perft_secs,
        );
        total_nodes += r.nodes;
        total_time += secs;
    }
    say!("Nodes searched: {total_nodes}");
    say!(
        "Nodes/second: {:.0}",
        total_nodes as f64 / total_time.max(1e-9)
    );
    Ok(())
}

fn solve(game: GameKind, rules: RuleOptions, fen: Option<&str>, void: bool) -> Result<(), String> {
    match game {
        GameKind::Apocalypse => solve_apocalypse(rules, fen, void),
        GameKind::Ludo if !void => solve_ludo(rules, fen),
        GameKind::Ludo => Err("solve: --void is an Apocalypse option".to_string()),
        _ => Err(format!("solve: not available for {}", game.name())),
    }
}

/// `solve --game apocalypse`: backward induction over the whole game from the position.
fn solve_apocalypse(rules: RuleOptions, fen: Option<&str>, void: bool) -> Result<(), String> {
    use quartet::games::apocalypse::{Apocalypse, solve};
    let pos = match fen {
        Some(text) => Apocalypse::parse_position(text, &rules).map_err(|e| e.to_string())?,
        None => Apocalypse::start(&rules),
    };
    let started = std::time::Instant::now();
    let s = if void {
        solve::solve_exact_with_voids(&pos)
    } else {
        solve::solve_exact(&pos)
    };
    let strategy = |moves: &[(<Apocalypse as quartet::game::Game>::Move, f64)]| {
        moves
            .iter()
            .map(|&(m, p)| format!("{}={p:.6}", pos.format_move(m)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    say!("value {:.6} (White's view: +1 a win, -1 a loss)", s.value);
    say!("white {}", strategy(&s.white_strategy));
    say!("black {}", strategy(&s.black_strategy));
    say!(
        "positions {} in {:.3} s",
        s.nodes,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `solve --game ludo --pieces 1|2`: value iteration over every state of the small game,
/// then the position's value and, at a decision node, every move's.
fn solve_ludo(rules: RuleOptions, fen: Option<&str>) -> Result<(), String> {
    use quartet::games::ludo::Ludo;
    use quartet::games::ludo::solve::LudoSolution;
    if !(1..=2).contains(&rules.pieces) {
        return Err(format!(
            "solve: only the 1- and 2-piece Ludo games can be solved (--pieces), not {}",
            rules.pieces
        ));
    }
    let pos = match fen {
        Some(text) => Ludo::parse_position(text, &rules).map_err(|e| e.to_string())?,
        None => Ludo::start(&rules),
    };
    let s = LudoSolution::solve(rules.pieces);
    say!(
        "solved the {}-piece game: {} sweeps, residual {:.1e}, {:.1} MiB, {:.3} s",
        rules.pieces,
        s.iterations,
        s.residual,
        s.memory_bytes() as f64 / (1 << 20) as f64,
        s.elapsed.as_secs_f64()
    );
    say!("value {:.6} (P(Red wins))", s.value(&pos));
    let moves = s.move_values(&pos);
    if !moves.is_empty() {
        let listed: Vec<String> = moves
            .iter()
            .map(|&(m, v)| format!("{}={v:.6}", pos.format_move(m)))
            .collect();
        say!("moves {}", listed.join(" "));
        say!("best {}", pos.format_move(s.best_move(&pos)));
    }
    Ok(())
}

fn run_match(args: &MatchArgs) -> Result<(), String> {
    let game = parse_game(&args.game)?;
    let report = game.visit(Match(args))?;
    say!("{report}");
    match report.stop {
        StopReason::EngineFailure(why) => Err(format!("match ended early: {why}")),
        _ => Ok(()),
    }
}

/// `quartet match` for the chosen game.
struct Match<'a>(&'a MatchArgs);

impl GameVisitor for Match<'_> {
    type Output = Result<referee::MatchReport, String>;
    fn visit<G: Evaluate + Notation>(self) -> Self::Output {
        referee::run_match::<G>(self.0, &RuleOptions::default()).map_err(|e| e.to_string())
    }
}

/// `quartet replay` for the chosen game.
struct Replay(PathBuf);

impl GameVisitor for Replay {
    type Output = Result<(), String>;
    fn visit<G: Evaluate + Notation>(self) -> Self::Output {
        let games = referee::replay_file::<G>(&self.0, &RuleOptions::default())
            .map_err(|e| e.to_string())?;
        say!(
            "{}: {} games, every move legal",
            self.0.display(),
            games.len()
        );
        Ok(())
    }
}
