//! The analysis across ranks (processes, on one machine or many: `ranks.rs`), through a
//! directory they all reach. Every rank owns a share of every layer, a run of whole
//! segments (`segments.rs`) of its stored configurations, and holds only that share and
//! what it receives. For layer `k`:
//!
//! 1. each rank streams its share of layer `k + 1` from the layer's files (starting at its
//!    first segment), and sends each stored block to the ranks that own one of
//!    its parents (the configuration less one of its walls), compressed, in rounds of one
//!    all-to-all exchange each;
//! 2. each rank pushes the blocks it receives into the exits of its own parents, as the
//!    analysis in parts pushes the stream of the layer above (`parts::push_stored`), then
//!    solves its blocks by their pawn moves;
//! 3. each rank writes its share as compressed frames (its own files); rank 0 joins the files
//!    of all ranks in order into the layer's split files, which are byte for byte those
//!    of a single process (cut at the same segments), and records the
//!    layer in `progress.json`.
//!
//! The values do not depend on the number of ranks (an exit is the best of its pushes,
//! whatever their order), and neither do the files. A run stopped at any point goes on from
//! the last layer rank 0 recorded, with the same number of ranks or another.

use super::estimate::cell_estimate;
use super::parts::{self, MAX_SPLITS, Parents};
use super::read_back::{kept_after_parts, read_back};
use super::sizing;
use crate::error::{Error, Result, count};
use crate::retro::engine::board::check_board;
use crate::retro::engine::layer::Below;
use crate::retro::engine::layout::{self, Layout};
use crate::retro::engine::ranks::{self, Ranks, naming};
use crate::retro::engine::solved::Solved;
use crate::retro::engine::source::ConfigSource;
use crate::retro::engine::store::{self, Packing};
use crate::retro::engine::store::{Compact, Exact, Precision};
use crate::retro::engine::symmetry;
use crate::retro::engine::value::RetroStats;
use crate::retro::format::saved::SplitFile;
use crate::retro::format::segments;
use crate::retro::format::spill::Spill;
use crate::rules::geometry::Player;
use crate::support::progress::Progress;
use arrayvec::ArrayVec;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::AtomicU8;

/// Solves every position of the cell of `configs` at `precision` across `ranks` (every
/// rank calls it, each with its own `spill` over the directory they share: `across.rs`),
/// going on from the layers an earlier run wrote there; each rank holds its share of a
/// layer at a time, within `budget`. Rank 0 then reads back the layers the start's value
/// needs (as one process through a directory does, `read_back.rs`) and gets the analysis;
/// the other ranks get `None`.
pub(in crate::retro) fn analyse_across<'t>(
    configs: &'t dyn ConfigSource,
    precision: Precision,
    spill: &mut Spill,
    (ranks, budget): (&dyn Ranks, u64),
    progress: &dyn Progress,
) -> Result<Option<Solved<'t>>> {
    check_board(configs.board())?;
    let layout = Layout::new(configs);
    let stats_before = spill.stats_from(spill.written_from());
    let (solved, per_byte) = match precision {
        Precision::Exact => {
            let done = solve_layers::<Exact>(configs, &layout, spill, (ranks, budget), progress)?;
            (done, Exact::PER_BYTE)
        }
        Precision::Compact => {
            let done = solve_layers::<Compact>(configs, &layout, spill, (ranks, budget), progress)?;
            (done, Compact::PER_BYTE)
        }
    };
    if ranks.rank() != 0 {
        return Ok(None);
    }
    let stats = solved.iter().fold(stats_before, |a, (_, l)| a + l.stats);
    let e = cell_estimate(configs);
    let room = budget.saturating_sub(configs.bytes());
    let kept = kept_after_parts(&e, precision, (room, false));
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

/// The most ranks: a configuration's owners are a bit each in a word.
pub const MAX_RANKS: usize = 64;

/// What one layer took across the ranks: its counts, and the bytes the ranks sent each
/// other (compressed; a rank's messages to itself are not counted).
#[derive(Clone, Copy, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct LayerAcross {
    pub stats: RetroStats,
    pub sent: u64,
}

