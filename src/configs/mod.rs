//! What the search knows about a wall configuration without a path search: the cells from
//! which each player still reaches their goal, every cell's goal distance, the configuration
//! after each wall, and the left-right mirror image. Two stores answer the same questions:
//!
//! - `Tables` (`eager.rs`) builds every configuration of the cell up front, numbered densely;
//!   the fastest, and what the retrograde analysis needs;
//! - `OnDemand` (`on_demand.rs`) builds a configuration's record the first time the search
//!   reaches it, within a byte budget: for cells whose full tables do not fit memory while a
//!   search visits a small fraction of their configurations.
//!
//! The search is generic over `ConfigTables`, so neither store costs the other anything.
//! `enumerate.rs` counts and lists the configurations themselves (their keys and ids).

mod eager;
pub mod enumerate;
mod index;
mod on_demand;
mod rank;
mod ranked;
mod records;
mod set_numbers;
mod slots;

pub use eager::{NO_CHILD, TableEstimate, Tables};
pub use enumerate::{
    ConfigId, Enumeration, above_highest, candidates, count_by_walls, free_key, from_key, key,
    key_wall, keys_fit,
};
pub use on_demand::OnDemand;
pub use rank::ProfileRank;
pub use ranked::Ranked;
pub use slots::SlotMap;

use crate::rules::geometry::{Board, Player, Square};
use crate::rules::walls::{Wall, WallSet};

/// Bits of a transposition key that name the configuration (`ConfigTables::key_numbers`).
pub const KEY_NUMBER_BITS: u32 = 39;

/// What an oracle's memo (`ConfigTables::oracle_memo`) holds before the oracle writes its
/// number there: no configuration's number, since ids are below `NO_CHILD`.
pub const NO_MEMO: u32 = u32::MAX;

/// A store of configuration records, addressed by configuration id. Ids are only meaningful
/// within one store; answers never depend on which store is used.
pub trait ConfigTables: Sync {
    fn board(&self) -> Board;

    /// The walls each player starts with.
    fn walls_per_player(&self) -> u8;

    /// The numbering of wall slots (shared by both stores).
    fn slot_map(&self) -> &SlotMap;

    /// How many configurations the cell has (every one, not only those built).
    fn configurations(&self) -> u128;

    fn walls(&self, id: ConfigId) -> WallSet;

    /// Steps from `cell` to `player`'s goal row (`UNREACHABLE` if cut off).
    fn distance(&self, id: ConfigId, player: Player, cell: Square) -> u8;

    /// Squares from which `player` can reach their goal row.
    fn reach(&self, id: ConfigId, player: Player) -> crate::rules::bitboard::Squares;

    /// Whether `prefetch_distances` and `prefetch_key` do anything: callers skip the work
    /// of naming what to prefetch when they do not (the eager tables' reads are cheap, and
    /// their search stays as it was).
    const PREFETCHES: bool = false;

    /// Starts loading what `distance(id, Player::One, cells[0])` and
    /// `distance(id, Player::Two, cells[1])` read: a hint, so that a loop over many
    /// configurations can first start every load, then wait for them together. A store
    /// whose reads are cheap ignores it.
    #[inline(always)]
    fn prefetch_distances(&self, _id: ConfigId, _cells: [Square; 2]) {}

    /// Starts loading what `key_numbers(id)` reads (a hint, as `prefetch_distances`).
    #[inline(always)]
    fn prefetch_key(&self, _id: ConfigId) {}

    /// The child id for every slot (`NO_CHILD` where the wall cannot be added).
    fn children(&self, id: ConfigId) -> &[ConfigId];

    /// The child id for one slot (`NO_CHILD` where the wall cannot be added, or the slot is
    /// none of the board's): what playing one wall needs, which need not make the others.
    #[inline(always)]
    fn child(&self, id: ConfigId, slot: usize) -> ConfigId {
        self.children(id).get(slot).copied().unwrap_or(NO_CHILD)
    }

    /// The id of the configuration's left-right mirror image.
    fn mirror(&self, id: ConfigId) -> ConfigId;

    /// The id of a wall set, if it is one of the cell's configurations.
    fn id_of(&self, walls: WallSet) -> Option<ConfigId>;

    /// The numbers (below `2^KEY_NUMBER_BITS`) that the transposition table knows `id` and
    /// its mirror image by: the ids themselves, unless the store can be emptied during a
    /// search (`forget`), whose ids then change while the table's keys must not.
    #[inline(always)]
    fn key_numbers(&self, id: ConfigId) -> [u64; 2] {
        [id as u64, self.mirror(id) as u64]
    }

    /// What the key numbers are, when every run over the cell gives them alike (so that a
    /// saved transposition table, `search::Checkpoint`, means the same in the next run):
    /// a name that changes whenever the numbering does. `None` when they depend on the
    /// order in which a search met the configurations.
    fn key_numbering(&self) -> Option<&'static str>;

    /// A word kept with configuration `id` for an oracle that numbers configurations its own
    /// way (`cell::RetroOracle` over the ranked numbering): it holds `NO_MEMO` until the
    /// oracle stores its number there, and goes with the record when the store is emptied,
    /// so a number read back is always `id`'s. `None`: the store keeps none.
    fn oracle_memo(&self, _id: ConfigId) -> Option<&std::sync::atomic::AtomicU32> {
        None
    }

    /// Empties the store (every id handed out is void from then on) so that a search that
    /// filled it can go on; `false` (and nothing changes) when the store cannot, because its
    /// key numbers are its ids.
    fn forget(&mut self) -> bool {
        false
    }

    /// Whether the store ran out of room: from then on its answers are meaningless, and a
    /// search must stop as it does at its deadline.
    fn exhausted(&self) -> bool {
        false
    }

    fn slot_wall(&self, slot: usize) -> Wall {
        self.slot_map().wall(slot)
    }

    fn slot(&self, wall: Wall) -> usize {
        self.slot_map().slot(wall)
    }
}
