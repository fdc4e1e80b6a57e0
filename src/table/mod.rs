//! The results table: a run over many cells (`job.rs` says what it is asked, `run.rs` runs
//! it), the cells a signal cut short, the campaign that goes on across runs, and the
//! confirmation of decided cells by a second method.

pub mod campaign;
pub mod confirm;
pub mod job;
pub mod run;
pub mod stopped;

pub use job::{Planned, TableEvents, TableRun};
pub use run::{TableSummary, run};
