//! The pushes of one child block into one parent's stored block: where they go (`Pushes`),
//! what they read (`Child`, `transpose`), and the exact pushes a row of the parent at a
//! time (`push_rows`), with the row gathered and compared by AVX-512 where the CPU has it
//! (`vbmi`) and a lane at a time elsewhere (`scalar`). `layer::push_one_by_one`, which
//! finds each slot from its cells, is the twin of both in the tests.
//!
//! Why the vector path: in the pass of 7x5 w5 in parts, `push_stored` was 83 % of a part,
//! 43 % of it this gather and about a quarter the comparison with the kept exits (perf,
//! 2026-11-30). A row of the child's codes is at most 64 bytes (a board has at most 64
//! cells), so one permutation of one load gathers a whole row that is not turned.

use super::code::NO_EXIT;
use super::layout::{self, Layout};
use crate::rules::bitboard::bits;
use crate::rules::geometry::{MAX_SQUARES, Square};
use std::sync::atomic::{AtomicU8, Ordering};

/// Where the pushes of one block into one parent go: the parent's stored block (`view`)
/// in `store`, which begins at slot `from` of its split; with `mirror`, the mirror image's
/// positions too (a parent that is its own mirror image keeps both halves, and the child
/// is not its own, so its image is another child of the parent).
pub struct Pushes<'a> {
    pub store: &'a [AtomicU8],
    pub view: layout::View,
    pub from: usize,
    pub mirror: Option<&'a [Square; crate::rules::geometry::MAX_SQUARES]>,
}

/// A child's outcomes as the 2-bit pushes read them (`push_outcomes`, which makes them by
/// `unpack` and reads them; here, beside `Child`, which carries them), a byte each: `LOSS`,
/// `DRAW`, `WIN` where wins are pushed (`push_outcomes::wins_pushed`), `NONE` (nothing to
/// push) where they are not. The cell of the parents' rows comes first: byte `pa * open +
/// pb - skip` is the position with Player 1's pawn on `pa` and Player 2's on `pb` (`skip`
/// the width) for views that are not turned, Player 2's on `pa` and Player 1's on `pb`
/// (`skip` 0) for turned ones.
#[derive(Clone, Copy)]
pub struct Outcomes<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) turned: bool,
}

/// A child's codes as the pushes read them: the code of the position with Player 1's pawn
/// on `p1` and Player 2's on `p2` is slot `p1 * stride + p2 - skip` of `codes`, in the
/// child's packing. A stored block in its own view (`skip` the board's width: no Player 2
/// pawn is on its goal row) and a block's values by `Layout::index` are both of this form.
/// `transposed`, where given, holds the same codes with Player 2's cell first
/// (`push_rows::transpose`), for the exact pushes into turned views; `outcomes` what the
/// pushes into 2-bit exits read instead, the codes unpacked (`push_outcomes::unpack`).
#[derive(Clone, Copy)]
pub struct Child<'a> {
    pub codes: &'a [u8],
    pub stride: usize,
    pub skip: usize,
    pub transposed: Option<&'a [u8]>,
    pub outcomes: Option<Outcomes<'a>>,
}

#[cfg(test)]
impl Child<'_> {
    /// The code of the position with the pawns on `p1` and `p2`, read in packing `Q`: how
    /// the pushes' twin reads it (`layer::push_one_by_one`).
    pub(super) fn code<Q: super::store::Packing>(
        &self,
        p1: Square,
        p2: Square,
    ) -> super::code::Code {
        Q::read(
            self.codes,
            p1 as usize * self.stride + p2 as usize - self.skip,
        )
    }
}

