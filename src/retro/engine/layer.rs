//! One pair of splits of a layer (all configurations with `k` walls, see
//! `layout::split_pairs`), solved in parallel: one task per group of stored configurations
//! (`layout.rs`), which builds the first configuration's pawn graph once and solves its
//! blocks of both splits. A solved block holds both sides to move; it
//! gives its own stored block (Player 1 to move) and, turned half a turn, its partner's
//! (Player 2 to move), which lies in the same group. So each block of an orbit under the
//! two symmetries is solved once, tasks write disjoint slices and only read the layer
//! below, and the values do not depend on the number of threads.

use super::block::{self, Block, Scratch, TooDeep};
use super::board::narrow;
use super::code::Code;
use super::layout::{self, Layout};
use super::pawn_graph::PawnGraph;
use super::push_outcomes;
pub use super::push_outcomes::unpack;
use super::push_rows::push_rows;
pub use super::push_rows::{Child, Pushes, transpose};
use super::source::{self, ConfigSource};
use super::store::{Exact, Packing};
use super::symmetry;
use super::value::RetroStats;
use crate::rules::bitboard::bits;
use crate::rules::geometry::{MAX_SQUARES, Player, Square};
use crate::rules::walls::WallSet;
use crate::support::progress::Progress;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::AtomicU8;

/// Where the blocks of a pair find the values of their wall moves.
#[derive(Clone, Copy)]
pub enum Below<'a> {
    /// Nowhere: the last layer, where no wall fits.
    Nothing,
    /// In the solved layer `k + 1`, by split (`Block::below`).
    Layer(&'a [Option<Vec<u8>>]),
    /// In the pair's own stores: each slot holds its position's best exit, pushed by the
    /// layer above (`push_pair`), until its block is solved.
    Pushed,
}

/// Solves one pair of splits of layer `k` (`layout::split_pairs`) into `first` and
/// `second` (the bytes of both splits' stores under packing `P`, all undecided on entry,
/// or holding the pushed exits with `Below::Pushed`; `second` is `None` when the pair is
/// one split), reading its wall moves' values from `below`, and counts the outcomes of
/// every position of the pair (not only the stored ones). The stores hold the stored
/// configurations of `ranks` only (whole groups: a layer solved in parts, `parts.rs`), or
/// every one of the layer.
pub fn solve_pair<P: Packing>(
    source: &dyn ConfigSource,
    layout: &Layout,
    (k, ranks): (usize, Range<usize>),
    pair: (usize, usize),
    first: &mut [u8],
    second: Option<&mut [u8]>,
    below: Below,
) -> Result<RetroStats, TooDeep> {
    let board = source.board();
    let per_config = layout.stored_len();
    let firsts = cut_groups::<P>(layout, k, ranks.clone(), first, per_config);
    let seconds: Vec<Option<&mut [u8]>> = match second {
        Some(second) => cut_groups::<P>(layout, k, ranks, second, per_config)
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
                // Stopped: the pair's values are dropped unkept (`check_stop`).
                if super::stop::stop_requested() {
                    return Ok(RetroStats::default());
                }
                let config = layout.stored(k)[rank];
                let walls = source.walls(config);
                let reach = source.reach(config, walls);
                // Only a layer in memory is read through the children (`Block::below`).
                children.clear();
                if let Below::Layer(_) = below {
                    source.children(config, walls, children);
                }
                graph.build(board, walls, reach);
                let base = rank * per_config;
                let mut stores = GroupStores {
                    pair,
                    first,
                    second,
                };
                let mut stats = RetroStats::default();
                for (left, own, partner) in blocks_of(layout, k, config, pair) {
                    let block = Block {
                        board,
                        layout,
                        layer: k,
                        reach,
                        children,
                        left,
                        graph,
                        below: match below {
                            Below::Layer(layer) => Some(layer),
                            _ => None,
                        },
                        exits_given: matches!(below, Below::Pushed),
                    };
                    if block.exits_given {
                        let exits = scratch.exits_mut();
                        load_exits::<P>(&block, [own, partner], base, &mut stores, exits);
                    }
                    let counts = block::solve::<P>(&block, scratch)?;
                    let at = own.start - base;
                    store_block::<P>(&block, &scratch.values, at, stores.of(own.split));
                    let symmetric = source::symmetric(board, walls);
                    let both = !same_block(own, partner);
                    stats = stats + orbit_stats(&block, counts, symmetric, both);
                    if both {
                        let group = stores.of(partner.split);
                        store_turned::<P>(&block, &scratch.values, partner, base, group);
                    }
                }
                Ok(stats)
            },
        )
        .try_reduce(RetroStats::default, |a, b| Ok(a + b))
}

