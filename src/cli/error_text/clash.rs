//! The refusals of options that clash (`Clash`) and of a directory that holds what a run
//! may not replace (`Occupied`), in the flags' words: the words the library used before
//! it left flags to the edges, kept byte for byte (tests/cli.rs checks most of them).

use quoridor_solver::Error;
use quoridor_solver::error::{Clash, NoSearch, OccupiedWords, search_bound_text};

use super::flag;

/// `clash` as the command line says it.
pub fn clash_text(clash: &Clash) -> String {
    let text = match clash {
        Clash::SearchBound { setting, why } => {
            return search_bound_text(flag(*setting), &no_search(why));
        }
        Clash::PrecisionUnused { why } => {
            return format!(
                "--precision does not apply here: it says what the retrograde analysis keeps, \
                 and --method auto runs none on this cell ({why})"
            );
        }
        Clash::StatsWithoutRetro => {
            "--stats counts every position, which only --method retro visits"
        }
        Clash::PrecisionWithSearch => {
            "--precision says what the retrograde analysis keeps; --method search runs none"
        }
        Clash::RanksWithoutRetro => {
            "--distributed shares out the retrograde analysis: use it with --method retro \
             (and without --plan)"
        }
        Clash::RanksWithoutMpi => {
            "--distributed needs MPI, and this build has none: build with `cargo build \
             --release --features mpi` (docs/CLUSTER.md)"
        }
        Clash::TableWithoutRetro => {
            "--save and --scratch write the retrograde analysis's values: use them with \
             --method retro"
        }
        Clash::SaveWithSearch => {
            "--save keeps the retrograde analysis's values; --method search runs none"
        }
        Clash::SaveNotExact => {
            "only an exact analysis that keeps every layer can be saved (--precision exact, \
             and a memory budget that holds every layer)"
        }
        Clash::OtherPrecision { .. } => {
            return format!("{} (--precision)", Error::Options(clash.clone()));
        }
    };
    text.to_string()
}

/// What completes "it bounds the proof search, which ...", naming the flags.
fn no_search(why: &NoSearch) -> String {
    match why {
        NoSearch::RetroAsked => "--method retro does not run".into(),
        NoSearch::SavedExact => {
            "the exact analysis that --save and --scratch keep does not run".into()
        }
        NoSearch::ExactAsked => "--precision exact does not run".into(),
        NoSearch::ExactChosen => "--method retro runs only in its compact analysis (for the \
                                  length), and this cell gets the exact one: every layer fits \
                                  the memory budget at a byte (--precision compact asks for \
                                  the other)"
            .into(),
        NoSearch::AutoChoseRetro { what } => format!(
            "--method auto does not run here: {what} fits the budget and answers (--method \
             search asks for the search)"
        ),
    }
}

/// The flags that replace saved tables, save them, and keep a resumed run's.
pub const OCCUPIED_WORDS: OccupiedWords = OccupiedWords {
    replace: "--force replaces",
    only_into: "--save writes only into a new or empty directory, or with --force over a \
                saved table",
    keep: "--resume keeps those of the cells it keeps",
};

#[cfg(test)]
mod tests {
    use super::super::error_text;
    use quoridor_solver::Error;
    use quoridor_solver::error::{Clash, NoSearch, Occupied, Setting};

    /// The messages the library printed when it named the flags itself.
    #[test]
    fn clashes_are_worded_as_before() {
        let clash = |c| error_text(&Error::Options(c));
        let bound = |setting, why| clash(Clash::SearchBound { setting, why });
        assert_eq!(
            bound(Setting::TtSize, NoSearch::RetroAsked),
            "--tt does not apply here: it bounds the proof search, which --method retro does \
             not run"
        );
        assert_eq!(
            bound(Setting::MaxDepth, NoSearch::SavedExact),
            "--max-depth does not apply here: it bounds the proof search, which the exact \
             analysis that --save and --scratch keep does not run"
        );
        assert_eq!(
            bound(Setting::MaxSeconds, NoSearch::ExactAsked),
            "--max-seconds does not apply here: it bounds the proof search, which --precision \
             exact does not run"
        );
        assert_eq!(
            bound(Setting::MaxDepth, NoSearch::ExactChosen),
            "--max-depth does not apply here: it bounds the proof search, which --method retro \
             runs only in its compact analysis (for the length), and this cell gets the exact \
             one: every layer fits the memory budget at a byte (--precision compact asks for \
             the other)"
        );
        let what = "the exact retrograde analysis of 3x3 with 1 wall placed";
        assert_eq!(
            bound(
                Setting::TtSize,
                NoSearch::AutoChoseRetro { what: what.into() }
            ),
            format!(
                "--tt does not apply here: it bounds the proof search, which --method auto \
                 does not run here: {what} fits the budget and answers (--method search asks \
                 for the search)"
            )
        );
        assert_eq!(
            clash(Clash::PrecisionUnused { why: "why".into() }),
            "--precision does not apply here: it says what the retrograde analysis keeps, and \
             --method auto runs none on this cell (why)"
        );
        let fixed = [
            (
                Clash::StatsWithoutRetro,
                "--stats counts every position, which only --method retro visits",
            ),
            (
                Clash::PrecisionWithSearch,
                "--precision says what the retrograde analysis keeps; --method search runs none",
            ),
            (
                Clash::RanksWithoutRetro,
                "--distributed shares out the retrograde analysis: use it with --method retro \
                 (and without --plan)",
            ),
            (
                Clash::RanksWithoutMpi,
                "--distributed needs MPI, and this build has none: build with `cargo build \
                 --release --features mpi` (docs/CLUSTER.md)",
            ),
            (
                Clash::TableWithoutRetro,
                "--save and --scratch write the retrograde analysis's values: use them with \
                 --method retro",
            ),
            (
                Clash::SaveWithSearch,
                "--save keeps the retrograde analysis's values; --method search runs none",
            ),
            (
                Clash::SaveNotExact,
                "only an exact analysis that keeps every layer can be saved (--precision exact, \
                 and a memory budget that holds every layer)",
            ),
        ];
        for (c, before) in fixed {
            assert_eq!(clash(c.clone()), before);
            // The library's own words name no flag.
            assert!(!Error::Options(c).to_string().contains("--"));
        }
    }

