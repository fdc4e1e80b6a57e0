//! `play`: a game in the terminal against perfect play. The user types moves in notation
//! (or `hint`, `undo`, `quit`); the program answers with its best move (the shortest win,
//! else a draw, else the longest defence) and says the value. Lines come from standard
//! input, so a game can be piped in; the end of input ends the game.

use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use quoridor_solver::cell::analysis::Analyst;
use quoridor_solver::cell::evaluate::AnalystConfig;
use quoridor_solver::error::clip;
use quoridor_solver::output::diagram::render;
use quoridor_solver::rules::cell::Cell;
use quoridor_solver::rules::geometry::{Board, Player};
use quoridor_solver::rules::notation::{action_name, format_moves, parse_action};
use quoridor_solver::rules::position::{Action, Position};
use quoridor_solver::{Error, Result};

use super::analyst::AnalystArgs;
use super::progress::Bars;
use super::{CellArgs, PositionArgs};
use quoridor_solver::output::report::analyze::{asked, mark};

/// Play against perfect play in the terminal: type moves in notation (c2, b2h), or hint,
/// undo, quit
#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    cell: CellArgs,

    /// The player you play: 1 (moves first from the start) or 2
    #[arg(long = "as", value_name = "PLAYER", default_value = "1")]
    side: String,

    #[command(flatten)]
    position: PositionArgs,

    #[command(flatten)]
    analyst: AnalystArgs,

    /// Also print the solver's own messages on stderr: a line per search depth, when the answers come from proof search
    #[arg(short, long, conflicts_with = "quiet")]
    pub verbose: bool,

    /// Print nothing on stderr but errors: no progress bars
    #[arg(short, long)]
    pub quiet: bool,
}

pub struct Play {
    board: Board,
    walls: u8,
    user: Player,
    /// Where the game began (the start, or a record) and the moves given before play
    /// (`--moves`), which the record printed at the end includes.
    origin: Position,
    given: Vec<Action>,
    /// The position play starts from: `origin` after `given`.
    position: Position,
    config: AnalystConfig,
}

impl PlayArgs {
    pub fn validate(&self) -> Result<Play> {
        let Cell { board, walls } = self.cell.validate()?;
        let user = match self.side.trim() {
            "1" => Player::One,
            "2" => Player::Two,
            other => {
                return Err(Error::Argument(format!(
                    "--as {}: the player must be 1 or 2",
                    clip(other)
                )));
            }
        };
        let (origin, given) = self.position.validate_line(board, Some(walls), walls)?;
        Ok(Play {
            board,
            walls,
            user,
            origin,
            position: given.iter().fold(origin, |pos, &a| pos.play(a)),
            given,
            config: self.analyst.validate(None)?,
        })
    }
}

const HELP: &str = "type a move in notation (a pawn's cell such as c2, or a wall such as b2h \
                    or b2v), or: hint (the best move), undo (take back your last move), quit";

pub fn run(p: Play, bars: &Bars, out: &mut dyn Write) -> Result<ExitCode> {
    p.config.use_threads()?;
    // A game may reach any layer from the position's on.
    let layers = p.position.walls.len() as usize..usize::MAX;
    let source = p.config.source(p.board, p.walls, layers.clone(), bars)?;
    let mut analyst = p.config.analyst(&source, layers, Instant::now(), bars)?;
    let stdin = std::io::stdin();
    let mut game = Game {
        board: p.board,
        user: p.user,
        origin: p.origin,
        given: p.given,
        start: p.position,
        history: Vec::new(),
    };
    writeln!(out, "You are Player {}. {HELP}.", p.user.number())?;
    // Piped moves are echoed, so that the output reads as the game did.
    let echo = !stdin.is_terminal();
    game.run(&mut analyst, &mut stdin.lock(), echo, out, bars)?;
    Ok(ExitCode::SUCCESS)
}

/// A game in progress.
struct Game {
    board: Board,
    user: Player,
    /// Where the game began, and the moves given before play (not taken back by `undo`).
    origin: Position,
    given: Vec<Action>,
    /// `origin` after `given`: where play began.
    start: Position,
    /// The actions played since `start`.
    history: Vec<Action>,
}

impl Game {
    fn position(&self) -> Position {
        self.history.iter().fold(self.start, |pos, &a| pos.play(a))
    }

