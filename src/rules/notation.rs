//! Notation (RULES.md): squares `c2`, walls `b2h` / `b2v`, games `1. c2 c4 2. b2h c3`, and
//! position records `b2 / a1c3 / c2 c4 / 2 3 / 1`, printed and parsed on a given board.
//! Parse errors say what is wrong and where. Notation is lower-case only, as RULES.md
//! writes it (and `Board::parse` its `x`): one spelling, the one printed, so that `B2` is
//! refused with a message that says so rather than read in one place and not another.

use crate::error::{Error, Result, clip, count};
use crate::rules::geometry::{Board, Player, Square};
use crate::rules::position::{Action, MAX_WALLS_PER_PLAYER, Position, PositionError};
use crate::rules::walls::{Clash, Orientation, Wall, WallSet};

pub fn square_name(board: Board, square: Square) -> String {
    let col = (b'a' + board.col(square) as u8) as char;
    format!("{col}{}", board.row(square) + 1)
}

pub fn wall_name(board: Board, wall: Wall) -> String {
    let suffix = match wall.orientation {
        Orientation::Horizontal => 'h',
        Orientation::Vertical => 'v',
    };
    format!("{}{suffix}", square_name(board, wall.anchor))
}

pub fn action_name(board: Board, action: Action) -> String {
    match action {
        Action::Pawn(square) => square_name(board, square),
        Action::Wall(wall) => wall_name(board, wall),
    }
}

/// Words for a geometric clash, e.g. `it overlaps the wall b2h`.
pub fn clash_text(board: Board, clash: Clash) -> String {
    match clash {
        Clash::Same(w) => format!("the wall {} is already there", wall_name(board, w)),
        Clash::Overlaps(w) => format!("it overlaps the wall {}", wall_name(board, w)),
        Clash::Crosses(w) => format!("it crosses the wall {}", wall_name(board, w)),
    }
}

/// Splits `a1`, `c10`, ... into column and 0-based row, without checking the board.
fn split_square(text: &str) -> Option<(usize, usize)> {
    let mut chars = text.chars();
    let letter = chars.next()?;
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let digits = chars.as_str();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
        return None;
    }
    let row: usize = digits.parse().ok()?;
    Some(((letter as u8 - b'a') as usize, row - 1))
}

pub fn parse_square(board: Board, text: &str) -> Result<Square> {
    let (col, row) = split_square(text).ok_or_else(|| {
        Error::Notation(format!(
            "'{}' is not a cell: write a lower-case column letter and a row number, e.g. c2",
            clip(text)
        ))
    })?;
    if col >= board.width() || row >= board.height() {
        return Err(Error::Notation(format!(
            "cell {text} is off a {board} board"
        )));
    }
    Ok(board.square(col, row))
}

/// A wall anchor without its orientation letter (as in position records).
fn parse_anchor(board: Board, text: &str, orientation: Orientation) -> Result<Wall> {
    let suffix = if orientation == Orientation::Horizontal {
        'h'
    } else {
        'v'
    };
    let (col, row) = split_square(text).ok_or_else(|| {
        Error::Notation(format!(
            "'{}' is not a wall anchor: write a lower-case column letter and a row \
             number, e.g. b2",
            clip(text)
        ))
    })?;
    if col + 1 >= board.width() || row + 1 >= board.height() {
        return Err(Error::Notation(format!(
            "wall {text}{suffix} is off a {board} board"
        )));
    }
    Ok(Wall {
        anchor: board.square(col, row),
        orientation,
    })
}

pub fn parse_wall(board: Board, text: &str) -> Result<Wall> {
    let orientation = match text.chars().last() {
        Some('h') => Orientation::Horizontal,
        Some('v') => Orientation::Vertical,
        _ => {
            return Err(Error::Notation(format!(
                "'{}' is not a wall: write its anchor and h or v, in lower case, e.g. b2h",
                clip(text)
            )));
        }
    };
    parse_anchor(board, &text[..text.len() - 1], orientation)
}

/// A square (pawn move) or a wall, told apart by the trailing `h`/`v` (a square ends with a
/// digit: `B2H` is a wall in the wrong case, and is refused as one).
pub fn parse_action(board: Board, text: &str) -> Result<Action> {
    if text.ends_with(['h', 'v', 'H', 'V']) {
        parse_wall(board, text).map(Action::Wall)
    } else {
        parse_square(board, text).map(Action::Pawn)
    }
}

