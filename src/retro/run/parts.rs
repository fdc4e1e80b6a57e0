//! A layer solved in parts through a directory, for cells whose layers do not fit the
//! memory: every layer is written to disk (`spill.rs`), and layer `k` is solved in parts,
//! each a run of whole groups of its stored configurations (`layout.rs`) sized to the
//! memory left. For each part (unless the layer above is held, below):
//!
//! 1. its stores (every split, the part's configurations only) start as "no exit";
//! 2. the stored blocks of layer `k + 1` are read from disk as a stream, in order, and
//!    each pushes its codes into the best exits of its parents that lie in the part (the
//!    configuration less one of its walls, Player 2 having placed it: `push_stored`);
//! 3. each block of the part is solved from those exits by its pawn moves
//!    (`layer::solve_pair`, `Below::Pushed`) and the part is appended to the layer's files;
//!    a part that ends at a segment's end is recorded (`Spill::record_part`), so that a
//!    run killed later goes on after it.
//!
//! Where the layer above fits in three quarters of a part's room (its bytes and the
//! stream's pieces; `sizing::pulled_part`), it is read whole once instead, and the parts,
//! smaller by as much, pull their exits from it as the analysis in memory does
//! (`Below::Layer`): no pushes and one read a layer, where pushing read the layer above
//! once a part and cost most of the analysis (5x5 with 4 walls at 192M, one thread: 13 s
//! pushing, 7 s pulling the layers that fit). Tested both ways (`tests/analysis.rs`).
//!
//! The last layer has no wall moves: its parts are solved from nothing. Pushing, each
//! stored block pushes only its Player 1 half, as the child of a wall Player 2 placed: that is every
//! exit. A stored parent's position with Player 1 to move exits, by Player 1's wall, to a
//! position with Player 2 to move, which is stored as the Player 1 half of its half turn,
//! and that stored block's push through the turned wall lands in the parent's slot (the
//! layout maps it). So the values are those of the analysis in memory, byte for byte,
//! whatever the number of parts or threads (tested).
//!
//! Memory: the part's stores, three pieces of the stream (`sizing::PIECE_BYTES` each, or a
//! part's bytes if less) or the layer above held, a writer per split file, the layout's
//! indices and the configurations. Disk: every layer, as the saved table has it. Time: one
//! pass over layer `k + 1` per part of layer `k`, or one in all where it is held.

use super::estimate::{RetroEstimate, cell_estimate};
use super::pace::{Pace, too_deep};
use super::read_back::{kept_after_parts, read_back};
use super::sizing::{self, Above};
use crate::configs::ConfigId;
use crate::error::{Result, count};
use crate::retro::engine::block;
use crate::retro::engine::board::check_board;
use crate::retro::engine::layer::{self, Below, Child, Pushes};
use crate::retro::engine::layout::{self, Layout};
use crate::retro::engine::solved::Solved;
use crate::retro::engine::source::ConfigSource;
use crate::retro::engine::store::{self, Compact, Exact, Packing, Precision};
use crate::retro::engine::symmetry;
use crate::retro::engine::value::RetroStats;
use crate::retro::format::segments;
use crate::retro::format::spill::Spill;
use crate::retro::format::symmetry_cache;
use crate::rules::geometry::{MAX_SQUARES, Player};
use crate::rules::position::MAX_WALLS_PER_PLAYER;
use crate::support::memory;
use crate::support::progress::Progress;
use arrayvec::ArrayVec;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::AtomicU8;

/// Solves every position of the cell at `precision`, every layer in parts of at most
/// `part_bytes` through `spill` (`parts.rs`), going on from the layers an earlier run wrote
/// there; then reads back the layers the start's value needs (`read_back::kept_after_parts`:
/// two for the exact analysis, whose value, remoteness and counts are exact and whose line
/// is as when streaming; as many as the budget holds for the compact one, for the search's
/// oracle, within `memory_budget`). Refused when the least part does not fit
/// `parts_budget` (at least `memory_budget`: `retro::Request::parts_budget`).
pub(in crate::retro) fn in_parts<'t>(
    configs: &'t dyn ConfigSource,
    (precision, (memory_budget, parts_budget)): (Precision, (u64, u64)),
    spill: &mut Spill,
    part_bytes: u64,
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    check_board(configs.board())?;
    let e = cell_estimate(configs);
    check_parts(configs, &e, precision, part_bytes, parts_budget)?;
    let room = memory_budget.saturating_sub(configs.bytes());
    let kept = kept_after_parts(&e, precision, (room, true));
    spill.keep_only(kept, progress)?;
    let sizes = (part_bytes, kept);
    let shares = &e.live_shares[..];
    match precision {
        Precision::Exact => {
            run_in_parts::<Exact>(configs, (precision, shares), spill, sizes, progress)
        }
        Precision::Compact => {
            run_in_parts::<Compact>(configs, (precision, shares), spill, sizes, progress)
        }
    }
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