/// Row `a` of the parent's stored block holds the positions with pawns on `map[a]` and
/// `map[b]` (Player 1's first unless `turned`, `layout::cell_map`), for columns `b` from the
/// width on. Each row is gathered from one row of the child's codes (one column when
/// turned), through column offsets and live tests found once a call, then lowered slot by
/// slot where the code is better than the exit kept (exits only go down, so a plain load
/// decides): the atomic operation only where it lowers. Finding each slot from its cells
/// with a multiply and a bit test took three fifths of the pushes (`perf`, 5x5 w4 exact in
/// parts, 2026-11-30).
#[inline(always)]
pub(super) fn push_rows(
    layout: &Layout,
    [open1, open2]: [u64; 2],
    to: &Pushes,
    (map, turned): (&[Square; MAX_SQUARES], bool),
    child: &Child,
) {
    // A row is a cell of Player 1's pawn; of Player 2's when the view is turned, read
    // along a row of the child's transposed codes where it has them.
    let (rows, columns) = if turned {
        (open2, open1)
    } else {
        (open1, open2)
    };
    let transposed = child.transposed.filter(|_| turned).map(|codes| Child {
        codes,
        stride: layout.open(),
        skip: 0,
        transposed: None,
        outcomes: None,
    });
    let (child, turned) = match &transposed {
        Some(transposed) => (transposed, false),
        None => (child, turned),
    };
    let columns = Columns::new(layout, map, columns, turned, (child.stride, child.skip));
    #[cfg(target_arch = "x86_64")]
    if !turned && vectors() {
        // SAFETY: the CPU has the features `vbmi::push` is compiled for (checked above),
        // and a row that is not turned reads at most 64 bytes from its start.
        return unsafe { vbmi::push(&columns, rows, map, to, child) };
    }
    scalar(&columns, rows, map, to, child);
}

#[cfg(test)]
thread_local! {
    /// Set by a test to take the scalar path on a CPU that has the vector one.
    pub(super) static SCALAR_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether `push_rows` takes the vector path where it can.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn vectors() -> bool {
    #[cfg(test)]
    if SCALAR_ONLY.get() {
        return false;
    }
    vbmi::available()
}

/// `child`'s codes (exact: a byte each) with Player 2's cell first, into `out`: slot
/// `p2 * open + p1` holds the code of the position with Player 1's pawn on `p1` and Player
/// 2's on `p2`, for each `p2` of `rows` and each `p1` off Player 1's goal row (`open` is
/// `Layout::open`; slots of other rows are left as they were). A push into a turned view
/// reads its rows down the child's columns, a stride apart; through this, along a row, as
/// a push that is not turned does (one vector load): the child is transposed once and read
/// by each parent.
pub fn transpose<'b>(
    layout: &Layout,
    child: &Child,
    rows: u64,
    out: &'b mut [u8; MAX_SQUARES * MAX_SQUARES],
) -> &'b [u8] {
    let open = layout.open();
    for p2 in bits(rows) {
        let from = &child.codes[p2 as usize - child.skip..];
        let row = &mut out[p2 as usize * open..][..open];
        for (p1, code) in row.iter_mut().enumerate() {
            *code = from[p1 * child.stride];
        }
    }
    &out[..(open + layout.width()) * open]
}

/// What every row of one call shares: column `i`'s cell, whether a pawn there is live (a
/// bit each), and where its code sits from the row's first (a step of one cell along a
/// child's row, of `stride` down a column). The 2-bit pushes share it (`push_outcomes`).
pub(super) struct Columns {
    pub(super) len: usize,
    pub(super) cell: [Square; MAX_SQUARES],
    pub(super) live: u64,
    pub(super) at: [usize; MAX_SQUARES],
    turned: bool,
}

impl Columns {
    /// The columns of a block whose rows read `(stride, skip)` as a `Child` does.
    #[inline(always)]
    pub(super) fn new(
        layout: &Layout,
        map: &[Square; MAX_SQUARES],
        columns: u64,
        turned: bool,
        (stride, skip): (usize, usize),
    ) -> Self {
        let (len, width) = (layout.open(), layout.width());
        let (mut cell, mut live, mut at) = ([0; MAX_SQUARES], 0u64, [0; MAX_SQUARES]);
        for i in 0..len {
            let pb = map[width + i];
            cell[i] = pb;
            live |= (columns >> pb & 1) << i;
            at[i] = if turned {
                pb as usize * stride
            } else {
                pb as usize - skip
            };
        }
        Columns {
            len,
            cell,
            live,
            at,
            turned,
        }
    }
}

/// The kept exits of row `a` of the parent's stored block.
#[inline(always)]
fn kept_row<'a>(to: &Pushes<'a>, len: usize, a: usize) -> &'a [AtomicU8] {
    &to.store[to.view.start - to.from + a * len..][..len]
}

