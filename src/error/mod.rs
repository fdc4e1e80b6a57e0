//! The library's typed errors. Only the edges print them (`main` through
//! `cli/error_text/`, which names the flags that mend a refusal; the Python package
//! includes that file); every message is one line that says what is wrong and, where it
//! helps, where. An error carries what happened: an I/O error keeps the system's as its
//! `source()`, a refusal the setting, value and bound concerned.
//!
//! - `refusal.rs`: what a refusal names (the setting, its bound, what a method does not
//!   run, what is wrong with a list) and the wordings every edge shares;
//! - `clash.rs`: options that clash (`Clash`), in the library's words;
//! - `occupied.rs`: a directory that holds what a run may not replace (`Occupied`);
//! - `remedy.rs`: the wordings of errors whose remedy each edge names in its terms;
//! - `words.rs`: how every message counts, clips the user's text and gives sizes.

mod clash;
mod occupied;
mod refusal;
mod remedy;
mod words;

pub use clash::{Clash, NoSearch, search_bound_text};
pub use occupied::{LIBRARY_WORDS, Occupied, OccupiedWords};
pub use refusal::{
    Bound, ListProblem, Setting, Unrun, board_text, disk_text, limit_text, list_text, seconds_text,
};
pub use remedy::{
    anchors_text, checkpoint_table_text, checkpoint_unusable_text, not_saved_tables_text,
};
pub use words::{clip, count, format_bytes};

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// Everything that can go wrong when the library is given input or asked to do work.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A board size outside what RULES.md allows.
    Board(String),
    /// Text that is not valid notation (a cell, wall, move list or position record).
    Notation(String),
    /// A well-formed action that the rules do not allow in the position.
    IllegalAction(String),
    /// A request that would need more memory than the budget allows. The edges say how
    /// to raise the budget (the command line: its flag, `cli/error_text/`).
    Memory {
        what: String,
        needed: u64,
        budget: u64,
    },
    /// A layer to be written would not fit the free space of the disk that holds `dir`.
    /// The edges say how to give another disk (the command line: its flag).
    Disk {
        dir: String,
        what: String,
        needed: u64,
        free: u64,
    },
    /// A table run's memory budget is below what the least demanding of its cells needs
    /// (`least`, an estimated `needed` bytes): every cell would be skipped.
    BudgetBelowCells {
        budget: u64,
        least: String,
        needed: u64,
    },
    /// A number given for `setting` is out of its `bound` (`value` is what was given).
    Limit {
        setting: Setting,
        value: i64,
        bound: Bound,
    },
    /// Something asked for that the method this run takes does not use (`Unrun` says
    /// what); the edges say which flag asks for the method that does.
    Unrun(Unrun),
    /// A time limit given for `setting` that is not a positive number of seconds of at
    /// most `most` (nor 0, where `setting` is the second method's, which 0 turns off).
    Seconds { setting: Setting, most: u64 },
    /// A list given for `setting` (`text`, e.g. the wall counts of a table run) that
    /// cannot be read, for `problem`.
    List {
        setting: Setting,
        text: String,
        problem: ListProblem,
    },
    /// A board larger than the retrograde analysis handles (`max` cells); the proof search
    /// handles it, and the edges say how to ask for it.
    BoardTooLarge {
        board: String,
        squares: usize,
        max: usize,
    },
    /// A directory was asked for and `path` is something else.
    NotADirectory { path: PathBuf },
    /// A file or directory to be read does not exist.
    Missing { path: PathBuf },
    /// Options that clash (`Clash` says which): the edges name the flags that asked.
    Options(Clash),
    /// The directory `dir` a run would write holds `holds` (in words), which the run may
    /// not replace as asked (`what`); the edges name the flags that replace or resume.
    Occupied {
        dir: PathBuf,
        holds: String,
        what: Occupied,
    },
    /// A pool of threads (`threads`: "the threads", "4 threads") could not be started, for
    /// `why` (the thread library's message).
    ThreadPool { threads: String, why: String },
    /// The directory `dir` holds a saved table or layers (`holds`: "a saved table", "the
    /// analysis", or nothing more) of the cell `held`, where the run is of `asked` (each
    /// as "3x3 with 1 wall"; `held` read from its files).
    OtherCell {
        dir: PathBuf,
        holds: Option<String>,
        held: String,
        asked: String,
    },
    /// A board with more wall anchors (`anchors`) than the full configuration tables can
    /// number: only the proof search, which builds configurations on demand, handles it
    /// (the edges say how to ask for it).
    TooManyAnchors { board: String, anchors: usize },
    /// The checkpoint `path` cannot be resumed from, for `why`; the edges say how to run
    /// without one.
    CheckpointUnusable { path: PathBuf, why: String },
    /// The table of the checkpoint `path` takes `bytes`, more than the run gives its
    /// table (`given`); the edges say how to give it more.
    CheckpointTable {
        path: PathBuf,
        bytes: u64,
        given: u64,
    },
    /// A directory to read saved tables from (`dir`) holds `foreign`, which is not a saved
    /// table's; the edges say which directories do.
    NotSavedTables { dir: PathBuf, foreign: String },
    /// A directory given to be checked holds no saved table: neither a manifest nor
    /// directories named for cells.
    NoSavedTable { dir: PathBuf },
    /// Any other invalid argument (a directory that holds the wrong thing, a value out of
    /// place, ...): each such refusal is made in one place only, its words are its whole
    /// content, so a string says it as well as fields would. None names a flag: a refusal
    /// an edge words with its flags is one of the typed variants above.
    Argument(String),
    /// Reading or writing a file failed: what was being done (`action`, a verb such as
    /// "read" or "move aside"), to which file or directory, and the system's error, kept as
    /// the `source()`.
    Io {
        action: String,
        path: PathBuf,
        source: IoSource,
    },
    /// An I/O error that reached the library with no file to name (a bare `?` on a write to
    /// standard output, say): the system's message alone.
    System(IoSource),
    /// `serve` cannot listen on its address; apart from `Io` because an address is no path.
    Listen { addr: String, source: IoSource },
    /// The checkpoint file `path` could not be written (`search::Checkpoint::check_place`),
    /// found before the search rather than at its first save.
    CheckpointPlace { path: PathBuf, source: IoSource },
    /// A directory a run would clear of saved tables holds `entry`, which is not a saved
    /// table's: nothing there was removed.
    Foreign { dir: PathBuf, entry: String },
    /// Another rank of a distributed run (`rank`) could not take up the directory `dir`;
    /// that rank prints why.
    PeerTakeUp { rank: usize, dir: PathBuf },
    /// Error `error` of one rank of a distributed run, led by `who` (the rank, and the
    /// layer where there is one: `retro::engine::ranks::naming`).
    Rank { who: String, error: Box<Error> },
    /// A file was read but its content cannot be what it claims to be (e.g. a results row
    /// with an outcome that does not exist); the message names the file and the line.
    Input(String),
    /// A saved table is not what was written: a file missing or altered, a manifest or
    /// header that cannot be read. Apart from `Input` because `verify` reports it as a
    /// failed check (exit 1), not as bad usage.
    Damaged(String),
    /// A directory this run would write is held by another run (`dir_lock.rs`); `pid` is
    /// that run's process where the kernel says it.
    InUse { dir: String, pid: Option<u32> },
    /// The reader of our output went away (e.g. `| head`): not a failure of the work.
    BrokenPipe,
    /// A run stopped by a signal after its search saved its checkpoint
    /// (`search::request_stop`): what it finished is written; the command says how to go on.
    Interrupted,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Board(m)
            | Error::Notation(m)
            | Error::Argument(m)
            | Error::Input(m)
            | Error::Damaged(m) => f.write_str(m),
            Error::IllegalAction(m) => f.write_str(m),
            Error::Limit {
                setting,
                value,
                bound,
            } => write!(f, "{}", limit_text(setting.name(), *value, bound)),
            Error::BudgetBelowCells {
                budget,
                least,
                needed,
            } => write!(
                f,
                "the memory budget, {}, is below what any selected cell needs: the least is \
                 {least}, an estimated {}",
                format_bytes(*budget),
                format_bytes(*needed)
            ),
            Error::List {
                setting,
                text,
                problem,
            } => write!(f, "{}", list_text(setting.name(), text, problem)),
            Error::Unrun(u) => write!(f, "{}: {}", u.statement(), u.remedy()),
            Error::Options(clash) => write!(f, "{clash}"),
            Error::Occupied { dir, holds, what } => {
                let dir = dir.display().to_string();
                f.write_str(&what.text(&dir, holds, &LIBRARY_WORDS))
            }
            Error::ThreadPool { threads, why } => write!(f, "cannot start {threads}: {why}"),
            Error::OtherCell {
                dir,
                holds,
                held,
                asked,
            } => match holds {
                Some(what) => write!(
                    f,
                    "{} holds {what} of {held}, not of {asked}",
                    dir.display()
                ),
                None => write!(f, "{} holds {held}, not {asked}", dir.display()),
            },
            Error::TooManyAnchors { board, anchors } => {
                f.write_str(&anchors_text(board, *anchors, ""))
            }
            Error::CheckpointUnusable { path, why } => {
                f.write_str(&checkpoint_unusable_text(path, why, "one"))
            }
            Error::CheckpointTable { path, bytes, given } => {
                let give = |_: &str| "give this run a table that large".to_string();
                f.write_str(&checkpoint_table_text(path, *bytes, *given, &give))
            }
            Error::NotSavedTables { dir, foreign } => f.write_str(&not_saved_tables_text(
                dir,
                foreign,
                "a directory a solve or a table run saved its tables in",
            )),
            Error::NoSavedTable { dir } => write!(
                f,
                "{} holds no saved table: neither a MANIFEST.sha256 nor WxH-wN directories",
                dir.display()
            ),
            Error::Seconds { setting, most } => {
                write!(f, "{}", seconds_text(setting.name(), *setting, *most))
            }
            Error::BoardTooLarge { .. } => write!(f, "{} (use proof search)", board_text(self)),
            Error::NotADirectory { path } => write!(f, "{} is not a directory", path.display()),
            Error::Missing { path } => write!(f, "{} does not exist", path.display()),
            Error::Io {
                action,
                path,
                source,
            } => write!(f, "cannot {action} {}: {source}", path.display()),
            Error::System(source) => write!(f, "{source}"),
            Error::Listen { addr, source } => write!(f, "cannot listen on {addr}: {source}"),
            Error::CheckpointPlace { path, source } => write!(
                f,
                "cannot keep a checkpoint in {}: {source} (checked before the search, whose \
                 saves would fail)",
                path.display()
            ),
            Error::Foreign { dir, entry } => write!(
                f,
                "{} now holds {entry}, which is not a saved table's: the old tables there were \
                 not removed",
                dir.display()
            ),
            Error::PeerTakeUp { rank, dir } => write!(
                f,
                "rank {rank} could not take up {}: see its message",
                dir.display()
            ),
            Error::Rank { who, error } => write!(f, "{who}: {error}"),
            Error::BrokenPipe => f.write_str("the output was closed"),
            Error::Interrupted => f.write_str("interrupted"),
            Error::InUse { dir, pid } => {
                let who = pid.map_or(String::new(), |p| format!(" (process {p})"));
                write!(
                    f,
                    "{dir} is in use by another run{who}: a directory is written by one run at \
                     a time; wait for that run to end, or give this one another directory"
                )
            }
            Error::Disk {
                dir,
                what,
                needed,
                free,
            } => write!(
                f,
                "{}",
                disk_text(dir, what, *needed, *free, "write to a larger disk")
            ),
            Error::Memory {
                what,
                needed,
                budget,
            } => write!(
                f,
                "{what} needs an estimated {} but the memory budget is {}",
                format_bytes(*needed),
                format_bytes(*budget)
            ),
        }
    }
}