/// Solves the layers not written to `spill` yet in parts of at most `part_bytes`, packed
/// by `P`, from the most walls down, then reads layers `0..kept` back.
fn run_in_parts<'t, P: Packing>(
    configs: &'t dyn ConfigSource,
    (precision, shares): (Precision, &[f64]),
    spill: &mut Spill,
    (part_bytes, kept): (u64, usize),
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    // The layout holds the indices of the two layers being solved and read (layer k reads
    // k + 1 alone), moved down a layer at a time, and at the end those read back: all of
    // them were 15.8 GiB for 7x5 w6, two layers at most 67 % of that.
    let written_from = spill.written_from();
    let hold = |k: usize| k..k + 2;
    let first = (written_from.checked_sub(1)).map_or(0..spill.readable(kept), hold);
    let min_configs = symmetry_cache::MIN_CONFIGS;
    let (mut layout, symmetry) =
        symmetry_cache::layout(configs, spill.dir(), (min_configs, first), progress)?;
    let layers = layout.layers();
    let lens: Vec<u64> = (0..layers).map(|k| layout.layer_len(k) as u64).collect();
    let slots = |ks: Range<usize>| ks.map(|k| lens[k]).sum::<u64>();
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
        .map(|k| plan(&layout, k, P::PER_BYTE, part_size))
        .collect();
    // The work left, counted in slots at the rates measured (`sizing::layer_seconds`); in
    // seconds with placements (`e.positions`) in place of slots.
    // The parts of a layer an earlier run recorded are neither written again nor timed.
    let (slots_done, work_done) = spill
        .partial()
        .filter(|&(k, _)| k < written_from)
        .map_or((0, 0.0), |(k, from)| {
            done_before::<P>((&layout, shares), k, part_size, from)
        });
    let work: f64 = (0..written_from)
        .map(|k| {
            let (above, _) = above_of(&layout, k, P::PER_BYTE, part_size);
            let parts = plans[k].len();
            work(
                precision,
                shares,
                (k, slots(k..k + 1) as f64),
                above,
                (parts, parts),
            )
        })
        .sum::<f64>()
        - work_done;
    let per_slot = e.positions as f64 / slots(0..layers).max(1) as f64;
    if written_from > 0 {
        progress.message(&format!(
            "in parts of at most {} through {}: memory about {}; at most {} of values on disk \
         uncompressed ({} left to write), {} free there; about {:.0} s left (a layer \
         above that fits is read once and held, else each part reads it)",
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
        let held = match above_of(&layout, k, P::PER_BYTE, part_size).0 {
            Above::Pulled(_) => layout.layer_len(k + 1) / P::PER_BYTE,
            _ => 0,
        };
        largest = largest.max(
            held + parts
                .iter()
                .map(|r| r.len() * per_config)
                .max()
                .unwrap_or(0),
        );
        spill.check_room(k, (raw(k..k + 1), raw(0..k + 1)), progress)?;
        layout.hold_layers(hold(k), &*symmetry)?;
        match (held, parts.len()) {
            (0, 1) => {}
            (0, n) => progress.message(&format!("layer {k}: {n} parts")),
            (held, n) => progress.message(&format!(
                "layer {k}: {}, the layer above held ({})",
                count(n, "part"),
                crate::error::format_bytes(held as u64)
            )),
        }
        let layer_stats = solve_layer::<P>(
            configs,
            (&layout, shares),
            k,
            spill,
            part_size,
            (progress, &mut pace),
        )?;
        stats = stats + layer_stats;
        pace.layer_done(k, 0, progress);
    }
    progress.finish();
    let streaming = (sizing::STREAM_PIECES * sizing::piece_bytes(part_bytes)) as usize;
    let working = (largest + streaming) as u64;
    layout.hold_layers(0..spill.readable(kept), &*symmetry)?;
    read_back::<P>(configs, layout, spill, (precision, kept), stats, working)
}

/// What layer `k` in parts of at most `part_bytes` reads of the layer above (in slots),
/// and the most bytes of each of its parts: the layer above held whole beside parts of
/// the rest where it fits (`sizing::pulled_part`), else streamed and pushed by each part.
fn above_of(layout: &Layout, k: usize, per_byte: usize, part_bytes: usize) -> (Above, usize) {
    let above = (k + 1 < layout.layers()).then(|| {
        let slots = layout.layer_len(k + 1);
        (slots as f64, (slots / per_byte) as u64)
    });
    let least = sizing::least_part_bytes(layout.splits(k), layout.stored_len(), per_byte);
    let (above, part) = sizing::above_and_part(above, part_bytes as u64, least);
    (above, part as usize)
}

/// The parts of layer `k`: runs of whole groups of stored configurations, each taking at
/// most `part_bytes` in every split together (at least one group, whatever it takes), less
/// the layer above where it is held (`above_of`).
pub fn plan(layout: &Layout, k: usize, per_byte: usize, part_bytes: usize) -> Vec<Range<usize>> {
    plan_from(layout, k, (per_byte, part_bytes), 0)
}

/// The parts of layer `k` from its stored configuration `from` (a segment's start) on.
/// A part is a run of whole segments wherever one fits (`segments.rs`): one that ends at a
/// segment's end leaves every file between two segments, where a run that stops can go on
/// from (`Spill::record_part`). A segment larger than a part is cut into runs of groups.
pub fn plan_from(
    layout: &Layout,
    k: usize,
    (per_byte, part_bytes): (usize, usize),
    from: usize,
) -> Vec<Range<usize>> {
    let (_, part_bytes) = above_of(layout, k, per_byte, part_bytes);
    let per_config = layout.splits(k) * layout.stored_len() / per_byte;
    let most = (part_bytes / per_config.max(1)).max(1);
    let cut = segments::cut(layout, k, per_byte);
    let stored = layout.stored(k).len();
    // As many parts as the most a part holds asks, of even sizes (a segment more at most).
    let left = stored - from;
    let largest = cut.iter().map(|s| s.len()).max().unwrap_or(1);
    let even = left.div_ceil(left.div_ceil(most).max(1)) + largest;
    let target = most.min(even);
    let mut parts = Vec::new();
    let mut start = from;
    for segment in cut.iter().filter(|s| s.start >= from) {
        if segment.end - start > target && segment.start > start {
            parts.push(start..segment.start);
            start = segment.start;
        }
        if segment.end - start > target {
            parts.extend(layout::runs(layout, k, segment.clone(), target));
            start = segment.end;
        }
    }
    if start < stored {
        parts.push(start..stored);
    }
    parts
}

/// Solves layer `k` in parts of at most `part_bytes`, reading layer `k + 1` from `spill`
/// (written), and writes it there; returns its counts.
pub fn solve_layer<P: Packing>(
    source: &dyn ConfigSource,
    (layout, shares): (&Layout, &[f64]),
    k: usize,
    spill: &mut Spill,
    part_bytes: usize,
    (progress, pace): (&dyn Progress, &mut Pace),
) -> Result<RetroStats> {
    let per_config = layout.stored_len();
    let (mut writer, from, mut stats) = spill.layer_writer(layout, (k, P::PER_BYTE), progress)?;
    let parts = plan_from(layout, k, (P::PER_BYTE, part_bytes), from);
    let (above, _) = above_of(layout, k, P::PER_BYTE, part_bytes);
    let held = match above {
        Above::Pulled(_) if !parts.is_empty() => Some(spill.read_layer::<P>(k + 1, layout)?),
        _ => None,
    };
    // Which parts each configuration of the layer above has parents in, found once: each
    // part's pass then skips the others (`PartsOfParents`).
    let pushed = matches!(above, Above::Pushed(_)) && held.is_none();
    let relevant = (pushed && parts.len() > 1).then(|| {
        let started = std::time::Instant::now();
        let relevant = PartsOfParents::new(source, layout, k, &parts);
        progress.message(&format!(
            "layer {k}: the parts of the parents of layer {}'s configurations found ({:.1} s)",
            k + 1,
            started.elapsed().as_secs_f64()
        ));
        relevant
    });
    let precision = packing_precision::<P>();
    let of = plan(layout, k, P::PER_BYTE, part_bytes).len();
    // The parts an earlier run did: their slots for the progress, not their work for the
    // pace, whose total `run_in_parts` counted without them (skipped here too, a resumed
    // run told 100 % of the analysis layers before its end).
    let (before, _) = done_before::<P>((layout, shares), k, part_bytes, from);
    progress.advance(before as u64);
    // The stores of the part before, filled again rather than mapped anew: the kernel
    // zeroes a new page at about a GB a second a thread here (`memory::huge_vec`), a part of
    // 7x5 w5 at 18G is 12 GiB, and the part written no longer needs them.
    let mut spare = Vec::new();
    for (i, ranks) in parts.iter().enumerate() {
        let below = match (above, &held) {
            (Above::Nothing, _) => Below::Nothing,
            (_, Some(held)) => Below::Layer(held),
            (_, None) => Below::Pushed,
        };
        let mut stores = refill_stores::<P>(layout, k, ranks.len(), below, spare);
        if let Below::Pushed = below {
            let slots = ranks.start * per_config..ranks.end * per_config;
            let parents: Vec<&[AtomicU8]> = stores.iter_mut().map(|s| store::atomic(s)).collect();
            let piece = sizing::piece_bytes(part_bytes as u64) as usize;
            let inside = InPart::new(layout, source.layer(k), ranks.clone());
            let to = (&parents[..], slots, &inside);
            let only = relevant.as_ref().map(|r| (r, i));
            push_layer_above::<P>(source, layout, (k + 1, piece), spill, to, only)?;
        }
        stats = stats + solve_stores::<P>(source, layout, (k, ranks.clone()), &mut stores, below)?;
        crate::retro::engine::stop::check_stop()?;
        writer.append(&stores)?;
        spare = stores;
        if let Some(written) = writer.checkpoint()? {
            spill.record_part((k, ranks.end), written, stats)?;
        }
        let slots = ranks.len() * per_config * layout.splits(k);
        progress.advance(slots as u64);
        let work = work(
            precision,
            shares,
            (k, slots as f64),
            above,
            (1, of.max(parts.len())),
        );
        pace.part_done(k, (i + 1, parts.len()), (slots, work), progress);
    }
    drop(spare);
    spill.finish_layer(writer, stats, progress)?;
    Ok(stats)
}

/// `sizing::layer_seconds` of `own` slots of layer `k` and of `above` (`above_of`), each
/// counted at the share of its layer's placements the analysis solves (`live.rs`): it
/// skips those with a pawn cut off.
fn work(
    precision: Precision,
    shares: &[f64],
    (k, own): (usize, f64),
    above: Above,
    parts: (usize, usize),
) -> f64 {
    let above = above.scaled(shares.get(k + 1).copied().unwrap_or(1.0));
    sizing::layer_seconds(precision, own * shares[k], above, parts)
}

/// The stored slots of layer `k` that an earlier run solved, its first `from` stored
/// configurations, and their work (`work`, in slots): each part it did read the layer
/// above. (About: the parts left are cut evenly again, a part more or fewer.)
pub fn done_before<P: Packing>(
    (layout, shares): (&Layout, &[f64]),
    k: usize,
    part_bytes: usize,
    from: usize,
) -> (usize, f64) {
    let slots = from * layout.stored_len() * layout.splits(k);
    let (above, _) = above_of(layout, k, P::PER_BYTE, part_bytes);
    let of = plan(layout, k, P::PER_BYTE, part_bytes).len();
    let left = plan_from(layout, k, (P::PER_BYTE, part_bytes), from).len();
    let work = work(
        packing_precision::<P>(),
        shares,
        (k, slots as f64),
        above,
        (of.saturating_sub(left), of),
    );
    (slots, work)
}

/// The precision `P` packs.
pub(in crate::retro) fn packing_precision<P: Packing>() -> Precision {
    match P::EXACT {
        true => Precision::Exact,
        false => Precision::Compact,
    }
}

/// The stores of `configs` stored configurations of layer `k`, by split, as they start
/// for the exits they will find `below`: no exit yet where the layer above pushes them,
/// else (the last layer, which has no wall moves, or the layer above held) undecided.
pub(in crate::retro) fn fresh_stores<P: Packing>(
    layout: &Layout,
    k: usize,
    configs: usize,
    below: Below,
) -> Vec<Vec<u8>> {
    refill_stores::<P>(layout, k, configs, below, Vec::new())
}

/// `fresh_stores` in the memory of `spare` (earlier stores of the same layer) where it
/// holds enough: each refilled by every thread, with no page mapped anew.
fn refill_stores<P: Packing>(
    layout: &Layout,
    k: usize,
    configs: usize,
    below: Below,
    mut spare: Vec<Vec<u8>>,
) -> Vec<Vec<u8>> {
    let len = configs * layout.stored_len() / P::PER_BYTE;
    let start = match below {
        Below::Pushed => P::NO_EXITS,
        _ => P::EMPTY,
    };
    (0..layout.splits(k))
        // A spare too small is dropped before its replacement is made: no more than the
        // part's stores are held at once, as before.
        .map(
            |_| match spare.pop().filter(|store| store.capacity() >= len) {
                Some(mut store) => {
                    store.clear();
                    store.par_extend(rayon::iter::repeat_n(start, len));
                    store
                }
                None => crate::support::memory::huge_vec(len, start),
            },
        )
        .collect()
}

/// The splits of layer `c` that hold children of a wall Player 2 placed in layer `c - 1`:
/// those whose Player 1 holds as many walls as in a split of layer `c - 1`.
pub(in crate::retro) fn splits_pushed(layout: &Layout, c: usize) -> Vec<usize> {
    (0..layout.splits(c))
        .filter(|&j| layout.has_split(c - 1, layout.split_left(c, j)[0]))
        .collect()
}

/// Solves the stored configurations `ranks` of layer `k` into their `stores` (by split),
/// their wall moves' values found `below`: pushed into the stores from the layer above,
/// read from it held whole, or none (the last layer); returns their counts.
pub(in crate::retro) fn solve_stores<P: Packing>(
    source: &dyn ConfigSource,
    layout: &Layout,
    (k, ranks): (usize, Range<usize>),
    stores: &mut [Vec<u8>],
    below: Below,
) -> Result<RetroStats> {
    let n = source.walls_per_player();
    let mut stats = RetroStats::default();
    for pair in layout::split_pairs(n, k) {
        let (first, second) = pair_stores(stores, pair);
        stats = stats
            + layer::solve_pair::<P>(
                source,
                layout,
                (k, ranks.clone()),
                pair,
                first,
                second,
                below,
            )
            .map_err(|block::TooDeep| too_deep(source.board(), n))?;
    }
    Ok(stats)
}

/// The stores of both splits of `pair` (`second` is `None` when the pair is one split).
fn pair_stores(stores: &mut [Vec<u8>], pair: (usize, usize)) -> (&mut [u8], Option<&mut [u8]>) {
    if pair.0 == pair.1 {
        return (&mut stores[pair.0], None);
    }
    let (low, high) = stores.split_at_mut(pair.1);
    (&mut low[pair.0], Some(&mut high[0]))
}

/// Streams every split of layer `c` that holds children of a wall Player 2 placed in layer
/// `c - 1`, side by side in pieces of about `sizing::piece_bytes` in all, pushing each stored
/// block into its parents in `slots` (slots of layer `c - 1`'s splits, whose stores are
/// `parents`). The splits go side by side so that each configuration's parents are found
/// once for all of them (ranking a configuration's parents is the pass's main cost besides
/// the pushes, and every part makes a pass).
fn push_layer_above<P: Packing>(
    source: &dyn ConfigSource,
    layout: &Layout,
    (c, piece_bytes): (usize, usize),
    spill: &Spill,
    (parents, slots, inside): (&[&[AtomicU8]], Range<usize>, &InPart),
    only: Option<(&PartsOfParents, usize)>,
) -> Result<()> {
    let splits = splits_pushed(layout, c);
    if splits.is_empty() {
        return Ok(());
    }
    let per_config = layout.stored_len();
    let each_split = (piece_bytes / splits.len()).max(1);
    let all = 0..layout.stored(c).len();
    let pieces = layout::runs(
        layout,
        c,
        all,
        (each_split * P::PER_BYTE / per_config).max(1),
    );
    let mirror = &symmetry::cell_maps(source.board())[symmetry::MIRROR];
    spill.stream_splits::<P>((c, &splits), layout, &pieces, |ranks, bytes| {
        let first = ranks.start;
        let len = per_config / P::PER_BYTE;
        let skipped = |r: usize| only.is_some_and(|(relevant, part)| !relevant.may_hold(r, part));
        let end = ranks.end;
        ranks.into_par_iter().for_each(|r| {
            if skipped(r) {
                return;
            }
            // The next block pushed is read a line at a time while this one is: its codes
            // are gathered across its rows once per parent, and the inflating thread wrote
            // them out of this core's caches.
            if r + 1 < end && !skipped(r + 1) {
                for b in bytes {
                    memory::prefetch_all(&b[(r + 1 - first) * len..][..len]);
                }
            }
            let blocks: ArrayVec<&[u8], MAX_SPLITS> = bytes
                .iter()
                .map(|b| &b[(r - first) * len..][..len])
                .collect();
            let to = Parents {
                parents,
                slots: &slots,
                inside: Some(inside),
                mirror,
            };
            push_stored::<P>(source, layout, (c, r), (&splits, &blocks), to);
        });
    })
}

/// The most splits of a layer: walls left to Player 1 from 0 to the most a player holds.
pub(in crate::retro) const MAX_SPLITS: usize = MAX_WALLS_PER_PLAYER as usize + 1;

/// The most walls of a configuration, and so the most parents.
const MAX_WALLS: usize = 2 * MAX_WALLS_PER_PLAYER as usize;

/// Where the pushes of a pass go: the part's stores by split (`parents`), the slots of
/// the part or share (`slots`), the configurations stored there when known (`inside`),
/// and the board's mirror for parents that are their own image.
#[derive(Clone, Copy)]
pub(in crate::retro) struct Parents<'a> {
    pub parents: &'a [&'a [AtomicU8]],
    pub slots: &'a Range<usize>,
    pub inside: Option<&'a InPart>,
    pub mirror: &'a [crate::rules::geometry::Square; crate::rules::geometry::MAX_SQUARES],
}