/// The child's codes from the first of row `pa` (of column `pa` when turned).
#[inline(always)]
fn row_codes<'a>(child: &Child<'a>, pa: Square, turned: bool) -> &'a [u8] {
    // The cells stay in range whatever the tests say: `pa` is off its player's goal row and
    // so is every column's cell (`Layout::cell_map`).
    if turned {
        &child.codes[pa as usize - child.skip..]
    } else {
        &child.codes[pa as usize * child.stride..]
    }
}

/// `push_rows` a lane at a time.
#[inline(always)]
fn scalar(columns: &Columns, rows: u64, map: &[Square; MAX_SQUARES], to: &Pushes, child: &Child) {
    let len = columns.len;
    let (cell, at) = (&columns.cell[..len], &columns.at[..len]);
    let mut row = [NO_EXIT; MAX_SQUARES];
    let row = &mut row[..len];
    for (a, &pa) in map[..len].iter().enumerate() {
        if rows >> pa & 1 == 0 {
            continue;
        }
        let from = row_codes(child, pa, columns.turned);
        for i in 0..len {
            let c = from[at[i]];
            row[i] = if (columns.live >> i & 1 != 0) & (cell[i] != pa) {
                c
            } else {
                NO_EXIT
            };
        }
        for (kept, &code) in kept_row(to, len, a).iter().zip(&*row) {
            if code < kept.load(Ordering::Relaxed) {
                kept.fetch_min(code, Ordering::Relaxed);
            }
        }
    }
}

/// `push_rows` for rows that are not turned, by AVX-512 VBMI: the row's codes in one
/// masked load, gathered by one byte permutation, compared with the kept exits in one
/// instruction; the words holding lanes that lower are lowered a compare-and-swap each
/// (`lower_words`).
#[cfg(target_arch = "x86_64")]
pub(super) mod vbmi {
    use super::{Child, Pushes};
    use super::{Columns, kept_row, row_codes};
    use crate::retro::engine::code::NO_EXIT;
    use crate::retro::engine::words;
    use crate::rules::bitboard::bits;
    use crate::rules::geometry::{MAX_SQUARES, Square};
    use std::arch::x86_64::*;
    use std::sync::atomic::{AtomicU8, Ordering};

    /// Whether this CPU runs `push` (checked once; the answer is cached by the standard
    /// library).
    #[inline(always)]
    pub(super) fn available() -> bool {
        std::arch::is_x86_feature_detected!("avx512vbmi")
            && std::arch::is_x86_feature_detected!("avx512bw")
    }

    /// The lanes below `n` (`n` at most 64).
    #[inline(always)]
    pub(in crate::retro::engine) fn lanes(n: usize) -> u64 {
        if n >= 64 { !0 } else { (1 << n) - 1 }
    }