impl Error {
    /// Whether `self` refuses what was asked (an option, a combination, a budget, a path
    /// given) rather than reports a failure of the work: every rank of a distributed run
    /// makes such a refusal alike, before any waits on another (`cell::solve::rank_end`).
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            Error::Memory { .. }
                | Error::BudgetBelowCells { .. }
                | Error::Limit { .. }
                | Error::Seconds { .. }
                | Error::List { .. }
                | Error::BoardTooLarge { .. }
                | Error::Unrun(_)
                | Error::NotADirectory { .. }
                | Error::Missing { .. }
                | Error::Argument(_)
                | Error::Options(_)
                | Error::Occupied { .. }
                | Error::NoSavedTable { .. }
                | Error::TooManyAnchors { .. }
                | Error::ThreadPool { .. }
                | Error::OtherCell { .. }
                | Error::CheckpointTable { .. }
                | Error::NotSavedTables { .. }
        )
    }

    /// The refusal of `value` for `setting`, outside of `bound`.
    pub fn limit(setting: Setting, value: impl Into<i64>, bound: Bound) -> Self {
        Error::Limit {
            setting,
            value: value.into(),
            bound,
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. }
            | Error::System(source)
            | Error::Listen { source, .. }
            | Error::CheckpointPlace { source, .. } => Some(source.0.as_ref()),
            Error::Rank { error, .. } => Some(error.as_ref()),
            _ => None,
        }
    }
}

