//! One proof search of a cell as the solver runs it: its limits, the known outcomes it
//! prunes with, and its checkpoint (opened, kept apart from a search of another kind,
//! saved between runs), and what it found written into the cell's result.

use crate::cell::outcome::{CellResult, Outcome};
use crate::cell::plan::SolveOptions;
use crate::configs::ConfigTables;
use crate::error::{Error, Result};
use crate::rules::geometry::Player;
use crate::rules::position::Position;
use crate::search::Checkpoint;
use crate::search::{self, Oracle};
use crate::support::progress::Progress;
use std::time::{Duration, Instant};

/// How one proof search runs.
pub(super) struct SearchRun<'a> {
    pub(super) time_limit: Option<Duration>,
    /// Known outcomes to prune with.
    pub(super) oracle: Option<&'a dyn Oracle>,
    /// The winner, when known: only their depths are asked (`None`: both players').
    pub(super) winner: Option<Player>,
    /// Bytes the transposition table may take at most.
    pub(super) tt_room: u64,
    /// Where the table is kept between runs.
    pub(super) checkpoint: Option<&'a Checkpoint>,
}

/// The checkpoint the options name, if any, with its table read back when its file
/// exists, which must fit `tt_room`.
pub(super) fn open_checkpoint<T: ConfigTables>(
    tables: &T,
    options: &SolveOptions,
    tt_room: u64,
) -> Result<Option<Checkpoint>> {
    let Some(path) = &options.checkpoint else {
        return Ok(None);
    };
    let checkpoint = Checkpoint::open(path, tables)?;
    if let Some(bytes) = checkpoint.table_bytes()
        && bytes > tt_room
    {
        return Err(Error::CheckpointTable {
            path: path.clone(),
            bytes,
            given: tt_room,
        });
    }
    Ok(Some(checkpoint))
}

/// The checkpoint of a proof search from the start, if the options name one: a file it
/// cannot take refuses the run, or with `in_campaign` is left as it is.
pub(super) fn search_checkpoint<T: ConfigTables>(
    tables: &T,
    options: &SolveOptions,
    tt_room: u64,
    progress: &dyn Progress,
) -> Result<Option<Checkpoint>> {
    match options.in_campaign {
        true => Ok(kept_apart(tables, options, tt_room, "the search", progress)),
        false => open_checkpoint(tables, options, tt_room),
    }
}

/// The checkpoint, or where its file cannot be taken (damaged, another cell's, a table
/// larger than the room), the reason warned about and, in a campaign, the file moved aside
/// to `NAME.set-aside` (named in the warning), so that `who` saves its own table in its
/// place: a file left where it was would be refused again by every later run, each
/// starting from nothing. Else (`solve --checkpoint`: the user's file) `who` runs without
/// a checkpoint and the file is left as it is.
pub(super) fn kept_apart<T: ConfigTables>(
    tables: &T,
    options: &SolveOptions,
    tt_room: u64,
    who: &str,
    progress: &dyn Progress,
) -> Option<Checkpoint> {
    let e = match open_checkpoint(tables, options, tt_room) {
        Ok(checkpoint) => return checkpoint,
        Err(e) => e,
    };
    let path = options
        .checkpoint
        .as_ref()
        .expect("an error opening it names one");
    let mut aside = path.clone().into_os_string();
    aside.push(".set-aside");
    let aside = std::path::PathBuf::from(aside);
    // A campaign's own file only: `solve --checkpoint` names a file the user keeps.
    if options.in_campaign && path.is_file() && std::fs::rename(path, &aside).is_ok() {
        progress.warn(&format!(
            "{e}; the file is moved to {}, and {who} saves its own table in its place",
            aside.display()
        ));
        // The path is free now: a checkpoint that starts empty.
        return open_checkpoint(tables, options, tt_room).ok().flatten();
    }
    progress.warn(&format!(
        "{e}; {who} runs without the checkpoint, which is left as it is"
    ));
    None
}

/// The checkpoint of the search for the length after a compact analysis, if the options
/// name one. Its facts hold there too: the outcomes prune only nodes the attacker cannot
/// win at all, so every refutation stored is true without them. A file this search cannot
/// take (damaged, another cell's, a table larger than its room) is left as it is, and the
/// length is searched without it rather than lose the analysis's answer.
pub(super) fn length_checkpoint<T: ConfigTables>(
    tables: &T,
    options: &SolveOptions,
    tt_room: u64,
    progress: &dyn Progress,
) -> Option<Checkpoint> {
    kept_apart(
        tables,
        options,
        tt_room,
        "the search for the length",
        progress,
    )
}

/// Proof search from the start (for the known winner only, if any) into `result`.
pub(super) fn search_cell<T: ConfigTables>(
    tables: &T,
    options: &SolveOptions,
    started: Instant,
    run: &SearchRun,
    progress: &dyn Progress,
    result: &mut CellResult,
) -> Result<search::SearchResult> {
    let limits = search_limits(options, started, run);
    let start = Position::start(tables.board(), tables.walls_per_player())?;
    let found = search::solve(tables, &start, &limits, progress);
    record_found(&found, options, &start, result);
    result.checkpoint_saved = run.checkpoint.and_then(Checkpoint::last_outcome);
    Ok(found)
}

/// The search's limits for one run.
pub(super) fn search_limits<'a>(
    options: &SolveOptions,
    started: Instant,
    run: &SearchRun<'a>,
) -> search::Limits<'a> {
    // A campaign's cell has one limit over all its runs (`SolveOptions::in_campaign`).
    // A header's seconds are finite and not negative, but may be past what a Duration
    // holds: such a cell has no time left.
    let earlier = match (options.in_campaign, run.checkpoint) {
        (true, Some(checkpoint)) => {
            Duration::try_from_secs_f64(checkpoint.earlier().seconds).unwrap_or(Duration::MAX)
        }
        _ => Duration::ZERO,
    };
    search::Limits {
        max_depth: options.max_depth,
        deadline: run.time_limit.map(|t| started + t.saturating_sub(earlier)),
        tt_bytes: run.tt_room,
        parallel: options.threads > 1,
        winner: run.winner,
        oracle: run.oracle,
        checkpoint: run.checkpoint,
    }
}

/// What a search from `start` found, into the cell's result.
pub(super) fn record_found(
    found: &search::SearchResult,
    options: &SolveOptions,
    start: &Position,
    result: &mut CellResult,
) {
    result.depth_reached = match options.winner {
        // The guess left the other player's iterations out: the cell is known to hold no
        // win within fewer plies than the guessed player's last iteration.
        Some(_) if found.win.is_none() => found.no_win.neither_within(start.to_move),
        _ => found.depth_reached,
    } as u32;
    result.no_win = found.no_win.0.map(u32::from);
    result.nodes += found.earlier.nodes + found.nodes;
    result.earlier = result.earlier + found.earlier;
    if let Some(win) = &found.win {
        result.outcome = Outcome::winner(win.winner);
        result.plies = Some(win.plies as u32);
        result.line = win.line.clone();
    }
}
