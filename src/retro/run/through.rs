//! An analysis through a directory: the layers written as they are solved (`spill.rs`),
//! a run that was stopped going on from them, and the directory a saved table when whole;
//! in one process, or as one rank of many.

use crate::error::Result;
use crate::retro::engine::ranks::naming;
use crate::retro::engine::solved::Solved;
use crate::retro::engine::source::ConfigSource;
use crate::retro::engine::store::Precision;
use crate::retro::format::saved_dir::{Target, through_temporary};
use crate::retro::format::spill::Spill;
use crate::support::progress::Progress;
use std::path::Path;

/// Solves every position of the cell of `configs` at `precision` and saves the values at
/// `to`, writing each layer as soon as it is solved (`spill.rs`, `parts.rs`): the memory is
/// the analysis's own, and the disk holds every layer. With `to.resume` the layers go
/// straight into `to.dir` and a run that was stopped goes on from them; else into a
/// temporary directory renamed onto `to.dir` when whole. Returns the analysis (the layers
/// it kept: `analyse_through`, `analyse_outcomes_through`) and the bytes of the table's
/// files.
pub fn save_through<'t>(
    configs: &'t dyn ConfigSource,
    memory_budget: u64,
    precision: Precision,
    to: &Target,
    progress: &dyn Progress,
) -> Result<(Solved<'t>, u64)> {
    let run = |dir: &Path| -> Result<(Solved<'t>, u64)> {
        let mut spill = match &to.ranks {
            Some(r) => Spill::open_across(dir, configs, precision, (r.0.as_ref(), progress))?,
            None => Spill::open(dir, configs, precision, progress)?,
        };
        let solved = match (&to.ranks, precision) {
            (Some(ranks), _) => {
                let across = (ranks.0.as_ref(), memory_budget);
                super::driver::analyse_across(configs, precision, &mut spill, across, progress)?
                    .expect("rank 0 gets the analysis")
            }
            (None, Precision::Exact) => {
                super::driver::analyse_through(configs, memory_budget, &mut spill, progress)?
            }
            (None, Precision::Compact) => super::driver::analyse_outcomes_through(
                configs,
                memory_budget,
                &mut spill,
                progress,
            )?,
        };
        let bytes = spill.finish(configs, solved.stats)?;
        Ok((solved, bytes))
    };
    match to.resume {
        true => run(&to.dir),
        false => through_temporary(to, run),
    }
}

/// What a rank other than rank 0 does of `save_through` across ranks (`to.ranks`, into
/// `to.dir`, which rank 0 shares): its share of every layer, with the same `configs`,
/// `memory_budget` and `precision` as rank 0. Rank 0 writes the table's header.
pub fn save_share(
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
    super::driver::analyse_across(configs, precision, &mut spill, across, progress)?;
    Ok(())
}
