//! How a layer keeps its codes in bytes: one code per byte (`Exact`: value and remoteness,
//! `code.rs`) or four per byte (`Compact`: 2 bits, win, loss or draw for the mover, no
//! remoteness). The block solver works on full codes either way; a packing only says how a
//! code is read from and written to a layer's bytes, so both analyses share every step.
//!
//! ```text
//!  Compact: byte = | slot 4i+3 | slot 4i+2 | slot 4i+1 | slot 4i |   (2 bits each, low first)
//!           00 loss for the mover   01 draw (or undecided)   10 win for the mover
//! ```
//!
//! The 2-bit values keep the mover's order (loss < draw < win), so the best wall move is
//! still the smallest value among the children. Read back, a loss is `LOSS_NOW` and a win
//! the code of a win in 1: their remoteness means nothing, only the outcome does. A block
//! solved from such exits gets every outcome right (retrograde propagation with counters
//! decides the same wins, losses and draws in any order) but not its remoteness.
//!
//! Blocks start on a multiple of 4 slots (`layout.rs` pads them), so the threads that
//! write disjoint blocks never share a byte.

use super::code::{self, Code, NO_EXIT, UNDECIDED};
use std::sync::atomic::{AtomicU8, Ordering};

/// How codes sit in a layer's bytes.
pub trait Packing: Copy + Send + Sync + 'static {
    /// Slots per byte: 1 or 4.
    const PER_BYTE: usize;
    /// Whether codes keep their remoteness.
    const EXACT: bool;
    /// The byte every slot starts as: all slots undecided.
    const EMPTY: u8;
    fn read(bytes: &[u8], slot: usize) -> Code;
    fn write(bytes: &mut [u8], slot: usize, code: Code);
    /// The codes of slots `start..start + out.len()` (both multiples of 4) into `out`.
    fn decode(bytes: &[u8], start: usize, out: &mut [Code]) {
        for (i, c) in out.iter_mut().enumerate() {
            *c = Self::read(bytes, start + i);
        }
    }

    /// The byte of a layer whose slots hold the best exit of their positions, pushed by
    /// the layer above (`layer::push_pair`), before anything is pushed: no exit (`NO_EXIT`
    /// at a byte; `0b11`, above every outcome, in 2 bits).
    const NO_EXITS: u8 = 0xFF;

    /// Lowers the best exit kept in `slot` to `code` if `code` is better for the mover (the
    /// smaller), from any thread.
    #[inline(always)]
    fn push_exit(bytes: &[AtomicU8], slot: usize, code: Code) {
        if Self::PER_BYTE == 1 {
            bytes[slot].fetch_min(code, Ordering::Relaxed);
            return;
        }
        // 2-bit outcomes keep the mover's order (loss < draw < win < no exit): the smaller.
        let (bits, shift) = (outcome_bits(code), (slot & 3) * 2);
        let _ = bytes[slot >> 2].fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| {
            (bits < (b >> shift & 3)).then_some(b & !(3 << shift) | bits << shift)
        });
    }

    /// The outcome of the code in `slot`, in 2 bits (`LOSS`, `DRAW`, `WIN`).
    #[inline(always)]
    fn read_outcome(bytes: &[u8], slot: usize) -> u8 {
        outcome_bits(Self::read(bytes, slot))
    }

    /// The best exit kept in `slot` (`NO_EXIT` if none was pushed), as a code.
    #[inline(always)]
    fn read_exit(bytes: &[u8], slot: usize) -> Code {
        if Self::PER_BYTE == 1 {
            return bytes[slot];
        }
        const EXITS: [Code; 4] = [code::LOSS_NOW, UNDECIDED, code::WIN_IN_ONE, NO_EXIT];
        EXITS[(bytes[slot >> 2] >> ((slot & 3) * 2) & 3) as usize]
    }
}

/// A store's bytes as atomics, for pushes from many threads (`Packing::push_exit`).
pub fn atomic(bytes: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: `AtomicU8` has the size, alignment and bit validity of `u8`, and the
    // exclusive borrow of `bytes` keeps every non-atomic access out while the result lives.
    unsafe { &*(bytes as *mut [u8] as *const [AtomicU8]) }
}

/// One code per byte: value and remoteness.
#[derive(Clone, Copy, Debug)]
pub struct Exact;

/// Four 2-bit outcomes per byte.
#[derive(Clone, Copy, Debug)]
pub struct Compact;

impl Packing for Exact {
    const PER_BYTE: usize = 1;
    const EXACT: bool = true;
    const EMPTY: u8 = UNDECIDED;

    #[inline(always)]
    fn read(bytes: &[u8], slot: usize) -> Code {
        bytes[slot]
    }

    #[inline(always)]
    fn write(bytes: &mut [u8], slot: usize, code: Code) {
        bytes[slot] = code;
    }
}

const LOSS: u8 = 0b00;
const DRAW: u8 = 0b01;
pub(super) const WIN: u8 = 0b10;
/// A slot's 2 bits where no exit was pushed, above every outcome (`Packing::NO_EXITS`).
pub(super) const NONE: u8 = 0b11;

/// A code's outcome in 2 bits.
#[inline(always)]
fn outcome_bits(code: Code) -> u8 {
    if code::is_loss(code) {
        LOSS
    } else if code::is_win(code) {
        WIN
    } else {
        DRAW
    }
}