/// Solves the layers of the cell not yet written to `spill`, from the most walls down,
/// across `ranks`, each rank its share (every rank calls it, with the same arguments but
/// its own `ranks` and `spill` over the same directory). Refused on every rank alike
/// when a rank's share does not fit `budget`. Returns the counts of the layers solved
/// and the bytes the ranks sent each other, by layer.
pub fn solve_layers<P: Packing>(
    source: &dyn ConfigSource,
    layout: &Layout,
    spill: &mut Spill,
    (ranks, budget): (&dyn Ranks, u64),
    progress: &dyn Progress,
) -> Result<Vec<(usize, LayerAcross)>> {
    let size = ranks.size();
    let written_from = spill.written_from();
    check_ranks(source, layout, (P::PER_BYTE, size), budget)?;
    let slots = |ks: Range<usize>| ks.map(|k| layout.layer_len(k) as u64).sum::<u64>();
    progress.begin(
        &format!("retrograde analysis across {}", count(size, "rank")),
        slots(0..layout.layers()),
    );
    progress.advance(slots(written_from..layout.layers()));
    let mut done = Vec::new();
    for k in (0..written_from).rev() {
        let per_byte = P::PER_BYTE as u64;
        let values = (slots(k..k + 1) / per_byte, slots(0..k + 1) / per_byte);
        spill.check_room(k, values, progress)?;
        progress.message(&format!(
            "layer {k}: {} stored positions to solve across {}",
            slots(k..k + 1),
            count(size, "rank")
        ));
        let started = std::time::Instant::now();
        let across = solve_layer::<P>(source, layout, k, spill, ranks, progress)
            .map_err(|e| naming(e, &format!("rank {}, layer {k}", ranks.rank())))?;
        progress.advance(slots(k..k + 1));
        progress.message(&format!(
            "layer {k}: {} positions across {} in {:.1} s; {} exchanged",
            across.stats.positions,
            count(size, "rank"),
            started.elapsed().as_secs_f64(),
            crate::error::format_bytes(across.sent),
        ));
        done.push((k, across));
    }
    progress.finish();
    Ok(done)
}

/// Refuses more ranks than the largest layer has segments, or a share that does not fit
/// `budget` beside the configurations and the layout: the same answer on every rank.
fn check_ranks(
    source: &dyn ConfigSource,
    layout: &Layout,
    (per_byte, size): (usize, usize),
    budget: u64,
) -> Result<()> {
    let most_segments = (0..layout.layers())
        .map(|k| segments::cut(layout, k, per_byte).len())
        .max()
        .unwrap_or(0);
    if size > most_segments.min(MAX_RANKS) {
        return Err(Error::Argument(format!(
            "{} ranks for {} with {}: its largest layer has {} to share out (at most {} \
             ranks)",
            size,
            source.board(),
            count(source.walls_per_player(), "wall"),
            count(most_segments, "segment"),
            most_segments.min(MAX_RANKS)
        )));
    }
    let (k, most) = (0..layout.layers())
        .map(|k| (k, sizing::share_bytes(layout, (k, per_byte), size)))
        .max_by_key(|&(_, b)| b)
        .unwrap_or((0, 0));
    crate::support::memory::check(
        &format!(
            "retrograde analysis of {} with {} across {}: layer {k}'s share, the pieces \
             exchanged, the configurations and the layout, on each rank",
            source.board(),
            count(source.walls_per_player(), "wall"),
            count(size, "rank"),
        ),
        most + source.bytes() + layout.bytes() + sizing::SLACK_BYTES,
        budget,
    )
}