/// Solves the blocks of one pair of splits of the *last* layer `k` (no wall fits any
/// more) and pushes every position's code into the best exit of the positions of layer
/// `k - 1` that a wall leads from (`parents`: the stores of layer `k - 1` by split, all
/// `Packing::NO_EXITS` before the first push, then solved with `Below::Pushed`). Layer `k`
/// itself is never stored: for most cells it is most of the positions (89 % on 7x7 with
/// 3 walls). Every block of an orbit under the symmetries is solved once, as in
/// `solve_pair`; its pushes land in the stored slots that its images' would, so every wall
/// move of every stored position of layer `k - 1` is pushed at least once. Counts as
/// `solve_pair`.
pub fn push_pair<P: Packing>(
    source: &dyn ConfigSource,
    layout: &Layout,
    k: usize,
    pair: (usize, usize),
    parents: &[&[AtomicU8]],
    progress: &dyn Progress,
) -> Result<RetroStats, TooDeep> {
    let stored = layout.stored(k);
    let mut groups = Vec::new();
    let mut rank = 0;
    while rank < stored.len() {
        groups.push(rank);
        rank += layout.group_len(k, rank);
    }
    // In parts, so that progress is told as the layer goes (it is most of the work).
    let slots = layout::splits_of(pair).count() * layout.stored_len();
    let mut stats = RetroStats::default();
    let part = groups.len().div_ceil(PARTS).max(1);
    let mut done = 0;
    for (i, groups) in groups.chunks(part).enumerate() {
        stats = stats + push_groups::<P>(source, layout, k, pair, parents, groups)?;
        let configs: usize = groups.iter().map(|&r| layout.group_len(k, r)).sum();
        done += configs;
        progress.advance((configs * slots) as u64);
        if (i + 1) % (PARTS / 10) == 0 {
            progress.message(&format!(
                "layer {k} (the last, pushed): {} % of its configurations solved",
                100 * done / stored.len()
            ));
        }
    }
    Ok(stats)
}

/// Parts a pushed layer is solved in (progress is told after each).
const PARTS: usize = 100;

/// `push_pair` for the groups whose first stored configurations have ranks `groups`.
fn push_groups<P: Packing>(
    source: &dyn ConfigSource,
    layout: &Layout,
    k: usize,
    pair: (usize, usize),
    parents: &[&[AtomicU8]],
    groups: &[usize],
) -> Result<RetroStats, TooDeep> {
    let board = source.board();
    let stored = layout.stored(k);
    groups
        .par_iter()
        .map_init(
            || (PawnGraph::new(board), Scratch::new()),
            |(graph, scratch), &rank| {
                // Stopped: the pushes are dropped unkept (`check_stop`).
                if super::stop::stop_requested() {
                    return Ok(RetroStats::default());
                }
                let config = stored[rank];
                let walls = source.walls(config);
                let reach = source.reach(config, walls);
                graph.build(board, walls, reach);
                let mut stats = RetroStats::default();
                for (left, own, partner) in blocks_of(layout, k, config, pair) {
                    let block = Block {
                        board,
                        layout,
                        layer: k,
                        reach,
                        children: &[],
                        left,
                        graph,
                        below: None,
                        exits_given: false,
                    };
                    let counts = block::solve::<P>(&block, scratch)?;
                    let symmetric = source::symmetric(board, walls);
                    stats =
                        stats + orbit_stats(&block, counts, symmetric, !same_block(own, partner));
                    push_block::<P>(source, &block, walls, &scratch.values, parents);
                }
                Ok(stats)
            },
        )
        .try_reduce(RetroStats::default, |a, b| Ok(a + b))
}

