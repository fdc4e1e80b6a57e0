//! The library's typed errors. Only the edges print them (`main` through
//! `cli/error_text.rs`, which names the flags that mend a refusal; the Python package
//! includes that file); every message is one line that says what is wrong and, where it
//! helps, where. An error carries what happened: an I/O error keeps the system's as its
//! `source()`, a refusal the setting, value and bound concerned.

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
    /// to raise the budget (the command line: its flag, `cli/error_text.rs`).
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
    /// Any other invalid argument (a bad combination of options, a directory that holds
    /// the wrong thing, ...): each such refusal is made in one place only, its words are
    /// its whole content, so a string says it as well as fields would. Some still name
    /// the command line's flags (`cell/plan/refuse.rs`, the saved directories' refusals
    /// of `retro/format/`, `table/run.rs`): they are to move to the edge as those above did.
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
        }
    }

    /// What to ask for instead, in the library's words (the edges name their flags).
    pub fn remedy(self) -> &'static str {
        match self {
            Unrun::Winner | Unrun::OnDemand => "use the proof search",
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
/// edges name it by their flag (`cli/error_text.rs`).
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
    /// The longest the second method of a table run may take on a cell.
    ConfirmSeconds,
    /// The boards of a table run.
    Boards,
    /// The wall counts of a table run.
    Walls,
}

impl Setting {
    /// The setting in words, as the library's own messages give it.
    pub fn name(self) -> &'static str {
        match self {
            Setting::Threads => "the thread count",
            Setting::Workers => "the worker count",
            Setting::MaxDepth => "the deepest search iteration",
            Setting::MaxSeconds => "the time limit",
            Setting::ConfirmSeconds => "the second method's time limit",
            Setting::Boards => "the boards",
            Setting::Walls => "the wall counts",
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

/// `n` and its noun, singular for exactly one ("1 wall", "3 walls", "1 ply", "8 plies"), for
/// every message that counts something: one place that knows the plural, rather than an
/// if/else or a "1 walls" at each. A noun ending in a consonant and `y` takes `ies`.
pub fn count<N: fmt::Display + PartialEq + From<u8>>(n: N, noun: &str) -> String {
    if n == N::from(1) {
        return format!("{n} {noun}");
    }
    match noun.strip_suffix('y') {
        Some(stem) if !stem.ends_with(['a', 'e', 'i', 'o', 'u']) => format!("{n} {stem}ies"),
        _ => format!("{n} {noun}s"),
    }
}

/// The most characters of the user's text an error message repeats.
const CLIP_CHARS: usize = 40;

/// The user's `text` as an error message repeats it: whole when it is short, else its
/// first characters, an ellipsis and its length, so that a message stays one readable
/// line whatever was typed (a 2 MB argument used to be echoed whole). Control characters
/// are escaped, so a newline in the text cannot split the line either. Every message that
/// repeats what the user typed goes through here; each keeps its own quotes around it.
pub fn clip(text: &str) -> String {
    let shown: String = text
        .chars()
        .take(CLIP_CHARS)
        .flat_map(|c| match c.is_control() {
            true => c.escape_default().collect::<Vec<_>>(),
            false => vec![c],
        })
        .collect();
    let length = text.chars().count();
    match length > CLIP_CHARS {
        true => format!("{shown}... ({length} characters)"),
        false => shown,
    }
}

/// Bytes in the largest binary unit that keeps the number at or above 1 (e.g. `3.50 GiB`).
/// The sizes are computed saturating, so `u64::MAX` stands for any size past 64 bits and
/// says so rather than print a number it is not.
pub fn format_bytes(bytes: u64) -> String {
    const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    if bytes == u64::MAX {
        return "over 16 EiB".into();
    }
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.2} {}", UNITS[unit])
    }
}

pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::{Bound, Error, ListProblem, Setting, clip, count, format_bytes};
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
    /// flag (which only the edges name: `cli/error_text.rs` tests those) put in words.
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

    #[test]
    fn sizes_past_a_tebibyte_keep_their_unit() {
        assert_eq!(format_bytes(1023), "1023 B");
        assert_eq!(format_bytes(3 << 40), "3.00 TiB");
        assert_eq!(format_bytes(5 << 50), "5.00 PiB");
        assert_eq!(format_bytes(u64::MAX - 1), "16.00 EiB");
        assert_eq!(format_bytes(u64::MAX), "over 16 EiB");
    }

    #[test]
    fn clipped_text_is_short_and_on_one_line() {
        assert_eq!(clip("5x5"), "5x5");
        assert_eq!(clip("a\nb"), "a\\nb");
        let long = "x".repeat(2_000_000);
        assert_eq!(
            clip(&long),
            format!("{}... (2000000 characters)", "x".repeat(40))
        );
        // Characters, not bytes: a multi-byte letter is never cut in half.
        assert_eq!(
            clip(&"é".repeat(41)),
            format!("{}... (41 characters)", "é".repeat(40))
        );
    }

    #[test]
    fn counts_are_singular_for_one() {
        assert_eq!(count(1u8, "wall"), "1 wall");
        assert_eq!(count(0u8, "wall"), "0 walls");
        assert_eq!(count(1u32, "ply"), "1 ply");
        assert_eq!(count(8u32, "ply"), "8 plies");
        assert_eq!(count(2usize, "day"), "2 days");
        assert_eq!(count(12u64, "cell"), "12 cells");
    }
}
