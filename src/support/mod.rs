//! What every layer may use: the memory budget, the progress trait, a directory taken by
//! one run, and output files written aside and renamed.

pub mod dir_lock;
pub mod memory;
pub mod output_file;
pub mod own_line;
pub mod progress;
#[cfg(test)]
pub mod xorshift;