/// Pushes the codes of a solved block of configuration `walls` into the best exits of
/// its parents (the configuration less one wall, the player who placed it to move). A
/// parent that is its own mirror image keeps the positions of both halves, so it also gets
/// the pushes of the block's mirror image (another child of it) unless the block is its own.
fn push_block<P: Packing>(
    source: &dyn ConfigSource,
    block: &Block,
    walls: WallSet,
    values: &[Code],
    parents: &[&[AtomicU8]],
) {
    let layout = block.layout;
    let board = block.board;
    let open = open_pairs(board, block.live());
    let mirror = &symmetry::cell_maps(board)[symmetry::MIRROR];
    let child = |side| Child {
        codes: &values[layout.index(side, 0, 0)..],
        stride: layout.index(side, 1, 0) - layout.index(side, 0, 0),
        skip: 0,
        transposed: None,
        outcomes: None,
    };
    // Player 1's codes go to the parents where Player 2 placed the wall, whose views with
    // Player 2 to move are turned: transposed once for all of them, or their outcomes
    // unpacked for 2-bit exits (Player 2's too, for the views that are not turned).
    let mut columns = [0; MAX_SQUARES * MAX_SQUARES];
    let mut rows = [0; MAX_SQUARES * MAX_SQUARES];
    let (one, two) = (child(Player::One), child(Player::Two));
    let (one, two) = if P::EXACT {
        let transposed = Some(transpose(layout, &one, open[1], &mut columns));
        (Child { transposed, ..one }, two)
    } else {
        let one_rows = unpack::<Exact>(layout, &one, open, true, &mut columns);
        let two_rows = unpack::<Exact>(layout, &two, open, false, &mut rows);
        (
            Child {
                outcomes: Some(one_rows),
                ..one
            },
            Child {
                outcomes: Some(two_rows),
                ..two
            },
        )
    };
    for_each_parent(source, walls, |parent, images| {
        for placer in [Player::One, Player::Two] {
            let mut left = block.left;
            left[placer.index()] += 1;
            if !layout.has_split(block.layer - 1, left[0]) {
                continue; // the placer cannot have held that many walls
            }
            let view = layout.view(block.layer - 1, parent, left[0], placer);
            let side = placer.other();
            let to = Pushes {
                store: parents[view.split],
                view,
                from: 0,
                mirror: images.then_some(mirror),
            };
            let child = if side == Player::One { one } else { two };
            push_positions::<P>(layout, open, to, child);
        }
    });
}

/// Calls `f(parent, images)` for each configuration that `walls` is made from by one wall:
/// its id, and whether the pushes into it must take the mirror image too (`Pushes`: it is
/// its own mirror image and `walls` is not).
pub fn for_each_parent(
    source: &dyn ConfigSource,
    walls: WallSet,
    f: impl FnMut(crate::configs::ConfigId, bool),
) {
    parents_where(source, walls, |_| true, f)
}

/// `for_each_parent` for the parents `keep` accepts alone, the mirror image looked at for
/// those only: a mirror image costs two divisions a wall, which for every parent of every
/// configuration of the layer above took a quarter of a pass of 5x7 with 5 walls over it
/// (perf, 2026-11-29), where a part keeps a fifth of them.
pub fn parents_where(
    source: &dyn ConfigSource,
    walls: WallSet,
    keep: impl Fn(crate::configs::ConfigId) -> bool,
    mut f: impl FnMut(crate::configs::ConfigId, bool),
) {
    let board = source.board();
    let symmetric = source::symmetric(board, walls);
    source.parents(walls, &mut |parent_walls, parent| {
        if keep(parent) {
            f(parent, !symmetric && source::symmetric(board, parent_walls))
        }
    });
}

