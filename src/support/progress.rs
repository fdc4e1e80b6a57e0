//! How long work reports progress without printing: the library calls a `Progress`, the CLI
//! implements it with progress bars, tests pass `Silent`.

pub trait Progress: Sync {
    /// A new stage of `total` units (0 if unknown) starts.
    fn begin(&self, stage: &str, total: u64);
    /// `units` more units of the current stage are done.
    fn advance(&self, units: u64);
    /// What the current stage is doing now, in a few words (e.g. the depth being searched
    /// and the nodes so far), for a stage whose size is unknown.
    fn status(&self, _text: &str) {}
    /// Whether `status` is shown at all: work that would tell it again and again while it
    /// runs (a search's iteration, from a thread of its own) need not when it is not.
    fn shows_status(&self) -> bool {
        false
    }
    /// A one-line message about the work (e.g. a finished search depth).
    fn message(&self, _text: &str) {}
    /// A one-line warning the user must see whatever the verbosity (e.g. work that could
    /// not be saved): the work goes on.
    fn warn(&self, _text: &str) {}
    /// The current stage is over.
    fn finish(&self);
}

/// Reports nothing.
pub struct Silent;

impl Progress for Silent {
    fn begin(&self, _stage: &str, _total: u64) {}
    fn advance(&self, _units: u64) {}
    fn finish(&self) {}
}
