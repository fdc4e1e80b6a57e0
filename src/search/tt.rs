//! The transposition table of the proof search, shared by all threads without locks.
//!
//! For a bounded question ("can X reach the goal within d plies?") the answer depends only on
//! the position and d, never on the path that led there, so storing it is sound even though
//! pawn moves can repeat positions. Per position and per attacker the table keeps:
//! - `win`: the smallest d at which a forced win was proven (so every d' >= win is a win);
//! - `refuted`: the largest d at which it was refuted (so every d' <= refuted fails);
//! - the move that proved the win or refuted it, tried first next time.
//!
//! Entries are two `AtomicU64`: `key ^ word` and `word`, where `word` is the data XOR the
//! empty entry's data, so an all-zero entry is empty.
//! A torn write by another thread makes the XOR check fail and the probe misses, so a probe
//! never returns another position's data.
//! Keys are exact (see `node.rs`), so a hit can never prove something false; a probe also
//! reads the entries of the same position with other walls left, which transfer only in the
//! direction wall-stock dominance allows (`TranspositionTable::probe`).
//!
//! Buckets of four entries fill one 64-byte cache line. A store replaces the same key, else an
//! empty entry, else the entry whose deepest stored fact is shallowest.

use super::node::{Key, Move, NO_MOVE, STOCK_MASK, stocks};
use crate::rules::geometry::Player;
use crate::support::own_line::Tally;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

const NO_WIN: u8 = u8::MAX;

/// Whether wall-stock dominance holds on `board` (see `TranspositionTable::probe`): at least 3 rows.
pub fn dominance_holds(board: crate::rules::geometry::Board) -> bool {
    board.height() >= 3
}

/// What the table knows about one position for one attacker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fact {
    /// Smallest depth proven a win (`u8::MAX`: none).
    pub win: u8,
    /// Largest depth refuted (0: none; depth 0 is never a win anyway).
    pub refuted: u8,
    pub best: Move,
}

impl Fact {
    pub const UNKNOWN: Fact = Fact {
        win: NO_WIN,
        refuted: 0,
        best: NO_MOVE,
    };
}

/// `data` layout: bits 0-31 the fact for attacker Player 1 (win: 8 bits, refuted: 8, best
/// move: 16), bits 32-63 the fact for Player 2.
fn unpack(data: u64, attacker: usize) -> Fact {
    let f = data >> (32 * attacker);
    Fact {
        win: f as u8,
        refuted: (f >> 8) as u8,
        best: (f >> 16) as Move,
    }
}

fn pack(data: u64, attacker: usize, fact: Fact) -> u64 {
    let shift = 32 * attacker;
    let bits = fact.win as u64 | (fact.refuted as u64) << 8 | (fact.best as u64) << 16;
    (data & !(0xFFFF_FFFF << shift)) | bits << shift
}

#[allow(clippy::assertions_on_constants)]
const _: () = assert!(Move::BITS == 16, "a fact's best move has 16 bits");

/// The data of an entry that knows nothing.
const EMPTY_DATA: u64 = (NO_WIN as u64 | (NO_MOVE as u64) << 16) * (1 | 1 << 32);

const WAYS: usize = 4;

/// The buckets of a table of at most `bytes` bytes: a power of two, at least one.
fn buckets_within(bytes: u64) -> usize {
    let buckets = (bytes / (TranspositionTable::ENTRY_BYTES * WAYS as u64)).max(1);
    1usize << (63 - buckets.leading_zeros())
}

/// `2 * WAYS` words: (key ^ data, data) pairs, aligned to a cache line so that a probe
/// touches one line (a plain `Vec<AtomicU64>` from the allocator is only 16-byte aligned,
/// which split most buckets over two lines).
#[repr(C, align(64))]
struct Bucket([AtomicU64; 2 * WAYS]);
const _: () = assert!(size_of::<Bucket>() == 64, "a bucket is one cache line");

/// Entries newly claimed by stores (0 or 1 for one store).
pub type Claimed = u64;

pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    /// Whether a probe may use the entries of other splits of the walls left (see `probe`).
    with_dominance: bool,
    mask: usize,
    /// Stores that took an entry for a new key: how full the table is getting. Added to
    /// as each search ends, so on lines of its own, away from the fields every probe reads.
    claimed: Tally,
}

