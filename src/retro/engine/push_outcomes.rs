//! The pushes of one child block into one parent's stored block of 2-bit exits (`Compact`),
//! a row of the parent at a time: the child's outcomes are unpacked a byte each once for
//! all its parents (`unpack`), each row of the parent is gathered from them as the exact
//! pushes gather theirs (`push_rows::Columns`; by `vpermb` where the CPU has AVX-512 VBMI,
//! `vbmi`), packed to 2 bits a lane, and lowered a word of 32 slots at a time by a lane-wise
//! minimum (`lower_row`). `layer::push_one_by_one` is the twin of both ways in the tests.
//!
//! Why: in the compact analysis of 6x6 with 5 walls in parts, a pass over the layer above
//! spent 86 % of its samples in `push_stored`, nearly all of it pushing a position at a
//! time: a 2-bit read of the child's code, the slot from the cell maps, the win test and a
//! byte's `fetch_update` (perf, 2026-11-30).
//!
//! ```text
//!  a row of 5 slots from slot 30, in a store that starts on a word (32 slots a word):
//!
//!  word 0: slot 31 30 29 ...  0     word 1: slot 63 ... 35 34 33 32
//!          lane r1 r0 -- ... --                  -- ... -- r4 r3 r2      (-- NONE)
//! ```

use super::layout::Layout;
use super::push_rows::{self, Columns, Outcomes, Pushes};
use super::store::{NONE, Packing, WIN};
use crate::rules::bitboard::bits;
use crate::rules::geometry::{MAX_SQUARES, Square};
use std::sync::atomic::{AtomicU8, Ordering};

/// Whether the 2-bit pushes push a child its mover wins. Such a child is the parent's worst
/// wall move, no better for an outcome than none where the parent's mover has a pawn move,
/// which it always has but on boards of two rows (RULES.md: stuck, it draws): only there.
#[inline(always)]
pub(super) fn wins_pushed(layout: &Layout) -> bool {
    layout.squares() <= 2 * layout.width()
}

/// `child`'s codes (read in packing `Q`) unpacked into `out` as the pushes into views
/// `turned` or not read them (`Outcomes`), for the rows of `open` (`layer::open_pairs`;
/// Player 2's cells when turned): once a child for all its parents, where pushing a
/// position at a time read and tested each code once a parent.
pub fn unpack<'b, Q: Packing>(
    layout: &Layout,
    child: &push_rows::Child,
    [open1, open2]: [u64; 2],
    turned: bool,
    out: &'b mut [u8; MAX_SQUARES * MAX_SQUARES],
) -> Outcomes<'b> {
    let (open, width) = (layout.open(), layout.width());
    let win = if wins_pushed(layout) { WIN } else { NONE };
    let pushed = |outcome: u8| if outcome == WIN { win } else { outcome };
    if turned {
        // Down a column of the child: Player 1's cells, `stride` apart.
        for p2 in bits(open2) {
            let from = p2 as usize - child.skip;
            let row = &mut out[p2 as usize * open..][..open];
            for (p1, o) in row.iter_mut().enumerate() {
                *o = pushed(Q::read_outcome(child.codes, p1 * child.stride + from));
            }
        }
    } else {
        for p1 in bits(open1) {
            let from = p1 as usize * child.stride + width - child.skip;
            let row = &mut out[p1 as usize * open..][..open];
            for (i, o) in row.iter_mut().enumerate() {
                *o = pushed(Q::read_outcome(child.codes, from + i));
            }
        }
    }
    let rows = if turned { open + width } else { open };
    Outcomes {
        bytes: &out[..rows * open],
        turned,
    }
}

/// Pushes `outcomes` into the 2-bit exits of `to` for the pawns on `open`, row `a` of the
/// parent's stored block holding the positions with pawns on `map[a]` and `map[b]` (Player
/// 1's first unless `turned`, as `push_rows::push_rows` reads them). The outcomes are
/// unpacked for views turned as this one.
#[inline(always)]
pub(super) fn push(
    layout: &Layout,
    [open1, open2]: [u64; 2],
    to: &Pushes,
    (map, turned): (&[Square; MAX_SQUARES], bool),
    outcomes: &Outcomes,
) {
    assert_eq!(
        outcomes.turned, turned,
        "outcomes unpacked for another turn"
    );
    let (rows, columns) = if turned {
        (open2, open1)
    } else {
        (open1, open2)
    };
    let skip = if turned { 0 } else { layout.width() };
    let columns = Columns::new(layout, map, columns, false, (layout.open(), skip));
    #[cfg(target_arch = "x86_64")]
    if push_rows::vectors() {
        // SAFETY: the CPU has the features `vbmi::push` is compiled for (checked above).
        return unsafe { vbmi::push(&columns, rows, map, to, outcomes.bytes) };
    }
    scalar(&columns, rows, map, to, outcomes.bytes);
}