/// Plays a move list such as `1. c2 c4 2. b2h c3` from `start`, checking each action.
/// Returns the actions and the final position. Move numbers are optional, but one that is
/// given must be the one `format_moves` would write there (`N.` before Player 1's ply,
/// `N...` before Player 2's), so that every line this tool prints reads back and a
/// miscounted or misplaced number is refused rather than ignored.
pub fn parse_moves(board: Board, start: Position, text: &str) -> Result<(Vec<Action>, Position)> {
    let mut pos = start;
    let mut actions = Vec::new();
    let mut numbered = false;
    for token in text.split_whitespace() {
        let ply = actions.len() + start.to_move.index();
        let at = |m: String| Error::Notation(format!("move {}: {m}", actions.len() + 1));
        if let Some((number, dots)) = split_move_number(token) {
            let expected = expected_move_number(ply);
            if numbered {
                return Err(at(format!("'{}' follows another move number", clip(token))));
            }
            if number != ply / 2 + 1 || dots != expected.1 {
                return Err(at(format!(
                    "'{}' is not the move number here: Player {} is to move, so {} or none",
                    clip(token),
                    pos.to_move.number(),
                    expected.0
                )));
            }
            numbered = true;
            continue;
        }
        numbered = false;
        let action = parse_action(board, token).map_err(|e| match e {
            Error::Notation(m) => at(m),
            other => other,
        })?;
        if let Some(why) = pos.why_illegal(board, action) {
            return Err(Error::IllegalAction(format!(
                "{token} is not a legal move for Player {} (move {}): {why}",
                pos.to_move.number(),
                actions.len() + 1
            )));
        }
        pos = pos.play(action);
        actions.push(action);
    }
    if numbered {
        return Err(Error::Notation(format!(
            "move {}: a move number with no move after it",
            actions.len() + 1
        )));
    }
    Ok((actions, pos))
}

/// `12.` into (12, "."), `1...` into (1, "..."); anything else is not a move number.
fn split_move_number(token: &str) -> Option<(usize, &str)> {
    let digits_end = token.find(|c: char| !c.is_ascii_digit())?;
    let (digits, dots) = token.split_at(digits_end);
    if digits.is_empty() || !matches!(dots, "." | "...") {
        return None;
    }
    // A number too large for a usize is no move's number: the caller says so.
    Some((digits.parse().unwrap_or(usize::MAX), dots))
}

/// The number `format_moves` writes before ply `ply` (counted from Player 1's first), and
/// its dots: `N.` before Player 1's ply, `N...` before Player 2's.
fn expected_move_number(ply: usize) -> (String, &'static str) {
    let n = ply / 2 + 1;
    match ply % 2 {
        0 => (format!("{n}."), "."),
        _ => (format!("{n}..."), "..."),
    }
}

/// Writes actions as a game: `1. c2 c4 2. b2h c3`. When Player 2 moves first, the first
/// number is written `1...`.
pub fn format_moves(board: Board, first: Player, actions: &[Action]) -> String {
    let mut out = Vec::new();
    let offset = first.index();
    for (i, &a) in actions.iter().enumerate() {
        let ply = i + offset;
        if ply.is_multiple_of(2) {
            out.push(format!("{}.", ply / 2 + 1));
        } else if i == 0 {
            out.push("1...".to_string());
        }
        out.push(action_name(board, a));
    }
    out.join(" ")
}

/// The record of a position: `<h walls> / <v walls> / <P1> <P2> / <P1 left> <P2 left> / <to move>`.
pub fn format_record(board: Board, pos: &Position) -> String {
    let list = |bits: crate::rules::bitboard::Squares| {
        let s: String = crate::rules::bitboard::bits(bits)
            .map(|a| (board.col(a), board.row(a), a))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .map(|(_, _, a)| square_name(board, a))
            .collect();
        if s.is_empty() { "-".to_string() } else { s }
    };
    format!(
        "{} / {} / {} {} / {} {} / {}",
        list(pos.walls.horizontal),
        list(pos.walls.vertical),
        square_name(board, pos.pawns[0]),
        square_name(board, pos.pawns[1]),
        pos.left[0],
        pos.left[1],
        pos.to_move.number()
    )
}

