//! The algorithm of the analysis, with no file I/O: how a layer is laid out and folded by
//! symmetry (`layout.rs`, `symmetry.rs`), a position's code and how a layer packs codes
//! (`code.rs`, `store.rs`), one block's pawn game (`pawn_graph.rs`, `block.rs`, decided a
//! row of positions at a time in `levels.rs`; its twin in the tests `buckets.rs`), a pair
//! of splits of a layer (`layer.rs`; its pushes a row at a time, exact in `push_rows.rs`,
//! 2-bit in `push_outcomes.rs`, lowering words of exits atomically by `words.rs`),
//! what it reads of the configurations (`source.rs`), the queries on a solved cell
//! (`solved.rs`, `line.rs`), the answers (`value.rs`), the boards it handles (`board.rs`),
//! its stop (`stop.rs`) and the ranks it may run on (`ranks.rs`).
//! Depends on nothing else of `retro/`.

pub(super) mod block;
pub(super) mod board;
#[cfg(test)]
mod buckets;
pub(super) mod code;
pub(super) mod layer;
pub(super) mod layout;
mod levels;
pub(super) mod line;
pub(super) mod pawn_graph;
pub mod prefix;
mod push_outcomes;
mod push_rows;
pub mod ranks;
pub(super) mod solved;
pub mod source;
pub(super) mod stop;
pub(super) mod store;
pub(super) mod symmetry;
pub(super) mod value;
#[cfg(target_arch = "x86_64")]
mod words;