    #[test]
    fn occupied_directories_are_worded_as_before() {
        let occupied = |what| Error::Occupied {
            dir: "/s".into(),
            holds: "the saved tables of 2 cells (3x3-w0, 3x3-w1)".into(),
            what,
        };
        let holds = "the saved tables of 2 cells (3x3-w0, 3x3-w1)";
        let cases = [
            (
                Occupied::Foreign,
                format!(
                    "/s is not empty and not a saved table (it holds {holds}); --save writes \
                     only into a new or empty directory, or with --force over a saved table"
                ),
            ),
            (
                Occupied::Tables { many: true },
                format!("/s already holds {holds}; --force replaces them"),
            ),
            (
                Occupied::Tables { many: false },
                format!("/s already holds {holds}; --force replaces it"),
            ),
            (
                Occupied::OneTable,
                format!("/s already holds {holds}, not one per cell; --force replaces it"),
            ),
            (
                Occupied::Cells { many: true },
                format!(
                    "/s already holds {holds}; --force replaces them (--resume keeps those of \
                     the cells it keeps)"
                ),
            ),
        ];
        for (what, before) in cases {
            assert_eq!(error_text(&occupied(what)), before);
            assert!(!occupied(what).to_string().contains("--"));
        }
        let none = Error::NoSavedTable { dir: "/v".into() };
        assert_eq!(
            error_text(&none),
            "/v holds no saved table: neither a MANIFEST.sha256 (solve --save) nor WxH-wN \
             directories (table --save)"
        );
        assert!(!none.to_string().contains("--"));
    }

    /// The errors whose remedy names a flag or a command, as the library worded them.
    #[test]
    fn remedies_are_worded_as_before() {
        let anchors = Error::TooManyAnchors {
            board: "10x10".into(),
            anchors: 81,
        };
        assert_eq!(
            error_text(&anchors),
            "10x10 has 81 wall anchors, more than the 64 whose configurations the full \
             wall-configuration tables can number (9x9 has 64): only proof search (solve \
             --method search), which builds configurations on demand, handles it"
        );
        let unusable = Error::CheckpointUnusable {
            path: "/c/tt".into(),
            why: "it is for 3x3 with 1 wall, not 3x3 with 2 walls".into(),
        };
        assert_eq!(
            error_text(&unusable),
            "cannot resume from /c/tt: it is for 3x3 with 1 wall, not 3x3 with 2 walls; delete \
             it to start again, or run without --checkpoint"
        );
        let table = Error::CheckpointTable {
            path: "/c/tt".into(),
            bytes: 3 << 29,
            given: 1 << 30,
        };
        assert_eq!(
            error_text(&table),
            "the table in /c/tt takes 1.50 GiB, more than this run gives its table (1.00 GiB): \
             run with --tt 1.50G (and a memory budget that leaves room for it)"
        );
        let foreign = Error::NotSavedTables {
            dir: "/s".into(),
            foreign: "notes.txt".into(),
        };
        assert_eq!(
            error_text(&foreign),
            "/s holds notes.txt, which is not a saved table's: give a directory written by \
             `solve --method retro --save` or `table --save`"
        );
        let precision = Error::Options(Clash::OtherPrecision {
            dir: "/s".into(),
            holds: "layers".into(),
            held: "compact".into(),
            asked: "exact".into(),
        });
        assert_eq!(
            error_text(&precision),
            "/s holds layers at the compact precision, not the exact one asked for (--precision)"
        );
        for e in [anchors, unusable, table, foreign, precision] {
            assert!(!e.to_string().contains("--"), "{e}");
        }
    }
}