/// The first slot of row `a` (of `len` slots) of the parent's stored block in `to.store`.
#[inline(always)]
fn row_slot(to: &Pushes, len: usize, a: usize) -> usize {
    to.view.start - to.from + a * len
}

/// `push` a lane at a time.
#[inline(always)]
fn scalar(columns: &Columns, rows: u64, map: &[Square; MAX_SQUARES], to: &Pushes, bytes: &[u8]) {
    let len = columns.len;
    let (cell, at) = (&columns.cell[..len], &columns.at[..len]);
    for (a, &pa) in map[..len].iter().enumerate() {
        if rows >> pa & 1 == 0 {
            continue;
        }
        let from = &bytes[pa as usize * len..];
        // Every lane `NONE`, then each live column's outcome in its own.
        let mut row = !0u128;
        for i in 0..len {
            if (columns.live >> i & 1 != 0) & (cell[i] != pa) {
                row ^= u128::from(NONE ^ from[at[i]]) << (2 * i);
            }
        }
        lower_row(to.store, row_slot(to, len, a), len, row);
    }
}

/// `push` by AVX-512 VBMI: the row's outcomes in one masked load, gathered by one byte
/// permutation (`NONE` in the lanes that are not live), packed to 2 bits by two
/// multiply-adds and a narrowing.
#[cfg(target_arch = "x86_64")]
mod vbmi {
    use super::{Columns, NONE, Pushes, lower_row, row_slot};
    use crate::retro::engine::push_rows::vbmi::{columns_lanes, lanes};
    use crate::rules::geometry::{MAX_SQUARES, Square};
    use std::arch::x86_64::*;

    /// # Safety
    /// The CPU has AVX-512 F, BW and VBMI.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    pub(super) unsafe fn push(
        columns: &Columns,
        rows: u64,
        map: &[Square; MAX_SQUARES],
        to: &Pushes,
        bytes: &[u8],
    ) {
        let len = columns.len;
        let (index, cells) = columns_lanes(columns);
        let none = _mm512_set1_epi8(NONE as i8);
        for (a, &pa) in map[..len].iter().enumerate() {
            if rows >> pa & 1 == 0 {
                continue;
            }
            let from = &bytes[pa as usize * len..];
            // SAFETY: the load reads only the lanes below `from.len()`, and a masked load
            // does not fault on the others.
            let row = unsafe { _mm512_maskz_loadu_epi8(lanes(from.len()), from.as_ptr().cast()) };
            let same = _mm512_cmpeq_epi8_mask(cells, _mm512_set1_epi8(pa as i8));
            let gathered = _mm512_mask_permutexvar_epi8(none, columns.live & !same, index, row);
            lower_row(to.store, row_slot(to, len, a), len, pack(gathered));
        }
    }

    /// The low 2 bits of each byte of `lanes` (each at most 3), lane `i` at bits `2i` and
    /// `2i + 1`: pairs of bytes into 4 bits (the even lane and four times the odd), pairs
    /// of those into a byte of each 32-bit lane, and those 16 bytes out.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn pack(lanes: __m512i) -> u128 {
        let pairs = _mm512_maddubs_epi16(lanes, _mm512_set1_epi16(0x0401));
        let fours = _mm512_madd_epi16(pairs, _mm512_set1_epi32(0x0010_0001));
        let packed = _mm512_cvtepi32_epi8(fours);
        let low = _mm_cvtsi128_si64(packed) as u64;
        let high = _mm_extract_epi64::<1>(packed) as u64;
        u128::from(high) << 64 | u128::from(low)
    }
}

/// Lowers the 2-bit exits of the `len` slots (at most 64) of `store` from slot `first` to
/// the lanes of `row` (2 bits each from bit 0; `NONE`, which lowers nothing, from lane
/// `len` on) where those are smaller. The row lies in up to three aligned words of eight
/// bytes, each lowered by one compare-and-swap where it changes (`words.rs`): a byte's
/// `fetch_update` a slot, as `Packing::push_exit` does, was most of the pushes a position
/// at a time. A word that reaches out of `store` (at its ends) goes a byte at a time, as
/// does every word where `words.rs` has no instructions.
#[inline(always)]
fn lower_row(store: &[AtomicU8], first: usize, len: usize, row: u128) {
    debug_assert!(len <= 64 && (first + len).div_ceil(4) <= store.len());
    let span = store.as_ptr_range();
    let start = span.start as usize;
    let byte = start + first / 4;
    let shift = byte % 8 * 8 + first % 4 * 2;
    // The row from bit `shift` of the first word, `NONE` around it.
    let below = (1u64 << shift) - 1;
    let moved = row << shift;
    let pushed = [
        moved as u64 | below,
        (moved >> 64) as u64,
        match shift {
            0 => !0,
            _ => (row >> (128 - shift)) as u64 | !below,
        },
    ];
    let first_word = byte - byte % 8;
    for (j, &pushed) in pushed
        .iter()
        .enumerate()
        .take((shift + 2 * len).div_ceil(64))
    {
        if pushed == !0 {
            continue;
        }
        let at = first_word + 8 * j;
        #[cfg(target_arch = "x86_64")]
        if at >= start && at + 8 <= span.end as usize {
            let word = store[at - start..].as_ptr().cast::<u64>().cast_mut();
            // SAFETY: the word lies in `store`, aligned; its bytes are atomics, which other
            // threads update only atomically.
            unsafe { super::words::lower(word, super::words::load(word), |w| least(w, pushed)) };
            continue;
        }
        for (i, lanes) in pushed.to_le_bytes().into_iter().enumerate() {
            // A byte out of `store` holds no lane of the row.
            if lanes != !0 {
                lower_byte(&store[at + i - start], lanes);
            }
        }
    }
}

