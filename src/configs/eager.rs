//! Per-configuration tables: for every wall configuration of a cell (see `configs.rs`), the
//! cells from which each player can still reach their goal (flood fill from the goal row), the
//! goal distance of every cell for each player, and the child configuration for every wall
//! slot. Search then never runs a path search: a wall is legal iff its child exists and both
//! pawns stand in the child's reach masks (equivalently: have a goal distance there).
//!
//! The search reads these tables at random, so they are laid out for the cache: what a wall
//! child costs the search (distances, mirror id) shares one aligned line, and every large
//! array asks for huge pages (`memory::huge_vec`).
//!
//! `children[id * slots + slot]` is the child id (slots: `slots.rs`) or `NO_CHILD` (the wall
//! does not fit, or the configuration already holds the most walls the cell allows).

use super::records::{REACH, Records};
use super::{ConfigTables, SlotMap};
use crate::configs::{ConfigId, Enumeration, candidates, count_by_walls, key, key_wall, keys_fit};
use crate::error::Result;
use crate::rules::bitboard::Squares;
use crate::rules::bitboard::UNREACHABLE;
use crate::rules::geometry::{Board, Player, Square};
use crate::rules::walls::{Wall, WallSet};
use crate::support::memory::huge_vec;
use crate::support::progress::Progress;
use rayon::prelude::*;

pub const NO_CHILD: ConfigId = ConfigId::MAX;

/// Sizes of a cell's tables, known before anything is built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableEstimate {
    /// Configurations with 0, 1, ... walls.
    pub by_walls: Vec<u128>,
    pub configurations: u128,
    pub slots: usize,
    /// Bytes of the finished tables plus the build's temporary bookkeeping.
    pub bytes: u64,
    /// Bytes of the finished tables alone: what `Tables::bytes` will say once built.
    pub finished_bytes: u64,
}

impl TableEstimate {
    pub fn new(board: Board, walls_per_player: u8) -> TableEstimate {
        let by_walls = count_by_walls(board, 2 * walls_per_player as usize);
        let configurations: u128 = by_walls.iter().sum();
        let slots = 2 * board.anchor_count();
        let finished = Tables::bytes_per_config(board, slots);
        let per_config = finished + 8; // + parent, first_child
        let bytes = configurations.saturating_mul(per_config as u128);
        TableEstimate {
            by_walls,
            configurations,
            slots,
            bytes: u64::try_from(bytes).unwrap_or(u64::MAX),
            finished_bytes: u64::try_from(configurations.saturating_mul(finished as u128))
                .unwrap_or(u64::MAX),
        }
    }
}

pub struct Tables {
    board: Board,
    walls_per_player: u8,
    slots: usize,
    slot_map: SlotMap,
    /// `layer_start[k]..layer_start[k + 1]`: ids with `k` walls.
    layer_start: Vec<usize>,
    /// Walls and reach masks, one record per configuration (32 bytes with 64-bit cell sets,
    /// 64 with 128-bit ones): what a node needs for its own pawn moves.
    records: Records,
    /// The search's hot bytes, `lines` cache lines per configuration, aligned so that a wall
    /// child's legality and ordering cost one cache miss (cells <= 30: one line):
    /// ```text
    /// byte player * cells + cell   goal distance (UNREACHABLE when cut off)
    /// bytes mirror_at..+4          the left-right mirror image's id, little-endian
    /// ```
    hot: Vec<Line>,
    lines: usize,
    mirror_at: usize,
    children: Vec<ConfigId>,
}

/// One cache line of hot bytes.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([u8; 64]);

/// Where the mirror id sits among a configuration's hot bytes: after the distances,
/// 4-aligned so that it never straddles two lines.
fn mirror_at(board: Board) -> usize {
    (2 * board.squares()).next_multiple_of(4)
}

/// Cache lines of hot bytes per configuration.
fn hot_lines(board: Board) -> usize {
    (mirror_at(board) + 4).div_ceil(64)
}

impl Tables {
    fn bytes_per_config(board: Board, slots: usize) -> usize {
        Records::bytes_per_config(board)
            + 64 * hot_lines(board)
            + slots * std::mem::size_of::<ConfigId>()
    }

