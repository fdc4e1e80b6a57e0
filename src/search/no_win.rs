//! What a search knows to fail: how far each player cannot force a win from the searched
//! position. The deepening asks it which iteration comes next; the checkpoint keeps it.

use crate::rules::geometry::Player;
use crate::rules::position::Position;

/// How far each player is known not to win from the searched position: Player `p`
/// cannot force a win within `self.0[p.index()]` plies. A search that asks one player
/// only (`Limits::winner`) moves one of them on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoWin(pub [u8; 2]);

impl NoWin {
    /// Neither player known to win within `depth` plies.
    pub fn both(depth: u8) -> NoWin {
        NoWin([depth; 2])
    }

    pub(super) fn of(self, player: Player) -> u8 {
        self.0[player.index()]
    }

    /// Whether `attacker`'s iteration at `depth` is already known to fail.
    pub(super) fn settles(self, attacker: Player, depth: u8) -> bool {
        depth <= self.of(attacker)
    }

    /// The most plies within which neither player wins from a position with `to_move` to
    /// move. A player wins only on their own moves (`to_move` on odd plies, the other on
    /// even ones), so one who cannot win within `n` plies cannot within `n + 1` when ply
    /// `n + 1` is the other's.
    pub fn neither_within(self, to_move: Player) -> u8 {
        [to_move, to_move.other()]
            .into_iter()
            .map(|p| {
                let n = self.of(p);
                let next_is_theirs = (n as u32 + 1) % 2 == (p == to_move) as u32;
                if next_is_theirs {
                    n
                } else {
                    n.saturating_add(1)
                }
            })
            .min()
            .expect("two players")
    }
}

/// Who attacks at `depth` plies from `position`: a win ends on the winner's own move.
pub fn attacker_at(position: &Position, depth: u8) -> Player {
    if depth % 2 == 1 {
        position.to_move
    } else {
        position.to_move.other()
    }
}
