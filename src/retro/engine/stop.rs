//! The one stop every analysis of the process obeys: asked from outside (a signal handler,
//! the Python binding on Ctrl-C), checked between the groups of a pair of splits and after
//! each pair (or part) is solved.

use crate::error::{Error, Result};
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by `request_stop`: every analysis of the process stops.
static STOP: AtomicBool = AtomicBool::new(false);

/// Asks every retrograde analysis of the process to stop (safe in a signal handler: one
/// atomic store): it ends with `Error::Interrupted` after the groups of configurations it
/// is solving, keeping and writing nothing of the pair of splits (or part) under way, so a
/// layer on disk is always whole. For a caller whose process outlives the stop (the Python
/// binding, on Ctrl-C); the command line ends the process instead, and never asks.
pub fn request_stop() {
    STOP.store(true, Ordering::Relaxed)
}

/// Forgets a stop asked for, so that the next analysis runs.
pub fn clear_stop() {
    STOP.store(false, Ordering::Relaxed)
}

/// Whether `request_stop` was called (the groups of a pair then skip their work).
pub(in crate::retro) fn stop_requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// `Err(Interrupted)` once a stop was asked for: checked after each pair of splits (or
/// part) is solved, before it is kept or written.
pub(in crate::retro) fn check_stop() -> Result<()> {
    match stop_requested() {
        true => Err(Error::Interrupted),
        false => Ok(()),
    }
}
