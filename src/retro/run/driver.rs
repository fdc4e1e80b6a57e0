//! The driver of the retrograde analysis: checks the memory, chooses the layers to keep
//! (all, two, as many as fit) or the parts through a directory, and solves the layers from
//! the most walls down (`layer.rs`, `parts.rs`), telling its pace.

use super::across;
use super::estimate::{Keep, RetroEstimate, cell_estimate, pushes_last};
use super::pace::{Pace, too_deep};
use super::parts;
use super::sizing;
use crate::error::{Result, count};
use crate::retro::engine::block;
use crate::retro::engine::board::check_board;
use crate::retro::engine::layer;
use crate::retro::engine::layout::{self, Layout};
use crate::retro::engine::solved::{Solved, Splits};
use crate::retro::engine::source::ConfigSource;
use crate::retro::engine::store::{self, Compact, Exact, Packing, Precision};
use crate::retro::engine::value::RetroStats;
use crate::retro::format::spill;
use crate::support::memory;
use crate::support::progress::Progress;
use std::ops::Range;
use std::sync::atomic::AtomicU8;

/// Solves every position of the cell of `tables` exactly (value and remoteness): checks
/// the memory and chooses to keep every layer or two (see the module doc), then solves the
/// layers from the most walls down.
pub fn analyse<'t>(
    configs: &'t dyn ConfigSource,
    memory_budget: u64,
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    analyse_at(configs, memory_budget, Precision::Exact, progress)
}

/// Solves the outcome (win, loss or draw) of every position of the cell of `tables`, at 2
/// bits per stored position, keeping as many layers from layer 0 up as `memory_budget`
/// allows besides the tables (at least two, see the module doc). Counts are exact; no
/// remoteness, so `value` answers nothing and `outcome` answers in the layers kept.
pub fn analyse_outcomes<'t>(
    configs: &'t dyn ConfigSource,
    memory_budget: u64,
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    analyse_at(configs, memory_budget, Precision::Compact, progress)
}

/// Solves the positions of the layers of `keep` (walls on the board) exactly: the layers
/// from the most walls down to `keep.start`, keeping those of `keep` and streaming the
/// others, as `analyse` does with `0..2`. Enough for the value of a position with
/// `keep.start` walls and of its moves; the counts are those of the layers solved, and
/// `result` (the start's) needs `keep.start == 0`.
pub fn analyse_keeping<'t>(
    configs: &'t dyn ConfigSource,
    memory_budget: u64,
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
        e.peak_keeping(Precision::Exact, keep.clone())
            .saturating_add(configs.bytes()),
        memory_budget,
    )?;
    run_keeping::<Exact>(configs, Precision::Exact, keep, None, progress)
}

/// Solves every position of the cell of `tables` exactly, as `analyse` does, and writes each
/// layer to `spill` as soon as it is solved, going on from the layers an earlier run wrote
/// there (`spill.rs`). Once it has returned, `spill.finish` makes the directory a saved
/// table. Memory: as `analyse` (every layer kept when they fit, else two); when even two
/// layers do not fit, every layer is solved in parts that do, reading the layer above from
/// the directory (`parts.rs`), and layers 0 and 1 are kept.
pub fn analyse_through<'t>(
    configs: &'t dyn ConfigSource,
    memory_budget: u64,
    spill: &mut spill::Spill,
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    check_board(configs.board())?;
    let e = cell_estimate(configs);
    let room = memory_budget.saturating_sub(configs.bytes());
    let kept = match e.exact_fits(configs.bytes(), memory_budget, Keep::Every) {
        true => e.layers,
        false => e.layers.min(2),
    };
    if e.peak_storing(Precision::Exact, 0..kept) > room {
        let part_bytes = e.part_bytes(Precision::Exact, room);
        return analyse_in_parts(configs, memory_budget, spill, part_bytes, progress);
    }
    check(configs, &e, Precision::Exact, kept, true, memory_budget)?;
    run_keeping::<Exact>(configs, Precision::Exact, 0..kept, Some(spill), progress)
}

/// Refuses an analysis in parts whose parts (at least the smallest) do not fit the budget.
fn check_parts(
    configs: &dyn ConfigSource,
    e: &RetroEstimate,
    precision: Precision,
    part_bytes: u64,
    budget: u64,
) -> Result<()> {
    let least = e.least_part(precision).max(part_bytes);
    memory::check(
        &format!(
            "retrograde analysis of {} with {} in parts through the disk ({} positions, {} layers)",
            configs.board(),
            count(configs.walls_per_player(), "wall"),
            e.positions,
            e.layers,
        ),
        e.peak_in_parts(precision, least)
            .saturating_add(configs.bytes()),
        budget,
    )
}

/// Solves every position of the cell exactly, every layer in parts of at most `part_bytes`
/// through `spill` (`parts.rs`), going on from the layers an earlier run wrote there; then
/// reads layers 0 and 1 back: the start's value, its remoteness and the counts are exact,
/// the line as when streaming. Refused when the least part does not fit `memory_budget`.
pub fn analyse_in_parts<'t>(
    configs: &'t dyn ConfigSource,
    memory_budget: u64,
    spill: &mut spill::Spill,
    part_bytes: u64,
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    check_board(configs.board())?;
    let e = cell_estimate(configs);
    check_parts(configs, &e, Precision::Exact, part_bytes, memory_budget)?;
    run_in_parts::<Exact>(configs, Precision::Exact, spill, (part_bytes, 2), progress)
}