/// Parses a record on `board`; with `walls_per_player`, walls left above it is an error.
/// The result is validated (`Position::validate`).
pub fn parse_record(board: Board, text: &str, walls_per_player: Option<u8>) -> Result<Position> {
    let fields: Vec<&str> = text.split('/').map(str::trim).collect();
    let bad = |m: String| Error::Notation(format!("position record '{}': {m}", clip(text)));
    if fields.len() != 5 {
        return Err(bad(format!(
            "expected 5 fields separated by '/', found {}",
            fields.len()
        )));
    }
    let mut walls = WallSet::EMPTY;
    for (field, orientation, name) in [
        (fields[0], Orientation::Horizontal, "horizontal walls"),
        (fields[1], Orientation::Vertical, "vertical walls"),
    ] {
        if field == "-" {
            continue;
        }
        for anchor in split_anchor_list(field).map_err(|m| bad(format!("{name}: {m}")))? {
            let wall = parse_anchor(board, anchor, orientation)
                .map_err(|e| bad(format!("{name}: {e}")))?;
            if let Some(clash) = walls.clash(board, wall) {
                let name = wall_name(board, wall);
                return Err(bad(format!(
                    "the wall {name}: {}",
                    clash_text(board, clash)
                )));
            }
            walls = walls.with(wall);
        }
    }
    let pawns: Vec<&str> = fields[2].split_whitespace().collect();
    if pawns.len() != 2 {
        return Err(bad("the pawns field needs two cells, e.g. c2 c4".into()));
    }
    let p1 = parse_square(board, pawns[0]).map_err(|e| bad(format!("Player 1's pawn: {e}")))?;
    let p2 = parse_square(board, pawns[1]).map_err(|e| bad(format!("Player 2's pawn: {e}")))?;
    let counts: Vec<&str> = fields[3].split_whitespace().collect();
    let count = |s: &str, who: u8| -> Result<u8> {
        let n: u32 = s.parse().map_err(|_| {
            bad(format!(
                "walls left for Player {who}: '{}' is not a number",
                clip(s)
            ))
        })?;
        u8::try_from(n).map_err(|_| {
            bad(format!(
                "Player {who} has {n} walls left: at most {} are supported",
                crate::rules::position::MAX_WALLS_PER_PLAYER
            ))
        })
    };
    if counts.len() != 2 {
        return Err(bad(
            "the walls-left field needs two numbers, e.g. 2 3".into()
        ));
    }
    let left = [count(counts[0], 1)?, count(counts[1], 2)?];
    let to_move = match fields[4] {
        "1" => Player::One,
        "2" => Player::Two,
        other => {
            return Err(bad(format!(
                "player to move: '{}' is not 1 or 2",
                clip(other)
            )));
        }
    };
    let pos = Position {
        walls,
        pawns: [p1, p2],
        left,
        to_move,
    };
    pos.validate(board, walls_per_player)
        .map_err(|e| bad(position_error_text(board, e)))?;
    Ok(pos)
}

/// Why a position cannot stand, in words and notation.
pub fn position_error_text(board: Board, e: PositionError) -> String {
    match e {
        PositionError::PawnOffBoard(p) => format!("Player {}'s pawn is off the board", p.number()),
        PositionError::SameCell => "both pawns stand on the same cell".into(),
        PositionError::WallOffBoard => "a wall is off the board".into(),
        PositionError::WallClash(wall, clash) => format!(
            "the wall {} {}",
            wall_name(board, wall),
            clash_text(board, clash)
        ),
        PositionError::NoPath(p, square) => format!(
            "Player {}'s pawn on {} has no path to its goal row",
            p.number(),
            square_name(board, square)
        ),
        PositionError::BothHome => "both pawns stand on their goal rows".into(),
        PositionError::TooManyLeft(p, left) => format!(
            "Player {} has {left} walls left: at most {MAX_WALLS_PER_PLAYER} are supported",
            p.number()
        ),
        PositionError::MoreLeftThanDealt(p, left, dealt) => format!(
            "Player {} has {} left, more than the {} per player",
            p.number(),
            count(left, "wall"),
            count(dealt, "wall")
        ),
        // `used` is both players' together: said as such, with what each has left, not
        // as a count "each" (0 placed, 5 and 5 left of 10 read "used 10 of their 10 each").
        PositionError::WallsDoNotAddUp {
            placed,
            used,
            left: [one, two],
            dealt,
        } => format!(
            "{} on the board, but with {one} and {two} left of their {} each the players \
             have placed {used} between them",
            count(placed, "wall"),
            count(dealt, "wall")
        ),
    }
}

