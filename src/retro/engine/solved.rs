//! The values of a solved cell (every layer, or those it kept) and the queries on them: a
//! position's value or outcome (the start's result and its principal line: `line.rs`).

use super::code;
use super::layout::Layout;
use super::source::ConfigSource;
use super::store::{Compact, Exact, Packing, Precision};
use super::value::RetroStats;
use super::value::Value;
use crate::configs::ConfigId;
use crate::configs::Tables;
use crate::rules::geometry::{Player, Square};
use crate::rules::position::Position;

/// The values of every position of a cell (or of the layers it kept, if it streamed).
pub struct Solved<'t> {
    pub(in crate::retro) configs: &'t dyn ConfigSource,
    pub(in crate::retro) layout: Layout,
    pub(in crate::retro) precision: Precision,
    /// One store per split of each layer, packed by `precision` (see `layout.rs`,
    /// `store.rs`); `None` for a split freed while streaming.
    pub(in crate::retro) values: Vec<Splits>,
    /// The peak bytes of the stores and the layout's indices.
    pub(in crate::retro) peak_bytes: u64,
    pub(in crate::retro) stats: RetroStats,
}

/// A position's outcome from the view of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    Win,
    Draw,
    Loss,
}

/// The stores of one layer, by split (`layout.rs`); `None` for a split not solved yet or
/// freed.
pub(in crate::retro) type Splits = Vec<Option<Vec<u8>>>;

/// Where a position's value is (`Solved::locate`).
pub(in crate::retro) enum Located {
    /// The game is over: the value needs no store.
    Over(Value),
    /// Layer, split and slot.
    Stored(usize, usize, usize),
}

impl From<Value> for Wdl {
    fn from(v: Value) -> Wdl {
        match v {
            Value::Win(_) => Wdl::Win,
            Value::Draw => Wdl::Draw,
            Value::Loss(_) => Wdl::Loss,
        }
    }
}

/// Where the value of `pos` is in the store of the cell of `configs` laid out by `layout`:
/// over (no store), or layer, split and slot; `None` if `pos` is not a position of the
/// cell, or if its layer's indices were freed (`Solved::free_indices_past_kept`).
pub(in crate::retro) fn locate(
    configs: &dyn ConfigSource,
    layout: &Layout,
    pos: &Position,
) -> Option<Located> {
    let board = configs.board();
    let n = configs.walls_per_player();
    if (pos.walls.horizontal | pos.walls.vertical) & !board.anchors() != 0 {
        return None;
    }
    let config = configs.id_of(pos.walls)?;
    let k = pos.walls.len() as usize;
    let [l1, l2] = pos.left;
    if l1 > n || l2 > n || l1 as usize + l2 as usize + k != 2 * n as usize {
        return None;
    }
    let [p1, p2] = pos.pawns;
    if p1 == p2 || p1 as usize >= board.squares() || p2 as usize >= board.squares() {
        return None;
    }
    let reach = configs.reach(config, pos.walls);
    if reach[0] >> p1 & 1 == 0 || reach[1] >> p2 & 1 == 0 {
        return None;
    }
    if let Some(p) = pos.winner(board) {
        // Not read from the store: with both pawns home the half turn is not a symmetry.
        return Some(Located::Over(if p == pos.to_move {
            Value::Win(0)
        } else {
            Value::Loss(0)
        }));
    }
    if !layout.holds(k) {
        return None; // the layer's indices were freed: nothing of it is read
    }
    let view = layout.view(k, config, l1, pos.to_move);
    Some(Located::Stored(k, view.split, layout.slot(view, p1, p2)))
}