    /// # Safety
    /// The CPU has AVX-512 F, BW and VBMI, and `columns` is not turned (each column's code
    /// is within 64 bytes of its row's first).
    /// The columns' byte offsets in a row (`vpermb`'s index) and their cells (`0xFF` past
    /// the row) as two vectors: what every row of a push gathers by. Below 64: a column's
    /// byte is within its row of at most 64 bytes.
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub(in crate::retro::engine) fn columns_lanes(columns: &Columns) -> (__m512i, __m512i) {
        let mut index = [0u8; 64];
        let mut cells = [0xFFu8; 64];
        for i in 0..columns.len {
            index[i] = columns.at[i] as u8;
            cells[i] = columns.cell[i];
        }
        // SAFETY (the loads of `index` and `cells`): both are 64 bytes.
        let index = unsafe { _mm512_loadu_si512(index.as_ptr().cast()) };
        let cells = unsafe { _mm512_loadu_si512(cells.as_ptr().cast()) };
        (index, cells)
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    pub(super) unsafe fn push(
        columns: &Columns,
        rows: u64,
        map: &[Square; MAX_SQUARES],
        to: &Pushes,
        child: &Child,
    ) {
        let len = columns.len;
        let (index, cells) = columns_lanes(columns);
        let none = _mm512_set1_epi8(-1);
        for (a, &pa) in map[..len].iter().enumerate() {
            if rows >> pa & 1 == 0 {
                continue;
            }
            let from = row_codes(child, pa, false);
            // SAFETY: the load reads only the lanes below `from.len()`, and a masked load
            // does not fault on the others.
            let codes = unsafe { _mm512_maskz_loadu_epi8(lanes(from.len()), from.as_ptr().cast()) };
            let same = _mm512_cmpeq_epi8_mask(cells, _mm512_set1_epi8(pa as i8));
            let gathered = _mm512_mask_permutexvar_epi8(none, columns.live & !same, index, codes);
            let kept = kept_row(to, len, a);
            // SAFETY: `kept` holds `len` bytes, the lanes loaded.
            let before = unsafe { load_racing(kept.as_ptr().cast(), lanes(len)) };
            let lower = _mm512_mask_cmplt_epu8_mask(lanes(len), gathered, before);
            if lower == 0 {
                continue;
            }
            // SAFETY: the CPU's features are this function's; `kept` is a row of the store.
            unsafe { lower_words(to.store, kept, gathered, lower) };
        }
    }

    /// `lower_words` of `codes` (a row's, at most 64), for the tests.
    #[cfg(test)]
    pub(super) fn lower_row(store: &[AtomicU8], kept: &[AtomicU8], codes: &[u8], lower: u64) {
        let lower = lower & lanes(codes.len());
        let mut row = [NO_EXIT; 64];
        for i in bits(lower) {
            row[i as usize] = codes[i as usize];
        }
        // SAFETY: the test calls it where `available()` holds; `row` is 64 bytes.
        unsafe { lower_words(store, kept, _mm512_loadu_si512(row.as_ptr().cast()), lower) };
    }

    /// Lowers the exits of `kept` (a row of `store`) to `row`'s codes in the lanes of
    /// `lower`: one compare-and-swap for each aligned word of eight bytes with a lane to
    /// lower, where a byte's `fetch_min` is a compare-and-swap loop of its own. A byte
    /// at a time, the atomic operations took 29 % of `push` (4x7 w4 exact in parts, perf,
    /// 2026-11-30). A word's other lanes of the row are pushed too: each holds a code the
    /// row pushes, or `NO_EXIT`, which lowers nothing. A word that reaches out of `store`
    /// (at its ends) goes a byte at a time.
    ///
    /// # Safety
    /// The CPU has AVX-512 F and BW, and `kept` lies in `store`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn lower_words(store: &[AtomicU8], kept: &[AtomicU8], row: __m512i, lower: u64) {
        let (at, off) = (kept.as_ptr() as usize, kept.as_ptr() as usize % 8);
        let span = store.as_ptr_range();
        let (first, end) = (span.start as usize, span.end as usize);
        // The row's codes from the first word's start, `NO_EXIT` around them.
        let mut words = [NO_EXIT; 80];
        // SAFETY: 64 bytes from `off` (at most 7) lie in the 80.
        unsafe { _mm512_storeu_si512(words.as_mut_ptr().add(off).cast(), row) };
        let lower = (lower as u128) << off;
        for j in 0..(off + kept.len()).div_ceil(8) {
            let lanes = (lower >> (8 * j)) as u8;
            if lanes == 0 {
                continue;
            }
            let word = at - off + 8 * j;
            let codes = u64::from_le_bytes(words[8 * j..][..8].try_into().unwrap());
            if word < first || word + 8 > end {
                for i in bits(lanes as u64) {
                    let byte = word + i as usize - first;
                    store[byte].fetch_min((codes >> (8 * i)) as u8, Ordering::Relaxed);
                }
                continue;
            }
            // SAFETY: the word lies in `store`, aligned.
            unsafe { lower_word(word as *mut u64, codes) };
        }
    }

    /// Lowers each byte of the word at `word` to the byte of `codes` where that is smaller,
    /// atomically (other threads lower the same bytes): `words.rs`.
    ///
    /// # Safety
    /// `word` is aligned and readable and writable as eight bytes.
    #[inline]
    #[target_feature(enable = "sse2")]
    unsafe fn lower_word(word: *mut u64, codes: u64) {
        // SAFETY: the caller's.
        unsafe { lower_word_from(word, codes, words::load(word)) }
    }

