//! The outcomes of an analysis as the proof search's oracle: the compact analysis gives
//! who wins, and the search finds the length with them (`search::Oracle`); or the
//! outcomes of the same board with fewer walls, which bound those with more
//! (`FewerWalls`).

use crate::configs::NO_MEMO;
use crate::retro::{Precision, Solved, Value, Wdl};
use crate::rules::geometry::Player;
use crate::rules::walls::WallSet;
use crate::search::{NEVER, Node, Oracle};
use std::sync::atomic::{AtomicU32, Ordering};

/// A retrograde analysis's outcomes (either precision) as the search's oracle.
pub struct RetroOracle<'s, 't>(pub &'s Solved<'t>);

/// The id, in `solved`'s numbering, of the configuration `walls` gives: from `memo` when
/// an earlier node of the same configuration stored it there. The eager tables number
/// configurations as the search does only when they are the search's own cell's, which
/// the caller says (`same_cell`).
fn config_id(
    solved: &Solved,
    same_cell: bool,
    node: &Node,
    walls: &dyn Fn() -> WallSet,
    memo: Option<&AtomicU32>,
) -> Option<u32> {
    // Ranked once per configuration the store holds (the ranking was a fifth of the
    // length search's time on 6x5 with 9 walls: every node asks, and most share their
    // configuration with their parent).
    let rank = || solved.configs().id_of(walls());
    match (same_cell && solved.tables().is_some(), memo) {
        (true, _) => Some(node.config),
        (false, Some(memo)) => match memo.load(Ordering::Relaxed) {
            NO_MEMO => {
                let id = rank()?;
                memo.store(id, Ordering::Relaxed);
                Some(id)
            }
            id => Some(id),
        },
        (false, None) => rank(),
    }
}

/// At least how many plies `player` needs to win `node`'s position with `left` walls in
/// hand, by `solved` over its configuration `config`: the exact count where `solved` has
/// lengths, else `NEVER` where `player` cannot win and `None` where they can.
fn fewest_plies(
    solved: &Solved,
    config: u32,
    node: &Node,
    left: [u8; 2],
    player: Player,
) -> Option<u32> {
    let mover = node.to_move == player;
    if let Some(value) = solved.value_of(config, left, node.pawns, node.to_move) {
        return Some(match value {
            Value::Win(k) if mover => k,
            Value::Loss(k) if !mover => k,
            _ => NEVER,
        });
    }
    match solved.outcome_of(config, left, node.pawns, node.to_move)? {
        Wdl::Win if mover => None,
        Wdl::Loss if !mover => None,
        _ => Some(NEVER),
    }
}

/// The outcomes of the same board with fewer walls per player as an oracle for a cell with
/// more: **a wall in hand never hurts** on a board of three rows or more. With one wall
/// more, a player has every action they had (a wall is never forced: a pawn can always
/// move, RULES.md), the other player has the same ones, and after each pair of like
/// actions the same holds again; so whatever a player forces holding `a` walls, they force
/// holding more, as soon (a win) or as late (a loss). Hence a player who cannot win a
/// position even with the other player's walls cut by the cells' difference, `2 * (N -
/// M)`, cannot win it holding their own walls against all the other's, and one who needs
/// `k` plies to win there needs at least `k` here: the position with the walls cut has
/// `2 * (N - M)` walls fewer in hand and the same on the board, so it is one of the cell
/// with `M`. So an exact analysis of `M` bounds the length too, one of outcomes only tells
/// where a player cannot win; a win there says nothing here. The same cut of the
/// player's own walls bounds from the other side: a win in `k` plies holding fewer walls
/// is a win within `k` holding more (`Oracle::most_plies`, exact analyses only).
/// On boards of two rows a player who cannot act draws, and a wall in hand can force a
/// player to act: the bound does not hold there (`FewerWalls::new` refuses them).
pub struct FewerWalls<'s, 't> {
    solved: &'s Solved<'t>,
    /// Walls in hand the cell has more than `solved`'s, per player, times two.
    cut: u8,
    /// `solved`'s walls per player: a player holding more has no position there.
    most: u8,
}