impl TranspositionTable {
    /// Bytes per entry.
    pub const ENTRY_BYTES: u64 = 16;

    /// A table of at most `bytes` bytes (rounded down to a power of two of buckets, at least one).
    /// `with_dominance`: whether wall-stock dominance holds (boards of 3 or more rows).
    pub fn new(bytes: u64, with_dominance: bool) -> TranspositionTable {
        TranspositionTable::with_room(bytes, bytes, with_dominance)
    }

    /// `new(bytes)`, with its addresses reserved for growing in place up to `room` bytes
    /// (`grow`): reserved, not written, so the room costs no memory until it is used.
    pub fn with_room(bytes: u64, room: u64, with_dominance: bool) -> TranspositionTable {
        let mut table = TranspositionTable {
            buckets: Vec::with_capacity(buckets_within(room.max(bytes))),
            mask: 0,
            with_dominance,
            claimed: Tally::new(0),
        };
        crate::support::memory::advise_huge_pages(&mut table.buckets);
        table.extend_to(buckets_within(bytes));
        table
    }

    /// Adds empty buckets up to `buckets` in all (a power of two). Written by all threads
    /// at once: every page is touched by one write, and on this machine the first write to
    /// a page is most of a new table's cost (docs/PERFORMANCE.md, "The table grown in place").
    fn extend_to(&mut self, buckets: usize) {
        let len = self.buckets.len();
        if buckets > self.buckets.capacity() {
            // Past the reserved room: the vector moves (both held meanwhile).
            self.buckets.reserve_exact(buckets - len);
            crate::support::memory::advise_huge_pages(&mut self.buckets);
        }
        self.buckets.par_extend(
            (len..buckets)
                .into_par_iter()
                .map(|_| Bucket(Default::default())),
        );
        self.mask = buckets - 1;
    }

    /// Whether more than three quarters of the entries have been claimed since the table
    /// was made or grown (as far as the searches have reported their claims: `add_claimed`).
    pub fn crowded(&self) -> bool {
        self.claimed.get() * 4 > (self.buckets.len() * WAYS * 3) as u64
    }

    /// Grows the table to at most `bytes` bytes (a power of two of buckets, never smaller
    /// than it is), keeping every entry. The solver starts with a small table, so that a
    /// small cell does not pay for a large one, and doubles it between iterations once it
    /// is crowded. In place: the new buckets follow the old ones, and an old bucket's
    /// entries go to buckets of the same index modulo the old length (a larger power of two
    /// adds bits above a bucket's index), which no other old bucket feeds, so the buckets
    /// move in parallel without meeting, and an entry that stays is not moved at all.
    pub fn grow(&mut self, bytes: u64) {
        let old = self.buckets.len();
        let buckets = buckets_within(bytes).max(old);
        if buckets == old {
            return;
        }
        self.extend_to(buckets);
        let table = &*self;
        let kept: u64 = (0..old)
            .into_par_iter()
            .map(|b| {
                let mut kept = 0;
                for w in 0..WAYS {
                    let i = b * WAYS * 2 + 2 * w;
                    let word = table.word(i + 1).load(Ordering::Relaxed);
                    if word == 0 {
                        continue;
                    }
                    kept += 1;
                    let key = table.word(i).load(Ordering::Relaxed) ^ word;
                    let to = table.bucket(key);
                    if to != b * WAYS * 2 {
                        // Only this bucket feeds `to`, with at most `WAYS` entries.
                        let slot = (0..WAYS)
                            .map(|v| to + 2 * v)
                            .find(|&j| table.word(j + 1).load(Ordering::Relaxed) == 0)
                            .expect("a new bucket has room for an old bucket's entries");
                        table.word(slot + 1).store(word, Ordering::Relaxed);
                        table.word(slot).store(key ^ word, Ordering::Relaxed);
                        table.word(i + 1).store(0, Ordering::Relaxed);
                        table.word(i).store(0, Ordering::Relaxed);
                    }
                }
                kept
            })
            .sum();
        self.claimed.set(kept);
    }