    /// Builds every table of the cell, after checking the estimate against `budget` bytes.
    pub fn build(
        board: Board,
        walls_per_player: u8,
        budget: u64,
        progress: &dyn Progress,
    ) -> Result<Tables> {
        let estimate = TableEstimate::new(board, walls_per_player);
        crate::support::memory::check(
            &format!(
                "building the wall-configuration tables of {board} with {} ({} configurations)",
                crate::error::count(walls_per_player, "wall"),
                estimate.configurations
            ),
            estimate.bytes,
            budget,
        )?;
        if !keys_fit(board) {
            return Err(crate::Error::TooManyAnchors {
                board: board.to_string(),
                anchors: board.anchor_count(),
            });
        }
        if estimate.configurations > (NO_CHILD as u128) {
            return Err(crate::Error::Argument(format!(
                "{board} with {} has {} configurations, more than ids can number",
                crate::error::count(walls_per_player, "wall"),
                estimate.configurations
            )));
        }
        let max_walls = 2 * walls_per_player as usize;
        let mut e = Enumeration::build(board, max_walls, progress);
        let slot_map = SlotMap::new(board);
        let slots = slot_map.len();
        // The records hold the walls too: build them first and drop the enumeration's own
        // copy before the child table, the largest array, is allocated (peak memory).
        let (records, hot) = build_records(board, &e.walls, progress);
        e.walls = Vec::new();
        let walls_of = |id: usize| records.walls(id);
        let children = child_table(board, &e, &walls_of, &slot_map, progress);
        let layer_start = std::mem::take(&mut e.layer_start);
        drop(e);
        let mut tables = Tables {
            board,
            walls_per_player,
            slots,
            slot_map,
            layer_start,
            records,
            hot,
            lines: hot_lines(board),
            mirror_at: mirror_at(board),
            children,
        };
        let mirrors: Vec<ConfigId> = (0..tables.len() as ConfigId)
            .into_par_iter()
            .map(|id| {
                tables
                    .id_of(tables.walls(id).mirror(board))
                    .expect("the mirror of a configuration is a configuration")
            })
            .collect();
        for (id, m) in mirrors.into_iter().enumerate() {
            for (i, b) in m.to_le_bytes().into_iter().enumerate() {
                *tables.hot_byte_mut(id, tables.mirror_at + i) = b;
            }
        }
        Ok(tables)
    }

    pub fn board(&self) -> Board {
        self.board
    }

    pub fn walls_per_player(&self) -> u8 {
        self.walls_per_player
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.len() == 0
    }

    pub fn slots(&self) -> usize {
        self.slots
    }

    /// The ids of the configurations with exactly `walls` walls (empty past the last layer).
    pub fn layer(&self, walls: usize) -> std::ops::Range<ConfigId> {
        match self.layer_start.get(walls..walls + 2) {
            Some(&[lo, hi]) => lo as ConfigId..hi as ConfigId,
            _ => 0..0,
        }
    }

    /// Number of layers: the most walls a configuration of the cell holds, plus one.
    pub fn layers(&self) -> usize {
        self.layer_start.len() - 1
    }

    /// Configurations with 0, 1, ... walls.
    pub fn by_walls(&self) -> Vec<usize> {
        self.layer_start.windows(2).map(|w| w[1] - w[0]).collect()
    }

    /// Bytes held by the tables.
    pub fn bytes(&self) -> u64 {
        (self.len() * Tables::bytes_per_config(self.board, self.slots)) as u64
    }

    pub fn slot_wall(&self, slot: usize) -> Wall {
        self.slot_map.wall(slot)
    }

    pub fn slot(&self, wall: Wall) -> usize {
        self.slot_map.slot(wall)
    }

    /// The cache line holding byte `i` of configuration `id`'s hot bytes, and the byte's
    /// place in it.
    #[inline(always)]
    fn hot_line(&self, id: usize, i: usize) -> (usize, usize) {
        (id * self.lines + i / 64, i % 64)
    }

    /// Byte `i` of configuration `id`'s hot bytes.
    #[inline(always)]
    fn hot_byte(&self, id: ConfigId, i: usize) -> u8 {
        let (line, at) = self.hot_line(id as usize, i);
        self.hot[line].0[at]
    }

    fn hot_byte_mut(&mut self, id: usize, i: usize) -> &mut u8 {
        let (line, at) = self.hot_line(id, i);
        &mut self.hot[line].0[at]
    }

    #[inline(always)]
    pub fn walls(&self, id: ConfigId) -> WallSet {
        self.records.walls(id as usize)
    }

    /// Squares from which `player` can reach their goal row.
    #[inline(always)]
    pub fn reach(&self, id: ConfigId, player: Player) -> Squares {
        self.records.set(id as usize, REACH + player.index())
    }

