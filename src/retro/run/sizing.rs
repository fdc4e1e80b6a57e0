//! How much the analysis takes, in one place for the runners and the estimates alike:
//! the buffers and slack of the analysis in parts, its measured rates, and the bytes a rank
//! holds across ranks. The estimates (`estimate.rs`, the planner's) and the runners
//! (`parts.rs`, `across.rs`, `read_back.rs`) read these, so a change here moves both.

use crate::retro::engine::layout::Layout;
use crate::retro::engine::store::Precision;
use crate::retro::format::{segments, stream};
use std::ops::Range;

/// How fast the analysis in parts goes at a precision, in positions solved a second (the
/// placements less those of a pawn cut off, `live.rs`) on the machine it was measured on
/// (2 cores).
struct Rates {
    /// Solving a layer's own positions; the last layer (no walls left to place, nothing
    /// above to read) goes faster.
    own: f64,
    last: f64,
    /// Reading the layer above once, to hold it beside the parts.
    read: f64,
    /// A part's pass over the layer above where it is not held: streamed whole and pushed
    /// to the parents in the part.
    pass: f64,
}

/// Exact, refitted 2026-11-30 (binaries 0298cfe and 7e25816, after the pieces filled again,
/// the prefetches, the batched lookups and the groups' bits): the 7x5 w5 bound at 18G,
/// layer 9's parts (6.33e10 own, a pass over 5.70e11) 246 and 247 s, these rates 284 s;
/// layer 8's first part (6.73e10 own, a pass over 6.33e11) 334 s, these rates 307 s; its
/// last layer 794 s on 7baae09 (these rates 760 s); 4x7 w4 at 200M, layers 8 to 5: 2.2,
/// 12.7, 11.1, 4.6 s, these rates 2.3, 10.9, 9.3, 3.3 s. The rates before (own 250e6,
/// pass 1.3e9, last 600e6) planned 692 s for a part of 7x5's layer 9.
/// Compact: `own` and `read` refitted 2026-11-30 to 6x5 with 7 walls at 20G
/// (64a73aa, every layer holding the one above: layers 11 to 5 within 9 %, layer 12 took
/// 73 s against 45; the whole analysis 805 s, 814 s at these rates, 1,523 s at the rates of
/// 2026-11-28, own 283e6 and read 4.6e9, fitted to 6x5 w10 on 5745663 to 474edb7; `last`
/// kept: its layer 14 took 1.7 s for 8.8e8 positions). `pass` refitted 2026-11-30 to 6x6
/// with 5 walls at 18G in pushed parts (dfcc9b5, the 2-bit pushes a row at a time): layer
/// 9's parts (1.55e11 own, a pass over 1.05e12) 480 to 515 s, these rates 509 s; layer 8's
/// (1.61e11 own, a pass over 1.08e12) 531 s, these rates 526 s. The `pass` before, 913e6
/// (5x7 with 5 walls on 2da1ecf), planned those parts at 1,443 and 1,487 s. A test holds
/// `own` and `read` to 6x5 w7 and `pass` to 6x6 w5.
/// Holding the layer above costs a read; a pass of every part over it costs far more (the
/// parents' indices read at random, `parts::InPart`).
fn rates(precision: Precision) -> Rates {
    match precision {
        Precision::Exact => Rates {
            own: 450e6,
            last: 750e6,
            read: 908e6,
            pass: 4.0e9,
        },
        Precision::Compact => Rates {
            own: 535e6,
            last: 497e6,
            read: 12.8e9,
            pass: 4.8e9,
        },
    }
}

/// What a layer in parts reads of the layer above, in positions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Above {
    /// Nothing: the last layer.
    Nothing,
    /// Streamed by every part and pushed to the parents in it (`parts::push_stored`).
    Pushed(f64),
    /// Read whole once and held beside the parts, which pull their exits from it as the
    /// analysis in memory does (`pulled_part`).
    Pulled(f64),
}