/// `a1c3a10` into `["a1", "c3", "a10"]`: each anchor starts with a letter.
fn split_anchor_list(field: &str) -> std::result::Result<Vec<&str>, String> {
    if field.contains(char::is_whitespace) {
        return Err(format!(
            "'{}' has spaces: write anchors together, e.g. a1c3",
            clip(field)
        ));
    }
    let starts: Vec<usize> = field
        .char_indices()
        .filter(|(_, c)| c.is_ascii_lowercase())
        .map(|(i, _)| i)
        .collect();
    if starts.first() != Some(&0) {
        return Err(format!(
            "'{}' must start with a lower-case column letter",
            clip(field)
        ));
    }
    Ok(starts
        .iter()
        .zip(starts.iter().skip(1).chain([&field.len()]))
        .map(|(&a, &b)| &field[a..b])
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b55() -> Board {
        Board::new(5, 5).unwrap()
    }

    #[test]
    fn cells_and_walls_round_trip() {
        let b = Board::new(3, 12).unwrap();
        for square in 0..b.squares() as Square {
            assert_eq!(parse_square(b, &square_name(b, square)).unwrap(), square);
        }
        assert_eq!(square_name(b, b.square(0, 9)), "a10");
        let w = parse_wall(b55(), "b2h").unwrap();
        assert_eq!(w.anchor, b55().square(1, 1));
        assert_eq!(wall_name(b55(), w), "b2h");
    }

    #[test]
    fn errors_say_what_and_where() {
        let e = parse_wall(b55(), "j2h").unwrap_err().to_string();
        assert_eq!(e, "wall j2h is off a 5x5 board");
        assert!(
            parse_wall(b55(), "e2h").is_err(),
            "column e has no anchor on 5x5"
        );
        assert!(parse_square(b55(), "a0").is_err());
        assert!(parse_square(b55(), "a6").is_err());
        assert!(parse_square(b55(), "A1").is_err());
        let start = Position::start(b55(), 3).unwrap();
        let e = parse_moves(b55(), start, "1. c2 c4 2. c2h b4 3. c3").unwrap_err();
        assert_eq!(
            e.to_string(),
            "c3 is not a legal move for Player 1 (move 5): the wall c2h blocks it"
        );
        let e = parse_moves(b55(), start, "1. c2 c4 2. b2h b2v").unwrap_err();
        assert!(e.to_string().ends_with("it crosses the wall b2h"), "{e}");
    }

    #[test]
    fn records_round_trip() {
        let b = b55();
        let text = "b2 / a1c3 / c2 c4 / 2 3 / 1";
        let pos = parse_record(b, text, None).unwrap();
        assert_eq!(format_record(b, &pos), text);
        assert!(
            parse_record(b, text, Some(2)).is_err(),
            "3 walls left > N = 2"
        );
        assert!(
            parse_record(b, "b2 / b2 / c2 c4 / 2 3 / 1", None).is_err(),
            "crossing"
        );
        assert!(parse_record(b, "- / - / c2 c2 / 2 3 / 1", None).is_err());
        assert!(parse_record(b, "- / - / c2 c4 / 2 3", None).is_err());
        for left in ["40", "300"] {
            let e = parse_record(b, &format!("- / - / c2 c4 / {left} 3 / 1"), None).unwrap_err();
            let e = e.to_string();
            assert!(e.starts_with("position record"), "{e}");
            assert!(
                e.contains(&format!("Player 1 has {left} walls left: at most 31")),
                "{e}"
            );
        }
        let start = Position::start(b, 3).unwrap();
        assert_eq!(format_record(b, &start), "- / - / c1 c5 / 3 3 / 1");
    }

    #[test]
    fn games_round_trip() {
        let b = b55();
        let start = Position::start(b, 3).unwrap();
        let (actions, _) = parse_moves(b, start, "1. c2 c4 2. b2h c3").unwrap();
        assert_eq!(format_moves(b, Player::One, &actions), "1. c2 c4 2. b2h c3");
        assert_eq!(
            format_moves(b, Player::Two, &actions[1..]),
            "1... c4 2. b2h c3"
        );
    }

    #[test]
    fn move_numbers_must_be_the_ones_format_moves_writes() {
        let b = b55();
        let start = Position::start(b, 3).unwrap();
        let (line, _) = parse_moves(b, start, "c2 c4 b2h c3 c1v").unwrap();
        for first in [Player::One, Player::Two] {
            let from = usize::from(first == Player::Two);
            let pos = match first {
                Player::One => start,
                Player::Two => start.play(line[0]),
            };
            let text = format_moves(b, first, &line[from..]);
            let (back, _) = parse_moves(b, pos, &text).unwrap();
            assert_eq!(back, line[from..], "{text}");
        }
        for (text, why) in [
            (
                "1. c2 5. c4",
                "move 2: '5.' is not the move number here: Player 2 is to move, so 1... or none",
            ),
            (
                "2. c2",
                "move 1: '2.' is not the move number here: Player 1 is to move, so 1. or none",
            ),
            (
                "1. c2 c4 3. b2h",
                "move 3: '3.' is not the move number here: Player 1 is to move, so 2. or none",
            ),
            (
                "1. c2 2. c4",
                "move 2: '2.' is not the move number here: Player 2 is to move, so 1... or none",
            ),
            ("1. 1. c2", "move 1: '1.' follows another move number"),
            ("1. c2 c4 2.", "move 3: a move number with no move after it"),
        ] {
            let e = parse_moves(b, start, text).unwrap_err().to_string();
            assert_eq!(e, why, "{text}");
        }
    }
}
