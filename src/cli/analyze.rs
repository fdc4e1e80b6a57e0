//! `analyze`: the value of a position and of every legal move from it, or of every move of
//! a played game (`analysis.rs`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use quoridor_solver::cell::analysis::MoveVerdict;
use quoridor_solver::cell::evaluate::AnalystConfig;
use quoridor_solver::error::count;
use quoridor_solver::output::report::{self, analyze::Answer, analyze::Ply, analyze::mark};
use quoridor_solver::rules::cell::Cell;
use quoridor_solver::rules::geometry::{Board, Player};
use quoridor_solver::rules::notation::{action_name, format_record, parse_moves};
use quoridor_solver::rules::position::{Action, Position};
use quoridor_solver::{Error, Result};

use super::analyst::AnalystArgs;
use super::progress::Bars;
use super::{CellArgs, PositionArgs};

/// Value a position and every legal move from it (winner and exact plies under best play,
/// or draw), or every move of a played game (--game)
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    cell: CellArgs,

    #[command(flatten)]
    position: PositionArgs,

    /// Annotate a played game instead: the file holds its moves in the notation of --moves
    /// (from the start, or from --position); each move gets the value before and after it,
    /// and the moves that throw away a win or a draw are marked
    #[arg(long, value_name = "FILE", conflicts_with = "moves")]
    game: Option<PathBuf>,

    /// Print one JSON object instead of text (schema in docs/FORMATS.md)
    #[arg(long)]
    json: bool,

    /// Give up after this many seconds: what is not decided by then is "unknown" with the
    /// depth reached. Not where the analysis answers (--method retro, or auto where it fits)
    #[arg(
        long,
        value_name = "S",
        allow_negative_numbers = true,
        conflicts_with = "table"
    )]
    max_seconds: Option<f64>,

    #[command(flatten)]
    analyst: AnalystArgs,

    /// Also print the solver's own messages on stderr: a line per search depth, when the answer comes from proof search
    #[arg(short, long, conflicts_with = "quiet")]
    pub verbose: bool,

    /// Print nothing on stderr but errors: no progress bars
    #[arg(short, long)]
    pub quiet: bool,
}

/// A checked `analyze` request.
pub struct Analyze {
    board: Board,
    walls: u8,
    position: Position,
    /// The game's actions from `position`, with --game.
    game: Option<Vec<Action>>,
    json: bool,
    config: AnalystConfig,
}

impl AnalyzeArgs {
    pub fn validate(&self) -> Result<Analyze> {
        let Cell { board, walls } = self.cell.validate()?;
        let position = self.position.validate(board, Some(walls), walls)?;
        let game = match &self.game {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| Error::io("read", path, e))?;
                Some(parse_moves(board, position, &text)?.0)
            }
            None => None,
        };
        Ok(Analyze {
            board,
            walls,
            position,
            game,
            json: self.json,
            config: self.analyst.validate(self.max_seconds)?,
        })
    }
}

pub fn run(a: Analyze, bars: &Bars, out: &mut dyn Write) -> Result<ExitCode> {
    let started = Instant::now();
    a.config.use_threads()?;
    let game = a.game.as_deref();
    let layers = report::analyze::layers(&a.position, game);
    let source = a.config.source(a.board, a.walls, layers.clone(), bars)?;
    let mut analyst = a.config.analyst(&source, layers, started, bars)?;
    // A reader of a saved table too large to load fetches the positions asked first.
    analyst.prepare(&report::analyze::asked(a.board, &a.position, game), bars)?;
    let answer = report::analyze::answer(&mut analyst, &a.position, game, bars);
    let seconds = started.elapsed().as_secs_f64();
    if a.json {
        let json = report::analyze::json(a.board, a.walls, &a.position, &answer, seconds);
        writeln!(out, "{json}")?;
    } else {
        write_text(&a, &answer, seconds, out)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn write_text(a: &Analyze, answer: &Answer, seconds: f64, out: &mut dyn Write) -> Result<()> {
    let mover = a.position.to_move;
    writeln!(
        out,
        "{} with {} per player, Player {} to move: {}",
        a.board,
        count(a.walls, "wall"),
        mover.number(),
        answer.verdict.text(mover)
    )?;
    writeln!(out, "position  {}", format_record(a.board, &a.position))?;
    writeln!(
        out,
        "by        {}",
        if answer.retro {
            "the retrograde analysis of the cell (exact, draws included)"
        } else {
            "proof search (no draws: what neither player wins within the depth is unknown)"
        }
    )?;
    if let Some(moves) = &answer.moves {
        write_moves(a.board, mover, moves, out)?;
    }
    if let Some(plies) = &answer.game {
        write_game(a.board, plies, out)?;
    }
    writeln!(
        out,
        "{} in {:.2} s",
        count(answer.nodes, "search node"),
        seconds
    )?;
    Ok(())
}

fn write_moves(
    board: Board,
    mover: Player,
    moves: &[MoveVerdict],
    out: &mut dyn Write,
) -> Result<()> {
    if moves.is_empty() {
        writeln!(out, "no legal move")?;
        return Ok(());
    }
    writeln!(out, "{}, best first:", count(moves.len(), "legal move"))?;
    for m in moves {
        writeln!(
            out,
            "  {:<6} {}",
            action_name(board, m.action),
            m.verdict.text(mover)
        )?;
    }
    Ok(())
}

fn write_game(board: Board, plies: &[Ply], out: &mut dyn Write) -> Result<()> {
    writeln!(out, "{}:", count(plies.len(), "move"))?;
    for p in plies {
        let mark = mark(p.before, p.after).map_or(String::new(), |m| format!("  <- {m}"));
        writeln!(
            out,
            "  {:>3}. Player {} {:<6} before: {}; after: {}{mark}",
            p.ply,
            p.player.number(),
            action_name(board, p.action),
            p.before.text(p.player),
            p.after.text(p.player),
        )?;
    }
    Ok(())
}