/// The pawn cells of a block's positions that are not over: Player 1's off its goal row,
/// Player 2's off its own, each where it still reaches its goal (`live`).
pub fn open_pairs(board: crate::rules::geometry::Board, [live1, live2]: [u64; 2]) -> [u64; 2] {
    [
        live1 & !narrow(board.goal(Player::One)),
        live2 & !narrow(board.goal(Player::Two)),
    ]
}

/// Pushes the child's code of each position with its pawns on `open` (`open_pairs`) into
/// the best exit of the same pawns in the parent (`to`), a row of the parent's stored block
/// at a time: exact exits from the child's exact codes (`push_rows`), 2-bit exits from its
/// outcomes, which the caller unpacks once for all the child's parents (`Child::outcomes`,
/// `push_outcomes`).
#[inline(always)]
pub fn push_positions<P: Packing>(layout: &Layout, open: [u64; 2], to: Pushes, child: Child) {
    let outcomes = (!P::EXACT).then(|| {
        child
            .outcomes
            .expect("a push into 2-bit exits reads the child's outcomes unpacked")
    });
    let rows = |map: (&[Square; MAX_SQUARES], bool)| match &outcomes {
        None => push_rows(layout, open, &to, map, &child),
        Some(outcomes) => push_outcomes::push(layout, open, &to, map, outcomes),
    };
    let (map, turned) = layout.cell_map(to.view);
    rows((map, turned));
    if let Some(mirror) = to.mirror {
        // The mirror image's positions (q1, q2) hold the block's (m(q1), m(q2)): the rows
        // through the map followed by the mirror.
        let through: [Square; MAX_SQUARES] = std::array::from_fn(|x| mirror[map[x] as usize]);
        rows((&through, turned));
    }
}

/// `push_positions` a position at a time: its twin in the tests.
#[cfg(test)]
fn push_one_by_one<P: Packing>(
    layout: &Layout,
    [open1, open2]: [u64; 2],
    to: Pushes,
    code: impl Fn(Square, Square) -> Code,
) {
    // The 2-bit pushes leave out a child its mover wins but on boards of two rows.
    let all = P::EXACT || push_outcomes::wins_pushed(layout);
    let push = |slot: usize, c: Code| {
        if all || !super::code::is_win(c) {
            P::push_exit(to.store, slot - to.from, c);
        }
    };
    for p1 in bits(open1) {
        for p2 in bits(open2 & !(1 << p1)) {
            push(layout.slot(to.view, p1, p2), code(p1, p2));
        }
    }
    if let Some(mirror) = to.mirror {
        // The mirror image's positions (q1, q2) hold the block's (m(q1), m(q2)).
        let flip = |set: u64| bits(set).fold(0u64, |m, c| m | 1 << mirror[c as usize]);
        for q1 in bits(flip(open1)) {
            for q2 in bits(flip(open2) & !(1 << q1)) {
                let (p1, p2) = (mirror[q1 as usize], mirror[q2 as usize]);
                push(layout.slot(to.view, q1, q2), code(p1, p2));
            }
        }
    }
}

/// Reads the pushed exits of a block (`views`: where its positions with Player 1 and with
/// Player 2 to move are stored) into `exits`, then empties both stored blocks for the
/// values, so that they end as those of an analysis that pulled its exits.
fn load_exits<P: Packing>(
    block: &Block,
    views: [layout::View; 2],
    base: usize,
    stores: &mut GroupStores,
    exits: &mut [Code],
) {
    let layout = block.layout;
    let [open1, open2] = open_pairs(block.board, block.live());
    for (side, view) in [Player::One, Player::Two].into_iter().zip(views) {
        let store = stores.of(view.split);
        for p1 in bits(open1) {
            for p2 in bits(open2 & !(1 << p1)) {
                let slot = layout.slot(view, p1, p2) - base;
                exits[layout.index(side, p1, p2)] = P::read_exit(store, slot);
            }
        }
    }
    for view in views {
        let at = (view.start - base) / P::PER_BYTE;
        stores.of(view.split)[at..at + layout.stored_len() / P::PER_BYTE].fill(P::EMPTY);
    }
}

