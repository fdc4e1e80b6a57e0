//! The library's errors in the command line's words. The library says what happened ("the
//! memory budget is 1.00 MiB"); where a flag mends it, the message here names that flag.
//! The Python package, which gives the command line's messages word for word, includes
//! this folder (`python/src/lib.rs`) rather than keep a copy: it may use only the library.
//! `clash.rs` words the options that clash and the directories a run may not write.

mod clash;

use clash::{OCCUPIED_WORDS, clash_text};
use quoridor_solver::Error;
use quoridor_solver::error::{
    Setting, Unrun, anchors_text, board_text, checkpoint_table_text, checkpoint_unusable_text,
    disk_text, limit_text, list_text, not_saved_tables_text, seconds_text,
};

/// The flag that gives `setting`.
fn flag(setting: Setting) -> &'static str {
    match setting {
        Setting::Threads => "--threads",
        Setting::Workers => "--workers",
        Setting::MaxDepth => "--max-depth",
        Setting::MaxSeconds => "--max-seconds",
        Setting::TtSize => "--tt",
        Setting::ConfirmSeconds => "--confirm-seconds",
        Setting::Boards => "--boards",
        Setting::Walls => "--walls",
        Setting::FewerWalls => "--fewer-walls",
    }
}

/// The flags that ask for what `unrun` needs.
fn remedy(unrun: Unrun) -> &'static str {
    match unrun {
        Unrun::Winner | Unrun::OnDemand => "use --method search",
        Unrun::FewerWalls => "use --method search, or --method retro --precision compact",
        Unrun::Checkpoint => "use --method search, or --precision compact",
        Unrun::ShareWithoutDirectory => "give --scratch",
        Unrun::RanksWithoutRetro => "use --method retro",
    }
}