    /// Steps from `cell` to `player`'s goal row (`UNREACHABLE` if cut off).
    #[inline(always)]
    pub fn distance(&self, id: ConfigId, player: Player, cell: Square) -> u8 {
        self.hot_byte(id, player.index() * self.board.squares() + cell as usize)
    }

    /// The child id for every slot (`NO_CHILD` where the wall cannot be added).
    #[inline(always)]
    pub fn children(&self, id: ConfigId) -> &[ConfigId] {
        &self.children[id as usize * self.slots..(id as usize + 1) * self.slots]
    }

    /// The id of the configuration's left-right mirror image.
    #[inline(always)]
    pub fn mirror(&self, id: ConfigId) -> ConfigId {
        let (line, at) = self.hot_line(id as usize, self.mirror_at);
        let bytes = &self.hot[line].0[at..at + 4];
        ConfigId::from_le_bytes(bytes.try_into().expect("4 bytes"))
    }

    /// The id of a wall set, if it is one of the cell's configurations.
    pub fn id_of(&self, walls: WallSet) -> Option<ConfigId> {
        let mut id = 0;
        for wall in walls.iter() {
            id = self.children(id)[self.slot(wall)];
            if id == NO_CHILD {
                return None;
            }
        }
        Some(id)
    }

    /// `id_of` of every set of `sets`, `NO_CHILD` for a set that is none. The walks from
    /// the empty configuration go side by side, a wall of each at a time: one walk's loads
    /// from the child table depend on each other, but those of different walks do not, so
    /// they overlap instead of each waiting for memory in turn (`id_of` one set at a time
    /// was 5 % of 4x7 w4's samples, in `Layout::new`).
    pub fn ids_of(&self, sets: &[WallSet]) -> Vec<ConfigId> {
        let mut ids = vec![0; sets.len()];
        let mut left: Vec<WallSet> = sets.to_vec();
        loop {
            let mut walking = false;
            for (id, rest) in ids.iter_mut().zip(left.iter_mut()) {
                if *id == NO_CHILD {
                    continue;
                }
                let Some(wall) = rest.iter().next() else {
                    continue;
                };
                *rest = rest.without(wall);
                *id = self.children(*id)[self.slot(wall)];
                walking = true;
            }
            if !walking {
                return ids;
            }
        }
    }
}

impl ConfigTables for Tables {
    fn board(&self) -> Board {
        self.board
    }

    fn walls_per_player(&self) -> u8 {
        self.walls_per_player
    }

    fn slot_map(&self) -> &SlotMap {
        &self.slot_map
    }

    fn configurations(&self) -> u128 {
        self.len() as u128
    }

    #[inline(always)]
    fn walls(&self, id: ConfigId) -> WallSet {
        Tables::walls(self, id)
    }

    #[inline(always)]
    fn distance(&self, id: ConfigId, player: Player, cell: Square) -> u8 {
        Tables::distance(self, id, player, cell)
    }

    #[inline(always)]
    fn reach(&self, id: ConfigId, player: Player) -> Squares {
        Tables::reach(self, id, player)
    }

    #[inline(always)]
    fn children(&self, id: ConfigId) -> &[ConfigId] {
        Tables::children(self, id)
    }

    #[inline(always)]
    fn mirror(&self, id: ConfigId) -> ConfigId {
        Tables::mirror(self, id)
    }

    fn id_of(&self, walls: WallSet) -> Option<ConfigId> {
        Tables::id_of(self, walls)
    }

    /// Ids by enumeration order (`enumerate.rs`), the same in every build of the cell;
    /// "enumeration-1" was the order before the keys interleaved the two orientations.
    fn key_numbering(&self) -> Option<&'static str> {
        Some("enumeration-2")
    }
}

/// Every configuration's record (walls, flood fills from both goal rows) and hot bytes
/// (goal distances; the mirror ids are filled in later, once ids can be looked up).
fn build_records(board: Board, walls: &[WallSet], progress: &dyn Progress) -> (Records, Vec<Line>) {
    let cells = board.squares();
    let lines = hot_lines(board);
    progress.begin("flood fills and distances", walls.len() as u64);
    let mut hot = huge_vec(walls.len() * lines, Line([0; 64]));
    let records = Records::build(board, &mut hot, lines, |id, hot| {
        let w = walls[id];
        let edges = w.edges(board);
        let mut reach: [Squares; 2] = [0, 0];
        for p in [Player::One, Player::Two] {
            let d = edges.distances(board.goal(p));
            for (c, &dist) in d[..cells].iter().enumerate() {
                let i = p.index() * cells + c;
                hot[i / 64].0[i % 64] = dist;
                if dist != UNREACHABLE {
                    reach[p.index()] |= 1 << c;
                }
            }
        }
        [w.horizontal, w.vertical, reach[0], reach[1]]
    });
    progress.advance(walls.len() as u64);
    progress.finish();
    (records, hot)
}

