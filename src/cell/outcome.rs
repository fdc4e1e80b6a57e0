//! What solving a cell gives: its value (`Outcome`), the method that decided it
//! (`MethodUsed`), both with their codes in CSV and JSON (docs/FORMATS.md), and the whole
//! result (`CellResult`: length, line, nodes, seconds, peak).

use crate::retro::RetroStats;
use crate::rules::geometry::{Board, Player};
use crate::rules::position::Action;
use crate::search::{self};
use serde::{Deserialize, Serialize};

/// The value of a cell, as reported: `1`, `2`, `D` or `unknown` in CSV and JSON
/// (docs/FORMATS.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String")]
pub enum Outcome {
    #[serde(rename = "1")]
    Player1,
    #[serde(rename = "2")]
    Player2,
    #[serde(rename = "D")]
    Draw,
    #[serde(rename = "unknown")]
    Unknown,
}

impl Outcome {
    pub const ALL: [Outcome; 4] = [
        Outcome::Player1,
        Outcome::Player2,
        Outcome::Draw,
        Outcome::Unknown,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Outcome::Player1 => "1",
            Outcome::Player2 => "2",
            Outcome::Draw => "D",
            Outcome::Unknown => "unknown",
        }
    }

    pub fn winner(player: Player) -> Outcome {
        match player {
            Player::One => Outcome::Player1,
            Player::Two => Outcome::Player2,
        }
    }

    /// The winner, for a win.
    pub fn winning_player(self) -> Option<Player> {
        match self {
            Outcome::Player1 => Some(Player::One),
            Outcome::Player2 => Some(Player::Two),
            _ => None,
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

impl TryFrom<String> for Outcome {
    type Error = String;
    fn try_from(text: String) -> std::result::Result<Outcome, String> {
        Outcome::ALL
            .into_iter()
            .find(|o| o.code() == text)
            .ok_or_else(|| {
                format!(
                    "outcome '{}' is not 1, 2, D or unknown",
                    crate::error::clip(&text)
                )
            })
    }
}

/// How a cell was decided, as reported: `proof-search`, `retrograde` or
/// `retrograde+search` in CSV and JSON (docs/FORMATS.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String")]
pub enum MethodUsed {
    /// Proof search alone (or nothing yet, for an undecided cell).
    #[serde(rename = "proof-search")]
    Search,
    /// The retrograde analysis: outcome, and the length when it was exact.
    #[serde(rename = "retrograde")]
    Retro,
    /// The compact analysis for the outcome, proof search guided by it for the length.
    #[serde(rename = "retrograde+search")]
    RetroSearch,
}

impl MethodUsed {
    pub const ALL: [MethodUsed; 3] = [
        MethodUsed::Search,
        MethodUsed::Retro,
        MethodUsed::RetroSearch,
    ];

    pub fn name(self) -> &'static str {
        match self {
            MethodUsed::Search => "proof-search",
            MethodUsed::Retro => "retrograde",
            MethodUsed::RetroSearch => "retrograde+search",
        }
    }

    /// Whether the retrograde analysis decided the outcome.
    pub fn is_retro(self) -> bool {
        self != MethodUsed::Search
    }
}

impl std::fmt::Display for MethodUsed {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl TryFrom<String> for MethodUsed {
    type Error = String;
    fn try_from(text: String) -> std::result::Result<MethodUsed, String> {
        MethodUsed::ALL
            .into_iter()
            .find(|m| m.name() == text)
            .ok_or_else(|| {
                format!(
                    "method '{}' is not proof-search, retrograde or retrograde+search",
                    crate::error::clip(&text)
                )
            })
    }
}

/// The result of solving one cell.
#[derive(Clone, Debug, Serialize)]
pub struct CellResult {
    pub width: usize,
    pub height: usize,
    pub walls: u8,
    pub outcome: Outcome,
    /// Plies of the win under best play (the winner hurries, the loser holds out).
    pub plies: Option<u32>,
    /// The deepest search iteration completed.
    pub depth_reached: u32,
    /// Each player's deepest search iteration known to hold no win for them (Player 1,
    /// Player 2): they differ when one player's wins were searched (`SolveOptions::winner`).
    pub no_win: [u32; 2],
    pub method: MethodUsed,
    /// Nodes and seconds of the whole work, earlier runs of a checkpointed search included.
    pub nodes: u64,
    pub seconds: f64,
    /// The part of `nodes` and `seconds` that earlier runs took, whose checkpoint this
    /// run's search went on from (zero without one).
    #[serde(skip)]
    pub earlier: search::Spent,
    pub peak_bytes: u64,
    /// The principal line: for a win, the winner's exact line; for a draw, moves from the
    /// start into the cycle both players keep to. (Written in notation as `pv` by the CLI,
    /// which knows the board.)
    #[serde(skip)]
    pub line: Vec<Action>,
    /// For a draw: the index in `line` where the repeating cycle starts.
    pub cycle_start: Option<usize>,
    /// Counts over every position of the cell, when retrograde analysis ran.
    #[serde(flatten)]
    pub stats: Option<RetroStats>,
    /// With the counts: the placements the analysis leaves out (a pawn cut off from its
    /// goal: no legal play reaches them), so that totals compare with counts that include
    /// every placement.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left_out: Option<u64>,
    /// With a checkpoint: how its last save went (the bounds saved, or why it failed);
    /// `None` when no save was made.
    #[serde(skip)]
    pub checkpoint_saved: Option<std::result::Result<search::NoWin, String>>,
    /// The analysis of the same board with fewer walls that pruned the proof search
    /// (`SolveOptions::fewer_walls`), if one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pruned_by: Option<PrunedBy>,
}

/// The analysis of fewer walls a proof search was pruned by (`cell::fewer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PrunedBy {
    /// Its walls per player.
    pub walls: u8,
    /// Whether it was exact (bounding the lengths too) or of outcomes only.
    pub exact: bool,
    /// Where it kept only its layers from the start: how many of how many (positions with
    /// more walls on the board get no bound).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_layers: Option<[usize; 2]>,
}

impl std::fmt::Display for PrunedBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "pruned by the {} analysis of {} per player",
            if self.exact { "exact" } else { "compact" },
            crate::error::count(self.walls, "wall")
        )?;
        match self.first_layers {
            Some([kept, of]) => write!(f, ", its first {kept} of {of} layers"),
            None => Ok(()),
        }
    }
}

impl CellResult {
    /// After a figure of seconds: how much of it earlier runs took, from the checkpoint its
    /// search went on from ("" without one).
    pub fn earlier_note(&self) -> String {
        self.in_earlier_runs(format!("{:.0} s of it", self.earlier.seconds))
    }

    /// " (PART in earlier runs, from the checkpoint)" after a figure, when earlier runs
    /// took part of it ("" else).
    pub fn in_earlier_runs(&self, part: String) -> String {
        match self.earlier == search::Spent::default() {
            true => String::new(),
            false => format!(" ({part} in earlier runs, from the checkpoint)"),
        }
    }

    /// A cell not decided yet.
    pub fn undecided(board: Board, walls: u8) -> CellResult {
        CellResult {
            width: board.width(),
            height: board.height(),
            walls,
            outcome: Outcome::Unknown,
            plies: None,
            depth_reached: 0,
            no_win: [0; 2],
            method: MethodUsed::Search,
            nodes: 0,
            seconds: 0.0,
            earlier: search::Spent::default(),
            peak_bytes: 0,
            line: Vec::new(),
            cycle_start: None,
            stats: None,
            left_out: None,
            checkpoint_saved: None,
            pruned_by: None,
        }
    }
}