/// `e` as the command line prints it.
pub fn error_text(e: &Error) -> String {
    match e {
        Error::Memory { .. } | Error::BudgetBelowCells { .. } => {
            format!("{e} (raise it with --memory)")
        }
        Error::Disk {
            dir,
            what,
            needed,
            free,
        } => disk_text(
            dir,
            what,
            *needed,
            *free,
            "point --scratch at a larger disk",
        ),
        Error::Limit {
            setting,
            value,
            bound,
        } => limit_text(flag(*setting), *value, bound),
        Error::List {
            setting,
            text,
            problem,
        } => list_text(flag(*setting), text, problem),
        Error::Unrun(u) => format!("{}: {}", u.statement(), remedy(*u)),
        Error::Seconds { setting, most } => seconds_text(flag(*setting), *setting, *most),
        Error::BoardTooLarge { .. } => {
            format!("{} (use proof search: --method search)", board_text(e))
        }
        Error::Rank { who, error } => format!("{who}: {}", error_text(error)),
        Error::Options(clash) => clash_text(clash),
        Error::Occupied { dir, holds, what } => {
            what.text(&dir.display().to_string(), holds, &OCCUPIED_WORDS)
        }
        Error::TooManyAnchors { board, anchors } => {
            anchors_text(board, *anchors, " (solve --method search)")
        }
        Error::CheckpointUnusable { path, why } => {
            checkpoint_unusable_text(path, why, "--checkpoint")
        }
        Error::CheckpointTable { path, bytes, given } => {
            let give = |size: &str| format!("run with --tt {size}");
            checkpoint_table_text(path, *bytes, *given, &give)
        }
        Error::NotSavedTables { dir, foreign } => not_saved_tables_text(
            dir,
            foreign,
            "a directory written by `solve --method retro --save` or `table --save`",
        ),
        Error::NoSavedTable { dir } => format!(
            "{} holds no saved table: neither a MANIFEST.sha256 (solve --save) nor WxH-wN \
             directories (table --save)",
            dir.display()
        ),
        _ => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::error_text;
    use quoridor_solver::Error;
    use quoridor_solver::error::{Bound, ListProblem, Setting, Unrun};

    /// The messages the library printed when it named the flags itself.
    #[test]
    fn flags_are_named_as_before() {
        let memory = Error::Memory {
            what: "4x4 with 2 walls".into(),
            needed: 3 << 20,
            budget: 1 << 20,
        };
        assert_eq!(
            error_text(&memory),
            "4x4 with 2 walls needs an estimated 3.00 MiB but the memory budget is 1.00 MiB \
             (raise it with --memory)"
        );
        let below = Error::BudgetBelowCells {
            budget: 1 << 10,
            least: "3x3 with 0 walls".into(),
            needed: 5 << 20,
        };
        assert_eq!(
            error_text(&below),
            "the memory budget, 1.00 KiB, is below what any selected cell needs: the least is \
             3x3 with 0 walls, an estimated 5.00 MiB (raise it with --memory)"
        );
        let disk = Error::Disk {
            dir: "/s".into(),
            what: "layer 3".into(),
            needed: 2 << 30,
            free: 1 << 30,
        };
        let disk_before = "layer 3 needs about 2.00 GiB on disk but the disk of /s has 1.00 GiB \
                           free (free some, or point --scratch at a larger disk; the same command \
                           goes on from the layers written)";
        assert_eq!(error_text(&disk), disk_before);
        let ranked = Error::Rank {
            who: "rank 1".into(),
            error: Box::new(memory.clone()),
        };
        assert_eq!(
            error_text(&ranked),
            format!("rank 1: {}", error_text(&memory))
        );
        let threads = |value, bound| error_text(&Error::limit(Setting::Threads, value, bound));
        assert_eq!(
            threads(0, Bound::AtLeast(1)),
            "--threads must be at least 1"
        );
        assert_eq!(
            threads(300, Bound::AtMost(256)),
            "--threads 300: at most 256"
        );
        assert_eq!(
            error_text(&Error::limit(Setting::Workers, 0, Bound::FromTo(1, 256))),
            "--workers must be from 1 to 256"
        );
        assert_eq!(
            error_text(&Error::limit(Setting::MaxDepth, 0, Bound::AtLeast(1))),
            "--max-depth must be at least 1"
        );
        let list = |setting, text: &str, problem| {
            error_text(&Error::List {
                setting,
                text: text.into(),
                problem,
            })
        };
        assert_eq!(
            list(
                Setting::Boards,
                "3x3,3x3",
                ListProblem::Twice { item: "3x3".into() }
            ),
            "--boards '3x3,3x3': 3x3 is given twice"
        );
        let shape = "N, A..B, A..=B or A,B,C (e.g. 0..=10)";
        assert_eq!(
            list(Setting::Walls, "x", ListProblem::Shape { shape }),
            format!("--walls 'x': write {shape}")
        );
        assert_eq!(
            list(
                Setting::Walls,
                "2,2",
                ListProblem::Twice { item: "2".into() }
            ),
            "--walls '2,2': 2 is given twice"
        );
        let board = Error::BoardTooLarge {
            board: "9x9".into(),
            squares: 81,
            max: 64,
        };
        assert_eq!(
            error_text(&board),
            "the retrograde analysis handles boards of at most 64 cells; 9x9 has 81 (use proof \
             search: --method search)"
        );
        let seconds = |setting| {
            error_text(&Error::Seconds {
                setting,
                most: 31536000,
            })
        };
        assert_eq!(
            seconds(Setting::MaxSeconds),
            "--max-seconds must be a positive number of seconds of at most 31536000 (a year)"
        );
        assert_eq!(
            seconds(Setting::ConfirmSeconds),
            "--confirm-seconds must be 0 (no second method) or a positive number of seconds of \
             at most 31536000 (a year)"
        );
        let unrun = |u| error_text(&Error::Unrun(u));
        assert_eq!(
            unrun(Unrun::Winner),
            "a guessed winner steers the proof search: use --method search"
        );
        assert_eq!(
            unrun(Unrun::OnDemand),
            "configurations built on demand serve the proof search only: use --method search"
        );
        assert_eq!(
            unrun(Unrun::Checkpoint),
            "a checkpoint keeps a proof search's table, and the exact analysis finds the length \
             without one: use --method search, or --precision compact"
        );
        assert_eq!(
            unrun(Unrun::ShareWithoutDirectory),
            "a rank's share goes through a directory all ranks share: give --scratch"
        );
        assert_eq!(
            unrun(Unrun::RanksWithoutRetro),
            "only the retrograde analysis runs across ranks: use --method retro"
        );
        // What the flags do not mend is printed as the library says it.
        let missing = Error::Missing {
            path: "/nonexistent".into(),
        };
        assert_eq!(error_text(&missing), missing.to_string());
    }
}