/// The counts of a solved block's orbit: its mirror image counts too unless the
/// configuration is `symmetric`, and so do the half turns of both when the block is not its
/// own (`both`).
fn orbit_stats(block: &Block, counts: RetroStats, symmetric: bool, both: bool) -> RetroStats {
    let copies = if symmetric { 1 } else { 2 };
    let mut stats = counts.times(copies);
    if both {
        stats = stats + turned(block, counts).times(copies);
    }
    stats
}

/// The blocks of `config` (in layer `k`) that a task of `pair` solves: for each split of
/// the pair, its walls left and where its positions with Player 1 and with Player 2 to
/// move are stored; a block whose Player 2 half lies in an earlier stored block is left
/// out, solved with its partner (the other split of the pair).
fn blocks_of(
    layout: &Layout,
    k: usize,
    config: crate::configs::ConfigId,
    pair: (usize, usize),
) -> impl Iterator<Item = ([u8; 2], layout::View, layout::View)> + '_ {
    layout::splits_of(pair).filter_map(move |j| {
        let left = layout.split_left(k, j);
        let own = layout.view(k, config, left[0], Player::One);
        let partner = layout.view(k, config, left[0], Player::Two);
        ((partner.start, partner.split) >= (own.start, own.split)).then_some((left, own, partner))
    })
}