    pub fn bytes(&self) -> u64 {
        (self.buckets.len() * size_of::<Bucket>()) as u64
    }

    /// Writes every word of the table, little-endian (a checkpoint's body).
    pub fn write_to(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        let mut bytes = Vec::with_capacity(1 << 20);
        for chunk in self.buckets.chunks(1 << 14) {
            bytes.clear();
            for word in chunk.iter().flat_map(|b| &b.0) {
                bytes.extend_from_slice(&word.load(Ordering::Relaxed).to_le_bytes());
            }
            out.write_all(&bytes)?;
        }
        Ok(())
    }

    /// A table of `bytes` bytes (a power of two of buckets) read from what `write_to` wrote.
    pub fn read_from(
        input: &mut impl std::io::Read,
        bytes: u64,
        with_dominance: bool,
    ) -> std::io::Result<TranspositionTable> {
        let table = TranspositionTable::new(bytes, with_dominance);
        if table.bytes() != bytes {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("a table of {bytes} bytes is not a power of two of buckets"),
            ));
        }
        let mut buffer = vec![0u8; (1 << 14) * size_of::<Bucket>()];
        for chunk in table.buckets.chunks(1 << 14) {
            let part = &mut buffer[..std::mem::size_of_val(chunk)];
            input.read_exact(part)?;
            let words = part
                .chunks_exact(8)
                .map(|b| u64::from_le_bytes(b.try_into().unwrap()));
            for (slot, word) in chunk.iter().flat_map(|b| &b.0).zip(words) {
                slot.store(word, Ordering::Relaxed);
            }
        }
        table.claimed.set(table.held());
        Ok(table)
    }

    /// The entries holding a position (not empty).
    fn held(&self) -> u64 {
        self.buckets
            .par_iter()
            .flat_map_iter(|b| b.0.chunks(2))
            .filter(|pair| pair[1].load(Ordering::Relaxed) != 0)
            .count() as u64
    }

    /// The deepest iteration any entry refutes for `attacker` (0: none): how deep the
    /// searches that filled the table went, which bounds what a checkpoint may claim.
    pub fn deepest_refuted(&self, attacker: Player) -> u8 {
        self.buckets
            .par_iter()
            .flat_map_iter(|b| b.0.chunks(2))
            .map(|pair| pair[1].load(Ordering::Relaxed))
            .filter(|&word| word != 0)
            .map(|word| unpack(word ^ EMPTY_DATA, attacker.index()).refuted)
            .max()
            .unwrap_or(0)
    }

    /// Word `i` of the table, counting from the first bucket's first word.
    #[inline(always)]
    fn word(&self, i: usize) -> &AtomicU64 {
        &self.buckets[i / (2 * WAYS)].0[i % (2 * WAYS)]
    }

    /// The first word of `key`'s bucket: the same for every split of the walls left, so
    /// that a probe sees the other splits of its position at no extra cache miss (`probe`).
    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        // A multiplicative hash spreads the structured key over the buckets.
        let h = (key & !STOCK_MASK).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((h >> 20) as usize & self.mask) * WAYS * 2
    }

    /// The data stored for `key`, if any.
    #[inline]
    fn find(&self, key: u64) -> Option<(usize, u64)> {
        let base = self.bucket(key);
        (0..WAYS).find_map(|w| {
            let i = base + 2 * w;
            let word = self.word(i + 1).load(Ordering::Relaxed);
            let check = self.word(i).load(Ordering::Relaxed);
            (check ^ word == key).then_some((i, word ^ EMPTY_DATA))
        })
    }

    /// Starts loading `key`'s bucket into the cache, so that the probe a little later does
    /// not wait for memory (the probe's miss is most of a node's time).
    #[inline(always)]
    pub fn prefetch(&self, key: Key) {
        crate::support::memory::prefetch(self.word(self.bucket(key.0)));
    }

    /// What is known about `key` for `attacker`: its own entry, and, when the table was made
    /// `with_dominance`, the entries of the same position with other walls left ("wall-stock
    /// dominance"): a win proven with at most the attacker's walls and at least the
    /// defender's holds here too, and a refutation with at least the attacker's walls and at
    /// most the defender's. And a position the defender is known to win is refuted for the
    /// attacker at every depth (the attacker can never arrive first).
    ///
    /// Why dominance holds when the board is at least 3 rows high: a wall in hand is an
    /// extra option, and an option only matters when it is an obligation, i.e. when the
    /// player has no pawn move and would otherwise be stuck (a draw). A pawn can only be
    /// stuck when its one way on is the other pawn standing on the goal row beside it with
    /// every jump walled off; with 3 or more rows that walls the other pawn in too, which no
    /// legal position allows. With 2 rows it happens, so such boards use exact entries only.
    pub fn probe(&self, key: Key, attacker: Player) -> Fact {
        let (key, attacker) = (key.0, attacker.index());
        let base = self.bucket(key);
        let position = key & !STOCK_MASK;
        let [own, theirs] = stocks(key, attacker);
        let mut fact = Fact::UNKNOWN;
        for w in 0..WAYS {
            let i = base + 2 * w;
            let word = self.word(i + 1).load(Ordering::Relaxed);
            let stored = self.word(i).load(Ordering::Relaxed) ^ word;
            if word == 0 || stored & !STOCK_MASK != position {
                continue;
            }
            let f = unpack(word ^ EMPTY_DATA, attacker);
            if stored == key {
                fact.best = f.best;
            } else if !self.with_dominance {
                continue;
            }
            let [o, t] = stocks(stored, attacker);
            if o <= own && t >= theirs {
                fact.win = fact.win.min(f.win);
            }
            if o >= own && t <= theirs {
                fact.refuted = fact.refuted.max(f.refuted);
                // The same condition, seen from the defender: with at most their walls
                // here and at least ours, a forced win of theirs holds here too, and then
                // the attacker can never reach the goal first, at any depth.
                if unpack(word ^ EMPTY_DATA, 1 - attacker).win != NO_WIN {
                    fact.refuted = u8::MAX;
                }
            }
        }
        fact
    }

    /// Records that `attacker` wins within `depth` (`won`) or not, with the move that showed it.
    pub fn store(&self, key: Key, attacker: Player, depth: u8, won: bool, best: Move) -> Claimed {
        let (key, attacker) = (key.0, attacker.index());
        let (slot, old, claimed) = match self.find(key) {
            Some((i, data)) => (i, data, 0),
            None => (self.victim(key), EMPTY_DATA, 1),
        };
        let mut fact = unpack(old, attacker);
        if won {
            fact.win = fact.win.min(depth);
        } else {
            fact.refuted = fact.refuted.max(depth);
        }
        if best != NO_MOVE {
            fact.best = best;
        }
        let word = pack(old, attacker, fact) ^ EMPTY_DATA;
        self.word(slot + 1).store(word, Ordering::Relaxed);
        self.word(slot).store(key ^ word, Ordering::Relaxed);
        claimed
    }

    /// Counts entries claimed by `store` (see `crowded`). The searches add their counts in
    /// batches: one counter written by every store made the cores fight over its cache line.
    pub fn add_claimed(&self, claimed: Claimed) {
        self.claimed.add(claimed);
    }

    /// The entry to overwrite: an empty one, else the one with the shallowest facts.
    fn victim(&self, key: u64) -> usize {
        let base = self.bucket(key);
        let worth = |data: u64| -> u8 {
            [0, 1]
                .map(|a| {
                    let f = unpack(data, a);
                    f.refuted.max(if f.win == NO_WIN { 0 } else { f.win })
                })
                .into_iter()
                .max()
                .unwrap()
        };
        (0..WAYS)
            .map(|w| base + 2 * w)
            .min_by_key(|&i| worth(self.word(i + 1).load(Ordering::Relaxed) ^ EMPTY_DATA))
            .unwrap()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Attackers by index: Player 1, Player 2.
    const P: [Player; 2] = [Player::One, Player::Two];

    /// Moves past a byte: 9x9's last wall slot is move 255, 16x8's 337.
    #[test]
    fn best_moves_keep_16_bits() {
        use super::super::node::{MOVE_SPAN, WALL_BASE};
        let t = TranspositionTable::new(1 << 12, true);
        for (k, best) in [(7, WALL_BASE + 127), (8, MOVE_SPAN as Move - 1), (9, 0)] {
            t.store(Key(k), P[1], 9, false, best);
            t.store(Key(k), P[0], 4, false, best / 2);
            assert_ne!(best, NO_MOVE);
            assert_eq!(t.probe(Key(k), P[1]).best, best);
            assert_eq!(t.probe(Key(k), P[1]).refuted, 9);
            assert_eq!(t.probe(Key(k), P[0]).best, best / 2);
            assert_eq!(t.probe(Key(k), P[0]).refuted, 4);
        }
    }

    #[test]
    fn facts_accumulate_per_attacker() {
        let t = TranspositionTable::new(1 << 12, true);
        assert_eq!(t.probe(Key(42), P[0]), Fact::UNKNOWN);
        t.store(Key(42), P[0], 7, false, 3);
        t.store(Key(42), P[0], 5, false, NO_MOVE);
        t.store(Key(42), P[1], 9, true, 4);
        t.store(Key(42), P[1], 11, true, NO_MOVE);
        // Player 2's win refutes Player 1 at every depth.
        assert_eq!(
            t.probe(Key(42), P[0]),
            Fact {
                win: NO_WIN,
                refuted: u8::MAX,
                best: 3
            }
        );
        assert_eq!(
            t.probe(Key(42), P[1]),
            Fact {
                win: 9,
                refuted: 0,
                best: 4
            }
        );
        assert_eq!(t.probe(Key(43), P[1]), Fact::UNKNOWN);
    }

    #[test]
    fn wall_stock_dominance() {
        use crate::rules::position::Position;
        use crate::search::node::Node;
        let tables = crate::configs::Tables::build(
            crate::rules::geometry::Board::new(3, 3).unwrap(),
            2,
            u64::MAX,
            &crate::support::progress::Silent,
        )
        .unwrap();
        let key = |p1: u8, p2: u8| {
            let mut pos = Position::start(tables.board(), 2).unwrap();
            pos.left = [p1, p2];
            Node::from_position(&tables, &pos).unwrap().own_key(&tables)
        };
        let t = TranspositionTable::new(1 << 12, true);
        // Player 1 (attacker 0) wins within 5 holding 1 wall against 1.
        t.store(key(1, 1), P[0], 5, true, NO_MOVE);
        // More walls for the attacker or fewer for the defender: the win holds.
        assert_eq!(t.probe(key(2, 0), P[0]).win, 5);
        assert_eq!(t.probe(key(2, 1), P[0]).win, 5);
        assert_eq!(t.probe(key(1, 0), P[0]).win, 5);
        // Fewer for the attacker or more for the defender: nothing is known.
        assert_eq!(t.probe(key(0, 2), P[0]).win, NO_WIN);
        assert_eq!(t.probe(key(1, 2), P[0]).win, NO_WIN);
        // Player 2 (attacker 1) is refuted at every depth wherever the win holds.
        for k in [key(1, 1), key(2, 0), key(2, 1), key(1, 0)] {
            assert_eq!(t.probe(k, P[1]).refuted, u8::MAX);
        }
        assert_eq!(t.probe(key(0, 2), P[1]).refuted, 0);
        // Refutations transfer the other way: Player 2 refuted at 6 holding 1 against 1.
        let u = TranspositionTable::new(1 << 12, true);
        u.store(key(1, 1), P[1], 6, false, NO_MOVE);
        assert_eq!(u.probe(key(2, 0), P[1]).refuted, 6);
        assert_eq!(u.probe(key(1, 0), P[1]).refuted, 6);
        assert_eq!(u.probe(key(0, 2), P[1]).refuted, 0);
        assert_eq!(u.probe(key(1, 1), P[0]), Fact::UNKNOWN);
        // Without dominance (two-row boards) only the exact entry counts.
        let exact = TranspositionTable::new(1 << 12, false);
        exact.store(key(1, 1), P[0], 5, true, NO_MOVE);
        assert_eq!(exact.probe(key(1, 1), P[0]).win, 5);
        assert_eq!(exact.probe(key(2, 0), P[0]).win, NO_WIN);
        assert_eq!(exact.probe(key(2, 0), P[1]).refuted, 0);
        // The best move is only taken from the position's own entry.
        t.store(key(1, 1), P[0], 5, true, 7);
        assert_eq!(t.probe(key(2, 0), P[0]).best, NO_MOVE);
        assert_eq!(t.probe(key(1, 1), P[0]).best, 7);
    }

    /// A table of `bytes` with facts stored for keys `k * step`, `k` in `1..n`.
    fn filled(bytes: u64, n: u64, step: u64) -> TranspositionTable {
        let t = TranspositionTable::new(bytes, true);
        for k in 1..n {
            let (key, attacker) = (Key(k * step), P[(k % 2) as usize]);
            t.store(key, attacker, (k % 40) as u8 + 1, k % 3 == 0, k as Move);
        }
        t
    }

    #[test]
    fn growing_keeps_every_entry() {
        let t = filled(1 << 12, 100, 7919);
        let before: Vec<Fact> = (1..100u64)
            .map(|k| t.probe(Key(k * 7919), P[(k % 2) as usize]))
            .collect();
        let mut g = t;
        let bytes = g.bytes();
        g.grow(2 * bytes);
        assert_eq!(g.bytes(), 2 * bytes);
        let after: Vec<Fact> = (1..100u64)
            .map(|k| g.probe(Key(k * 7919), P[(k % 2) as usize]))
            .collect();
        assert_eq!(before, after);
    }

    #[test]
    fn growing_in_place_keeps_every_entry_of_full_buckets() {
        // 64 buckets filled past their ways (some entries are replaced), then grown
        // eightfold within the reserved room, then past it: every fact probed before is
        // probed after, and each entry is where a probe looks.
        let mut t = TranspositionTable::with_room(1 << 12, 1 << 15, true);
        for k in 1..600u64 {
            t.store(
                Key(k * 104729),
                P[(k % 2) as usize],
                (k % 40) as u8 + 1,
                k % 3 == 0,
                k as Move,
            );
        }
        let probe_all = |t: &TranspositionTable| -> Vec<Fact> {
            (1..600u64)
                .flat_map(|k| P.map(|p| t.probe(Key(k * 104729), p)))
                .collect()
        };
        let before = probe_all(&t);
        assert!(before.iter().any(|f| *f != Fact::UNKNOWN));
        let held = t.held();
        let start = t.buckets.as_ptr();
        t.grow(1 << 15);
        assert_eq!(
            (t.bytes(), t.buckets.as_ptr()),
            (1 << 15, start),
            "in place"
        );
        assert_eq!((probe_all(&t), t.held()), (before.clone(), held));
        t.grow(1 << 17);
        assert_eq!(t.bytes(), 1 << 17);
        assert_eq!((probe_all(&t), t.held()), (before, held));
        assert_eq!(t.claimed.get(), held);
    }

    #[test]
    fn a_table_read_back_knows_what_it_knew() {
        let t = filled(1 << 16, 500, 104729);
        let mut file = Vec::new();
        t.write_to(&mut file).unwrap();
        assert_eq!(file.len() as u64, t.bytes());
        let back = TranspositionTable::read_from(&mut file.as_slice(), t.bytes(), true).unwrap();
        for k in 1..500u64 {
            let (key, a) = (Key(k * 104729), P[(k % 2) as usize]);
            assert_eq!(back.probe(key, a), t.probe(key, a));
        }
        let used = |t: &TranspositionTable| {
            t.buckets
                .iter()
                .flat_map(|b| b.0.chunks(2))
                .filter(|p| p[1].load(Ordering::Relaxed) != 0)
                .count() as u64
        };
        assert!(used(&t) > 400);
        assert_eq!(back.claimed.get(), used(&t));
        // A file cut short is an error, not a table.
        assert!(TranspositionTable::read_from(&mut &file[..1000], t.bytes(), true).is_err());
    }

    #[test]
    fn a_full_bucket_keeps_working() {
        let t = TranspositionTable::new(64, true);
        for k in 0..100u64 {
            t.store(Key(k), P[0], (k % 50) as u8 + 1, false, NO_MOVE);
            assert_eq!(t.probe(Key(k), P[0]).refuted, (k % 50) as u8 + 1);
        }
    }
}
