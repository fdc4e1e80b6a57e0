//! The command line: clap definitions, validation of raw flags into checked values, and
//! writing each command's output. `clap` types stay here; the library never prints.
//!
//! Each command lives in its own file with three parts: `...Args` (the clap struct, raw
//! flags), a checked config built by `...Args::validate` (the only place input is checked),
//! and `run(config, out)`. Adding a command is one file, one `mod` line and one variant of
//! `Command`.
//!
//! Exit codes (set by `main`): 0 success, 1 a check failed, 2 bad usage or input.

mod analyst;
mod analyze;
mod choices;
mod configs;
mod error_text;
mod interrupt;
#[cfg(feature = "mpi")]
mod mpi_ranks;
mod perft;
mod plan_text;
mod play;
mod progress;
mod resources;
mod serve;
mod show;
mod solve;
mod solve_text;
mod table;
mod table_text;
mod verify;

use std::io::Write;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
pub use error_text::error_text;
use progress::{Bars, Verbosity};
pub use quoridor_solver::cell::plan::{max_depth, refuse_search_flags, time_limit};
use quoridor_solver::error::clip;
use quoridor_solver::rules::cell::Cell;
use quoridor_solver::rules::geometry::Board;
use quoridor_solver::rules::notation::{parse_moves, parse_record};
use quoridor_solver::rules::position::{Action, Position};
use quoridor_solver::{Error, Result};

/// Exhaustive solver for Quoridor on small boards (rules: docs/RULES.md).
#[derive(Parser, Debug)]
#[command(name = "quoridor-solver", version)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,

    /// `-v` and `-q` before the command, as they were accepted when every command took
    /// them; hidden, since each command's help lists its own (`-v` only where there is
    /// more to say, `-q` where something goes to stderr).
    #[arg(short, long, hide = true, conflicts_with = "quiet")]
    verbose: bool,

    #[arg(short, long, hide = true)]
    quiet: bool,
}

#[derive(Subcommand, Debug)]
enum Command {
    Table(table::TableArgs),
    Solve(solve::SolveArgs),
    Configs(configs::ConfigsArgs),
    Perft(perft::PerftArgs),
    Show(show::ShowArgs),
    Analyze(analyze::AnalyzeArgs),
    Play(play::PlayArgs),
    Verify(verify::VerifyArgs),
    Serve(serve::ServeArgs),
}

impl Command {
    /// The command's name as typed.
    fn name(&self) -> &'static str {
        match self {
            Command::Table(_) => "table",
            Command::Solve(_) => "solve",
            Command::Configs(_) => "configs",
            Command::Perft(_) => "perft",
            Command::Show(_) => "show",
            Command::Analyze(_) => "analyze",
            Command::Play(_) => "play",
            Command::Verify(_) => "verify",
            Command::Serve(_) => "serve",
        }
    }
}

impl Cli {
    /// Checks the flags of the chosen command, runs it and writes its output to `out`.
    /// `Ok` carries the exit code: success, or (for commands that check results) a failure.
    pub fn run(self, out: &mut dyn Write) -> Result<ExitCode> {
        // Each command's own flags, (quiet, verbose); `None` where it has no such flag.
        let (quiet, verbose) = match &self.command {
            Command::Table(a) => (Some(a.quiet), Some(a.verbose)),
            Command::Solve(a) => (Some(a.quiet), Some(a.verbose)),
            Command::Analyze(a) => (Some(a.quiet), Some(a.verbose)),
            Command::Play(a) => (Some(a.quiet), Some(a.verbose)),
            Command::Configs(a) => (Some(a.quiet), None),
            Command::Verify(a) => (Some(a.quiet), None),
            Command::Perft(a) => (Some(a.quiet), None),
            Command::Serve(a) => (Some(a.quiet), None),
            Command::Show(_) => (None, None),
        };
        let refuse = |flag: &str, why: &str| {
            Err(Error::Argument(format!(
                "{flag} before the command: `{}` {why}",
                self.command.name()
            )))
        };
        if self.verbose && verbose.is_none() {
            return refuse("-v", "runs no search: it has nothing more to report");
        }
        if self.quiet && quiet.is_none() {
            return refuse("-q", "prints nothing on stderr but errors already");
        }
        let quiet = self.quiet || quiet == Some(true);
        let verbose = self.verbose || verbose == Some(true);
        if quiet && verbose {
            return Err(Error::Argument(
                "-q and -v cannot be used together: give one or the other".into(),
            ));
        }
        let bars = Bars::new(match (quiet, verbose) {
            (true, _) => Verbosity::Quiet,
            (false, true) => Verbosity::Verbose,
            (false, false) => Verbosity::Normal,
        });
        match self.command {
            Command::Table(args) => table::run(args.validate()?, &bars, out),
            Command::Solve(args) => solve::run(args.validate()?, &bars, out),
            Command::Configs(args) => configs::run(args.validate()?, &bars, out),
            Command::Perft(args) => perft::run(args.validate()?, &bars, out),
            Command::Show(args) => show::run(args.validate()?, out),
            Command::Analyze(args) => analyze::run(args.validate()?, &bars, out),
            Command::Play(args) => play::run(args.validate()?, &bars, out),
            Command::Verify(args) => verify::run(args.validate()?, &bars, out),
            Command::Serve(args) => serve::run(args.validate()?, &bars, out),
        }
    }
}

