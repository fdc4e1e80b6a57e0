//! An analysis through a directory: the layers written as they are solved
//! (`format/spill.rs`), a run that was stopped going on from them, and the directory a saved
//! table when whole; in memory with every layer written, in parts, or as one rank of many.

use super::across::analyse_across;
use super::driver::{check, run_keeping};
use super::estimate::{Keep, cell_estimate};
use super::parts::in_parts;
use crate::error::Result;
use crate::retro::engine::board::check_board;
use crate::retro::engine::ranks::naming;
use crate::retro::engine::solved::Solved;
use crate::retro::engine::source::ConfigSource;
use crate::retro::engine::store::{Exact, Precision};
use crate::retro::format::saved_dir::{Target, through_temporary};
use crate::retro::format::spill::Spill;
use crate::support::progress::Progress;
use std::path::Path;

/// Solves every position of the cell of `configs` at `precision` through the directory of
/// `to` and makes it a saved table (`save_through`), or, on a rank other than rank 0 of
/// `to.ranks`, writes this rank's share of every layer there (`save_share`) and gets `None`.
/// With `part_bytes`, every layer is solved in parts of at most that many bytes, whatever
/// fits (the tests make them small).
pub(in crate::retro) fn through_dir<'t>(
    configs: &'t dyn ConfigSource,
    (precision, (memory_budget, parts_budget)): (Precision, (u64, u64)),
    to: &Target,
    part_bytes: Option<u64>,
    progress: &dyn Progress,
) -> Result<Option<Solved<'t>>> {
    let sizes = ((memory_budget, parts_budget), part_bytes);
    match &to.ranks {
        Some(r) if r.0.rank() != 0 => {
            save_share(configs, memory_budget, precision, to, progress).map(|()| None)
        }
        _ => save_through(configs, sizes, precision, to, progress).map(Some),
    }
}

/// Solves every position of the cell of `configs` at `precision` and saves the values at
/// `to`, writing each layer as soon as it is solved (`format/spill.rs`, `parts.rs`): the
/// memory is the analysis's own, and the disk holds every layer. With `to.resume` the layers
/// go straight into `to.dir` and a run that was stopped goes on from them; else into a
/// temporary directory renamed onto `to.dir` when whole. Returns the analysis (the layers
/// it kept: `exact_through`, `parts::in_parts`).
fn save_through<'t>(
    configs: &'t dyn ConfigSource,
    ((memory_budget, parts_budget), part_bytes): ((u64, u64), Option<u64>),
    precision: Precision,
    to: &Target,
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    let run = |dir: &Path| -> Result<Solved<'t>> {
        let mut spill = match &to.ranks {
            Some(r) => Spill::open_across(dir, configs, precision, (r.0.as_ref(), progress))?,
            None => Spill::open(dir, configs, precision, progress)?,
        };
        spill.set_bound_only(to.bound_only);
        let budget = (precision, (memory_budget, parts_budget));
        let solved = match (&to.ranks, precision, part_bytes) {
            (Some(ranks), _, _) => {
                let across = (ranks.0.as_ref(), memory_budget);
                analyse_across(configs, precision, &mut spill, across, progress)?
                    .expect("rank 0 gets the analysis")
            }
            (None, _, Some(part)) => in_parts(configs, budget, &mut spill, part, progress)?,
            (None, Precision::Exact, None) => {
                exact_through(configs, memory_budget, &mut spill, progress)?
            }
            (None, Precision::Compact, None) => {
                // The compact analysis through a directory runs in parts sized to what its
                // parts may take (`Request::parts_budget`).
                let room = parts_budget.saturating_sub(configs.bytes());
                let part = cell_estimate(configs).part_bytes(precision, room);
                in_parts(configs, budget, &mut spill, part, progress)?
            }
        };
        spill.finish(configs, solved.stats)?;
        Ok(solved)
    };
    match to.resume {
        true => run(&to.dir),
        false => through_temporary(to, run),
    }
}

/// Solves every position of the cell of `configs` exactly, as `driver::in_memory` does, and
/// writes each layer to `spill` as soon as it is solved, going on from the layers an earlier run wrote
/// there (`spill.rs`). Once it has returned, `spill.finish` makes the directory a saved
/// table. Memory: as in memory (every layer kept when they fit, else as many from layer 0
/// up as fit, at least two); when even two layers do not fit, every layer is solved in
/// parts that do, reading the layer above from the directory (`parts.rs`), and as many
/// layers from 0 up as fit are read back (`read_back::kept_after_parts`).
fn exact_through<'t>(
    configs: &'t dyn ConfigSource,
    memory_budget: u64,
    spill: &mut Spill,
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    check_board(configs.board())?;
    let e = cell_estimate(configs);
    let room = memory_budget.saturating_sub(configs.bytes());
    // Every layer when they fit, else as many from layer 0 up as fit beside the layers
    // being solved (at least two): each one more bounds a search pruned by this analysis
    // better (`solve --fewer-walls`; 5x5 with 5 walls by 4: 58.2 M nodes with 2 of 9
    // layers, 19.1 M with 7), and an analysis read back from its directory keeps as many.
    // (Layers an earlier run deleted once used, `Target::bound_only`, cannot be kept.)
    let kept = spill.readable(
        match e.exact_fits(configs.bytes(), memory_budget, Keep::Every) {
            true => e.layers,
            false => (e.layers.min(2)..e.layers)
                .rev()
                .find(|&k| e.peak_storing(Precision::Exact, 0..k) <= room)
                .unwrap_or(e.layers.min(2)),
        },
    );
    if e.peak_storing(Precision::Exact, 0..kept) > room {
        let part_bytes = e.part_bytes(Precision::Exact, room);
        return in_parts(
            configs,
            (Precision::Exact, (memory_budget, memory_budget)),
            spill,
            part_bytes,
            progress,
        );
    }
    check(configs, &e, Precision::Exact, kept, true, memory_budget)?;
    spill.keep_only(kept, progress)?;
    run_keeping::<Exact>(configs, Precision::Exact, 0..kept, Some(spill), progress)
}

/// What a rank other than rank 0 does of `save_through` across ranks (`to.ranks`, into
/// `to.dir`, which rank 0 shares): its share of every layer, with the same `configs`,
/// `memory_budget` and `precision` as rank 0. Rank 0 writes the table's header.
fn save_share(
    configs: &dyn ConfigSource,
    memory_budget: u64,
    precision: Precision,
    to: &Target,
    progress: &dyn Progress,
) -> Result<()> {
    let ranks = to
        .ranks
        .as_ref()
        .expect("a rank's share is across ranks")
        .0
        .as_ref();
    let mut spill = Spill::open_across(&to.dir, configs, precision, (ranks, progress))
        .map_err(|e| naming(e, &format!("rank {}", ranks.rank())))?;
    let across = (ranks, memory_budget);
    analyse_across(configs, precision, &mut spill, across, progress)?;
    Ok(())
}