/// Solves this rank's share of layer `k` from the layer above, writes it, and (rank 0)
/// joins the shares into the layer's files; every rank records the layer.
fn solve_layer<P: Packing>(
    source: &dyn ConfigSource,
    layout: &Layout,
    k: usize,
    spill: &mut Spill,
    ranks: &dyn Ranks,
    progress: &dyn Progress,
) -> Result<LayerAcross> {
    let me = ranks.rank();
    let cut = segments::cut(layout, k, P::PER_BYTE);
    let shares = sizing::share_out(&cut, ranks.size());
    let mine = shares[me].clone();
    let below = match k + 1 < layout.layers() {
        true => Below::Pushed,
        false => Below::Nothing,
    };
    let mut stores = parts::fresh_stores::<P>(layout, k, mine.len(), below);
    let mut sent = 0;
    if k + 1 < layout.layers() {
        let parents: Vec<&[AtomicU8]> = stores.iter_mut().map(|s| store::atomic(s)).collect();
        sent = push_layer_above::<P>(source, layout, (k + 1, &shares), spill, ranks, &parents)?;
    }
    let stats = parts::solve_stores::<P>(source, layout, (k, mine.clone()), &mut stores, below)?;
    let mut writer = spill.share_writer(
        layout,
        (k, P::PER_BYTE),
        (segments::covering(&cut, &mine), me),
    )?;
    writer.append(&stores)?;
    drop(stores);
    let files: Vec<SplitFile> = writer.finish()?.into_iter().map(|(f, _)| f).collect();
    // Every rank learns every rank's files and counts; rank 0 joins the files.
    let mine = LayerAcross { stats, sent };
    let report = serde_json::to_vec(&(files, mine)).expect("serializable");
    let mut shares = Vec::new();
    let mut layer = LayerAcross::default();
    for bytes in ranks::all_gather(ranks, &report) {
        let (files, theirs): (Vec<SplitFile>, LayerAcross) =
            serde_json::from_slice(&bytes).expect("written by a rank of this program");
        shares.push(files);
        layer.stats = layer.stats + theirs.stats;
        layer.sent += theirs.sent;
    }
    spill.join_shares(k, &shares, (layer.stats, me == 0), progress)?;
    // The layer's files are whole before any rank reads them.
    ranks::barrier(ranks);
    Ok(layer)
}

/// Streams this rank's share of layer `c` and sends each stored block to the ranks that
/// own one of its parents in layer `c - 1` (`shares_below`); pushes what it receives into
/// its own parents (`parents`: its share's stores, by split). Returns the bytes it sent to
/// other ranks.
fn push_layer_above<P: Packing>(
    source: &dyn ConfigSource,
    layout: &Layout,
    (c, shares_below): (usize, &[Range<usize>]),
    spill: &Spill,
    ranks: &dyn Ranks,
    parents: &[&[AtomicU8]],
) -> Result<u64> {
    let splits = parts::splits_pushed(layout, c);
    if splits.is_empty() {
        return Ok(0); // the same on every rank: no exchange at all
    }
    let (me, size) = (ranks.rank(), ranks.size());
    let stored_len = layout.stored_len();
    let shares_slots: Vec<Range<usize>> = shares_below
        .iter()
        .map(|s| s.start * stored_len..s.end * stored_len)
        .collect();
    let cut = segments::cut(layout, c, P::PER_BYTE);
    let mine = sizing::share_out(&cut, size)[me].clone();
    let block = stored_len / P::PER_BYTE;
    let below = (layout.layer_len(c - 1) / P::PER_BYTE) as u64;
    let piece = sizing::piece_over(below, size) as usize;
    let most = (piece / (splits.len() * block)).max(1);
    let pieces = layout::runs(layout, c, mine.clone(), most);
    let rounds = ranks::all_max(ranks, pieces.len() as u64) as usize;
    let round = Round {
        source,
        layout,
        c,
        splits: &splits,
        shares_slots: &shares_slots,
        ranks,
        to: Parents {
            parents,
            slots: &shares_slots[me],
            inside: None,
            mirror: &symmetry::cell_maps(source.board())[symmetry::MIRROR],
        },
    };
    let mut sent = 0;
    let segments = segments::covering(&cut, &mine);
    spill.stream_segments::<P>(
        (c, &splits),
        layout,
        (segments, &pieces),
        |configs, bytes| {
            sent += round.run::<P>(Some((configs, bytes)));
        },
    )?;
    // Ranks whose share is smaller still take part in every round.
    for _ in pieces.len()..rounds {
        sent += round.run::<P>(None);
    }
    Ok(sent)
}

