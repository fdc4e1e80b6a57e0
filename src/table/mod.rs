//! The results table: which cells a run takes (`select.rs`) and what a table command asks
//! (`request.rs`), a run over many cells (`job.rs` says what it is asked, `run.rs` runs it),
//! the cells a signal cut short, the campaign that goes on across runs, and the
//! confirmation of decided cells by a second method.

pub mod campaign;
pub mod confirm;
pub mod job;
pub mod request;
pub mod run;
pub mod select;
pub mod stopped;

pub use job::{OtherBuilds, Planned, TableEvents, TableRun};
pub use request::{TableJob, TableRequest};
pub use run::{TableSummary, run};