/// Solves the outcome of every position of the cell, as `analyse_outcomes` does, every
/// layer in parts through `spill` (`parts.rs`) sized to `memory_budget`, going on from the
/// layers an earlier run wrote there; then reads back as many layers from layer 0 up as
/// the budget holds (at least two), for the search's oracle.
pub fn analyse_outcomes_through<'t>(
    configs: &'t dyn ConfigSource,
    memory_budget: u64,
    spill: &mut spill::Spill,
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    check_board(configs.board())?;
    let e = cell_estimate(configs);
    let room = memory_budget.saturating_sub(configs.bytes());
    let part_bytes = e.part_bytes(Precision::Compact, room);
    check_parts(configs, &e, Precision::Compact, part_bytes, memory_budget)?;
    let kept = kept_after_parts(&e, Precision::Compact, room);
    run_in_parts::<Compact>(
        configs,
        Precision::Compact,
        spill,
        (part_bytes, kept),
        progress,
    )
}

/// The layers read back after an analysis through the disk, once its parts are gone: two
/// for the exact one (the start's value and its line need no more); for the compact one,
/// as many from layer 0 up as fit `room` beside the indices (each one more makes a better
/// oracle for the length's search), at least two.
fn kept_after_parts(e: &RetroEstimate, precision: Precision, room: u64) -> usize {
    let mut kept = e.layers.min(2);
    if precision == Precision::Exact {
        return kept;
    }
    let layer_bytes = |k: usize| e.layer_bytes(precision, k);
    let mut bytes: u128 = e.index + (0..kept).map(layer_bytes).sum::<u128>();
    let room_for_layers = room.saturating_sub(sizing::SLACK_BYTES) as u128;
    while kept < e.layers && bytes + layer_bytes(kept) <= room_for_layers {
        bytes += layer_bytes(kept);
        kept += 1;
    }
    kept
}

/// Solves every position of the cell of `configs` at `precision` across `ranks` (every
/// rank calls it, each with its own `spill` over the directory they share: `across.rs`),
/// going on from the layers an earlier run wrote there; each rank holds its share of a
/// layer at a time, within `budget`. Rank 0 then reads back the layers the start's value
/// needs (as `analyse_through` or `analyse_outcomes_through`) and gets the analysis;
/// the other ranks get `None`.
pub fn analyse_across<'t>(
    configs: &'t dyn ConfigSource,
    precision: Precision,
    spill: &mut spill::Spill,
    (ranks, budget): (&dyn crate::retro::engine::ranks::Ranks, u64),
    progress: &dyn Progress,
) -> Result<Option<Solved<'t>>> {
    check_board(configs.board())?;
    let layout = Layout::new(configs);
    let stats_before = spill.stats_from(spill.written_from());
    let (solved, per_byte) = match precision {
        Precision::Exact => {
            let done =
                across::solve_layers::<Exact>(configs, &layout, spill, (ranks, budget), progress)?;
            (done, Exact::PER_BYTE)
        }
        Precision::Compact => {
            let done = across::solve_layers::<Compact>(
                configs,
                &layout,
                spill,
                (ranks, budget),
                progress,
            )?;
            (done, Compact::PER_BYTE)
        }
    };
    if ranks.rank() != 0 {
        return Ok(None);
    }
    let stats = solved.iter().fold(stats_before, |a, (_, l)| a + l.stats);
    let e = cell_estimate(configs);
    let kept = kept_after_parts(&e, precision, budget.saturating_sub(configs.bytes()));
    let working = (0..layout.layers())
        .map(|k| sizing::share_bytes(&layout, (k, per_byte), ranks.size()))
        .max()
        .unwrap_or(0);
    let solved = match precision {
        Precision::Exact => {
            read_back::<Exact>(configs, layout, spill, (precision, kept), stats, working)?
        }
        Precision::Compact => {
            read_back::<Compact>(configs, layout, spill, (precision, kept), stats, working)?
        }
    };
    Ok(Some(solved))
}