impl<'s, 't> FewerWalls<'s, 't> {
    /// `solved`'s outcomes (a cell of `board` with fewer walls per player than `walls`) as
    /// an oracle for the cell of `walls`; `None` on a board of two rows or when `solved`
    /// is not of fewer walls.
    pub fn new(solved: &'s Solved<'t>, walls: u32) -> Option<FewerWalls<'s, 't>> {
        let configs = solved.configs();
        let fewer = u32::from(configs.walls_per_player());
        if configs.board().height() < 3 || fewer >= walls {
            return None;
        }
        Some(FewerWalls {
            solved,
            cut: u8::try_from(2 * (walls - fewer)).ok()?,
            most: fewer as u8,
        })
    }
}

impl FewerWalls<'_, '_> {
    /// The walls in hand `left` with `cut`'s cut by the cells' difference: a split of the
    /// cell with fewer walls, if `cut` holds enough and the other player no more than that
    /// cell's walls per player.
    fn cut_from(&self, mut left: [u8; 2], cut: Player) -> Option<[u8; 2]> {
        left[cut.index()] = left[cut.index()].checked_sub(self.cut)?;
        (left[cut.other().index()] <= self.most).then_some(left)
    }
}

impl Oracle for FewerWalls<'_, '_> {
    fn fewest_plies(
        &self,
        node: &Node,
        walls: &dyn Fn() -> WallSet,
        memo: Option<&AtomicU32>,
        player: Player,
    ) -> Option<u32> {
        let left = self.cut_from(node.left, player.other())?;
        let config = config_id(self.solved, false, node, walls, memo)?;
        fewest_plies(self.solved, config, node, left, player)
    }

    fn proves(&self) -> bool {
        self.solved.precision() == Precision::Exact
    }

    /// The other side of the bound: with `player`'s own walls cut by the cells' difference
    /// (the other's kept), they hold fewer walls than here against the same defence, so a
    /// win in `k` plies there is a win within `k` here. Only an exact analysis says `k`.
    fn most_plies(
        &self,
        node: &Node,
        walls: &dyn Fn() -> WallSet,
        memo: Option<&AtomicU32>,
        player: Player,
    ) -> Option<u32> {
        let left = self.cut_from(node.left, player)?;
        let config = config_id(self.solved, false, node, walls, memo)?;
        match self
            .solved
            .value_of(config, left, node.pawns, node.to_move)?
        {
            Value::Win(k) if node.to_move == player => Some(k),
            Value::Loss(k) if node.to_move != player => Some(k),
            _ => None,
        }
    }
}

impl Oracle for RetroOracle<'_, '_> {
    fn fewest_plies(
        &self,
        node: &Node,
        walls: &dyn Fn() -> WallSet,
        memo: Option<&AtomicU32>,
        player: Player,
    ) -> Option<u32> {
        let config = config_id(self.0, true, node, walls, memo)?;
        fewest_plies(self.0, config, node, node.left, player)
    }
}

/// Two oracles asked together: the cell's own outcomes (`RetroOracle`) and the bound of
/// fewer walls (`FewerWalls`). A player needs at least the larger of the two counts (each
/// is a lower bound, `NEVER` the strongest), and the bound of fewer walls alone proves.
/// They may share a configuration's memo: both number a configuration as the eager tables
/// do, layer by layer from no walls, so a configuration of the board with fewer walls has
/// the same id in either numbering, and `FewerWalls` only asks configurations of at most
/// its cell's walls (its cut leaves no more on the board).
pub struct Both<'o> {
    pub own: &'o dyn Oracle,
    pub fewer: &'o dyn Oracle,
}

impl Oracle for Both<'_> {
    fn fewest_plies(
        &self,
        node: &Node,
        walls: &dyn Fn() -> WallSet,
        memo: Option<&AtomicU32>,
        player: Player,
    ) -> Option<u32> {
        let own = self.own.fewest_plies(node, walls, memo, player);
        if own == Some(NEVER) {
            return own;
        }
        let fewer = self.fewer.fewest_plies(node, walls, memo, player);
        own.max(fewer)
    }

    fn most_plies(
        &self,
        node: &Node,
        walls: &dyn Fn() -> WallSet,
        memo: Option<&AtomicU32>,
        player: Player,
    ) -> Option<u32> {
        self.fewer.most_plies(node, walls, memo, player)
    }

    fn proves(&self) -> bool {
        self.fewer.proves()
    }
}
