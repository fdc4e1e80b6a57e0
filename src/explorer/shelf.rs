//! The cells kept for requests (`kept.rs`) and the memory each holds, within `serve
//! --memory`: which ones a new solve drops, the least recently used first. Bookkeeping only:
//! what a cell holds (`T`: in `kept.rs` the door to the thread that owns its values) is
//! given back to the caller to close.

use std::ops::Range;

use super::Cell;

/// A cell kept, or being solved.
pub struct Entry<T> {
    pub cell: Cell,
    /// The layers (walls on the board) its values keep, within `0..top`.
    pub layers: Range<usize>,
    /// The cell's layers: a question's layers past it are none (`covers`).
    pub top: usize,
    /// What it holds: the estimated peak of its solve while it runs, then its tables and
    /// the values kept.
    pub bytes: u64,
    /// Whether its solve is done: until then it answers nothing.
    pub ready: bool,
    /// When it was last used (`Shelf::clock`).
    used: u64,
    id: u64,
    pub held: T,
}

impl<T> Entry<T> {
    /// Whether its values answer a question of `cell` needing `layers`.
    fn covers(&self, cell: Cell, layers: &Range<usize>) -> bool {
        self.cell == cell
            && self.layers.start <= layers.start
            && layers.end.min(self.top) <= self.layers.end
    }
}

/// The cells kept, at most one being solved, their bytes within `budget` together.
pub struct Shelf<T> {
    entries: Vec<Entry<T>>,
    budget: u64,
    /// Counts uses and solves: the later, the more recent.
    clock: u64,
    /// Solves started since the server started.
    solves: u64,
}

impl<T> Shelf<T> {
    pub fn new(budget: u64) -> Shelf<T> {
        Shelf {
            entries: Vec::new(),
            budget,
            clock: 0,
            solves: 0,
        }
    }

    /// The entry that answers a question of `cell` needing `layers`, marked as just used;
    /// one being solved too (the caller tells it apart by `ready`).
    pub fn find(&mut self, cell: Cell, layers: &Range<usize>) -> Option<&mut Entry<T>> {
        self.clock += 1;
        let now = self.clock;
        let found = self.entries.iter_mut().find(|e| e.covers(cell, layers))?;
        found.used = now;
        Some(found)
    }

    /// The cell being solved, if one is.
    pub fn solving(&self) -> Option<Cell> {
        self.entries.iter().find(|e| !e.ready).map(|e| e.cell)
    }

    /// Makes room for a solve of `cell` that takes `bytes` at its peak: drops the entry of
    /// `cell` (its layers are about to be replaced), then the least recently used until the
    /// rest and `bytes` fit the budget. Returns what was dropped, and the bytes the solve
    /// may take (the budget less what is still kept). A solve over the whole budget drops
    /// nothing: it will be refused. Called only when no solve runs: every entry is ready.
    pub fn make_room(&mut self, cell: Cell, bytes: u64) -> (Vec<Entry<T>>, u64) {
        debug_assert!(self.solving().is_none());
        let mut dropped = Vec::new();
        if bytes > self.budget {
            return (dropped, self.budget.saturating_sub(self.kept_bytes()));
        }
        if let Some(i) = self.entries.iter().position(|e| e.cell == cell) {
            dropped.push(self.entries.swap_remove(i));
        }
        while self.kept_bytes().saturating_add(bytes) > self.budget {
            let Some(i) = (0..self.entries.len()).min_by_key(|&i| self.entries[i].used) else {
                break;
            };
            dropped.push(self.entries.swap_remove(i));
        }
        (dropped, self.budget.saturating_sub(self.kept_bytes()))
    }

    /// The id the next solve started gets (its number since the server started).
    pub fn next_id(&self) -> u64 {
        self.solves + 1
    }

    /// Records a solve of `cell` keeping `layers` (of `0..top`), estimated at `bytes`, as
    /// started; returns its id (`next_id`).
    pub fn start(
        &mut self,
        cell: Cell,
        layers: Range<usize>,
        top: usize,
        bytes: u64,
        held: T,
    ) -> u64 {
        self.clock += 1;
        self.solves += 1;
        self.entries.push(Entry {
            cell,
            layers,
            top,
            bytes,
            ready: false,
            used: self.clock,
            id: self.solves,
            held,
        });
        self.solves
    }

