//! The on-demand store's index from wall set to pair number: open addressing with linear
//! probing, split into shards that each have a lock, and sized once for the most pairs the
//! store's budget allows, so that it never grows.
//!
//! Looking a wall set up was most of the time of 9x9 with 3 walls (two cache misses each in
//! a general hash table: its control bytes, then its entry). Here an entry is one 16-byte
//! slot holding the packed wall set itself (`OnDemand::packed`), the pair and a tag of the
//! hash, so a lookup costs one miss, and `prefetch` starts that miss early: a configuration
//! that names its hundred children first prefetches every child's slot, then looks them up,
//! and the misses overlap. A slot's place depends on the hash only, and the slots never
//! move, so a prefetch needs no lock.
//!
//! The slots are allocated zeroed (an empty slot is all zeros), which the kernel gives as
//! untouched pages: a store that stays small costs little memory whatever its budget.

use crate::support::memory;
use std::alloc::{Layout, alloc_zeroed, handle_alloc_error};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

/// Shards: enough that two threads rarely wait on each other.
const SHARDS: usize = 256;

/// Slots per pair the index is sized for: at most 2/3 full, where linear probing reads
/// about two slots to find a pair and five to miss one.
const SLOTS_PER_PAIR: f64 = 1.5;

/// A shard takes no more pairs than this share of its slots (7/8), so that a probe always
/// ends at an empty slot: shards fill unevenly, by a few hundred pairs in a million.
const FULLEST: (usize, usize) = (7, 8);

/// Index bytes a pair costs (its share of the slots).
pub(super) const BYTES_PER_PAIR: u64 = (SLOTS_PER_PAIR * std::mem::size_of::<Slot>() as f64) as u64;

/// One entry. All zeros: empty. Fields are atomics only so that slots can live in shared
/// memory; they are read and written under the shard's lock.
#[repr(C, align(16))]
struct Slot {
    /// The wall set packed in a word (`OnDemand::packed`), or 0 when it does not fit.
    packed: AtomicU64,
    /// The pair number plus one (0: empty).
    pair: AtomicU32,
    /// The hash's low 32 bits: compared before a record when the set is not packed.
    tag: AtomicU32,
}

struct Shard {
    /// Pairs in the shard; held while a slot is read or written.
    len: Mutex<usize>,
    slots: Box<[Slot]>,
}

pub(super) struct Index {
    shards: Box<[Shard]>,
}

/// A shard locked at the empty slot where a wall set belongs (`Index::find`).
pub(super) struct Vacant<'a> {
    len: MutexGuard<'a, usize>,
    slot: &'a Slot,
    capacity: usize,
    packed: u64,
    tag: u32,
}

impl Vacant<'_> {
    /// Whether the shard is as full as it may be (`insert` would refuse).
    pub fn full(&self) -> bool {
        (*self.len + 1) * FULLEST.1 > self.capacity * FULLEST.0
    }

    /// Puts `pair` in the slot and unlocks the shard; `false` (nothing put) when it is
    /// `full`.
    pub fn insert(mut self, pair: u32) -> bool {
        if self.full() {
            return false;
        }
        *self.len += 1;
        self.slot.packed.store(self.packed, Ordering::Relaxed);
        self.slot.tag.store(self.tag, Ordering::Relaxed);
        self.slot.pair.store(pair + 1, Ordering::Relaxed);
        true
    }
}

/// `len` empty slots, as zeroed pages that the kernel backs only when written.
fn zeroed_slots(len: usize) -> Box<[Slot]> {
    let len = len.max(1);
    let layout = Layout::array::<Slot>(len).expect("an index that fits the address space");
    // SAFETY: the layout has a nonzero size; a slot is atomics only, for which all zeros is
    // a valid value (0); the allocation is handed to a Box of exactly this layout.
    unsafe {
        let ptr = alloc_zeroed(layout);
        if ptr.is_null() {
            handle_alloc_error(layout);
        }
        memory::advise_huge_range(ptr as usize, layout.size());
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr as *mut Slot, len))
    }
}

