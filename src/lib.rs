//! quoridor-solver: exhaustive solving of Quoridor on small boards.
//!
//! Dependencies point one way (see STYLE.md):
//! `geometry <- bitboard <- walls <- position <- notation`, then the configuration tables,
//! move generation (which may read them), the estimates, the searches and the solver on
//! top.

pub mod cell;
pub mod configs;
pub mod error;
pub mod explorer;
pub mod output;
pub mod retro;
pub mod rules;
pub mod search;
pub mod support;
pub mod table;

pub use error::{Error, Result};