impl Error {
    /// The error of `action` on `path` that failed with `source`: "cannot {action} {path}:
    /// {source}".
    pub fn io(action: impl Into<String>, path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            action: action.into(),
            path: path.into(),
            source: IoSource::from(source),
        }
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        match e.kind() {
            std::io::ErrorKind::BrokenPipe => Error::BrokenPipe,
            _ => Error::System(e.into()),
        }
    }
}

/// A `std::io::Error` inside `Error`: shared (`Arc`) so that `Error` stays `Clone`, and
/// equal to another of the same kind and message, so that `Error` stays `PartialEq` (an
/// `io::Error` is neither).
#[derive(Debug, Clone)]
pub struct IoSource(pub Arc<std::io::Error>);

impl From<std::io::Error> for IoSource {
    fn from(e: std::io::Error) -> Self {
        IoSource(Arc::new(e))
    }
}

impl PartialEq for IoSource {
    fn eq(&self, other: &Self) -> bool {
        self.0.kind() == other.0.kind() && self.0.to_string() == other.0.to_string()
    }
}

impl Eq for IoSource {}

impl fmt::Display for IoSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::{Bound, Error, ListProblem, Setting};
    use std::error::Error as _;
    use std::io;

    /// Each I/O variant prints what the library printed when it was a string, built here
    /// as the old code built it.
    #[test]
    fn io_errors_print_as_before_and_keep_their_source() {
        let denied = || io::Error::new(io::ErrorKind::PermissionDenied, "Permission denied");
        let e = Error::io("move aside", "/t/5x5", denied());
        assert_eq!(
            e.to_string(),
            format!("cannot {} {}: {}", "move aside", "/t/5x5", denied())
        );
        let source = e.source().expect("an I/O error keeps its source");
        let source = source.downcast_ref::<io::Error>().expect("an io::Error");
        assert_eq!(source.kind(), io::ErrorKind::PermissionDenied);

        let bare = Error::from(denied());
        assert_eq!(bare.to_string(), denied().to_string());
        assert!(bare.source().is_some());
        assert_eq!(
            Error::from(io::Error::from(io::ErrorKind::BrokenPipe)),
            Error::BrokenPipe
        );

        let listen = Error::Listen {
            addr: "127.0.0.1:80".into(),
            source: denied().into(),
        };
        assert_eq!(
            listen.to_string(),
            format!("cannot listen on {}: {}", "127.0.0.1:80", denied())
        );
        let place = Error::CheckpointPlace {
            path: "/c/tt".into(),
            source: io::Error::other("it is not a file").into(),
        };
        assert_eq!(
            place.to_string(),
            format!(
                "cannot keep a checkpoint in {}: {} (checked before the search, whose saves \
                 would fail)",
                "/c/tt", "it is not a file"
            )
        );
        assert!(place.source().is_some());
    }

    /// Each refusal prints what the command line printed when it was a string, with the
    /// flag (which only the edges name: `cli/error_text/` tests those) put in words.
    #[test]
    fn argument_families_print_as_before() {
        let threads = |value, bound| Error::limit(Setting::Threads, value, bound).to_string();
        assert_eq!(
            threads(0, Bound::AtLeast(1)),
            "the thread count must be at least 1"
        );
        assert_eq!(
            threads(300, Bound::AtMost(256)),
            "the thread count 300: at most 256"
        );
        assert_eq!(
            threads(0, Bound::FromTo(1, 256)),
            "the thread count must be from 1 to 256"
        );
        assert_eq!(
            Error::limit(Setting::Workers, 999, Bound::FromTo(1, 256)).to_string(),
            "the worker count must be from 1 to 256"
        );
        assert_eq!(
            Error::limit(Setting::MaxDepth, 0, Bound::AtLeast(1)).to_string(),
            "the deepest search iteration must be at least 1"
        );
        let walls = |text: &str, problem| {
            Error::List {
                setting: Setting::Walls,
                text: text.into(),
                problem,
            }
            .to_string()
        };
        assert_eq!(
            walls("3..3", ListProblem::EmptyRange { noun: "wall count" }),
            "the wall counts '3..3': the range is empty (it has no wall count)"
        );
        let range = "walls per player must be a whole number from 0 to 31";
        assert_eq!(
            walls(
                "0,40",
                ListProblem::OutOfRange {
                    item: "40".into(),
                    range: range.into()
                }
            ),
            format!("the wall counts '0,40': 40 is out of range: {range}")
        );
        assert_eq!(
            Error::Seconds {
                setting: Setting::ConfirmSeconds,
                most: 60
            }
            .to_string(),
            "the second method's time limit must be 0 (no second method) or a positive number \
             of seconds of at most 60 (a year)"
        );
        let board = Error::BoardTooLarge {
            board: "9x9".into(),
            squares: 81,
            max: 64,
        };
        assert_eq!(
            board.to_string(),
            "the retrograde analysis handles boards of at most 64 cells; 9x9 has 81 (use proof \
             search)"
        );
        let path = "/t/x";
        assert_eq!(
            Error::NotADirectory { path: path.into() }.to_string(),
            format!("{path} is not a directory")
        );
        assert_eq!(
            Error::Missing { path: path.into() }.to_string(),
            format!("{path} does not exist")
        );
    }

    /// The budget and disk refusals say what happened, and no flag: the library does not
    /// know how its caller sets the budget or the directory.
    #[test]
    fn budget_refusals_name_no_flag() {
        let memory = Error::Memory {
            what: "4x4 with 2 walls".into(),
            needed: 3 << 20,
            budget: 1 << 20,
        };
        assert_eq!(
            memory.to_string(),
            "4x4 with 2 walls needs an estimated 3.00 MiB but the memory budget is 1.00 MiB"
        );
        let disk = Error::Disk {
            dir: "/s".into(),
            what: "layer 3".into(),
            needed: 2 << 30,
            free: 1 << 30,
        };
        assert_eq!(
            disk.to_string(),
            "layer 3 needs about 2.00 GiB on disk but the disk of /s has 1.00 GiB free (free \
             some, or write to a larger disk; the same command goes on from the layers written)"
        );
        let below = Error::BudgetBelowCells {
            budget: 1 << 10,
            least: "3x3 with 0 walls".into(),
            needed: 5 << 20,
        };
        assert!(!below.to_string().contains("--"), "{below}");
    }

    #[test]
    fn cells_and_threads_print_as_before() {
        let other = |holds: Option<&str>| Error::OtherCell {
            dir: "/s".into(),
            holds: holds.map(String::from),
            held: "3x3 with 1 wall".into(),
            asked: "4x4 with 2 walls".into(),
        };
        assert_eq!(
            other(Some("the analysis")).to_string(),
            "/s holds the analysis of 3x3 with 1 wall, not of 4x4 with 2 walls"
        );
        assert_eq!(
            other(None).to_string(),
            "/s holds 3x3 with 1 wall, not 4x4 with 2 walls"
        );
        let threads = Error::ThreadPool {
            threads: "4 threads".into(),
            why: "no memory".into(),
        };
        assert_eq!(threads.to_string(), "cannot start 4 threads: no memory");
    }

    #[test]
    fn file_refusals_print_as_before() {
        let foreign = Error::Foreign {
            dir: "/s".into(),
            entry: "notes.txt".into(),
        };
        assert_eq!(
            foreign.to_string(),
            format!(
                "{} now holds {}, which is not a saved table's: the old tables there were not \
                 removed",
                "/s", "notes.txt"
            )
        );
        let peer = Error::PeerTakeUp {
            rank: 3,
            dir: "/sp".into(),
        };
        assert_eq!(
            peer.to_string(),
            format!("rank {} could not take up {}: see its message", 3, "/sp")
        );
        let ranked = Error::Rank {
            who: "rank 2, layer 7".into(),
            error: Box::new(Error::io("write", "/sp/l7", io::Error::other("full"))),
        };
        assert_eq!(
            ranked.to_string(),
            format!(
                "{}: cannot {} {}: {}",
                "rank 2, layer 7", "write", "/sp/l7", "full"
            )
        );
        assert!(ranked.source().is_some());
    }
}
