//! The analysis in memory: checks the memory, chooses the layers to keep (every layer, two,
//! as many as fit, or those asked for) and solves the layers from the most walls down
//! (`engine/layer.rs`), a flat list of steps per pair of splits, telling its pace. With a
//! layer directory (`format/spill.rs`) it also writes each layer once solved.

use super::estimate::{Keep, RetroEstimate, cell_estimate, pushes_last};
use super::pace::{Pace, too_deep};
use crate::error::{Result, count};
use crate::retro::engine::block;
use crate::retro::engine::board::check_board;
use crate::retro::engine::layer;
use crate::retro::engine::layout::{self, Layout};
use crate::retro::engine::solved::{Solved, Splits};
use crate::retro::engine::source::ConfigSource;
use crate::retro::engine::stop::check_stop;
use crate::retro::engine::store::{self, Compact, Exact, Packing, Precision};
use crate::retro::engine::value::RetroStats;
use crate::retro::format::spill;
use crate::support::memory;
use crate::support::progress::Progress;
use std::ops::Range;
use std::sync::atomic::AtomicU8;

/// Solves every position of the cell of `configs` at `precision` in memory, keeping as many
/// layers from layer 0 up as `memory_budget` holds besides the configurations: the exact
/// analysis every layer or two (a line needs them all; see the module doc), the compact one
/// as many as fit, at least two (each one more makes a better oracle). Exact: every value
/// with its remoteness; compact: the outcomes, `value` answering nothing and `outcome` in
/// the layers kept. The counts are exact either way.
pub(in crate::retro) fn in_memory<'t>(
    configs: &'t dyn ConfigSource,
    memory_budget: u64,
    precision: Precision,
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    check_board(configs.board())?;
    let e = cell_estimate(configs);
    let room = memory_budget.saturating_sub(configs.bytes());
    let two = e.layers.min(2);
    let kept = match precision {
        Precision::Exact if e.exact_fits(configs.bytes(), memory_budget, Keep::Every) => e.layers,
        Precision::Exact => two,
        Precision::Compact => e.kept_layers(precision, room).unwrap_or(two),
    };
    check(configs, &e, precision, kept, false, memory_budget)?;
    match precision {
        Precision::Exact => run::<Exact>(configs, precision, kept, progress),
        Precision::Compact => run::<Compact>(configs, precision, kept, progress),
    }
}

/// Solves the positions of the layers of `keep` (walls on the board) at `precision`: the
/// layers from the most walls down to `keep.start`, keeping those of `keep` and streaming
/// the others, as `in_memory` does with `0..2`. Enough for the value of a position with
/// `keep.start` walls and of its moves; the counts are those of the layers solved, and
/// `result` (the start's) needs `keep.start == 0`.
pub(in crate::retro) fn keeping<'t>(
    configs: &'t dyn ConfigSource,
    memory_budget: u64,
    precision: Precision,
    keep: Range<usize>,
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    check_board(configs.board())?;
    let e = cell_estimate(configs);
    memory::check(
        &format!(
            "retrograde analysis of {} with {} from {} up",
            configs.board(),
            count(configs.walls_per_player(), "wall"),
            count(keep.start, "wall")
        ),
        e.peak_keeping(precision, keep.clone())
            .saturating_add(configs.bytes()),
        memory_budget,
    )?;
    match precision {
        Precision::Exact => run_keeping::<Exact>(configs, precision, keep, None, progress),
        Precision::Compact => run_keeping::<Compact>(configs, precision, keep, None, progress),
    }
}

/// Refuses an analysis keeping layers `0..kept` (stored to the last one when `storing`)
/// whose peak with the configurations does not fit `budget`.
pub(in crate::retro) fn check(
    configs: &dyn ConfigSource,
    e: &RetroEstimate,
    precision: Precision,
    kept: usize,
    storing: bool,
    budget: u64,
) -> Result<()> {
    let peak = match storing {
        true => e.peak_storing(precision, 0..kept),
        false => e.peak(precision, kept),
    };
    let per_position = match precision {
        Precision::Exact => "a byte",
        Precision::Compact => "2 bits",
    };
    memory::check(
        &format!(
            "retrograde analysis of {} with {} ({} positions, {kept} of {} layers kept at \
             {per_position} per position folded by symmetry, plus the configurations' tables or numbering)",
            configs.board(),
            count(configs.walls_per_player(), "wall"),
            e.positions,
            e.layers,
        ),
        peak.saturating_add(configs.bytes()),
        budget,
    )
}

/// Solves the layers from the most walls down, packed by `P`, keeping layers `0..kept`.
pub(in crate::retro) fn run<'t, P: Packing>(
    configs: &'t dyn ConfigSource,
    precision: Precision,
    kept: usize,
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    run_keeping::<P>(configs, precision, 0..kept, None, progress)
}

