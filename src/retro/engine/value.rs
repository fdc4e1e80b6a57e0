//! What the analysis answers: the value of a position, the counts of a cell's positions by
//! outcome, and the value of a cell (its start) with its principal line.

use crate::rules::geometry::Player;
use crate::rules::position::Action;
use serde::Serialize;

/// The value of a position from the view of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The player to move wins in this many plies (the last one theirs).
    Win(u32),
    /// The player to move loses in this many plies, holding out as long as possible.
    Loss(u32),
    /// Neither player can force a win.
    Draw,
}

/// Positions of the cell by outcome (cut-off positions excluded). `p1_wins` counts the
/// positions Player 1 wins, whoever is to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct RetroStats {
    pub positions: u64,
    pub p1_wins: u64,
    pub p2_wins: u64,
    pub draws: u64,
}

impl RetroStats {
    /// The counts of `n` blocks with these counts each.
    pub fn times(self, n: u64) -> RetroStats {
        RetroStats {
            positions: self.positions * n,
            p1_wins: self.p1_wins * n,
            p2_wins: self.p2_wins * n,
            draws: self.draws * n,
        }
    }
}

impl std::ops::Add for RetroStats {
    type Output = RetroStats;
    fn add(self, o: RetroStats) -> RetroStats {
        RetroStats {
            positions: self.positions + o.positions,
            p1_wins: self.p1_wins + o.p1_wins,
            p2_wins: self.p2_wins + o.p2_wins,
            draws: self.draws + o.draws,
        }
    }
}

/// The value of a cell by retrograde analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetroResult {
    /// `None`: a draw.
    pub winner: Option<Player>,
    /// The remoteness of the start, for a win.
    pub plies: Option<u32>,
    /// For a win, exactly `plies` actions ending with the winner on the goal (the winner
    /// hurrying, the loser delaying); for a draw, actions from the start until a position
    /// repeats, so the line ends with the repeating cycle. **Empty** when the analysis
    /// streamed (two layers kept, see the module doc) and the line leaves layers 0 and 1:
    /// usually so for a win, whose line the caller then takes from proof search.
    pub line: Vec<Action>,
    /// For a draw: the index in `line` where the cycle starts (the position after the
    /// whole line is the position after `cycle_start` actions). `None` for a win, or for a
    /// draw ending with a player stuck.
    pub cycle_start: Option<usize>,
    pub stats: RetroStats,
}