impl Above {
    /// What is read with its positions counted at `share` (`live.rs`).
    pub fn scaled(self, share: f64) -> Above {
        match self {
            Above::Nothing => Above::Nothing,
            Above::Pushed(p) => Above::Pushed(p * share),
            Above::Pulled(p) => Above::Pulled(p * share),
        }
    }
}

/// The seconds of `parts` of the `of` parts of a layer, `own` positions in all, at
/// `precision`: its positions, and what it reads of the layer `above` (a pass for each
/// part, or their share of one read). Also the analysis's work, counted in slots in place
/// of positions.
pub fn layer_seconds(
    precision: Precision,
    own: f64,
    above: Above,
    (parts, of): (usize, usize),
) -> f64 {
    let r = rates(precision);
    match above {
        Above::Nothing => own / r.last,
        Above::Pushed(above) => own / r.own + above * parts as f64 / r.pass,
        Above::Pulled(above) => own / r.own + above * parts as f64 / of.max(1) as f64 / r.read,
    }
}

/// The most bytes of a part of a layer whose layer above takes `above_bytes` (every split)
/// and is held whole beside it (`Above::Pulled`), in the room of a part of `part_bytes`
/// and its stream's pieces (a pulled layer streams nothing); `None` when the layer above
/// would take more than three quarters of that room (the parts beside it would be small),
/// or leave less than `least`, the layer's smallest part (one group).
/// Pulling reads the layer above once, not once a part, and spares the pushes, which cost
/// far more than the pulls (5x5 with 4 walls at 192M, one thread: the pushes were half the
/// analysis).
pub fn pulled_part(above_bytes: u64, part_bytes: u64, least: u64) -> Option<u64> {
    let room = part_bytes.saturating_add(STREAM_PIECES * piece_bytes(part_bytes));
    (above_bytes <= room / 4 * 3 && room - above_bytes >= least).then(|| room - above_bytes)
}

/// What a layer in parts reads of the layer above (`positions` and `bytes`, `None` for the
/// last layer), and the most bytes of each of its parts: held beside smaller parts where
/// `pulled_part` allows (`least`: the layer's smallest part), else pushed in parts of
/// `part_bytes`. The runner and the estimates both decide by it.
pub fn above_and_part(above: Option<(f64, u64)>, part_bytes: u64, least: u64) -> (Above, u64) {
    match above {
        None => (Above::Nothing, part_bytes),
        Some((positions, bytes)) => match pulled_part(bytes, part_bytes, least) {
            Some(part) => (Above::Pulled(positions), part),
            None => (Above::Pushed(positions), part_bytes),
        },
    }
}

/// The most bytes of one piece of the stream of the layer above.
pub const PIECE_BYTES: u64 = 16 << 20;

/// Pieces of the stream in memory at once: one pushed, one waiting, one being read.
pub const STREAM_PIECES: u64 = stream::PIECES_LIVE as u64;

/// The memory of one split file's writer: its buffer and the compressor's state. (zstd's at
/// level 1, measured 2026-11-30: a context of 1.37 MB with a frame of 16 MiB pledged and an
/// output buffer of 128 KiB, besides the writer's 256 KiB; its reader's about 0.75 MB. Over
/// this by about 1.3 MB a split, which `SLACK_BYTES` holds: counted at 3 MiB, 4x7 w4
/// compact at 200M cut layer 6 into 32 parts instead of 16, for a peak of 175 MiB.)
pub const WRITER_BYTES: u64 = 1 << 20;

/// What the analysis in parts takes besides its stores, buffers and indices: the threads'
/// scratch, the allocator's keep of freed parts and pieces, the program itself (measured:
/// 11 MiB over the rest on 5x5 with 3 walls at a 20 MiB budget).
pub const SLACK_BYTES: u64 = 16 << 20;

/// Besides `SLACK_BYTES`, a part's slack is its bytes over this: what the allocator keeps
/// of freed parts and pieces grows with them (4x7 with 7 walls, exact, at a 2,938 MiB
/// budget and 1.61 GiB parts: 24.5 MiB over the budget without it in one run of two).
pub const PART_SLACK_DIVISOR: u64 = 32;

