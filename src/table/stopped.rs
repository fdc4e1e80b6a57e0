//! A cell's search cut short by a signal: the row is not written and its checkpoint is
//! kept for the next run; and the checkpoint of a cell that needs it no more, removed.

use std::path::Path;

use crate::cell::solver::{CellResult, Outcome};
use crate::error::count;
use crate::table::job::TableEvents;

/// Whether a signal stopped the search that left `result` unsolved: undecided, or a win
/// whose length the search after a compact analysis was looking for (it saved its table
/// in `checkpoint` first: `search::request_stop`). Such a row is not written: it took
/// less than its limit, and the next run goes on from the table. Says what is kept.
pub fn cut_short(result: &CellResult, checkpoint: Option<&Path>, events: &dyn TableEvents) -> bool {
    let solved = match result.outcome {
        Outcome::Unknown => false,
        Outcome::Draw => true,
        Outcome::Player1 | Outcome::Player2 => result.plies.is_some(),
    };
    if !crate::search::stop_requested() || solved {
        return false;
    }
    let found = match result.outcome.winning_player() {
        Some(p) => format!(
            "Player {} wins, the search for the length stopped at depth {}",
            p.number(),
            result.depth_reached
        ),
        // The deepest iteration that failed, whoever's: a search for one player's wins
        // leaves the other's at 0.
        None => format!(
            "no win within {}",
            count(result.no_win.into_iter().max().unwrap_or(0), "ply")
        ),
    };
    events.line(&format!(
        "{}x{} with {}: stopped after {:.0} s{}, {found}{}",
        result.width,
        result.height,
        count(result.walls, "wall"),
        result.seconds,
        result.earlier_note(),
        checkpoint.map_or(String::new(), |c| format!(
            "; its search's table saved in {}",
            c.display()
        ))
    ));
    true
}

/// Removes a checkpoint of a cell that needs it no more (a missing one is fine).
pub fn remove_checkpoint(path: &Path, events: &dyn TableEvents) {
    match std::fs::remove_file(path) {
        Ok(()) => events.line(&format!("{} removed: the cell is solved", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => events.warn(&format!("{} could not be removed: {e}", path.display())),
    }
}
