//! Running the analysis: what it will take (`sizing.rs`, the one place of its buffers,
//! slack and rates; `estimate.rs`), its pace (`pace.rs`), in memory (`driver.rs`), in parts
//! through a directory (`parts.rs`), across ranks (`across.rs`), into a saved table
//! (`through.rs`), and the layers read back at the end (`read_back.rs`). Depends on `engine/`
//! and `format/`.

pub(super) mod across;
pub(super) mod driver;
pub(super) mod estimate;
pub(super) mod live;
pub(super) mod pace;
pub(super) mod parts;
pub(super) mod read_back;
pub(super) mod sizing;
pub(super) mod through;