    /// Marks the solve `id` done, its entry now holding `bytes`.
    pub fn solved(&mut self, id: u64, bytes: u64) {
        if let Some(e) = self.entries.iter_mut().find(|e| e.id == id) {
            e.ready = true;
            e.bytes = bytes;
        }
    }

    /// Drops the entry `id` (a solve that failed), if still there.
    pub fn remove(&mut self, id: u64) -> Option<Entry<T>> {
        let i = self.entries.iter().position(|e| e.id == id)?;
        Some(self.entries.swap_remove(i))
    }

    /// The bytes of every entry.
    pub fn kept_bytes(&self) -> u64 {
        self.entries.iter().map(|e| e.bytes).sum()
    }

    /// Solves started since the server started.
    pub fn solves(&self) -> u64 {
        self.solves
    }

    /// The cells kept (solved), the most recently used first.
    pub fn kept(&self) -> Vec<&Entry<T>> {
        let mut kept: Vec<&Entry<T>> = self.entries.iter().filter(|e| e.ready).collect();
        kept.sort_by_key(|e| std::cmp::Reverse(e.used));
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::Board;

    fn cell(w: usize, walls: u8) -> Cell {
        Cell {
            board: Board::new(w, 3).unwrap(),
            walls,
        }
    }

    /// A solve of `c` keeping layers 2..6 (of 0..6), done, holding `bytes`.
    fn keep(shelf: &mut Shelf<()>, c: Cell, bytes: u64) -> Vec<Cell> {
        let (dropped, room) = shelf.make_room(c, bytes);
        assert!(room >= bytes);
        let id = shelf.start(c, 2..6, 6, bytes, ());
        assert_eq!(shelf.solving(), Some(c));
        shelf.solved(id, bytes);
        dropped.into_iter().map(|e| e.cell).collect()
    }

    #[test]
    fn the_least_recently_used_is_dropped_for_room() {
        let mut shelf = Shelf::new(100);
        let (a, b, c) = (cell(3, 1), cell(4, 1), cell(5, 1));
        assert!(keep(&mut shelf, a, 40).is_empty());
        assert!(keep(&mut shelf, b, 40).is_empty());
        // a used since b: b is the least recently used.
        assert!(shelf.find(a, &(3..5)).is_some_and(|e| e.ready));
        assert_eq!(keep(&mut shelf, c, 40), vec![b]);
        assert_eq!(shelf.kept_bytes(), 80);
        let order: Vec<Cell> = shelf.kept().iter().map(|e| e.cell).collect();
        assert_eq!(order, vec![c, a]);
        // One over the whole budget drops nothing (it will be refused); one that needs the
        // whole budget drops every other.
        let (dropped, room) = shelf.make_room(b, 101);
        assert!(dropped.is_empty() && room == 20);
        assert_eq!(keep(&mut shelf, b, 100).len(), 2);
        assert_eq!(shelf.solves(), 4);
    }

    #[test]
    fn a_cell_solved_again_replaces_its_own_entry() {
        let mut shelf = Shelf::new(100);
        let (a, b) = (cell(3, 1), cell(4, 1));
        keep(&mut shelf, a, 30);
        keep(&mut shelf, b, 30);
        // Layers from 2 up are covered; from 0 are not, nor another cell's.
        assert!(shelf.find(a, &(2..4)).is_some());
        assert!(shelf.find(a, &(0..2)).is_none());
        assert!(shelf.find(cell(3, 2), &(2..4)).is_none());
        // Past the cell's last layer (6) counts as up to it.
        assert!(shelf.find(a, &(3..8)).is_some());
        assert_eq!(keep(&mut shelf, a, 30), vec![a]);
        assert_eq!(shelf.kept().len(), 2);
    }

    #[test]
    fn a_failed_solve_leaves_nothing() {
        let mut shelf = Shelf::new(100);
        let a = cell(3, 1);
        let (_, room) = shelf.make_room(a, 50);
        assert_eq!(room, 100);
        let id = shelf.start(a, 0..2, 6, 50, ());
        assert!(shelf.find(a, &(0..2)).is_some_and(|e| !e.ready));
        assert!(shelf.kept().is_empty());
        assert!(shelf.remove(id).is_some());
        assert_eq!(shelf.solving(), None);
        assert_eq!(shelf.kept_bytes(), 0);
    }
}