    /// `lower_word` from a guess of the word (`seen`), as `words::lower` takes it.
    ///
    /// # Safety
    /// As `lower_word`.
    #[inline]
    #[target_feature(enable = "sse2")]
    pub(super) unsafe fn lower_word_from(word: *mut u64, codes: u64, seen: u64) {
        let min = |a: u64| -> u64 {
            let m = _mm_min_epu8(_mm_cvtsi64_si128(a as i64), _mm_cvtsi64_si128(codes as i64));
            _mm_cvtsi128_si64(m) as u64
        };
        // SAFETY: the caller's; a byte's minimum only lowers.
        unsafe { words::lower(word, seen, min) }
    }

    /// The bytes at `at` in the lanes of `mask` (zero in the others), while other threads
    /// may lower them with atomic operations. A plain vector load of bytes that race with
    /// atomics is undefined behaviour in Rust's memory model; an `asm!` load is not, and on
    /// x86 each byte it reads is one that some store wrote. A stale byte only costs an
    /// atomic operation that lowers nothing: exits only go down.
    ///
    /// # Safety
    /// The lanes of `mask` from `at` are readable.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn load_racing(at: *const u8, mask: u64) -> __m512i {
        let out: __m512i;
        // SAFETY: the caller's; the instruction reads only the lanes of `mask`.
        unsafe {
            std::arch::asm!(
                "vmovdqu8 {out}{{{mask}}}{{z}}, [{at}]",
                out = out(zmm_reg) out,
                mask = in(kreg) mask,
                at = in(reg) at,
                options(nostack, readonly, preserves_flags),
            );
        }
        out
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::vbmi;
    use std::sync::atomic::{AtomicU8, Ordering};

    /// A word lowered from a guess that is not what it holds (what it held before another
    /// thread lowered it) ends as the least of what it holds and the codes, byte by byte:
    /// the compare-and-swap fails and goes on from what it found.
    #[test]
    fn a_word_lowered_from_a_stale_guess() {
        let bytes = |b: [u8; 8]| u64::from_le_bytes(b);
        let held = bytes([9, 200, 0, 255, 30, 31, 7, 128]);
        let codes = bytes([10, 100, 255, 254, 29, 31, 255, 127]);
        let least = bytes([9, 100, 0, 254, 29, 31, 7, 127]);
        // What it held earlier: exits only go down, so no byte of a guess is lower.
        for guess in [held, u64::MAX, bytes([9, 201, 0, 255, 30, 31, 8, 128])] {
            let mut word = held;
            // SAFETY: `word` is an aligned u64 of this stack frame.
            unsafe { vbmi::lower_word_from(&mut word, codes, guess) };
            assert_eq!(word.to_le_bytes(), least.to_le_bytes(), "guess {guess:x}");
        }
    }

    /// Threads lowering rows of one store by words, at every alignment and at both of the
    /// store's ends, lose no byte that another thread lowers in the same word at the same
    /// time: each thread owns the bytes of its residue mod 4, lowers them a step at a time
    /// through rows that cover every thread's bytes, and finds after each push that its
    /// bytes in the row hold what it pushed. A store a round, so that no thread waits for
    /// another past the start (one that panicked would leave the others waiting).
    #[test]
    fn words_lower_from_many_threads() {
        if !vbmi::available() {
            eprintln!("words_lower_from_many_threads: no AVX-512 VBMI here");
            return;
        }
        const THREADS: usize = 4;
        // Small, so that the threads meet on their words often.
        let stores: Vec<Vec<AtomicU8>> = (0..100)
            .map(|_| (0..75).map(|_| AtomicU8::new(0xFF)).collect())
            .collect();
        let lost_bytes = crate::support::xorshift::side_by_side(THREADS, |t, next| {
            let mut lost_bytes = 0;
            for store in &stores {
                for code in (0..=254u8).rev() {
                    let len = 1 + next() as usize % 63;
                    let first = next() as usize % (store.len() - len + 1);
                    let own = (0..len).filter(|i| (first + i) % THREADS == t);
                    let lanes = own.clone().fold(0u64, |m, i| m | 1 << i);
                    let kept = &store[first..][..len];
                    vbmi::lower_row(store, kept, &vec![code; len], lanes);
                    lost_bytes += own
                        .filter(|&i| kept[i].load(Ordering::Relaxed) > code)
                        .count();
                }
            }
            lost_bytes
        });
        assert_eq!(
            lost_bytes, 0,
            "bytes lowered by one thread, then found higher"
        );
    }
}