/// One round of the exchange of the layer above (`push_layer_above`).
struct Round<'a> {
    source: &'a dyn ConfigSource,
    layout: &'a Layout,
    c: usize,
    splits: &'a [usize],
    /// Each rank's slots of layer `c - 1` (in every split).
    shares_slots: &'a [Range<usize>],
    ranks: &'a dyn Ranks,
    to: Parents<'a>,
}

impl Round<'_> {
    /// Sends the stored blocks of `piece` (configurations, and their bytes by split) to
    /// their parents' owners, and pushes what this rank receives; returns the bytes sent to
    /// other ranks. A message is the records of its blocks, each the configuration's rank
    /// (8 bytes) and its block in every split, compressed.
    fn run<P: Packing>(&self, piece: Option<(Range<usize>, &[Vec<u8>])>) -> u64 {
        let (me, size) = (self.ranks.rank(), self.ranks.size());
        let block = self.layout.stored_len() / P::PER_BYTE;
        let mut send: Vec<Vec<u8>> = vec![Vec::new(); size];
        if let Some((configs, bytes)) = piece {
            let owners: Vec<u64> = configs
                .clone()
                .into_par_iter()
                .map(|r| self.owners(r))
                .collect();
            for (i, r) in configs.enumerate() {
                for (to, out) in send.iter_mut().enumerate() {
                    if owners[i] >> to & 1 == 1 {
                        out.extend_from_slice(&(r as u64).to_le_bytes());
                        for split in bytes {
                            out.extend_from_slice(&split[i * block..][..block]);
                        }
                    }
                }
            }
        }
        // What this rank sends itself is pushed as it is, neither compressed nor exchanged.
        let own = std::mem::take(&mut send[me]);
        let packed: Vec<Vec<u8>> = send.into_par_iter().map(|m| pack(&m)).collect();
        let sent = packed.iter().map(|m| m.len() as u64).sum();
        let record = 8 + self.splits.len() * block;
        let received = self.ranks.exchange(packed);
        let others = received.iter().enumerate().filter(|&(from, _)| from != me);
        for records in std::iter::once(own).chain(others.map(|(_, m)| unpack(m))) {
            records.par_chunks(record).for_each(|rec| {
                let r = u64::from_le_bytes(rec[..8].try_into().expect("8 bytes")) as usize;
                let blocks: ArrayVec<&[u8], MAX_SPLITS> = rec[8..].chunks(block).collect();
                parts::push_stored::<P>(
                    self.source,
                    self.layout,
                    (self.c, r),
                    (self.splits, &blocks),
                    self.to,
                );
            });
        }
        sent
    }

    /// The ranks that own a parent of stored configuration `r` of layer `c`, a bit each.
    fn owners(&self, r: usize) -> u64 {
        let (layout, c) = (self.layout, self.c);
        let config = layout.stored(c)[r];
        let left1 = layout.split_left(c, self.splits[0])[0];
        let mut owners = 0u64;
        // Which parents are their own mirror image does not matter here (`parents_where`).
        let walls = self.source.walls(config);
        self.source.parents(walls, &mut |_, parent| {
            let start = layout.view(c - 1, parent, left1, Player::Two).start;
            let owner = self.shares_slots.partition_point(|w| w.end <= start);
            if owner < self.shares_slots.len() {
                owners |= 1 << owner;
            }
        });
        owners
    }
}

/// `bytes` compressed as the layers' files are (zstd at level 1, `format/codec.rs`: about
/// four times faster than deflate's fastest level, and smaller), an empty message empty.
fn pack(bytes: &[u8]) -> Vec<u8> {
    if bytes.is_empty() {
        return Vec::new();
    }
    zstd::bulk::compress(bytes, 1).expect("compressing in memory")
}

/// A message of another rank of this program inflated (an empty one stays empty).
fn unpack(bytes: &[u8]) -> Vec<u8> {
    if bytes.is_empty() {
        return Vec::new();
    }
    zstd::stream::decode_all(bytes).expect("a message compressed by a rank of this program")
}