/// The most bytes of one piece of the stream beside parts of `part_bytes`: no more than a
/// part (so that small parts, as the tests make them, read the stream in many pieces).
pub fn piece_bytes(part_bytes: u64) -> u64 {
    PIECE_BYTES.min(part_bytes).max(1)
}

/// The bytes of the smallest part of layer `k`: one group of two configurations.
pub fn least_part_bytes(splits: usize, stored_len: usize, per_byte: usize) -> u64 {
    (2 * splits * stored_len / per_byte) as u64
}

/// The shares of the ranks in a layer cut into `cut` segments: `size` runs of whole
/// segments, in rank order, of about as many configurations each (some empty when there
/// are fewer segments than ranks).
pub fn share_out(cut: &[Range<usize>], size: usize) -> Vec<Range<usize>> {
    let stored = cut.last().map_or(0, |s| s.end);
    // Rank r starts at the first segment that starts at or past its even share.
    let first = |r: usize| match cut.partition_point(|s| s.start < stored * r / size) {
        i if i < cut.len() => cut[i].start,
        _ => stored,
    };
    (0..size).map(|r| first(r)..first(r + 1)).collect()
}

/// The bytes a rank holds for layer `k` at most, besides the configurations and the
/// layout: its share of the layer's stores, and the pieces of the stream and of the
/// exchange (`pieces_over`).
pub fn share_bytes(layout: &Layout, (k, per_byte): (usize, usize), size: usize) -> u64 {
    let cut = segments::cut(layout, k, per_byte);
    let per_config = layout.splits(k) * layout.stored_len() / per_byte;
    let most = share_out(&cut, size)
        .iter()
        .map(Range::len)
        .max()
        .unwrap_or(0);
    let share = (most * per_config) as u64;
    share + pieces_bytes(layout, (k + 1, per_byte), size)
}

/// The bytes of the pieces in flight while layer `c` is pushed to the layer below: three
/// pieces of the stream, and what a rank sends and receives in a round (each piece's
/// blocks to at most every rank, and from every rank).
fn pieces_bytes(layout: &Layout, (c, per_byte): (usize, usize), size: usize) -> u64 {
    if c >= layout.layers() {
        return 0;
    }
    pieces_over((layout.layer_len(c - 1) / per_byte) as u64, size)
}

/// `pieces_bytes` for a layer below of `below` bytes (every split): also what the
/// estimates count (`RetroEstimate::peak_across`).
pub fn pieces_over(below: u64, size: usize) -> u64 {
    (STREAM_PIECES + 2 * size as u64) * piece_over(below, size)
}

/// The bytes of one piece of a rank's share of a layer whose layer below takes `below`
/// bytes, every split pushed together: no more than `PIECE_BYTES`, and small enough
/// that all the pieces in flight take a quarter of a share of the layer below at most.
pub fn piece_over(below: u64, size: usize) -> u64 {
    let size = size as u64;
    piece_bytes(below / (4 * size * (2 * size + 3)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A layer above is held where it takes at most three quarters of the room (a part and
    /// its stream's pieces) and leaves a whole smallest part beside it; the part is the rest.
    #[test]
    fn the_layer_above_is_held_where_it_leaves_a_part() {
        let part = 64 << 20;
        let room = part + STREAM_PIECES * PIECE_BYTES;
        assert_eq!(pulled_part(room / 2, part, 1), Some(room - room / 2));
        assert_eq!(
            pulled_part(room / 4 * 3, part, 1),
            Some(room - room / 4 * 3)
        );
        assert_eq!(pulled_part(room / 4 * 3 + 1, part, 1), None);
        // A smallest part larger than what is left: pushed, not held.
        assert_eq!(pulled_part(room / 2, part, room / 2 + 1), None);
        // Tiny parts read the stream in pieces as small: the room is four parts.
        assert_eq!(pulled_part(3, 1, 1), Some(1));
    }
}