/// Lowers the four 2-bit exits of `byte` to `pushed`'s lanes where those are smaller.
#[inline(always)]
fn lower_byte(byte: &AtomicU8, pushed: u8) {
    let _ = byte.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| {
        let lowered = least(u64::from(b), u64::from(pushed)) as u8;
        (lowered != b).then_some(lowered)
    });
}

/// The lane-wise least of two words of 2-bit lanes: `y`'s lane where it is below `x`'s.
#[inline(always)]
fn least(x: u64, y: u64) -> u64 {
    const LOW: u64 = 0x5555_5555_5555_5555;
    // At each lane's low bit: `y`'s high bit below `x`'s, or the high bits equal and `y`'s
    // low bit below `x`'s.
    let above = x & !y;
    let lower = (above >> 1 | !(x ^ y) >> 1 & above) & LOW;
    x ^ (x ^ y) & (lower | lower << 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pair of bytes of four lanes: each lane the least of the two.
    #[test]
    fn least_is_the_least_of_each_lane() {
        for x in 0..=255u64 {
            for y in 0..=255u64 {
                let each = (0..4).fold(0, |m, i| {
                    m | (x >> (2 * i) & 3).min(y >> (2 * i) & 3) << (2 * i)
                });
                // The same lanes at the word's top, where a carry or a shift would show.
                assert_eq!(least(x, y), each, "{x:08b} {y:08b}");
                assert_eq!(
                    least(x << 56, y << 56),
                    each << 56,
                    "{x:08b} {y:08b} at the top"
                );
            }
        }
    }

    /// Threads lowering rows of 2-bit exits of one store by words, at every offset and at
    /// both of the store's ends, lose no lane that another thread lowers in the same word or
    /// byte at the same time: each thread owns the slots of its residue mod 4 (so every
    /// byte is shared by all four), lowers them a step at a time through rows that cover
    /// every thread's slots, and finds after each push that its slots in the row hold what
    /// it pushed. Half the threads push a slot at a time by `Packing::push_exit`, the
    /// byte's `fetch_update` that other pushes use at the same time. A store a round, so
    /// that no thread waits for another past the start.
    #[test]
    fn slots_lower_from_many_threads() {
        use crate::retro::engine::code::{LOSS_NOW, UNDECIDED, WIN_IN_ONE};
        use crate::retro::engine::store::Compact;
        const THREADS: usize = 4;
        // Small, so that the threads meet on their words often; cut at an odd byte, so that
        // words reach out of both ends. Many, so that the threads run side by side long
        // enough to meet: with 400, a word lowered by a plain load and store went unseen on
        // two busy cores; with 16,000 it was seen in 5 runs of 5 (2026-11-30).
        let stores: Vec<Vec<AtomicU8>> = (0..16_000)
            .map(|_| (0..77).map(|_| AtomicU8::new(Compact::NO_EXITS)).collect())
            .collect();
        let lost_slots = crate::support::xorshift::side_by_side(THREADS, |t, next| {
            let mut lost_slots = 0;
            for store in &stores {
                let store = &store[3..];
                let slots = 4 * store.len();
                for outcome in (0..=2u8).rev() {
                    for _ in 0..20 {
                        let len = 1 + next() as usize % 64;
                        let first = next() as usize % (slots - len + 1);
                        let own = (0..len).filter(|i| (first + i) % THREADS == t);
                        if t % 2 == 0 {
                            let row = own
                                .clone()
                                .fold(!0u128, |row, i| row ^ u128::from(NONE ^ outcome) << (2 * i));
                            lower_row(store, first, len, row);
                        } else {
                            let code = [LOSS_NOW, UNDECIDED, WIN_IN_ONE][outcome as usize];
                            for i in own.clone() {
                                Compact::push_exit(store, first + i, code);
                            }
                        }
                        let held = |i: usize| {
                            let slot = first + i;
                            store[slot / 4].load(Ordering::Relaxed) >> (slot % 4 * 2) & 3
                        };
                        lost_slots += own.filter(|&i| held(i) != outcome).count();
                    }
                }
            }
            lost_slots
        });
        assert_eq!(
            lost_slots, 0,
            "slots lowered by one thread, then found otherwise"
        );
    }
}