/// Solves the layers not written to `spill` yet in parts of at most `part_bytes`, packed
/// by `P`, from the most walls down, then reads layers `0..kept` back.
fn run_in_parts<'t, P: Packing>(
    configs: &'t dyn ConfigSource,
    precision: Precision,
    spill: &mut spill::Spill,
    (part_bytes, kept): (u64, usize),
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    let layout = Layout::new(configs);
    let layers = layout.layers();
    let written_from = spill.written_from();
    let slots = |ks: Range<usize>| ks.map(|k| layout.layer_len(k) as u64).sum::<u64>();
    progress.begin("retrograde analysis in parts", slots(0..layers));
    let mut stats = RetroStats::default();
    if written_from < layers {
        stats = spill.stats_from(written_from);
        progress.advance(slots(written_from..layers));
        progress.message(&format!(
            "layers {written_from} to {} written by an earlier run{}",
            layers - 1,
            if written_from == 0 {
                ": nothing left to solve"
            } else {
                ""
            }
        ));
    }
    let raw = |ks: Range<usize>| slots(ks) / P::PER_BYTE as u64;
    let e = cell_estimate(configs);
    let part_size = usize::try_from(part_bytes).unwrap_or(usize::MAX);
    // Each layer's parts, planned once for the time told and for the run.
    let plans: Vec<_> = (0..written_from)
        .map(|k| parts::plan(&layout, k, P::PER_BYTE, part_size))
        .collect();
    // The work left, counted in slots at the rates measured (`sizing::layer_seconds`); in
    // seconds with placements (`e.positions`) in place of slots.
    // The parts of a layer an earlier run recorded are neither written again nor timed.
    let (slots_done, work_done) = spill
        .partial()
        .filter(|&(k, _)| k < written_from)
        .map_or((0, 0.0), |(k, from)| {
            parts::done_before::<P>(&layout, k, part_size, from)
        });
    let work: f64 = (0..written_from)
        .map(|k| {
            let above = (k + 1 < layers).then(|| slots(k + 1..k + 2) as f64);
            let parts = plans[k].len();
            sizing::layer_seconds(precision, slots(k..k + 1) as f64, above, (parts, parts))
        })
        .sum::<f64>()
        - work_done;
    let per_slot = e.positions as f64 / slots(0..layers).max(1) as f64;
    if written_from > 0 {
        progress.message(&format!(
            "in parts of at most {} through {}: memory about {}; at most {} of values on disk \
         uncompressed ({} left to write), {} free there; about {:.0} s left (each part \
         reads the layer above)",
            crate::error::format_bytes(part_bytes),
            spill.dir().display(),
            crate::error::format_bytes(e.peak_in_parts(precision, part_bytes) + configs.bytes()),
            crate::error::format_bytes(e.values_bytes(precision)),
            crate::error::format_bytes(
                raw(0..written_from) - slots_done as u64 / P::PER_BYTE as u64
            ),
            spill
                .free_bytes()
                .map_or("unknown".into(), crate::error::format_bytes),
            work * per_slot,
        ));
    }
    let mut pace = Pace::new(work);
    let mut largest = 0;
    for k in (0..written_from).rev() {
        let parts = &plans[k];
        let per_config = layout.splits(k) * layout.stored_len() / P::PER_BYTE;
        largest = largest.max(
            parts
                .iter()
                .map(|r| r.len() * per_config)
                .max()
                .unwrap_or(0),
        );
        spill.check_room(k, raw(k..k + 1))?;
        if parts.len() > 1 {
            progress.message(&format!("layer {k}: {} parts", parts.len()));
        }
        let layer_stats =
            parts::solve_layer::<P>(configs, &layout, k, spill, part_size, (progress, &mut pace))?;
        stats = stats + layer_stats;
        pace.layer_done(k, 0, progress);
    }
    progress.finish();
    let streaming = (sizing::STREAM_CHUNKS * sizing::chunk_bytes(part_bytes)) as usize;
    let working = (largest + streaming) as u64;
    read_back::<P>(configs, layout, spill, (precision, kept), stats, working)
}

/// The analysis of the cell once every layer is in `spill`: layers `0..kept` read back
/// (packed by `P`), with the cell's counts `stats`; its peak is the larger of the layers
/// read and `working` (what solving the layers held at most), with the layout's indices.
fn read_back<'t, P: Packing>(
    configs: &'t dyn ConfigSource,
    layout: Layout,
    spill: &spill::Spill,
    (precision, kept): (Precision, usize),
    stats: RetroStats,
    working: u64,
) -> Result<Solved<'t>> {
    let mut values: Vec<Splits> = vec![Vec::new(); layout.layers()];
    let mut low = 0;
    for (k, layer) in values.iter_mut().enumerate().take(kept) {
        *layer = spill.read_layer::<P>(k, &layout)?;
        low += layer.iter().flatten().map(Vec::len).sum::<usize>();
    }
    // The parts, the pieces and the files read back are freed; the allocator's threads
    // keep some of it (below its mmap threshold): give it back, so that what comes next
    // (the length's search) has the budget's room.
    // SAFETY: `malloc_trim` only returns free memory to the system.
    unsafe { libc::malloc_trim(0) };
    Ok(Solved {
        configs,
        peak_bytes: working.max(low as u64) + layout.bytes(),
        layout,
        precision,
        values,
        stats,
    })
}

/// The layers kept: the exact analysis keeps every layer or two (a line needs them all),
/// the compact one as many as fit (each one more makes a better oracle).
pub(in crate::retro) fn analyse_at<'t>(
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

fn check(
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
                .map(|_| Some(vec![P::NO_EXITS; len]))
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
                crate::retro::engine::stop::check_stop()?;
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
                    let second = (pair.0 != pair.1).then(|| vec![P::EMPTY; len]);
                    live += len * if second.is_some() { 2 } else { 1 };
                    (vec![P::EMPTY; len], second)
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
            crate::retro::engine::stop::check_stop()?;
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
