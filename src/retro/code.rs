//! The one-byte value of a position in the store, from the view of the player to move, and
//! the rank by which a player compares the values their moves lead to.
//!
//! ```text
//!  code 0        undecided while propagating; a draw once propagation stops
//!  code 1        Loss(0): the game is over and the other player has won
//!  code 2        Win(0): the game is over and the mover's own pawn is home (such a
//!                position is never reached by play, but it is a position of the block)
//!  code r + 2    remoteness r in 1..=253: a win if r is odd, a loss if r is even
//! ```
//!
//! Parity is enough for r >= 1: from a position that is not over the mover plays plies
//! 1, 3, 5, ..., so the player who makes the last ply of an r-ply finish is the mover iff r
//! is odd. Depends on nothing but the `Value` type.

use super::Value;

/// A stored value (see the module doc).
pub type Code = u8;

pub const UNDECIDED: Code = 0;
pub const LOSS_NOW: Code = 1;
pub const WIN_NOW: Code = 2;

/// The longest remoteness a code holds.
pub const MAX_REMOTENESS: usize = Code::MAX as usize - 2;

/// The code of a position decided with remoteness `r` (1..=`MAX_REMOTENESS`).
#[inline(always)]
pub fn decided(r: usize) -> Code {
    debug_assert!((1..=MAX_REMOTENESS).contains(&r));
    (r + 2) as Code
}

/// Whether a decided code is a loss for the player to move.
#[inline(always)]
pub fn is_loss(code: Code) -> bool {
    code == LOSS_NOW || (code > WIN_NOW && code.is_multiple_of(2))
}

/// Whether a decided code is a win for the player to move.
#[inline(always)]
pub fn is_win(code: Code) -> bool {
    code == WIN_NOW || (code > WIN_NOW && !code.is_multiple_of(2))
}

/// The value a code stands for, once propagation is over.
pub fn value(code: Code) -> Value {
    match code {
        UNDECIDED => Value::Draw,
        LOSS_NOW => Value::Loss(0),
        WIN_NOW => Value::Win(0),
        c if is_win(c) => Value::Win(c as u32 - 2),
        c => Value::Loss(c as u32 - 2),
    }
}

/// How much the player to move likes a move, from the code of the position it leads to
/// (stored from the *opponent's* view). Bigger is better, so the best of several moves is
/// a plain `max`:
///
/// ```text
///  0                  no move seen (NO_EXIT)
///  1 ..= 254          Loss(r): rank r (holding out longer is better)
///  256                Draw
///  258 ..= 511        Win(r): rank 512 - r (winning sooner is better)
/// ```
pub type Rank = u16;

pub const NO_EXIT: Rank = 0;
const DRAW_RANK: Rank = 256;
const WIN_BASE: Rank = 512;

/// `RANK[code]`: the mover's rank of a move to a position whose code is `code`.
pub static RANK: [Rank; 256] = rank_table();

const fn rank_table() -> [Rank; 256] {
    let mut t = [0; 256];
    let mut c = 0;
    while c < 256 {
        // The child's remoteness, and whether it is a loss for the child's mover.
        let (r, child_lost) = match c {
            0 => (0, false),
            1 => (0, true),
            2 => (0, false),
            _ => (c - 2, (c - 2) % 2 == 0),
        };
        t[c] = if c == 0 {
            DRAW_RANK
        } else if child_lost {
            WIN_BASE - (r + 1) as Rank
        } else {
            (r + 1) as Rank
        };
        c += 1;
    }
    t
}

/// The value (mover's view) of the best move a rank stands for; `None` for `NO_EXIT`.
pub fn exit_value(rank: Rank) -> Option<Value> {
    match rank {
        NO_EXIT => None,
        r if r < DRAW_RANK => Some(Value::Loss(r as u32)),
        DRAW_RANK => Some(Value::Draw),
        r => Some(Value::Win((WIN_BASE - r) as u32)),
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
        }
        assert!(!is_win(UNDECIDED) && !is_loss(UNDECIDED));
    }

    /// The rank order is the mover's preference: wins sooner, then later, then a draw, then
    /// losses later, then sooner.
    #[test]
    fn ranks_follow_the_movers_preference() {
        let preference = |v: Value| -> i64 {
            match v {
                Value::Win(r) => 1000 - r as i64,
                Value::Draw => 0,
                Value::Loss(r) => -1000 + r as i64,
            }
        };
        let mut seen = Vec::new();
        for c in 0..=255u8 {
            let mover = match value(c) {
                Value::Win(r) => Value::Loss(r + 1),
                Value::Loss(r) => Value::Win(r + 1),
                Value::Draw => Value::Draw,
            };
            assert_eq!(exit_value(RANK[c as usize]), Some(mover), "code {c}");
            seen.push((RANK[c as usize], preference(mover)));
        }
        for &(ra, pa) in &seen {
            for &(rb, pb) in &seen {
                assert_eq!(ra.cmp(&rb), pa.cmp(&pb));
            }
        }
        assert!(seen.iter().all(|&(r, _)| r > NO_EXIT));
    }
}
