//! One pair of splits of a layer (all configurations with `k` walls, see
//! `layout::split_pairs`), solved in parallel: one task per group of stored configurations
//! (`layout.rs`), which builds the first configuration's pawn graph once and solves its
//! blocks of both splits. A solved block holds both sides to move; it
//! gives its own stored block (Player 1 to move) and, turned half a turn, its partner's
//! (Player 2 to move), which lies in the same group. So each block of an orbit under the
//! two symmetries is solved once, tasks write disjoint slices and only read the layer
//! below, and the values do not depend on the number of threads.

use super::RetroStats;
use super::block::{self, Block, Scratch, TooDeep};
use super::code::Code;
use super::layout::{self, Layout};
use super::narrow;
use super::pawn_graph::PawnGraph;
use super::source::{self, ConfigSource};
use super::store::Packing;
use crate::bitboard::bits;
use crate::geometry::{Cell, Player};
use rayon::prelude::*;

/// Solves one pair of splits of layer `k` (`layout::split_pairs`) into `first` and
/// `second` (the bytes of both splits' stores under packing `P`, all undecided on entry;
/// `second` is `None` when the pair is one split), reading the solved layer `k + 1` from
/// `below`, and counts the outcomes of every position of the pair (not only the stored
/// ones).
pub fn solve_pair<P: Packing>(
    source: &dyn ConfigSource,
    layout: &Layout,
    k: usize,
    pair: (usize, usize),
    first: &mut [u8],
    second: Option<&mut [u8]>,
    below: Option<&[Option<Vec<u8>>]>,
) -> Result<RetroStats, TooDeep> {
    let board = source.board();
    let per_config = layout.stored_len();
    let firsts = cut_groups::<P>(layout, k, first, per_config);
    let seconds: Vec<Option<&mut [u8]>> = match second {
        Some(second) => cut_groups::<P>(layout, k, second, per_config)
            .into_iter()
            .map(|(_, group)| Some(group))
            .collect(),
        None => firsts.iter().map(|_| None).collect(),
    };
    firsts
        .into_par_iter()
        .zip(seconds)
        .map_init(
            || (PawnGraph::new(board), Scratch::new(), Vec::new()),
            |(graph, scratch, children), ((rank, first), second)| {
                let config = layout.stored(k)[rank];
                let walls = source.walls(config);
                let reach = source.reach(config, walls);
                source.children(config, walls, children);
                graph.build(board, walls, reach);
                let base = rank * per_config;
                let mut stores = GroupStores {
                    pair,
                    first,
                    second,
                };
                let mut stats = RetroStats::default();
                for j in layout::members(pair) {
                    let left = layout.split_left(k, j);
                    let own = layout.view(k, config, left[0], Player::One);
                    let partner = layout.view(k, config, left[0], Player::Two);
                    // Which stored block, whatever the map: the same one when the block is
                    // its own half turn (perhaps mirrored).
                    let (own_at, partner_at) =
                        ((own.start, own.split), (partner.start, partner.split));
                    if partner_at < own_at {
                        continue; // solved with its partner, the other split of the pair
                    }
                    let block = Block {
                        board,
                        layout,
                        layer: k,
                        reach,
                        children,
                        left,
                        graph,
                        below,
                    };
                    let counts = block::solve::<P>(&block, scratch)?;
                    let at = own.start - base;
                    store_block::<P>(&block, &scratch.values, at, stores.of(own.split));
                    // The block's mirror image counts too, and so do the half turns of both
                    // unless the block is its own (then its partner is itself).
                    let copies = if source::symmetric(board, walls) {
                        1
                    } else {
                        2
                    };
                    stats = stats + counts.times(copies);
                    if partner_at != own_at {
                        let group = stores.of(partner.split);
                        store_turned::<P>(&block, &scratch.values, partner, base, group);
                        stats = stats + turned(&block, counts).times(copies);
                    }
                }
                Ok(stats)
            },
        )
        .try_reduce(RetroStats::default, |a, b| Ok(a + b))
}

/// One group's bytes in the stores of both splits of a pair.
struct GroupStores<'s> {
    pair: (usize, usize),
    first: &'s mut [u8],
    second: Option<&'s mut [u8]>,
}

impl GroupStores<'_> {
    /// The group's bytes in the store of split `j`, one of the pair.
    fn of(&mut self, j: usize) -> &mut [u8] {
        if j == self.pair.0 {
            self.first
        } else {
            debug_assert_eq!(j, self.pair.1);
            self.second
                .as_deref_mut()
                .expect("a pair of two splits has two stores")
        }
    }
}

/// A split's store cut into groups: (rank of the group's first stored configuration, its
/// bytes). `per_config` slots are a whole number of bytes (blocks are padded).
fn cut_groups<'s, P: Packing>(
    layout: &Layout,
    k: usize,
    store: &'s mut [u8],
    per_config: usize,
) -> Vec<(usize, &'s mut [u8])> {
    debug_assert!(per_config.is_multiple_of(P::PER_BYTE));
    let mut groups = Vec::new();
    let mut rest = store;
    let mut rank = 0;
    while rank < layout.stored(k).len() {
        let len = layout.group_len(k, rank);
        let (group, tail) = rest.split_at_mut(len * per_config / P::PER_BYTE);
        groups.push((rank, group));
        rest = tail;
        rank += len;
    }
    groups
}

/// The Player 1 half of the solved block is its own stored block, row for row (`at`: the
/// block's first slot in the group).
fn store_block<P: Packing>(block: &Block, values: &[Code], at: usize, group: &mut [u8]) {
    let layout = block.layout;
    let (cells, open, width) = (layout.cells(), layout.open(), layout.width());
    for p1 in 0..open {
        // Player 2's cells off row 0 (`layout.rs`).
        let local = layout.index(Player::One, p1 as Cell, 0);
        let row = &values[local + width..local + cells];
        if P::EXACT {
            group[at + p1 * open..][..open].copy_from_slice(row);
        } else {
            for (p2, &code) in row.iter().enumerate() {
                P::write(group, at + p1 * open + p2, code);
            }
        }
    }
}

/// The Player 2 half, turned half a turn (and mirrored if need be), is the partner's stored
/// block; positions that are over have no slot.
fn store_turned<P: Packing>(
    block: &Block,
    values: &[Code],
    partner: super::layout::View,
    base: usize,
    group: &mut [u8],
) {
    let layout = block.layout;
    let board = block.board;
    let [live1, live2] = block.live();
    for p1 in bits(live1 & !narrow(board.goal(Player::One))) {
        for p2 in bits(live2 & !narrow(board.goal(Player::Two)) & !(1 << p1)) {
            let code = values[layout.index(Player::Two, p1, p2)];
            P::write(group, layout.slot(partner, p1, p2) - base, code);
        }
    }
}

/// The counts of the half-turned block: Player 1's wins become Player 2's and back, except
/// the positions with both pawns home, Player 1's in both.
fn turned(block: &Block, counts: RetroStats) -> RetroStats {
    let board = block.board;
    let [live1, live2] = block.live();
    let home = |p: Player, live: u64| (narrow(board.goal(p)) & live).count_ones() as u64;
    let both_home = 2 * home(Player::One, live1) * home(Player::Two, live2);
    RetroStats {
        positions: counts.positions,
        p1_wins: counts.p2_wins + both_home,
        p2_wins: counts.p1_wins - both_home,
        draws: counts.draws,
    }
}
