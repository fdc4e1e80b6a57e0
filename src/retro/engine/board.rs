//! The boards the analysis handles: at most 64 squares, so that its sets of squares are one
//! `u64` word.

use crate::error::Result;

/// The most cells of a board the analysis handles: a local block indexes each pawn's cell
/// in 6 bits (`layout.rs`). Larger boards are for proof search only.
pub const MAX_SQUARES: usize = 64;

/// A cell set narrowed to the `u64` the analysis keeps its sets in: its boards have at most
/// `MAX_SQUARES` (64) cells, and its hot loops run at the speed of one-word masks.
#[inline(always)]
pub fn narrow(set: crate::rules::bitboard::Squares) -> u64 {
    debug_assert!(
        set >> MAX_SQUARES == 0,
        "a set of the analysis has cells below 64"
    );
    set as u64
}

/// Whether the analysis handles `board` (at most `MAX_SQUARES` cells).
pub fn handles(board: crate::rules::geometry::Board) -> bool {
    board.squares() <= MAX_SQUARES
}

/// Refuses a board over `MAX_SQUARES` cells, saying why.
pub fn check_board(board: crate::rules::geometry::Board) -> Result<()> {
    if !handles(board) {
        return Err(crate::Error::BoardTooLarge {
            board: board.to_string(),
            squares: board.squares(),
            max: MAX_SQUARES,
        });
    }
    Ok(())
}