/// Fills the child table layer by layer. For configuration `S` and a wall `w` that fits:
/// if `w` lies above `S`'s highest wall, the child is one of `S`'s own children in the
/// enumeration; otherwise `S + w = (parent(S) + w) + top(S)`, and `parent(S) + w`, one layer
/// down, already has its row filled.
fn child_table(
    board: Board,
    e: &Enumeration,
    walls_of: &(impl Fn(usize) -> WallSet + Sync),
    slot_map: &SlotMap,
    progress: &dyn Progress,
) -> Vec<ConfigId> {
    let slots = slot_map.len();
    let layers = e.layer_start.len() - 1;
    let mut children = huge_vec(e.parent.len() * slots, NO_CHILD);
    // The child of `x` adding key bit `bit`, which lies above every wall of `x`.
    let own_child = |x: usize, bit: u32| -> ConfigId {
        let below = (1u128 << bit) - 1;
        e.first_child[x] + (candidates(board, walls_of(x)) & below).count_ones()
    };
    progress.begin("child configurations", e.parent.len() as u64);
    for k in 0..layers.saturating_sub(1) {
        let (lo, hi) = (e.layer_start[k], e.layer_start[k + 1]);
        let (done, rest) = children.split_at_mut(lo * slots);
        let done: &[ConfigId] = done;
        rest[..(hi - lo) * slots]
            .par_chunks_mut(slots)
            .enumerate()
            .with_min_len(1024)
            .for_each(|(i, row)| {
                let s = lo + i;
                let walls = walls_of(s);
                let free = crate::configs::free_key(board, walls);
                let top = if s == 0 {
                    None
                } else {
                    Some(127 - key(board, walls).leading_zeros())
                };
                for bit in crate::rules::bitboard::bits(free).map(u32::from) {
                    let slot = slot_map.slot(key_wall(board, bit));
                    row[slot] = match top {
                        Some(t) if bit < t => {
                            let p = e.parent[s] as usize;
                            let x = done[p * slots + slot] as usize;
                            own_child(x, t)
                        }
                        _ => own_child(s, bit),
                    };
                }
            });
        progress.advance((hi - lo) as u64);
    }
    progress.finish();
    children
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::walls::Orientation;
    use crate::support::progress::Silent;
    use std::collections::{HashMap, VecDeque};

    /// The precision a retrograde analysis gets is decided from the estimate before the
    /// tables are built, and again from the tables once they are (`plan::retro_precision`):
    /// the two must agree to the byte.
    #[test]
    fn the_estimate_knows_the_finished_tables_bytes() {
        for (w, h, n) in [(3, 3, 1), (4, 4, 2), (3, 5, 3), (5, 3, 2), (2, 6, 4)] {
            let board = Board::new(w, h).unwrap();
            let tables = Tables::build(board, n, u64::MAX, &Silent).unwrap();
            let e = TableEstimate::new(board, n);
            assert_eq!(e.finished_bytes, tables.bytes(), "{board} with {n} walls");
        }
    }

    /// Steps to the goal row by a plain BFS over coordinates, with each wall's two blocked
    /// edges worked out from docs/RULES.md (the slow twin of `distances`: it shares none of
    /// the bitboards, edge masks or flood fills of the fast path).
    fn distance_slow(board: Board, walls: WallSet, from: Square, player: Player) -> u8 {
        let (w, h) = (board.width(), board.height());
        let list: Vec<(usize, usize, Orientation)> = walls
            .iter()
            .map(|wall| {
                let a = wall.anchor as usize;
                (a % w, a / w, wall.orientation)
            })
            .collect();
        // A horizontal wall at (c, r) blocks rows r <-> r+1 in columns c and c+1; a
        // vertical one blocks columns c <-> c+1 in rows r and r+1.
        let blocked = |(c, r): (usize, usize), (nc, nr): (usize, usize)| {
            list.iter().any(|&(ac, ar, o)| match o {
                Orientation::Horizontal => {
                    c == nc && (c == ac || c == ac + 1) && r != nr && r.min(nr) == ar
                }
                Orientation::Vertical => {
                    r == nr && (r == ar || r == ar + 1) && c != nc && c.min(nc) == ac
                }
            })
        };
        let goal_row = match player {
            Player::One => h - 1,
            Player::Two => 0,
        };
        let start = (from as usize % w, from as usize / w);
        let mut seen = HashMap::from([(start, 0u8)]);
        let mut queue = VecDeque::from([start]);
        while let Some((c, r)) = queue.pop_front() {
            if r == goal_row {
                return seen[&(c, r)];
            }
            let steps = [(0i64, 1i64), (0, -1), (1, 0), (-1, 0)];
            for (dc, dr) in steps {
                let (nc, nr) = (c as i64 + dc, r as i64 + dr);
                if nc < 0 || nr < 0 || nc >= w as i64 || nr >= h as i64 {
                    continue;
                }
                let next = (nc as usize, nr as usize);
                if !blocked((c, r), next) && !seen.contains_key(&next) {
                    seen.insert(next, seen[&(c, r)] + 1);
                    queue.push_back(next);
                }
            }
        }
        UNREACHABLE
    }

    pub(crate) fn check_exhaustively(w: usize, h: usize, n: u8) {
        let board = Board::new(w, h).unwrap();
        let t = Tables::build(board, n, u64::MAX, &Silent).unwrap();
        let mut index = HashMap::new();
        for id in 0..t.len() as ConfigId {
            index.insert(key(board, t.walls(id)), id);
        }
        assert_eq!(index.len(), t.len(), "ids are distinct configurations");
        for id in 0..t.len() as ConfigId {
            let walls = t.walls(id);
            assert_eq!(t.id_of(walls), Some(id));
            assert_eq!(t.mirror(t.mirror(id)), id);
            assert_eq!(t.walls(t.mirror(id)), walls.mirror(board));
            for p in [Player::One, Player::Two] {
                for cell in 0..board.squares() as Square {
                    let d = distance_slow(board, walls, cell, p);
                    assert_eq!(t.distance(id, p, cell), d, "{w}x{h} id {id}");
                    assert_eq!(t.reach(id, p) >> cell & 1 == 1, d != UNREACHABLE);
                }
            }
            for slot in 0..t.slots() {
                let wall = t.slot_wall(slot);
                let child = t.children(id)[slot];
                let fits = walls.clash(board, wall).is_none() && walls.len() < 2 * n as u32;
                if fits {
                    assert_eq!(child, index[&key(board, walls.with(wall))]);
                } else {
                    assert_eq!(child, NO_CHILD);
                }
            }
        }
    }

    /// The walks side by side find what `id_of` finds one set at a time: every
    /// configuration, its mirror image, and sets that are none (a wall on another, a wall
    /// added to a full layer), all in one call. (`Layout::new` asks for the half turns,
    /// which `retro`'s layout test checks.)
    #[test]
    fn ids_of_equals_id_of_set_by_set() {
        for (w, h, n) in [(3, 3, 2), (4, 3, 2), (3, 5, 1), (5, 4, 1)] {
            let board = Board::new(w, h).unwrap();
            let t = Tables::build(board, n, u64::MAX, &Silent).unwrap();
            let mut sets = Vec::new();
            for id in 0..t.len() as ConfigId {
                let walls = t.walls(id);
                sets.push(walls);
                sets.push(walls.mirror(board));
                for slot in [0, t.slots() - 1] {
                    sets.push(walls.with(t.slot_wall(slot)));
                }
            }
            let ids = t.ids_of(&sets);
            let mut none = 0;
            for (&set, &id) in sets.iter().zip(&ids) {
                assert_eq!(t.id_of(set).unwrap_or(NO_CHILD), id, "{w}x{h} {set:?}");
                none += usize::from(id == NO_CHILD);
            }
            assert!(
                none > 0 && none < sets.len(),
                "{w}x{h}: {none} of {}",
                sets.len()
            );
        }
    }

    #[test]
    fn layers_partition_the_ids() {
        let t = Tables::build(Board::new(4, 3).unwrap(), 2, u64::MAX, &Silent).unwrap();
        let mut next = 0;
        for k in 0..t.layers() {
            let r = t.layer(k);
            assert_eq!(r.start, next);
            assert!(r.clone().all(|id| t.walls(id).len() as usize == k));
            next = r.end;
        }
        assert_eq!(next as usize, t.len());
        assert!(t.layer(t.layers()).is_empty());
    }

    #[test]
    fn tables_equal_slow_computation_small_boards() {
        for (w, h) in [(3, 3), (4, 3), (3, 4), (2, 5)] {
            check_exhaustively(w, h, 20);
        }
        check_exhaustively(4, 4, 2);
    }
}