/// The configurations of a layer whose positions with Player 2 to move a part stores (a
/// run of its stored configurations), a bit each by id: a pass over the layer above tests
/// each parent's bit, where finding its stored configuration in the layout's indices
/// (`Layout::view`, two reads at random) took 46 % of a pass of 5x7 with 5 walls (layer 9,
/// 5 parts, perf, 2026-11-29), and most parents are in other parts. An eighth of a byte a
/// configuration of the layer (`RetroEstimate::peak_in_parts` counts it).
pub(in crate::retro) struct InPart {
    first: ConfigId,
    bits: Vec<u64>,
}

impl InPart {
    /// The configurations of `ids` (a layer's) held by the stored configurations `stored`.
    pub(in crate::retro) fn new(
        layout: &Layout,
        ids: Range<ConfigId>,
        stored: Range<usize>,
    ) -> InPart {
        let (first, end) = (ids.start as usize, ids.end as usize);
        let bits = (first..end)
            .step_by(64)
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|from| {
                let ids: ArrayVec<ConfigId, 64> = (from..(from + 64).min(end))
                    .map(|id| id as ConfigId)
                    .collect();
                let mut of = [0; 64];
                let of = &mut of[..ids.len()];
                layout.stored_turned_all(&ids, of);
                of.iter().enumerate().fold(0u64, |word, (i, rank)| {
                    word | (stored.contains(rank) as u64) << i
                })
            })
            .collect();
        InPart {
            first: ids.start,
            bits,
        }
    }

    /// Whether configuration `id` of the layer is held.
    #[inline(always)]
    pub(in crate::retro) fn contains(&self, id: ConfigId) -> bool {
        let i = (id - self.first) as usize;
        self.bits[i / 64] >> (i % 64) & 1 == 1
    }
}

