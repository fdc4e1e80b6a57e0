//! Options that clash: something asked for that the run would not do (a precision where
//! no analysis runs, a bound on a proof search that does not run, the counts of every
//! position without the analysis that visits them, ...). The library words them in its
//! own terms (`Display`); the edges name the flags that asked (`cli/error_text/`).

use std::fmt;

/// A combination of options refused (`Error::Options`): each would be ignored, or cannot
/// be done, with the others.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Clash {
    /// A bound on the proof search (`setting`: the depth, the time, the table's size)
    /// where no proof search runs, for `why`.
    SearchBound {
        setting: super::Setting,
        why: NoSearch,
    },
    /// A precision under the automatic method on a cell where it runs no analysis (`why`:
    /// the plan's reason).
    PrecisionUnused { why: String },
    /// The counts over every position without the retrograde method, which alone visits
    /// them.
    StatsWithoutRetro,
    /// A precision with the proof search method, which runs no analysis.
    PrecisionWithSearch,
    /// Ranks without the retrograde method, or for a plan only.
    RanksWithoutRetro,
    /// Ranks in a build without MPI.
    RanksWithoutMpi,
    /// A directory for the analysis's values (saved, or in parts) without the retrograde
    /// method.
    TableWithoutRetro,
    /// A table run saving the analysis's values with the proof search method.
    SaveWithSearch,
    /// A save of an analysis that is not exact or does not keep every layer.
    SaveNotExact,
    /// The directory `dir` holds `holds` (layers, or a saved table) at the `held`
    /// precision, where the run asks for `asked`.
    OtherPrecision {
        dir: std::path::PathBuf,
        holds: String,
        held: String,
        asked: String,
    },
}

/// Why no proof search runs where a bound on one was given (`Clash::SearchBound`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoSearch {
    /// The retrograde method was asked for, where the analysis answers every position.
    RetroAsked,
    /// The exact analysis, which a saved table (or one in parts) keeps, finds the length.
    SavedExact,
    /// The exact analysis was asked for, and finds the length itself.
    ExactAsked,
    /// The retrograde method runs a search only after its compact analysis, and this cell
    /// gets the exact one: every layer fits the memory budget at a byte.
    ExactChosen,
    /// The automatic method answers from the analysis (`what`), which fits the budget.
    AutoChoseRetro { what: String },
}

impl NoSearch {
    /// What completes "it bounds the proof search, which ...", in the library's words.
    pub fn which(&self) -> String {
        match self {
            NoSearch::RetroAsked => "the retrograde method does not run".into(),
            NoSearch::SavedExact => {
                "the exact analysis that a saved table keeps does not run".into()
            }
            NoSearch::ExactAsked => "the exact analysis asked for does not run".into(),
            NoSearch::ExactChosen => "the retrograde method runs only in its compact \
                                      analysis (for the length), and this cell gets the \
                                      exact one: every layer fits the memory budget at a byte"
                .into(),
            NoSearch::AutoChoseRetro { what } => format!(
                "the automatic method does not run here: {what} fits the budget and answers"
            ),
        }
    }
}

/// The refusal of a bound given for `name` (the library's word, or an edge's flag) where
/// no search runs, `which` saying why: one wording for every edge.
pub fn search_bound_text(name: &str, which: &str) -> String {
    format!("{name} does not apply here: it bounds the proof search, which {which}")
}

impl fmt::Display for Clash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Clash::SearchBound { setting, why } => {
                f.write_str(&search_bound_text(setting.name(), &why.which()))
            }
            Clash::PrecisionUnused { why } => write!(
                f,
                "the precision does not apply here: it says what the retrograde analysis \
                 keeps, and the automatic method runs none on this cell ({why})"
            ),
            Clash::StatsWithoutRetro => f.write_str(
                "the counts over every position need the retrograde method, which alone \
                 visits them",
            ),
            Clash::PrecisionWithSearch => f.write_str(
                "a precision says what the retrograde analysis keeps; the proof search \
                 method runs none",
            ),
            Clash::RanksWithoutRetro => f.write_str(
                "ranks share out the retrograde analysis: use them with the retrograde \
                 method (and not for a plan)",
            ),
            Clash::RanksWithoutMpi => f.write_str(
                "running across ranks needs MPI, and this build has none: build it with the \
                 mpi feature (docs/CLUSTER.md)",
            ),
            Clash::TableWithoutRetro => f.write_str(
                "a directory of the analysis's values needs the retrograde method, which \
                 writes them",
            ),
            Clash::SaveWithSearch => f.write_str(
                "a saved table keeps the retrograde analysis's values; the proof search \
                 method runs none",
            ),
            Clash::SaveNotExact => f.write_str(
                "only an exact analysis that keeps every layer can be saved (the exact \
                 precision, and a memory budget that holds every layer)",
            ),
            Clash::OtherPrecision {
                dir,
                holds,
                held,
                asked,
            } => write!(
                f,
                "{} holds {holds} at the {held} precision, not the {asked} one asked for",
                dir.display()
            ),
        }
    }
}
