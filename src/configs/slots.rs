//! Wall *slots* number the walls of a board densely: horizontal walls by ascending anchor
//! cell, then vertical ones, `2 * (W-1) * (H-1)` slots in all (at most `2 * MAX_ANCHORS`,
//! 210, so a slot fits a `u8`). A configuration's children
//! and the search's wall moves are indexed by slot.

use crate::rules::bitboard::bits;
use crate::rules::geometry::{Board, MAX_ANCHORS, MAX_SQUARES};
use crate::rules::walls::{Orientation, Wall};

#[allow(clippy::assertions_on_constants)]
const _: () = assert!(2 * MAX_ANCHORS < u8::MAX as usize, "slots fit a u8");

#[derive(Clone, Debug)]
pub struct SlotMap {
    /// Slot to wall.
    walls: Vec<Wall>,
    /// `slot_of[orientation][anchor cell]`.
    slot_of: [[u8; MAX_SQUARES]; 2],
}

impl SlotMap {
    pub fn new(board: Board) -> SlotMap {
        let mut walls = Vec::new();
        let mut slot_of = [[u8::MAX; MAX_SQUARES]; 2];
        for orientation in [Orientation::Horizontal, Orientation::Vertical] {
            for anchor in bits(board.anchors()) {
                slot_of[orientation as usize][anchor as usize] = walls.len() as u8;
                walls.push(Wall {
                    anchor,
                    orientation,
                });
            }
        }
        SlotMap { walls, slot_of }
    }

    pub fn len(&self) -> usize {
        self.walls.len()
    }

    pub fn is_empty(&self) -> bool {
        self.walls.is_empty()
    }

    #[inline(always)]
    pub fn wall(&self, slot: usize) -> Wall {
        self.walls[slot]
    }

    /// The slot of a wall (its anchor must be a wall anchor of the board).
    #[inline(always)]
    pub fn slot(&self, wall: Wall) -> usize {
        self.slot_of[wall.orientation as usize][wall.anchor as usize] as usize
    }
}
