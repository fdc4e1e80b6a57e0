//! What `analyze` finds about a position (its value and every move's, or every move of a
//! played game) and its JSON (docs/FORMATS.md, `analyze --json`). One function asks the
//! questions and one writes the JSON, for `analyze` and for `serve`'s `/api/analyze`, so the
//! two answer byte for byte alike (but for `seconds`, the time each took).

use crate::cell::analysis::{Analyst, MoveVerdict, Verdict};
use crate::rules::geometry::{Board, Player};
use crate::rules::notation::{action_name, format_record};
use crate::rules::position::{Action, Position};
use crate::support::progress::Progress;
use serde::Serialize;

/// What `analyze` found.
pub struct Answer {
    pub verdict: Verdict,
    /// Every legal move (without a game).
    pub moves: Option<Vec<MoveVerdict>>,
    /// Every move of the game (with a game).
    pub game: Option<Vec<Ply>>,
    /// Whether the values come from the retrograde analysis (exact, draws included).
    pub retro: bool,
    pub nodes: u64,
}

/// One move of an annotated game.
pub struct Ply {
    /// 1 for the first move.
    pub ply: usize,
    pub player: Player,
    pub action: Action,
    /// The best the mover could get, before the move.
    pub before: Verdict,
    /// What the mover gets after the move.
    pub after: Verdict,
}

/// The layers (walls on the board) the questions about `position` touch: its own and the
/// next (its moves), and with a game every layer up to one past the game's last wall. An
/// analyst must keep them (`Analyst::retro`, `saved::load`).
pub fn layers(position: &Position, game: Option<&[Action]>) -> std::ops::Range<usize> {
    let first = position.walls.len() as usize;
    let walls_played = game.map_or(0, |g| {
        g.iter().filter(|a| matches!(a, Action::Wall(_))).count()
    });
    first..first + walls_played + 2
}

/// The positions `answer` asks about: `position` and the position after each of its legal
/// moves, or (with `game`) the positions of the game played from it.
pub fn asked(board: Board, position: &Position, game: Option<&[Action]>) -> Vec<Position> {
    let mut asked = vec![*position];
    match game {
        None if position.winner(board).is_none() => asked.extend(
            position
                .legal_actions(board)
                .into_iter()
                .map(|a| position.play(a)),
        ),
        None => {}
        Some(actions) => {
            let mut pos = *position;
            for &a in actions {
                pos = pos.play(a);
                asked.push(pos);
            }
        }
    }
    asked
}

/// The value of `position` and of every legal move from it, or (with `game`) the value
/// before and after each of the game's actions played from `position`.
pub fn answer(
    analyst: &mut Analyst,
    position: &Position,
    game: Option<&[Action]>,
    progress: &dyn Progress,
) -> Answer {
    let verdict = analyst.verdict(position, progress);
    let (moves, game) = match game {
        None => (Some(analyst.moves(position, progress)), None),
        Some(actions) => (None, Some(annotate(analyst, *position, actions, progress))),
    };
    Answer {
        verdict,
        moves,
        game,
        retro: analyst.is_retro(),
        nodes: analyst.nodes(),
    }
}

/// The value before and after each of `actions` played from `start`, for the mover.
fn annotate(
    analyst: &mut Analyst,
    start: Position,
    actions: &[Action],
    progress: &dyn Progress,
) -> Vec<Ply> {
    let mut pos = start;
    let mut before = analyst.verdict(&pos, progress);
    let mut plies = Vec::new();
    for (i, &action) in actions.iter().enumerate() {
        let next = pos.play(action);
        let then = analyst.verdict(&next, progress);
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
    /// Every legal move, best first (not with a game).
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<JsonMove>>,
    /// Every move of the game (with a game).
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
    before: Verdict,
    after: Verdict,
    /// `throws away the win`, `throws away the draw`, `slower win`, `faster loss`, or
    /// absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    mark: Option<&'static str>,
}

/// The one-line JSON of `answer` about `position` of the cell (`board`, `walls` per
/// player), which took `seconds`; no newline at the end.
pub fn json(board: Board, walls: u8, position: &Position, answer: &Answer, seconds: f64) -> String {
    let mover = position.to_move;
    let name = |action| action_name(board, action);
    let json = Json {
        width: board.width(),
        height: board.height(),
        walls,
        method: if answer.retro {
            "retrograde"
        } else {
            "proof-search"
        },
        position: format_record(board, position),
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
        seconds,
    };
    serde_json::to_string(&json).expect("serializable")
}