/// Solves the layers from the most walls down to `keep.start`, packed by `P`, keeping the
/// layers of `keep` to the end (the others stay empty, their values unknown). With a
/// `spill`, each layer is written there once solved, and the layers an earlier run wrote
/// are read back instead of solved (only those kept, and the one the first layer solved
/// reads).
pub(in crate::retro) fn run_keeping<'t, P: Packing>(
    configs: &'t dyn ConfigSource,
    precision: Precision,
    keep: Range<usize>,
    mut spill: Option<&mut spill::Spill>,
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    let board = configs.board();
    let n = configs.walls_per_player();
    let layout = Layout::new(configs);
    let layers = layout.layers();
    let mut values: Vec<Splits> = vec![Vec::new(); layers];
    let mut stats = RetroStats::default();
    let (mut live, mut peak) = (0usize, 0usize);
    // Measured in slots, which the work follows, so that the time left can be told.
    let lowest = keep.start.min(layers);
    progress.begin(
        "retrograde analysis",
        (lowest..layers).map(|k| layout.layer_len(k) as u64).sum(),
    );
    let written_from = spill.as_ref().map_or(layers, |s| s.written_from());
    if written_from < layers {
        progress.message(&format!(
            "layers {written_from} to {} written by an earlier run: {}",
            layers - 1,
            match written_from {
                0 => "nothing left to solve".to_string(),
                w => format!("solving layers {} to 0", w - 1),
            }
        ));
    }
    let last = layers - 1;
    let push = pushes_last(layers, &keep, spill.is_some());
    let mut pace = Pace::new((lowest..layers).map(|k| layout.layer_len(k) as f64).sum());
    for k in (lowest..layers).rev() {
        if push && k == last {
            // Layer `last - 1` receives the pushes whole; the last layer is never stored.
            let len = store::bytes_for::<P>(layout.split_len(k - 1));
            let mut parents: Splits = (0..layout.splits(k - 1))
                .map(|_| Some(memory::huge_vec(len, P::NO_EXITS)))
                .collect();
            live += parents.len() * len;
            peak = peak.max(live);
            let atomics: Vec<&[AtomicU8]> = parents
                .iter_mut()
                .map(|p| store::atomic(p.as_mut().expect("just made")))
                .collect();
            let mut layer_stats = RetroStats::default();
            for pair in layout::split_pairs(n, k) {
                layer_stats = layer_stats
                    + layer::push_pair::<P>(configs, &layout, k, pair, &atomics, progress)
                        .map_err(|block::TooDeep| too_deep(board, n))?;
                check_stop()?;
            }
            values[k - 1] = parents;
            stats = stats + layer_stats;
            pace.layer_done(k, layout.layer_len(k), progress);
            continue;
        }
        let pushed = push && k + 1 == last;
        if let Some(spill) = spill.as_deref().filter(|_| k >= written_from) {
            if k == written_from {
                stats = stats + spill.stats_from(k);
            }
            if keep.contains(&k) || k == written_from && k > lowest {
                values[k] = spill.read_layer::<P>(k, &layout)?;
                live += values[k].iter().flatten().map(Vec::len).sum::<usize>();
                peak = peak.max(live);
            }
            progress.advance(layout.layer_len(k) as u64);
            pace.skip(layout.layer_len(k) as f64); // read, not solved: not in the rate
            continue;
        }
        let mut layer_stats = RetroStats::default();
        // Layer k + 1's splits go as soon as nothing reads them (unless kept): first those
        // no pair reads, then each pair's once it is solved. So the peak is about the
        // largest layer and a pair, not two whole layers.
        let frees = k + 1 < layers && !keep.contains(&(k + 1)) && !pushed;
        let pairs = layout::split_pairs(n, k);
        if frees {
            let read: Vec<usize> = pairs
                .iter()
                .flat_map(|&p| layout::splits_below(n, k, p))
                .collect();
            for (j, split) in values[k + 1].iter_mut().enumerate() {
                if !read.contains(&j) {
                    live -= split.take().map_or(0, |s| s.len());
                }
            }
        }
        let mut layer: Splits = vec![None; layout.splits(k)];
        let len = store::bytes_for::<P>(layout.split_len(k));
        for pair in pairs {
            let (mut first, mut second) = match pushed {
                // The stores hold the pushed exits already (counted when made).
                true => {
                    let mut take = |j: usize| values[k][j].take().expect("pushed whole");
                    (take(pair.0), (pair.0 != pair.1).then(|| take(pair.1)))
                }
                false => {
                    let second = (pair.0 != pair.1).then(|| memory::huge_vec(len, P::EMPTY));
                    live += len * if second.is_some() { 2 } else { 1 };
                    (memory::huge_vec(len, P::EMPTY), second)
                }
            };
            let both = if second.is_some() { 2 } else { 1 };
            peak = peak.max(live);
            let below = match values.get(k + 1) {
                _ if pushed => layer::Below::Pushed,
                Some(layer) => layer::Below::Layer(layer),
                None => layer::Below::Nothing,
            };
            layer_stats = layer_stats
                + layer::solve_pair::<P>(
                    configs,
                    &layout,
                    (k, 0..layout.stored(k).len()),
                    pair,
                    &mut first,
                    second.as_deref_mut(),
                    below,
                )
                .map_err(|block::TooDeep| too_deep(board, n))?;
            check_stop()?;
            layer[pair.0] = Some(first);
            if let Some(second) = second {
                layer[pair.1] = Some(second);
            }
            if frees {
                for j in layout::splits_below(n, k, pair) {
                    live -= values[k + 1][j].take().map_or(0, |s| s.len());
                }
            }
            progress.advance((both * layout.split_len(k)) as u64);
        }
        values[k] = layer;
        stats = stats + layer_stats;
        pace.layer_done(k, layout.layer_len(k), progress);
        if let Some(spill) = spill.as_deref_mut() {
            spill.write_layer((k, P::PER_BYTE), &layout, &values[k], layer_stats, progress)?;
        }
    }
    progress.finish();
    Ok(Solved {
        configs,
        peak_bytes: peak as u64 + layout.bytes(),
        layout,
        precision,
        values,
        stats,
    })
}