impl Index {
    /// An empty index with room for `pairs` pairs (hashed evenly over the shards).
    pub fn new(pairs: u64) -> Index {
        // A shard's share varies by about its square root; four of those spare it, and a
        // few slots more the smallest shards.
        let share = pairs as f64 / SHARDS as f64;
        let per_shard = ((share + 4.0 * share.sqrt()) * SLOTS_PER_PAIR).ceil() as usize + 16;
        Index {
            shards: (0..SHARDS)
                .map(|_| Shard {
                    len: Mutex::new(0),
                    slots: zeroed_slots(per_shard),
                })
                .collect(),
        }
    }

    /// Empties the index in place (its memory stays taken, to be filled again).
    pub fn clear(&mut self) {
        for shard in self.shards.iter_mut() {
            *shard
                .len
                .get_mut()
                .expect("an index shard is never poisoned") = 0;
            for slot in shard.slots.iter_mut() {
                *slot.packed.get_mut() = 0;
                *slot.pair.get_mut() = 0;
                *slot.tag.get_mut() = 0;
            }
        }
    }

    /// Bytes the index takes when full (its slots).
    pub fn bytes(&self) -> u64 {
        self.shards
            .iter()
            .map(|s| std::mem::size_of_val(&*s.slots) as u64)
            .sum()
    }

    /// The shard of hash `h` and its first slot: the top bits choose the shard, the low 32
    /// bits the place (scaled to the shard's size, no division).
    #[inline(always)]
    fn place(&self, h: u64) -> (&Shard, usize) {
        let shard = &self.shards[(h >> 56) as usize % SHARDS];
        let at = ((h as u32 as u64 * shard.slots.len() as u64) >> 32) as usize;
        (shard, at)
    }

    /// Starts loading the first slot of hash `h`.
    #[inline(always)]
    pub fn prefetch(&self, h: u64) {
        let (shard, at) = self.place(h);
        memory::prefetch(&shard.slots[at]);
    }

    /// The pair of the wall set with hash `h` and packed word `packed`, or its shard locked
    /// at the empty slot where it belongs. `same(pair)` says whether a pair found with the
    /// same tag is that set; it is asked only when `packed` is 0 (sets too large to pack).
    pub fn find(&self, h: u64, packed: u64, same: impl Fn(u32) -> bool) -> Result<u32, Vacant<'_>> {
        let (shard, mut at) = self.place(h);
        let tag = h as u32;
        let len = shard
            .len
            .lock()
            .expect("an index shard is never poisoned: nothing panics under its lock");
        loop {
            let slot = &shard.slots[at];
            let pair = slot.pair.load(Ordering::Relaxed);
            if pair == 0 {
                return Err(Vacant {
                    len,
                    slot,
                    capacity: shard.slots.len(),
                    packed,
                    tag,
                });
            }
            if slot.packed.load(Ordering::Relaxed) == packed
                && (packed != 0 || slot.tag.load(Ordering::Relaxed) == tag && same(pair - 1))
            {
                return Ok(pair - 1);
            }
            at += 1;
            if at == shard.slots.len() {
                at = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_what_it_was_given_and_refuses_when_full() {
        let index = Index::new(100_000);
        // Hashes that share three shards and seven places, packed and not.
        let h = |i: u64| (i % 3) << 56 | (i % 7) << 20;
        for i in 0..1000u64 {
            let packed = if i % 5 == 0 { 0 } else { i + 1 };
            let vacant = index.find(h(i), packed, |p| p as u64 == i).err().unwrap();
            assert!(vacant.insert(i as u32));
        }
        for i in 0..1000u64 {
            let packed = if i % 5 == 0 { 0 } else { i + 1 };
            assert_eq!(
                index.find(h(i), packed, |p| p as u64 == i).ok(),
                Some(i as u32)
            );
        }
        assert!(index.find(h(5000), 5001, |_| false).is_err());
        let mut index = index;
        index.clear();
        assert!(index.find(h(7), 8, |_| true).is_err());
        // One shard takes pairs until it is 7/8 full, then refuses.
        let small = Index::new(0);
        let slots = small.shards[0].slots.len();
        let mut put = 0;
        while let Err(v) = small.find(put as u64, put as u64 + 1, |_| false) {
            if !v.insert(put) {
                break;
            }
            put += 1;
        }
        assert_eq!(put as usize, slots * 7 / 8);
    }
}