/// For each stored configuration of the layer above a layer solved in parts, the parts
/// that hold one of its parents (as `InPart` finds them), a bit each: part `i` is bit
/// `i % 8`, so with more parts a bit stands for several and a configuration is visited by
/// a part it has no parent in, never skipped by one it has. Found once a layer, where each
/// part's pass ranked every configuration's parents (5x5 with 4 walls compact at 100M, 33
/// parts of layer 9: 6 to 17 % of the configurations of layer 10 have a parent in a part).
/// A byte a stored configuration of the layer above (`RetroEstimate::peak_in_parts`).
pub(in crate::retro) struct PartsOfParents {
    masks: Vec<u8>,
}

impl PartsOfParents {
    const BITS: usize = u8::BITS as usize;

    /// The masks of the stored configurations of layer `k + 1`, for `parts` (runs of the
    /// stored configurations of layer `k`, in order; a parent before them is in none).
    pub(in crate::retro) fn new(
        source: &dyn ConfigSource,
        layout: &Layout,
        k: usize,
        parts: &[Range<usize>],
    ) -> PartsOfParents {
        let part_of = |stored: usize| {
            let i = parts.partition_point(|p| p.end <= stored);
            (i < parts.len() && parts[i].contains(&stored)).then_some(i)
        };
        // A few configurations at a time, so that the stored configurations of all their
        // parents are looked up together (`Layout::stored_turned_all`).
        const AT_ONCE: usize = 16;
        let masks = layout
            .stored(k + 1)
            .par_chunks(AT_ONCE)
            .map_init(
                || (Vec::new(), Vec::new()),
                |(parents, stored), configs| {
                    parents.clear();
                    let mut ends = ArrayVec::<usize, AT_ONCE>::new();
                    for &config in configs {
                        source.parents(source.walls(config), &mut |_, parent| parents.push(parent));
                        ends.push(parents.len());
                    }
                    stored.resize(parents.len(), 0);
                    layout.stored_turned_all(parents, stored);
                    let mut start = 0;
                    ends.into_iter()
                        .map(|end| {
                            let of = &stored[std::mem::replace(&mut start, end)..end];
                            of.iter()
                                .filter_map(|&s| part_of(s))
                                .fold(0u8, |mask, i| mask | 1 << (i % Self::BITS))
                        })
                        .collect::<ArrayVec<u8, AT_ONCE>>()
                },
            )
            .flat_map_iter(|masks| masks)
            .collect();
        PartsOfParents { masks }
    }

