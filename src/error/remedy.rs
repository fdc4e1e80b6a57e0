//! The wordings of errors whose remedy an edge names in its own terms: each takes the
//! remedy's words (the library's, or an edge's flags) so that the rest of the sentence is
//! written once.

use super::words::format_bytes;
use std::path::Path;

/// `Error::TooManyAnchors`, `how` saying how to ask for the proof search (after "only
/// proof search").
pub fn anchors_text(board: &str, anchors: usize, how: &str) -> String {
    format!(
        "{board} has {anchors} wall anchors, more than the 64 whose configurations the full \
         wall-configuration tables can number (9x9 has 64): only proof search{how}, which \
         builds configurations on demand, handles it"
    )
}

/// `Error::CheckpointUnusable`, `without` naming how to run without the checkpoint.
pub fn checkpoint_unusable_text(path: &Path, why: &str, without: &str) -> String {
    format!(
        "cannot resume from {}: {why}; delete it to start again, or run without {without}",
        path.display()
    )
}

/// `Error::CheckpointTable`, `give` saying how to give the run a table of `bytes` (given
/// the size in the form a flag takes, e.g. `1.50G`).
pub fn checkpoint_table_text(
    path: &Path,
    bytes: u64,
    given: u64,
    give: &dyn Fn(&str) -> String,
) -> String {
    let size = format_bytes(bytes).replace(' ', "").replace("iB", "");
    format!(
        "the table in {} takes {}, more than this run gives its table ({}): {} (and a memory \
         budget that leaves room for it)",
        path.display(),
        format_bytes(bytes),
        format_bytes(given),
        give(&size)
    )
}

/// `Error::NotSavedTables`, `give` saying which directories hold saved tables.
pub fn not_saved_tables_text(dir: &Path, foreign: &str, give: &str) -> String {
    format!(
        "{} holds {foreign}, which is not a saved table's: give {give}",
        dir.display()
    )
}