/// A 2-bit outcome read back as a code (3 never occurs; read as a draw).
const DECODE: [Code; 4] = [code::LOSS_NOW, UNDECIDED, code::WIN_IN_ONE, UNDECIDED];

/// The four codes of every byte of 2-bit outcomes.
const BYTE_CODES: [[Code; 4]; 256] = {
    let mut t = [[0; 4]; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 4 {
            t[b][i] = DECODE[(b >> (2 * i)) & 3];
            i += 1;
        }
        b += 1;
    }
    t
};

impl Packing for Compact {
    const PER_BYTE: usize = 4;
    const EXACT: bool = false;
    const EMPTY: u8 = DRAW * 0b0101_0101;

    #[inline(always)]
    fn read(bytes: &[u8], slot: usize) -> Code {
        DECODE[(bytes[slot >> 2] >> ((slot & 3) * 2) & 3) as usize]
    }

    /// The bits as they lie, but 3 (which never occurs), read as a draw as `read` does.
    #[inline(always)]
    fn read_outcome(bytes: &[u8], slot: usize) -> u8 {
        const OUTCOMES: [u8; 4] = [LOSS, DRAW, WIN, DRAW];
        OUTCOMES[(bytes[slot >> 2] >> ((slot & 3) * 2) & 3) as usize]
    }

    /// A byte at a time through a table of its four codes: a quarter of the lookups of
    /// `read` slot by slot, no shifts.
    fn decode(bytes: &[u8], start: usize, out: &mut [Code]) {
        debug_assert!(start.is_multiple_of(4) && out.len().is_multiple_of(4));
        let from = &bytes[start / 4..][..out.len() / 4];
        for (four, &b) in out.chunks_exact_mut(4).zip(from) {
            four.copy_from_slice(&BYTE_CODES[b as usize]);
        }
    }

    #[inline(always)]
    fn write(bytes: &mut [u8], slot: usize, code: Code) {
        let bits = outcome_bits(code);
        let shift = (slot & 3) * 2;
        let byte = &mut bytes[slot >> 2];
        *byte = *byte & !(3 << shift) | bits << shift;
    }
}

/// The compact packing written with `bitvec` (the same bits as `Compact`: two per slot,
/// low first), kept only to measure it against the hand-packed bytes (`retro/mod.rs` tests,
/// README "Dependencies").
#[cfg(test)]
#[derive(Clone, Copy, Debug)]
pub struct CompactBitvec;

#[cfg(test)]
impl Packing for CompactBitvec {
    const PER_BYTE: usize = 4;
    const EXACT: bool = false;
    const EMPTY: u8 = Compact::EMPTY;

    #[inline(always)]
    fn read(bytes: &[u8], slot: usize) -> Code {
        use bitvec::prelude::*;
        DECODE[bytes.view_bits::<Lsb0>()[2 * slot..2 * slot + 2].load_le::<u8>() as usize]
    }

    fn decode(bytes: &[u8], start: usize, out: &mut [Code]) {
        use bitvec::prelude::*;
        let bits = &bytes.view_bits::<Lsb0>()[2 * start..2 * (start + out.len())];
        for (c, two) in out.iter_mut().zip(bits.chunks_exact(2)) {
            *c = DECODE[two.load_le::<u8>() as usize];
        }
    }

    #[inline(always)]
    fn write(bytes: &mut [u8], slot: usize, code: Code) {
        use bitvec::prelude::*;
        bytes.view_bits_mut::<Lsb0>()[2 * slot..2 * slot + 2].store_le(outcome_bits(code));
    }
}

/// Bytes for `slots` slots under packing `P`.
pub fn bytes_for<P: Packing>(slots: usize) -> usize {
    slots.div_ceil(P::PER_BYTE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retro::Value;

    /// Every code survives the exact packing; the outcome packing keeps exactly its
    /// outcome, in every slot of a byte, without touching the neighbours.
    #[test]
    fn packings_keep_what_they_promise() {
        let outcome = |c: Code| match code::value(c) {
            Value::Win(_) => 2,
            Value::Loss(_) => 0,
            Value::Draw => 1,
        };
        for c in 0..=255u8 {
            let mut b = [0u8; 3];
            Exact::write(&mut b, 1, c);
            assert_eq!(Exact::read(&b, 1), c);
            for slot in 0..8 {
                let mut b = [Compact::EMPTY; 2];
                Compact::write(&mut b, slot, c);
                assert_eq!(outcome(Compact::read(&b, slot)), outcome(c), "code {c}");
                for other in (0..8).filter(|&o| o != slot) {
                    assert_eq!(Compact::read(&b, other), UNDECIDED);
                }
                let mut decoded = [0; 4];
                Compact::decode(&b, slot / 4 * 4, &mut decoded);
                assert_eq!(decoded[slot % 4], Compact::read(&b, slot));
            }
        }
    }
}

/// What the store keeps of each position (`store.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// Value and remoteness, a byte per stored position.
    Exact,
    /// Win, loss or draw, 2 bits per stored position.
    Compact,
}

impl Precision {
    pub(in crate::retro) fn per_byte(self) -> u128 {
        match self {
            Precision::Exact => Exact::PER_BYTE as u128,
            Precision::Compact => Compact::PER_BYTE as u128,
        }
    }
}