/// A clap usage error as one line (without `error: `), as README promises for every bad
/// usage: clap's own rendering spreads it over several lines (a list of missing arguments,
/// a tip, the usage, a pointer to --help), which a script reading stderr cannot take as one
/// message. List items are joined with commas and a tip goes in parentheses. The values
/// clap repeats (a bad value, an unexpected argument) are clipped as ours are (`clip`).
pub fn usage_error_line(e: &clap::Error) -> String {
    let mut text = e.render().to_string();
    for (_, value) in e.context() {
        if let clap::error::ContextValue::String(v) = value
            && clip(v) != *v
        {
            text = text.replace(v.as_str(), &clip(v));
        }
    }
    let mut line = String::new();
    for part in text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty())
    {
        let part = part.strip_prefix("error: ").unwrap_or(part);
        if line.is_empty() {
            line.push_str(part);
        } else if let Some(tip) = part.strip_prefix("tip: ") {
            line.push_str(&format!(" ({tip})"));
        } else if line.ends_with(':') {
            line.push_str(&format!(" {part}"));
        } else {
            line.push_str(&format!(", {part}"));
        }
    }
    line.push_str("; see --help");
    line
}

/// The position a command starts from: the start of the game, a record, or the start
/// followed by moves. Shared by the commands that take a position.
#[derive(Args, Debug)]
pub struct PositionArgs {
    /// Start from this position record instead of the start of the game, e.g.
    /// "b2 / a1c3 / c2 c4 / 2 3 / 1" (horizontal walls / vertical walls / pawns /
    /// walls left / player to move; see docs/RULES.md). Not with --moves
    #[arg(long, value_name = "RECORD", allow_hyphen_values = true)]
    position: Option<String>,

    /// Play these moves from the start of the game first, e.g. "1. c2 c4 2. b2h c3", the
    /// form `solve` prints its line in. Move numbers are optional; one that is given must
    /// be right ("N." before Player 1's move, "N..." before Player 2's). Not with --position
    #[arg(long, value_name = "MOVES")]
    moves: Option<String>,
}

impl PositionArgs {
    /// The checked position on `board`. `walls` (checked by `walls_per_player`), when given,
    /// is the walls per player: a
    /// record must agree with it, a start (with or without moves) uses it, or else
    /// `default_walls`.
    fn validate(&self, board: Board, walls: Option<u8>, default_walls: u8) -> Result<Position> {
        match (&self.position, &self.moves) {
            (Some(_), Some(_)) => Err(Error::Argument(
                "--position and --moves cannot be used together: give one or the other".into(),
            )),
            (Some(record), None) => parse_record(board, record, walls),
            (None, moves) => {
                let start = Position::start(board, walls.unwrap_or(default_walls))?;
                match moves {
                    Some(text) => Ok(parse_moves(board, start, text)?.1),
                    None => Ok(start),
                }
            }
        }
    }
}

impl PositionArgs {
    /// The checked position as where the game began and the moves played from there:
    /// the start and the actions of `--moves`, or the position itself with none. `play`
    /// prints them as the game's record, which `show --moves` replays whole.
    fn validate_line(
        &self,
        board: Board,
        walls: Option<u8>,
        default_walls: u8,
    ) -> Result<(Position, Vec<Action>)> {
        match (&self.position, &self.moves) {
            (None, Some(text)) => {
                let start = Position::start(board, walls.unwrap_or(default_walls))?;
                Ok((start, parse_moves(board, start, text)?.0))
            }
            _ => Ok((self.validate(board, walls, default_walls)?, Vec::new())),
        }
    }
}

/// Help text shared by the board arguments.
const BOARD_HELP: &str = "Board size WIDTHxHEIGHT, e.g. 5x5 or 8x3 (8 columns, 3 rows): \
                          width 2 to 26, height at least 2, at most 128 cells (over 64: proof search only)";

/// The cell a command works on: a board and the walls each player starts with.
#[derive(Args, Debug)]
pub struct CellArgs {
    #[arg(value_name = "WxH", help = BOARD_HELP)]
    board: String,

    /// Walls per player, 0 to 31 (the board holds up to twice as many)
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    walls: String,
}

impl CellArgs {
    /// The checked cell: board and walls per player.
    pub fn validate(&self) -> Result<Cell> {
        let walls = walls_per_player(&self.walls)?;
        Ok(Cell::new(Board::parse(&self.board)?, walls))
    }
}

/// Walls per player from the text of `--walls` (`position::parse_walls_per_player`).
pub fn walls_per_player(text: &str) -> Result<u8> {
    quoridor_solver::rules::position::parse_walls_per_player("--walls", text)
}
