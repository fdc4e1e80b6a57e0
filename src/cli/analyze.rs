//! `analyze`: the value of a position and of every legal move from it, or of every move of
//! a played game (`analysis.rs`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use quoridor_solver::analysis::{Analyst, MoveVerdict, Verdict};
use quoridor_solver::error::count;
use quoridor_solver::geometry::{Board, Player};
use quoridor_solver::notation::{action_name, format_record, parse_moves};
use quoridor_solver::position::{Action, Position};
use quoridor_solver::{Error, Result};
use serde::Serialize;

use super::analyst::{AnalystArgs, AnalystConfig};
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
    /// depth reached. Not with --method retro
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
        let (board, walls) = self.cell.validate()?;
        let position = self.position.validate(board, Some(walls), walls)?;
        let game = match &self.game {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| Error::Io(format!("cannot read {}: {e}", path.display())))?;
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

/// `analyze --json` (docs/FORMATS.md).
#[derive(Serialize)]
struct Json {
    width: usize,
    height: usize,
    walls: u8,
    /// `retrograde` or `proof-search`.
    method: &'static str,
    position: String,
    to_move: u8,
    verdict: Verdict,
    text: String,
    /// Every legal move, best first (not with --game).
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<JsonMove>>,
    /// Every move of the game (with --game).
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<Vec<JsonPly>>,
    nodes: u64,
    seconds: f64,
}

#[derive(Serialize)]
struct JsonMove {
    #[serde(rename = "move")]
    action: String,
    /// For the player who makes the move.
    verdict: Verdict,
    text: String,
}

#[derive(Serialize)]
struct JsonPly {
    ply: usize,
    player: u8,
    #[serde(rename = "move")]
    action: String,
    /// The best the mover could get, before the move.
    before: Verdict,
    /// What the mover gets after the move.
    after: Verdict,
    /// `throws away the win`, `throws away the draw`, `slower win`, `faster loss`, or
    /// absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    mark: Option<&'static str>,
}

/// What a move did to the mover's prospects, if anything worth a mark.
pub fn mark(before: Verdict, after: Verdict) -> Option<&'static str> {
    match (before, after) {
        (Verdict::Win { .. }, Verdict::Draw | Verdict::Loss { .. }) => Some("throws away the win"),
        (Verdict::Draw, Verdict::Loss { .. }) => Some("throws away the draw"),
        (Verdict::Win { plies: best }, Verdict::Win { plies }) if plies > best => {
            Some("slower win")
        }
        (Verdict::Loss { plies: best }, Verdict::Loss { plies }) if plies < best => {
            Some("faster loss")
        }
        _ => None,
    }
}

/// What `analyze` found, ready to print.
struct Answer {
    verdict: Verdict,
    /// Every legal move (without --game).
    moves: Option<Vec<MoveVerdict>>,
    /// Every move of the game (with --game).
    game: Option<Vec<Ply>>,
    retro: bool,
    nodes: u64,
    seconds: f64,
}

pub fn run(a: Analyze, bars: &Bars, out: &mut dyn Write) -> Result<ExitCode> {
    let started = Instant::now();
    a.config.use_threads()?;
    let tables = a.config.tables(a.board, a.walls, bars)?;
    // The layers asked about: the position's and the next (its moves), and with a game
    // every layer up to one past its last wall.
    let first = a.position.walls.len() as usize;
    let walls_played = a.game.as_ref().map_or(0, |g| {
        g.iter().filter(|a| matches!(a, Action::Wall(_))).count()
    });
    let layers = first..first + walls_played + 2;
    let mut analyst = a.config.analyst(&tables, layers, started, bars)?;
    let verdict = analyst.verdict(&a.position, bars);
    let (moves, game) = match &a.game {
        None => (Some(analyst.moves(&a.position, bars)), None),
        Some(actions) => (
            None,
            Some(annotate(&mut analyst, a.position, actions, bars)),
        ),
    };
    let answer = Answer {
        verdict,
        moves,
        game,
        retro: analyst.is_retro(),
        nodes: analyst.nodes(),
        seconds: started.elapsed().as_secs_f64(),
    };
    if a.json {
        let json = serde_json::to_string(&to_json(&a, &answer)).expect("serializable");
        writeln!(out, "{json}")?;
    } else {
        write_text(&a, &answer, out)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn to_json(a: &Analyze, answer: &Answer) -> Json {
    let mover = a.position.to_move;
    let name = |action| action_name(a.board, action);
    Json {
        width: a.board.width(),
        height: a.board.height(),
        walls: a.walls,
        method: if answer.retro {
            "retrograde"
        } else {
            "proof-search"
        },
        position: format_record(a.board, &a.position),
        to_move: mover.number(),
        verdict: answer.verdict,
        text: answer.verdict.text(mover),
        moves: answer.moves.as_ref().map(|ms| {
            ms.iter()
                .map(|m| JsonMove {
                    action: name(m.action),
                    verdict: m.verdict,
                    text: m.verdict.text(mover),
                })
                .collect()
        }),
        game: answer.game.as_ref().map(|plies| {
            plies
                .iter()
                .map(|p| JsonPly {
                    ply: p.ply,
                    player: p.player.number(),
                    action: name(p.action),
                    before: p.before,
                    after: p.after,
                    mark: mark(p.before, p.after),
                })
                .collect()
        }),
        nodes: answer.nodes,
        seconds: answer.seconds,
    }
}

fn write_text(a: &Analyze, answer: &Answer, out: &mut dyn Write) -> Result<()> {
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
        answer.seconds
    )?;
    Ok(())
}

/// One move of an annotated game.
struct Ply {
    /// 1 for the first move.
    ply: usize,
    player: Player,
    action: Action,
    before: Verdict,
    after: Verdict,
}

/// The value before and after each of `actions` played from `start`, for the mover.
fn annotate(analyst: &mut Analyst, start: Position, actions: &[Action], bars: &Bars) -> Vec<Ply> {
    let mut pos = start;
    let mut before = analyst.verdict(&pos, bars);
    let mut plies = Vec::new();
    for (i, &action) in actions.iter().enumerate() {
        let next = pos.play(action);
        let then = analyst.verdict(&next, bars);
        plies.push(Ply {
            ply: i + 1,
            player: pos.to_move,
            action,
            before,
            after: then.before_move(),
        });
        pos = next;
        before = then;
    }
    plies
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
