//! `perft`: count the action sequences of a given length, to check move generation against
//! known counts (tests/data/perft.csv) and against other engines.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use quoridor_solver::error::count;
use quoridor_solver::rules::geometry::Board;
use quoridor_solver::rules::movegen::FloodFill;
use quoridor_solver::rules::notation::format_record;
use quoridor_solver::rules::perft::{max_depth, most_actions, perft};
use quoridor_solver::rules::position::Position;
use quoridor_solver::{Error, Result};

use super::progress::Bars;
use super::{BOARD_HELP, PositionArgs, walls_per_player};

/// Count the action sequences of exactly D plies (a finished game counts once)
#[derive(Args, Debug)]
pub struct PerftArgs {
    #[arg(value_name = "WxH", help = BOARD_HELP)]
    board: String,

    /// Walls per player at the start (with --position: the N the record must agree with)
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    walls: String,

    /// Number of plies to count. At most the depth whose count is sure to fit 64 bits
    /// (at most 5 pawn moves and 2(W-1)(H-1) walls a ply: 17 on 3x3 with walls, 9 on 9x9);
    /// Quoridor has no longest game, and counts grow 3 to 30 times a ply. Each depth up to D
    /// is counted in turn, with a line on stderr giving its count, its time and an estimate
    /// of the next depth's time (not with -q, which counts depth D alone)
    #[arg(long, value_name = "D")]
    depth: u32,

    #[command(flatten)]
    position: PositionArgs,

    /// Print nothing on stderr but errors: no line per depth, and only depth D is counted
    #[arg(short, long)]
    pub quiet: bool,
}

/// A checked `perft` request.
pub struct Perft {
    board: Board,
    walls: u8,
    position: Position,
    depth: u32,
}

impl PerftArgs {
    pub fn validate(&self) -> Result<Perft> {
        let board = Board::parse(&self.board)?;
        let walls = walls_per_player(&self.walls)?;
        let position = self.position.validate(board, Some(walls), walls)?;
        let deepest = max_depth(board, &position);
        if self.depth > deepest {
            let walls_left = position.left.iter().any(|&n| n > 0);
            return Err(Error::Argument(format!(
                "--depth {}: perft counts at most {} from this position (at most {} a ply: \
                 a deeper count may not fit 64 bits, and would take far longer than anyone \
                 waits)",
                self.depth,
                count(deepest, "ply"),
                count(most_actions(board, walls_left), "action")
            )));
        }
        Ok(Perft {
            board,
            walls,
            position,
            depth: self.depth,
        })
    }
}

/// Prints a short header, then the count alone on the last line; on stderr, unless quiet, a
/// line per depth on the way, so that a deep count shows how long it will take.
pub fn run(p: Perft, bars: &Bars, out: &mut dyn Write) -> Result<ExitCode> {
    writeln!(
        out,
        "board {}, {} per player",
        p.board,
        count(p.walls, "wall")
    )?;
    writeln!(out, "position {}", format_record(p.board, &p.position))?;
    writeln!(out, "depth {}", p.depth)?;
    out.flush()?;
    // Counting every depth before D costs about 1/(b-1) of depth D's time for b actions a
    // ply (half of it on 3x3 with 1 wall, a thirtieth on 5x5 with 3); quiet, nobody sees them, so only D is counted.
    let first = if bars.is_quiet() {
        p.depth
    } else {
        1.min(p.depth)
    };
    let mut previous: u64 = 1;
    let mut total = 1;
    for depth in first..=p.depth {
        let started = Instant::now();
        total = perft(p.board, &p.position, depth, &FloodFill);
        let seconds = started.elapsed().as_secs_f64();
        if depth < p.depth {
            // The next depth visits about `branching` times the sequences of this one.
            let branching = total as f64 / previous.max(1) as f64;
            bars.line(&format!(
                "depth {depth}: {total} in {seconds:.2} s; depth {} estimated at {:.2} s \
                 ({branching:.1} times as many sequences)",
                depth + 1,
                seconds * branching
            ));
        }
        previous = total;
    }
    writeln!(out, "{total}")?;
    Ok(ExitCode::SUCCESS)
}