/// Whether two views name the same stored block, whatever their maps: so for a block that
/// is its own half turn (perhaps mirrored).
fn same_block(a: layout::View, b: layout::View) -> bool {
    (a.start, a.split) == (b.start, b.split)
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

/// A split's store of the stored configurations `ranks` (whole groups) cut into groups:
/// (rank of the group's first stored configuration, its bytes). `per_config` slots are a
/// whole number of bytes (blocks are padded).
fn cut_groups<'s, P: Packing>(
    layout: &Layout,
    k: usize,
    ranks: Range<usize>,
    store: &'s mut [u8],
    per_config: usize,
) -> Vec<(usize, &'s mut [u8])> {
    debug_assert!(per_config.is_multiple_of(P::PER_BYTE));
    debug_assert_eq!(store.len(), ranks.len() * per_config / P::PER_BYTE);
    let mut groups = Vec::new();
    let mut rest = store;
    let mut rank = ranks.start;
    while rank < ranks.end {
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
    let (cells, open, width) = (layout.squares(), layout.open(), layout.width());
    for p1 in 0..open {
        // Player 2's cells off row 0 (`layout.rs`).
        let local = layout.index(Player::One, p1 as Square, 0);
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
    let [open1, open2] = open_pairs(block.board, block.live());
    // The partner is never the identity view (it is turned): its slots come from the
    // layout's table of offsets, a load a position instead of `Layout::slot`'s two map
    // lookups and a multiplication (`slot` was 4 % of 4x7 w4's samples).
    let offsets = layout
        .offsets(partner)
        .expect("a turned view has a table of offsets");
    let cells = layout.squares();
    let start = partner.start - base;
    for p1 in bits(open1) {
        let local = &values[layout.index(Player::Two, p1, 0)..][..cells];
        let offsets = &offsets[p1 as usize * cells..][..cells];
        for p2 in bits(open2 & !(1 << p1)) {
            debug_assert_eq!(
                start + offsets[p2 as usize] as usize,
                layout.slot(partner, p1, p2) - base
            );
            P::write(
                group,
                start + offsets[p2 as usize] as usize,
                local[p2 as usize],
            );
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::configs::{ConfigId, Tables};
    use crate::retro::engine::layout::LOCAL_LEN;
    use crate::retro::engine::push_rows::SCALAR_ONLY;
    use crate::retro::engine::store::{Compact, Exact, atomic, bytes_for};
    use crate::rules::geometry::Board;
    use crate::support::progress::Silent;
    use crate::support::xorshift::numbers as random;

    /// Boards and walls a player of the pushes' tests. The last two have rows of 56 and 54
    /// columns, near the vector paths' 64.
    const BOARDS: [(usize, usize, u8); 6] = [
        (3, 3, 1),
        (4, 3, 1),
        (3, 4, 1),
        (5, 3, 1),
        (8, 8, 0),
        (9, 7, 0),
    ];

    /// Boards of two rows, where the 2-bit pushes push wins too (`wins_pushed`).
    const TWO_ROWS: [(usize, usize, u8); 2] = [(3, 2, 1), (5, 2, 1)];

    const UNDECIDED_CODE: Code = crate::retro::engine::code::UNDECIDED;

    /// Exact codes of every kind for a local block (`Layout::index`).
    fn exact_codes(next: &mut impl FnMut() -> u64) -> Vec<u8> {
        (0..LOCAL_LEN)
            .map(|_| [0, 7, UNDECIDED_CODE, 250, 254][next() as usize % 5])
            .collect()
    }

    /// Calls `each` with every view of every configuration of `boards`, both sides to move
    /// (so turned and not, mirrored and not) in every split: the layout, the layer, the
    /// pawn cells of the block's positions not over (`open_pairs`) and the view.
    fn for_each_view(
        boards: &[(usize, usize, u8)],
        mut each: impl FnMut(&Layout, usize, [u64; 2], layout::View),
    ) {
        for &(w, h, n) in boards {
            let board = Board::new(w, h).unwrap();
            let tables = Tables::build(board, n, u64::MAX, &Silent).unwrap();
            let layout = Layout::new(&tables);
            for config in 0..tables.len() as ConfigId {
                let k = tables.walls(config).len() as usize;
                let live = [Player::One, Player::Two].map(|p| narrow(tables.reach(config, p)));
                let open = open_pairs(board, live);
                for j in 0..layout.splits(k) {
                    let left1 = layout.split_left(k, j)[0];
                    for to_move in [Player::One, Player::Two] {
                        each(&layout, k, open, layout.view(k, config, left1, to_move));
                    }
                }
            }
        }
    }

    /// Pushes `child` into `view` by `push_positions` and by `push_one_by_one` (reading
    /// `code`), with and without the mirror image's pushes, over kept exits of every kind
    /// (random bytes), into the whole layer's store and into the view's stored block alone
    /// (whose words reach out of it at both ends), each at a random alignment: the stores
    /// must end alike. Returns the pushes compared.
    fn compare<P: Packing>(
        layout: &Layout,
        (k, open, view): (usize, [u64; 2], layout::View),
        child: Child,
        code: impl Fn(Square, Square) -> Code,
        next: &mut impl FnMut() -> u64,
    ) -> usize {
        let mut pushes = 0;
        for images in [false, true] {
            for alone in [false, true] {
                let (from, slots) = match alone {
                    true => (view.start, layout.stored_len()),
                    false => (0, layout.layer_len(k)),
                };
                let head = next() as usize % 8;
                let kept: Vec<u8> = (0..head + bytes_for::<P>(slots))
                    .map(|_| next() as u8)
                    .collect();
                let (mut fast, mut slow) = (kept.clone(), kept);
                let to = |store| Pushes {
                    store,
                    view,
                    from,
                    mirror: images.then_some(layout.map(symmetry::MIRROR)),
                };
                push_positions::<P>(layout, open, to(&atomic(&mut fast)[head..]), child);
                push_one_by_one::<P>(layout, open, to(&atomic(&mut slow)[head..]), &code);
                assert!(
                    fast == slow,
                    "{} cells, {} columns: {view:?}, images {images}, alone {alone}, head {head}",
                    layout.squares(),
                    layout.width(),
                );
                pushes += 1;
            }
        }
        pushes
    }

    /// Pushing exact codes a row at a time leaves every store byte as pushing them a
    /// position at a time: the child's codes both ways the pushes read them (a stored block
    /// in its own view, and a block's values by `Layout::index`), each also transposed.
    fn rows_equal_one_by_one_in() {
        let mut next = random(0x2545_f491_4f6c_dd1d);
        let mut pushes = 0;
        for_each_view(&BOARDS, |layout, k, open, view| {
            let (stored, values) = (exact_codes(&mut next), exact_codes(&mut next));
            let children = [
                Child {
                    codes: &stored,
                    stride: layout.open(),
                    skip: layout.width(),
                    transposed: None,
                    outcomes: None,
                },
                Child {
                    codes: &values[layout.index(Player::Two, 0, 0)..],
                    stride: layout.index(Player::One, 1, 0),
                    skip: 0,
                    transposed: None,
                    outcomes: None,
                },
            ];
            let mut columns = [[0; MAX_SQUARES * MAX_SQUARES]; 2];
            let [a, b] = &mut columns;
            let transposed = [(children[0], a), (children[1], b)].map(|(child, out)| Child {
                transposed: Some(transpose(layout, &child, open[1], out)),
                ..child
            });
            for child in children.into_iter().chain(transposed) {
                let code = |p1, p2| child.code::<Exact>(p1, p2);
                pushes += compare::<Exact>(layout, (k, open, view), child, code, &mut next);
            }
        });
        assert!(pushes > 1000, "{pushes} pushes");
    }

    /// Pushing 2-bit outcomes a row at a time leaves every store byte as pushing them a
    /// position at a time: the child's codes both ways the pushes read them (a stored block
    /// of 2-bit outcomes, every 2 bits, and a block's values, exact codes, by
    /// `Layout::index`), unpacked for the view's turn.
    fn outcome_rows_equal_one_by_one_in() {
        let mut next = random(0x9e37_79b9_7f4a_7c15);
        let mut pushes = 0;
        for_each_view(
            &[&BOARDS[..], &TWO_ROWS[..]].concat(),
            |layout, k, open, view| {
                let stored: Vec<u8> = (0..bytes_for::<Compact>(layout.stored_len()))
                    .map(|_| next() as u8)
                    .collect();
                let values = exact_codes(&mut next);
                let stored = Child {
                    codes: &stored,
                    stride: layout.open(),
                    skip: layout.width(),
                    transposed: None,
                    outcomes: None,
                };
                let values = Child {
                    codes: &values[layout.index(Player::Two, 0, 0)..],
                    stride: layout.index(Player::One, 1, 0),
                    skip: 0,
                    transposed: None,
                    outcomes: None,
                };
                let turned = layout.cell_map(view).1;
                let mut rows = [0; MAX_SQUARES * MAX_SQUARES];
                let outcomes = Some(unpack::<Compact>(layout, &stored, open, turned, &mut rows));
                let code = |p1, p2| stored.code::<Compact>(p1, p2);
                let child = Child { outcomes, ..stored };
                pushes += compare::<Compact>(layout, (k, open, view), child, code, &mut next);
                let outcomes = Some(unpack::<Exact>(layout, &values, open, turned, &mut rows));
                let code = |p1, p2| values.code::<Exact>(p1, p2);
                let child = Child { outcomes, ..values };
                pushes += compare::<Compact>(layout, (k, open, view), child, code, &mut next);
            },
        );
        assert!(pushes > 1000, "{pushes} pushes");
    }

    /// Both ways of the row pushes: the vector one where this CPU has it (said on stderr
    /// when it does not, so that a run that tested only one way shows it), then the scalar
    /// one.
    fn both_ways(name: &str, test: fn()) {
        #[cfg(target_arch = "x86_64")]
        if !super::super::push_rows::vectors() {
            eprintln!("{name}: no AVX-512 VBMI here, the scalar rows only");
        }
        test();
        SCALAR_ONLY.set(true);
        test();
    }

    #[test]
    fn rows_equal_one_by_one() {
        both_ways("rows_equal_one_by_one", rows_equal_one_by_one_in);
    }

    #[test]
    fn outcome_rows_equal_one_by_one() {
        both_ways(
            "outcome_rows_equal_one_by_one",
            outcome_rows_equal_one_by_one_in,
        );
    }
}
