//! quoridor-solver: exhaustive solving of Quoridor on small boards.
//!
//! Dependencies point one way (see STYLE.md):
//! `geometry <- bitboard <- walls <- position <- notation`, then the configuration tables,
//! move generation (which may read them), the estimates, the searches and the solver on
//! top.

pub mod analysis;
pub mod bitboard;
pub mod campaign;
pub mod configs;
pub mod confirm;
pub mod diagram;
pub mod dir_lock;
pub mod error;
pub mod estimate;
pub mod explorer;
pub mod geometry;
pub mod memory;
pub mod movegen;
pub mod notation;
pub mod output_file;
pub mod perft;
pub mod picture;
pub mod plan;
pub mod position;
pub mod progress;
pub mod report;
pub mod retro;
pub mod search;
pub mod solver;
pub mod table_run;
pub mod tables;
pub mod walls;

pub use error::{Error, Result};
