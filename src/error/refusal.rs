//! What a refusal names: the setting (`Setting`) and the bound it is outside of (`Bound`),
//! what a method does not run (`Unrun`), what is wrong with a list (`ListProblem`); and the
//! wordings of those refusals that every edge shares, each given the setting's name (the
//! library's words, or an edge's flag).

use super::Error;
use super::words::{clip, format_bytes};
use std::fmt;

/// The refusal of `value` for the setting called `name` (by the library, or by an edge's
/// flag), outside of `bound`: one wording for every edge.
pub fn limit_text(name: &str, value: i64, bound: &Bound) -> String {
    match bound {
        Bound::AtLeast(least) => format!("{name} must be at least {least}"),
        Bound::AtMost(most) => format!("{name} {value}: at most {most}"),
        Bound::FromTo(low, high) => format!("{name} must be from {low} to {high}"),
    }
}

/// What a solve asked for that its method does not use (`Error::Unrun`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unrun {
    /// A guessed winner, which only the proof search follows.
    Winner,
    /// Configurations built on demand, which only the proof search uses.
    OnDemand,
    /// A checkpoint, which the exact analysis does not need.
    Checkpoint,
    /// A rank's share of the analysis with no directory all ranks share.
    ShareWithoutDirectory,
    /// Ranks, where the plan runs no retrograde analysis.
    RanksWithoutRetro,
    /// An analysis of fewer walls to bound a search, where the method chosen has none.
    FewerWalls,
}

impl Unrun {
    /// What is refused and why, the same words at every edge.
    pub fn statement(self) -> &'static str {
        match self {
            Unrun::Winner => "a guessed winner steers the proof search",
            Unrun::OnDemand => "configurations built on demand serve the proof search only",
            Unrun::Checkpoint => {
                "a checkpoint keeps a proof search's table, and the exact analysis finds the \
                 length without one"
            }
            Unrun::ShareWithoutDirectory => {
                "a rank's share goes through a directory all ranks share"
            }
            Unrun::RanksWithoutRetro => "only the retrograde analysis runs across ranks",
            Unrun::FewerWalls => {
                "the analysis of fewer walls bounds a proof search: the one from the start, or \
                 the one for the length after a compact analysis"
            }
        }
    }

    /// What to ask for instead, in the library's words (the edges name their flags).
    pub fn remedy(self) -> &'static str {
        match self {
            Unrun::Winner | Unrun::OnDemand => "use the proof search",
            Unrun::FewerWalls => "use the proof search, or the compact analysis",
            Unrun::Checkpoint => "use the proof search, or the compact analysis",
            Unrun::ShareWithoutDirectory => "give one",
            Unrun::RanksWithoutRetro => "use the retrograde analysis",
        }
    }
}

/// The refusal of a time limit given for `setting`, called `name` (by the library, or by
/// an edge's flag), of at most `most` seconds (a year): one wording for every edge.
pub fn seconds_text(name: &str, setting: Setting, most: u64) -> String {
    let zero = match setting {
        Setting::ConfirmSeconds => "0 (no second method) or ",
        _ => "",
    };
    format!("{name} must be {zero}a positive number of seconds of at most {most} (a year)")
}

/// What is wrong with a list given for a setting (`Error::List`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListProblem {
    /// Not written as the setting's lists are; `shape` says how they are.
    Shape { shape: &'static str },
    /// An item (`item`) outside of `range` (in words).
    OutOfRange { item: String, range: String },
    /// A range with no item in it.
    EmptyRange { noun: &'static str },
    /// An item given twice.
    Twice { item: String },
}

impl fmt::Display for ListProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ListProblem::Shape { shape } => write!(f, "write {shape}"),
            ListProblem::OutOfRange { item, range } => {
                write!(f, "{} is out of range: {range}", clip(item))
            }
            ListProblem::EmptyRange { noun } => write!(f, "the range is empty (it has no {noun})"),
            ListProblem::Twice { item } => write!(f, "{item} is given twice"),
        }
    }
}

/// The refusal of the list `text` given for the setting called `name` (by the library, or
/// by an edge's flag), for `problem`: one wording for every edge.
pub fn list_text(name: &str, text: &str, problem: &ListProblem) -> String {
    format!("{name} '{}': {problem}", clip(text))
}

/// `Error::BoardTooLarge` without its remedy, which each edge words (empty for any other
/// error).
pub fn board_text(e: &Error) -> String {
    match e {
        Error::BoardTooLarge {
            board,
            squares,
            max,
        } => format!(
            "the retrograde analysis handles boards of at most {max} cells; {board} has {squares}"
        ),
        _ => String::new(),
    }
}

/// `Error::Disk` in words, with `remedy` saying how to give a larger disk (the library's
/// words, or an edge's flag).
pub fn disk_text(dir: &str, what: &str, needed: u64, free: u64, remedy: &str) -> String {
    format!(
        "{what} needs about {} on disk but the disk of {dir} has {} free (free some, or \
         {remedy}; the same command goes on from the layers written)",
        format_bytes(needed),
        format_bytes(free)
    )
}

/// A setting of a run that a refusal names. The library names it in words (`name`); the
/// edges name it by their flag (`cli/error_text/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setting {
    /// How many threads a run takes.
    Threads,
    /// How many requests `serve` answers at once.
    Workers,
    /// The deepest iteration of the proof search.
    MaxDepth,
    /// The longest a proof search may take.
    MaxSeconds,
    /// The most memory the proof search's transposition table may take.
    TtSize,
    /// The longest the second method of a table run may take on a cell.
    ConfirmSeconds,
    /// The boards of a table run.
    Boards,
    /// The wall counts of a table run.
    Walls,
    /// The walls per player of the analysis that bounds a proof search.
    FewerWalls,
}

impl Setting {
    /// The setting in words, as the library's own messages give it.
    pub fn name(self) -> &'static str {
        match self {
            Setting::Threads => "the thread count",
            Setting::Workers => "the worker count",
            Setting::MaxDepth => "the deepest search iteration",
            Setting::MaxSeconds => "the time limit",
            Setting::TtSize => "the transposition table's size",
            Setting::ConfirmSeconds => "the second method's time limit",
            Setting::Boards => "the boards",
            Setting::Walls => "the wall counts",
            Setting::FewerWalls => "the walls per player of the bounding analysis",
        }
    }
}

/// The bound a number given for a `Setting` is outside of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    AtLeast(i64),
    AtMost(i64),
    /// Both ends included.
    FromTo(i64, i64),
}
