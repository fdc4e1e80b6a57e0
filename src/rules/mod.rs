//! The rules of the game (RULES.md): the board and its squares, bit sets of squares, walls,
//! positions and their moves, the notation, and the move-path count that checks them. No
//! other layer below it.

pub mod bitboard;
pub mod cell;
pub mod geometry;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod position;
pub mod walls;