    /// Whether stored configuration `r` of the layer above may have a parent in `part`.
    #[inline(always)]
    fn may_hold(&self, r: usize, part: usize) -> bool {
        self.masks[r] >> (part % Self::BITS) & 1 == 1
    }
}

/// Pushes the Player 1 half of stored configuration `r` of layer `c`, in each split of
/// `splits` (whose bytes are `blocks`), into the best exits of its parents in the part:
/// each configuration of layer `c - 1` it is made from by a wall Player 2 placed, Player 2
/// to move there. A parent's stored block does not depend on the split (only which split
/// holds it), so the parents in the part are found once.
pub(in crate::retro) fn push_stored<P: Packing>(
    source: &dyn ConfigSource,
    layout: &Layout,
    (c, r): (usize, usize),
    (splits, blocks): (&[usize], &[&[u8]]),
    to: Parents,
) {
    let board = source.board();
    let config = layout.stored(c)[r];
    let walls = source.walls(config);
    let some_left1 = layout.split_left(c, splits[0])[0];
    let mut found: ArrayVec<(ConfigId, bool), MAX_WALLS> = ArrayVec::new();
    let held = |parent| match to.inside {
        Some(inside) => inside.contains(parent),
        None => to
            .slots
            .contains(&layout.view(c - 1, parent, some_left1, Player::Two).start),
    };
    layer::parents_where(source, walls, held, |parent, images| {
        found.push((parent, images))
    });
    if found.is_empty() {
        return;
    }
    let ids: ArrayVec<ConfigId, MAX_WALLS> = found.iter().map(|&(parent, _)| parent).collect();
    layout.prefetch_turned_views(&ids);
    let open = layer::open_pairs(board, source.reach(config, walls));
    let mut columns = [0; MAX_SQUARES * MAX_SQUARES];
    for (&j, block) in splits.iter().zip(blocks) {
        let left1 = layout.split_left(c, j)[0];
        // A stored configuration's own view: Player 1 to move, neither mirrored nor turned,
        // so its block is read as it lies (`Layout::slot`).
        let child = Child {
            codes: block,
            stride: layout.open(),
            skip: layout.width(),
            transposed: None,
            outcomes: None,
        };
        // Each parent's view has Player 2 to move, turned: exact codes are transposed once
        // for all the parents, 2-bit outcomes unpacked (a byte each) and transposed.
        let child = if P::EXACT {
            let transposed = Some(layer::transpose(layout, &child, open[1], &mut columns));
            Child {
                transposed,
                ..child
            }
        } else {
            let outcomes = Some(layer::unpack::<P>(layout, &child, open, true, &mut columns));
            Child { outcomes, ..child }
        };
        let views: ArrayVec<layout::View, MAX_WALLS> = ids
            .iter()
            .map(|&parent| layout.view(c - 1, parent, left1, Player::Two))
            .collect();
        // A parent's stored block is read and lowered row by row where it lies in the part,
        // at random: its lines are started one parent ahead (a fifth of push_stored waited
        // on them, perf of 6x5 w6 exact at 3G, 2026-11-30).
        let prefetch_block = |view: &layout::View| {
            let first = (view.start - to.slots.start) / P::PER_BYTE;
            let bytes = (layout.open() * layout.open()).div_ceil(P::PER_BYTE);
            memory::prefetch_all(&to.parents[view.split][first..][..bytes]);
        };
        prefetch_block(&views[0]);
        for (i, (&(_, images), &view)) in found.iter().zip(&views).enumerate() {
            if let Some(next) = views.get(i + 1) {
                prefetch_block(next);
            }
            let pushes = Pushes {
                store: to.parents[view.split],
                view,
                from: to.slots.start,
                mirror: images.then_some(to.mirror),
            };
            layer::push_positions::<P>(layout, open, pushes, child);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::configs::Tables;
    use crate::retro::run::live;
    use crate::rules::geometry::Board;
    use crate::support::progress::Silent;
    use store::{Compact, Exact};

    /// An earlier run's parts count as much of a layer as they hold: none from its start,
    /// one more part's worth at each part's end, and the whole layer's work (every part's
    /// read of the layer above) at its end, what the run in parts counts for a layer.
    /// Returns the most parts of a layer.
    fn check<P: Packing>(layout: (&Layout, &[f64]), part_bytes: usize) -> usize {
        let shares = layout.1;
        let mut most = 0;
        for k in 0..layout.0.layers() {
            let parts = plan(layout.0, k, P::PER_BYTE, part_bytes);
            let of = parts.len();
            most = most.max(of);
            let (above, _) = above_of(layout.0, k, P::PER_BYTE, part_bytes);
            let precision = packing_precision::<P>();
            assert_eq!(done_before::<P>(layout, k, part_bytes, 0), (0, 0.0));
            let mut last = 0.0;
            for (i, part) in parts.iter().enumerate() {
                let (slots, work) = done_before::<P>(layout, k, part_bytes, part.end);
                assert_eq!(slots, part.end * layout.0.stored_len() * layout.0.splits(k));
                assert!(work > last, "layer {k}, part {i}: {work} after {last}");
                last = work;
            }
            let whole = work(
                precision,
                shares,
                (k, layout.0.layer_len(k) as f64),
                above,
                (of, of),
            );
            assert!(
                (last - whole).abs() <= 1e-9 * whole,
                "layer {k}: {last} != {whole}"
            );
        }
        most
    }

    /// The estimate counts the parts the run cuts each layer into (`plan`), at both
    /// precisions and budgets from the least part up: the plan's seconds rest on them.
    /// (Counted as a layer's bytes by a part's, 4x7 w4 exact at `--memory 200M` was planned
    /// in 10 parts of layer 7 and 6 of layer 6 where the run cut 12 and 8.)
    #[test]
    fn the_estimate_counts_the_parts_of_each_layer() {
        for (w, h, n) in [(4, 4, 2), (4, 5, 3), (3, 5, 4)] {
            let board = Board::new(w, h).unwrap();
            let tables = Tables::build(board, n, u64::MAX, &Silent).unwrap();
            let layout = Layout::new(&tables);
            let e = cell_estimate(&tables);
            for precision in [Precision::Exact, Precision::Compact] {
                let per_byte = precision.per_byte() as usize;
                let least = e.least_part(precision);
                for part_bytes in [least, least * 3, least * 10, least * 40] {
                    let planned: Vec<usize> = e
                        .layers_in_parts(precision, part_bytes)
                        .unwrap()
                        .iter()
                        .rev()
                        .map(|l| l.parts)
                        .collect();
                    let cut: Vec<usize> = (0..layout.layers())
                        .map(|k| plan(&layout, k, per_byte, part_bytes as usize).len())
                        .collect();
                    // Parts of a few groups each are cut unevenly (groups differ in
                    // size): within a third there; within one part in parts of 40.
                    let slack = |c: usize| {
                        if part_bytes >= least * 40 {
                            1
                        } else {
                            1 + c / 3
                        }
                    };
                    let near = planned
                        .iter()
                        .zip(&cut)
                        .all(|(&p, &c)| p.abs_diff(c) <= slack(c));
                    assert!(
                        near,
                        "{board} w{n} {precision:?} {part_bytes}: {planned:?} {cut:?}"
                    );
                }
            }
        }
    }

    /// A part's bits hold exactly the configurations whose Player 2 view starts in its
    /// slots, on every layer of 4x4 with 2 walls and in parts of every few configurations.
    #[test]
    fn a_parts_bits_are_the_parents_whose_view_it_stores() {
        let board = Board::new(4, 4).unwrap();
        let tables = Tables::build(board, 2, u64::MAX, &Silent).unwrap();
        let layout = Layout::new(&tables);
        for k in 0..layout.layers() {
            let stored = layout.stored(k).len();
            let left1 = layout.split_left(k, 0)[0];
            for part in (0..stored).step_by(7).map(|a| a..(a + 7).min(stored)) {
                let inside = InPart::new(&layout, tables.layer(k), part.clone());
                let per = layout.stored_len();
                let slots = part.start * per..part.end * per;
                for id in tables.layer(k) {
                    let view = layout.view(k, id, left1, Player::Two);
                    assert_eq!(inside.contains(id), slots.contains(&view.start), "{k} {id}");
                }
            }
        }
    }

    #[test]
    fn the_parts_an_earlier_run_did_count_as_their_share_of_the_layer() {
        let board = Board::new(4, 4).unwrap();
        let tables = Tables::build(board, 2, u64::MAX, &Silent).unwrap();
        let layout = Layout::new(&tables);
        let shares = live::live_shares(board, layout.layers());
        let layout = (&layout, &shares[..]);
        for part_bytes in [1 << 10, 1 << 14, usize::MAX] {
            let most = check::<Exact>(layout, part_bytes).max(check::<Compact>(layout, part_bytes));
            assert_eq!(
                most > 1,
                part_bytes < usize::MAX,
                "{part_bytes}: {most} parts"
            );
        }
    }

    /// The layers of the cells in the smallest parts (as `tests/analysis.rs` runs them)
    /// are some pushed and some pulled, so that both ways are checked against the analysis in
    /// memory there; in roomy parts every layer pulls (but the last, which reads nothing).
    #[test]
    fn small_parts_push_some_layers_and_pull_others() {
        let mut small = Vec::new();
        for (w, h, n) in [(3, 3, 2), (4, 3, 3), (2, 5, 4), (4, 4, 2)] {
            let board = Board::new(w, h).unwrap();
            let tables = Tables::build(board, n, u64::MAX, &Silent).unwrap();
            let layout = Layout::new(&tables);
            let least = sizing::least_part_bytes(
                (0..layout.layers())
                    .map(|k| layout.splits(k))
                    .max()
                    .unwrap(),
                layout.stored_len(),
                1,
            ) as usize;
            let kinds = |part: usize| -> Vec<&str> {
                (0..layout.layers())
                    .map(|k| match above_of(&layout, k, 1, part).0 {
                        Above::Nothing => "nothing",
                        Above::Pushed(_) => "pushed",
                        Above::Pulled(_) => "pulled",
                    })
                    .collect()
            };
            small.extend(kinds(least));
            let roomy = kinds(1 << 30);
            assert_eq!(
                roomy.iter().filter(|&&k| k == "pulled").count(),
                layout.layers() - 1
            );
        }
        assert!(
            small.contains(&"pushed") && small.contains(&"pulled"),
            "{small:?}"
        );
    }
}
