//! The one-byte value of a position in the store, from the view of the player to move,
//! ordered by that player's preference, so that the best move is a plain `min` over the
//! codes of the positions it leads to (the worst for the opponent):
//!
//! ```text
//!  code 0 ..= 126    Loss(2c): the mover loses in 2c plies (code 0: the game is over, the
//!                    other player has won)
//!  code 127          Draw; also "undecided" while propagating (undecided ends as a draw)
//!  code 128 ..= 254  Win(2(255 - c) - 1): the mover wins in 253, 251, ..., 1 plies
//!  code 255          Win(0): the mover's own pawn is home (such a position is never
//!                    reached by play, but it is a position of the block)
//! ```
//!
//! Parity is enough: from a position that is not over the mover plays plies 1, 3, 5, ...,
//! so the player who makes the last ply of an r-ply finish is the mover iff r is odd. The
//! order is the mover's: losing sooner, later, a draw, winning later, sooner. Depends on
//! nothing but the `Value` type.

use super::value::Value;

/// A stored value (see the module doc).
pub type Code = u8;

pub const LOSS_NOW: Code = 0;
pub const UNDECIDED: Code = 127;
pub const WIN_NOW: Code = 255;
/// A win in one ply (`decided(1)`).
pub const WIN_IN_ONE: Code = 254;

/// A remoteness above `MAX_REMOTENESS` turned up: the store cannot hold it.
#[derive(Debug)]
pub struct TooDeep;

/// The best wall move of a position that has none. No wall move reaches `WIN_NOW` (a wall
/// moves no pawn, and positions that are over have no moves), so it cannot be confused.
pub const NO_EXIT: Code = WIN_NOW;

/// The longest remoteness a code holds (a loss of 252 plies; wins go to 253).
pub const MAX_REMOTENESS: usize = 252;

/// The code of a position decided with remoteness `r` (1..=`MAX_REMOTENESS`): a win if `r`
/// is odd, a loss if even.
#[inline(always)]
pub fn decided(r: usize) -> Code {
    debug_assert!((1..=MAX_REMOTENESS).contains(&r));
    if r % 2 == 1 {
        (255 - r.div_ceil(2)) as Code
    } else {
        (r / 2) as Code
    }
}

/// Whether a decided code is a loss for the player to move.
#[inline(always)]
pub fn is_loss(code: Code) -> bool {
    code < UNDECIDED
}

/// Whether a decided code is a win for the player to move.
#[inline(always)]
pub fn is_win(code: Code) -> bool {
    code > UNDECIDED
}

/// The value a code stands for, once propagation is over.
pub fn value(code: Code) -> Value {
    match code {
        UNDECIDED => Value::Draw,
        WIN_NOW => Value::Win(0),
        c if c < UNDECIDED => Value::Loss(2 * c as u32),
        c => Value::Win(2 * (255 - c as u32) - 1),
    }
}

/// The value, for the player to move, of the best of their moves (the smallest code among
/// the positions they lead to, stored from the *opponent's* view); `None` for `NO_EXIT`.
/// `levels.rs` reads the same from the code's range, a position at a time; this is the
/// tests' plain statement of it.
#[cfg(test)]
pub fn exit_value(best: Code) -> Option<Value> {
    match value(best) {
        _ if best == NO_EXIT => None,
        Value::Loss(r) => Some(Value::Win(r + 1)),
        Value::Win(r) => Some(Value::Loss(r + 1)),
        Value::Draw => Some(Value::Draw),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_parity_decides() {
        assert_eq!(value(UNDECIDED), Value::Draw);
        assert_eq!(value(LOSS_NOW), Value::Loss(0));
        assert_eq!(value(WIN_NOW), Value::Win(0));
        let mut seen = vec![UNDECIDED, LOSS_NOW, WIN_NOW];
        for r in 1..=MAX_REMOTENESS {
            let c = decided(r);
            let want = if r % 2 == 1 {
                Value::Win(r as u32)
            } else {
                Value::Loss(r as u32)
            };
            assert_eq!(value(c), want);
            assert_eq!(is_win(c), r % 2 == 1);
            assert_eq!(is_loss(c), r % 2 == 0);
            seen.push(c);
        }
        assert!(!is_win(UNDECIDED) && !is_loss(UNDECIDED));
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), MAX_REMOTENESS + 3, "codes are distinct");
    }

    /// The code order is the mover's preference, so the smallest code among a player's
    /// moves is the opponent's worst and the player's best; `exit_value` turns it round.
    #[test]
    fn codes_follow_the_movers_preference() {
        let preference = |v: Value| -> i64 {
            match v {
                Value::Win(r) => 1000 - r as i64,
                Value::Draw => 0,
                Value::Loss(r) => -1000 + r as i64,
            }
        };
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                assert_eq!(a.cmp(&b), preference(value(a)).cmp(&preference(value(b))));
            }
            let mover = match value(a) {
                Value::Win(r) => Value::Loss(r + 1),
                Value::Loss(r) => Value::Win(r + 1),
                Value::Draw => Value::Draw,
            };
            let want = if a == NO_EXIT { None } else { Some(mover) };
            assert_eq!(exit_value(a), want, "code {a}");
        }
    }
}