    /// The moves so far from where the game began, the given ones included, in notation:
    /// what `show --moves` replays.
    fn moves(&self) -> String {
        let all = [&self.given[..], &self.history[..]].concat();
        format_moves(self.board, self.origin.to_move, &all)
    }

    fn run(
        &mut self,
        analyst: &mut Analyst,
        input: &mut dyn BufRead,
        echo: bool,
        out: &mut dyn Write,
        bars: &Bars,
    ) -> Result<()> {
        let board = self.board;
        let mut show = true;
        loop {
            let pos = self.position();
            // What this turn asks: the position and every move from it.
            analyst.prepare(&asked(board, &pos, None), bars)?;
            if show {
                write!(out, "\n{}", render(board, &pos))?;
                if pos.winner(board).is_none() {
                    let v = analyst.verdict(&pos, bars);
                    writeln!(out, "value: {}", v.text(pos.to_move))?;
                }
            }
            show = true;
            if let Some(winner) = pos.winner(board) {
                let who = if winner == self.user {
                    "you win"
                } else {
                    "the program wins"
                };
                writeln!(
                    out,
                    "Game over: Player {} has won, {who}. Moves: {}",
                    winner.number(),
                    self.moves()
                )?;
                return Ok(());
            }
            let moves = analyst.moves(&pos, bars);
            let Some(best) = moves.first().copied() else {
                writeln!(
                    out,
                    "Game over: Player {} cannot move, a draw by the rules.",
                    pos.to_move.number()
                )?;
                return Ok(());
            };
            if pos.to_move != self.user {
                writeln!(
                    out,
                    "The program (Player {}) plays {}: {}",
                    pos.to_move.number(),
                    action_name(board, best.action),
                    best.verdict.text(pos.to_move)
                )?;
                self.history.push(best.action);
                continue;
            }
            write!(out, "Your move (Player {}): ", self.user.number())?;
            out.flush()?;
            let mut bytes = Vec::new();
            if input.read_until(b'\n', &mut bytes)? == 0 {
                writeln!(
                    out,
                    "\nEnd of input: the game stops here. Moves: {}",
                    self.moves()
                )?;
                return Ok(());
            }
            if echo {
                writeln!(out, "{}", String::from_utf8_lossy(&bytes).trim_end())?;
            }
            show = false;
            // One line that is not text (a stray byte, another encoding) is refused like
            // any other bad move; it does not end the game.
            let Ok(line) = String::from_utf8(bytes) else {
                writeln!(out, "that line is not UTF-8 text; {HELP}")?;
                continue;
            };
            match line.trim() {
                "" => {}
                "quit" | "q" => {
                    writeln!(out, "Quit. Moves: {}", self.moves())?;
                    return Ok(());
                }
                "help" | "?" => writeln!(out, "{HELP}")?,
                "hint" => writeln!(
                    out,
                    "Best: {} ({})",
                    action_name(board, best.action),
                    best.verdict.text(pos.to_move)
                )?,
                "undo" => show = self.undo(out)?,
                text => match parse_action(board, text) {
                    Err(e) => writeln!(out, "{e}; {HELP}")?,
                    Ok(action) => match pos.why_illegal(board, action) {
                        Some(why) => writeln!(out, "{text} is not legal here: {why}")?,
                        None => {
                            let after = moves
                                .iter()
                                .find(|m| m.action == action)
                                .expect("a legal action is among the moves")
                                .verdict;
                            let warning = mark(best.verdict, after)
                                .map_or(String::new(), |m| format!(" ({m})"));
                            writeln!(out, "You play {text}: {}{warning}", after.text(pos.to_move))?;
                            self.history.push(action);
                            show = true;
                        }
                    },
                },
            }
        }
    }

    /// Takes back the user's last move and the program's replies after it; `false` (and
    /// says so) when the user has made no move yet.
    fn undo(&mut self, out: &mut dyn Write) -> Result<bool> {
        let mut pos = self.start;
        let mut last_user = None;
        for (i, &a) in self.history.iter().enumerate() {
            if pos.to_move == self.user {
                last_user = Some(i);
            }
            pos = pos.play(a);
        }
        match last_user {
            Some(i) => {
                self.history.truncate(i);
                writeln!(out, "Took back your last move.")?;
                Ok(true)
            }
            None => {
                writeln!(out, "Nothing to undo: you have not moved yet.")?;
                Ok(false)
            }
        }
    }
}