impl<'t> Solved<'t> {
    pub fn configs(&self) -> &'t dyn ConfigSource {
        self.configs
    }

    /// The eager tables the values were solved with, if they were (`ConfigSource::tables`).
    pub fn tables(&self) -> Option<&'t Tables> {
        self.configs.tables()
    }

    pub fn stats(&self) -> RetroStats {
        self.stats
    }

    /// The peak bytes of the value store and the layout's indices: `estimate`'s
    /// `all_layers_bytes` if every layer was kept, else its `bytes`.
    pub fn bytes(&self) -> u64 {
        self.peak_bytes
    }

    /// The bytes held now: the stores of the layers kept and the layout's indices (the
    /// splits and parts freed while solving not counted, unlike `bytes`).
    pub fn held_bytes(&self) -> u64 {
        let stores: usize = self.values.iter().flatten().flatten().map(Vec::len).sum();
        stores as u64 + self.layout.bytes()
    }

    /// Frees the layout's indices of the layers after those kept whole from layer 0 (and
    /// what is left of their values): queries about their positions answer `None`, as
    /// they did with no values there. For a search that reads the kept layers only.
    pub fn free_indices_past_kept(&mut self) {
        let (kept, _) = self.layers_kept();
        for layer in &mut self.values[kept..] {
            layer.iter_mut().for_each(|split| *split = None);
        }
        self.layout.free_indices_from(kept);
    }

    /// Whether every layer was kept (else only layers 0 and 1, see the module doc, or those
    /// `Layers::Only` was asked for).
    pub fn keeps_all_layers(&self) -> bool {
        // A layer not solved (`Layers::Only`) has no splits at all.
        self.values
            .iter()
            .all(|layer| !layer.is_empty() && layer.iter().all(Option::is_some))
    }

    /// How many layers in a row from layer 0 were kept whole, and how many the cell has.
    pub fn layers_kept(&self) -> (usize, usize) {
        let whole = |layer: &&Splits| !layer.is_empty() && layer.iter().all(Option::is_some);
        (
            self.values.iter().take_while(whole).count(),
            self.values.len(),
        )
    }

    /// What the store keeps of each position.
    pub fn precision(&self) -> Precision {
        self.precision
    }

    /// The longest remoteness of any position in the layers kept: how near the store came
    /// to its limit of `MAX_REMOTENESS` plies. 0 for an analysis of outcomes only.
    pub fn longest(&self) -> u32 {
        if self.precision != Precision::Exact {
            return 0;
        }
        let mut present = [false; 256];
        for &c in self.values.iter().flatten().flatten().flatten() {
            present[c as usize] = true;
        }
        (0..=255u8)
            .filter(|&c| present[c as usize])
            .map(|c| match code::value(c) {
                Value::Win(r) | Value::Loss(r) => r,
                Value::Draw => 0,
            })
            .max()
            .unwrap_or(0)
    }

    /// The value of `pos` (with its remoteness), or `None` if it is not a position of the
    /// cell (walls that are not a configuration, walls left that do not add up or exceed N,
    /// pawns off the board, on one cell, or cut off from their goal row), if its layer was
    /// freed while streaming, or if the analysis kept outcomes only.
    pub fn value(&self, pos: &Position) -> Option<Value> {
        match self.locate(pos)? {
            Located::Over(v) => Some(v),
            Located::Stored(..) if self.precision != Precision::Exact => None,
            Located::Stored(k, split, slot) => Some(code::value(Exact::read(
                self.values[k].get(split)?.as_ref()?,
                slot,
            ))),
        }
    }

    /// The outcome of `pos` for the player to move, at either precision; `None` as for
    /// `value`, but for an analysis of outcomes only.
    pub fn outcome(&self, pos: &Position) -> Option<Wdl> {
        match self.locate(pos)? {
            Located::Over(v) => Some(v.into()),
            Located::Stored(k, split, slot) => Some(self.read_outcome(k, split, slot)?),
        }
    }

    /// The outcome of a position given as the search holds it, with no checks: it must be
    /// a position of the cell (walls left adding up, pawns apart and reaching their goals)
    /// and not over. `None` when its layer was not kept.
    #[inline]
    pub fn outcome_of(
        &self,
        config: ConfigId,
        left: [u8; 2],
        pawns: [Square; 2],
        to_move: Player,
    ) -> Option<Wdl> {
        let (k, split, slot) = self.slot_of(config, left, pawns, to_move)?;
        self.read_outcome(k, split, slot)
    }

    /// `outcome_of` with the remoteness: `None` also when the analysis kept outcomes only.
    #[inline]
    pub fn value_of(
        &self,
        config: ConfigId,
        left: [u8; 2],
        pawns: [Square; 2],
        to_move: Player,
    ) -> Option<Value> {
        if self.precision != Precision::Exact {
            return None;
        }
        let (k, split, slot) = self.slot_of(config, left, pawns, to_move)?;
        let store = self.values[k].get(split)?.as_ref()?;
        Some(code::value(Exact::read(store, slot)))
    }

    /// Layer, split and slot of a position given as `outcome_of` takes it, if its layer
    /// was kept.
    #[inline(always)]
    fn slot_of(
        &self,
        config: ConfigId,
        left: [u8; 2],
        pawns: [Square; 2],
        to_move: Player,
    ) -> Option<(usize, usize, usize)> {
        let k = 2 * self.configs.walls_per_player() as usize - left[0] as usize - left[1] as usize;
        if !self.layout.holds(k) {
            return None;
        }
        let view = self.layout.view(k, config, left[0], to_move);
        Some((k, view.split, self.layout.slot(view, pawns[0], pawns[1])))
    }

    #[inline(always)]
    fn read_outcome(&self, k: usize, split: usize, slot: usize) -> Option<Wdl> {
        let store = self.values.get(k)?.get(split)?.as_ref()?;
        let code = match self.precision {
            Precision::Exact => Exact::read(store, slot),
            Precision::Compact => Compact::read(store, slot),
        };
        Some(if code::is_win(code) {
            Wdl::Win
        } else if code::is_loss(code) {
            Wdl::Loss
        } else {
            Wdl::Draw
        })
    }

    /// Where the value of `pos` is: over (no store), or layer and slot; `None` if `pos` is
    /// not a position of the cell.
    fn locate(&self, pos: &Position) -> Option<Located> {
        locate(self.configs, &self.layout, pos)
    }
}
