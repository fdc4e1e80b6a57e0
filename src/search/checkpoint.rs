//! A proof search's transposition table kept in a file, so that a long search that stops
//! (its time limit, a full store, the end of a working day) goes on later where it stopped.
//! Every fact in the table is true whatever stopped the search (an aborted search stores
//! nothing), so the file holds no guess: the next run skips the iterations known to fail,
//! and what the table settles is not searched again.
//!
//! The file is one header line,
//! `quoridor-solver checkpoint 4 board WxH walls N keys NAME no-win A B bytes N spent S K`,
//! then the table's N bytes (`TranspositionTable::write_to`), then the line `sha256 HEX`:
//! the SHA-256 of everything before it. Player 1 cannot win within A plies, Player 2 within
//! B (they differ after a search that asked one player, `--winner`); the searches that
//! wrote the file took S seconds and K nodes in all, so that a cell solved over several
//! runs reports the whole of its work. A file is read as facts only when its checksum holds
//! and its table backs its header's bounds (`Checkpoint::check`); version 3 files (without
//! `spent`) are read with no record of earlier work, and files of versions 1 and 2 had no
//! checksum and are refused. Keys name configurations by
//! the store's key numbers, so a file is read back only over a store that numbers them alike
//! (`ConfigTables::key_numbering`). A save writes `FILE.part` and renames it, so a save
//! that is cut short leaves the last one whole; a process that ends during a save removes
//! its part first (`remove_part_being_written`, for a signal handler). Through a symbolic
//! link, the link's target is replaced and the link kept (`output_file::resolved`).

use super::no_win::{NoWin, attacker_at};
use super::node::Node;
use super::tt::{self, TranspositionTable};
use super::{beyond_reach, own_moves};
use crate::configs::ConfigTables;
use crate::error::{Error, Result, clip, count};
use crate::rules::geometry::Player;
use crate::rules::position::Position;
use crate::support::output_file;
use sha2::{Digest, Sha256};
use std::ffi::{CStr, CString};
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::time::{Duration, Instant};

/// Saves between two iterations wait this long after the last one: writing a table of
/// gigabytes takes seconds.
const SAVE_EVERY: Duration = Duration::from_secs(600);

const MAGIC: &str = "quoridor-solver checkpoint";
const VERSION: &str = "4";
/// The last version without `spent`, still read.
const VERSION_WITHOUT_SPENT: &str = "3";
/// What starts the line after the table.
const CHECKSUM: &str = "sha256 ";

/// The part file a save is writing, while it writes (null otherwise).
static PART_BEING_WRITTEN: AtomicPtr<libc::c_char> = AtomicPtr::new(std::ptr::null_mut());

/// Removes the part file of the save in progress, if any, and returns its path: for a
/// signal handler about to end the process, which would leave tens of megabytes or more
/// that no run reads (async-signal-safe: an atomic swap and `unlink`). `None` when no save
/// was writing or its part was gone already (renamed onto the checkpoint: that save is
/// whole).
pub fn remove_part_being_written() -> Option<&'static CStr> {
    let part = PART_BEING_WRITTEN.swap(std::ptr::null_mut(), Ordering::SeqCst);
    if part.is_null() {
        return None;
    }
    // SAFETY: `write` stores only pointers to a `Checkpoint::part`, leaked and never freed.
    let part = unsafe { CStr::from_ptr(part) };
    // SAFETY: unlink of a NUL-terminated path.
    (unsafe { libc::unlink(part.as_ptr()) } == 0).then_some(part)
}

/// A table read back, the iterations it knew to fail when it was saved, and what the
/// searches that wrote it took.
pub(super) struct Saved {
    pub tt: TranspositionTable,
    pub no_win: NoWin,
    /// `None`: a version 3 file, which did not record it.
    pub spent: Option<Spent>,
}

/// What the searches of one cell took, over the runs that went on from one checkpoint.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spent {
    pub seconds: f64,
    pub nodes: u64,
}

impl std::ops::Add for Spent {
    type Output = Spent;
    fn add(self, other: Spent) -> Spent {
        Spent {
            seconds: self.seconds + other.seconds,
            nodes: self.nodes + other.nodes,
        }
    }
}

pub struct Checkpoint {
    path: PathBuf,
    /// `FILE.part`, where a save writes before it renames. Leaked on purpose: a signal
    /// handler may read it at any moment until the process ends (`PART_BEING_WRITTEN`).
    part: &'static CStr,
    /// `board WxH walls N keys NAME`: what a file must say to be this cell's.
    cell: String,
    with_dominance: bool,
    /// What the file held, until the search takes it.
    loaded: Mutex<Option<Saved>>,
    last_save: Mutex<Instant>,
    /// How the last save went: what it saved, or why it failed (`None`: no save yet).
    last_outcome: Mutex<Option<std::result::Result<NoWin, String>>>,
}

impl Checkpoint {
    /// The checkpoint at `path` for the cell of `tables`, with its table if the file exists.
    /// A file that is damaged, another cell's, or whose table does not back its header is
    /// refused (`Error::Input`), never read as facts.
    pub fn open<T: ConfigTables>(path: &Path, tables: &T) -> Result<Checkpoint> {
        let Some(keys) = tables.key_numbering() else {
            return Err(Error::Argument(format!(
                "{} with {} walls cannot keep a checkpoint: its configurations are \
                 numbered in the order the search meets them, which the next run would not \
                 repeat",
                tables.board(),
                tables.walls_per_player()
            )));
        };
        // Written aside and renamed, and read back by the next run: only a regular file
        // (or a link to one) can be either; a FIFO would also block the read.
        if path.exists() && !path.is_file() {
            let what = match path.is_dir() {
                true => "a directory",
                false => "not a regular file",
            };
            return Err(Error::Argument(format!(
                "cannot keep a checkpoint in {}: it is {what}, and a checkpoint is a file the \
                 next run reads back",
                path.display()
            )));
        }
        let checkpoint = Checkpoint {
            path: path.to_path_buf(),
            part: Box::leak(part_of(&output_file::resolved(path))?.into_boxed_c_str()),
            cell: format!(
                "board {} walls {} keys {keys}",
                tables.board(),
                tables.walls_per_player()
            ),
            with_dominance: tt::dominance_holds(tables.board()),
            loaded: Mutex::new(None),
            last_save: Mutex::new(Instant::now()),
            last_outcome: Mutex::new(None),
        };
        if path.exists() {
            let saved = checkpoint
                .read()
                .and_then(|saved| check(&saved, tables).map(|()| saved))
                .map_err(|why| Error::CheckpointUnusable {
                    path: path.to_path_buf(),
                    why,
                })?;
            *checkpoint.loaded.lock().unwrap() = Some(saved);
        }
        Ok(checkpoint)
    }

    /// Refuses `path` for a checkpoint unless a save could write it: it is a file or does
    /// not exist yet, and its part file can be created beside it (created and removed
    /// here). Without this, a missing or read-only directory was found at the first save,
    /// ten minutes into the search or at its end.
    pub fn check_place(path: &Path) -> Result<()> {
        let cannot = |source: std::io::Error| Error::CheckpointPlace {
            path: path.to_path_buf(),
            source: source.into(),
        };
        if path.exists() && !path.is_file() {
            return Err(cannot(std::io::Error::other("it is not a file")));
        }
        // The part file itself, what a save creates first (one left by a save that was
        // killed is nothing to keep): created and removed. The error names it, keeping
        // the system's kind.
        let part = output_file::temporary_path(&output_file::resolved(path));
        output_file::check(path).map_err(|e| {
            cannot(std::io::Error::new(
                e.kind(),
                format!("{}: {e}", part.display()),
            ))
        })
    }

    /// The file the table is kept in.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The size of the table read from the file, if any.
    pub fn table_bytes(&self) -> Option<u64> {
        self.loaded.lock().unwrap().as_ref().map(|s| s.tt.bytes())
    }

    /// What the earlier runs took, as the file read says (nothing if there was no file,
    /// or it was of version 3; nothing either once the search has taken its table).
    pub fn earlier(&self) -> Spent {
        let loaded = self.loaded.lock().unwrap();
        loaded.as_ref().and_then(|s| s.spent).unwrap_or_default()
    }

    /// How the last save went: the bounds it saved, or why it failed; `None` before the
    /// first save.
    pub fn last_outcome(&self) -> Option<std::result::Result<NoWin, String>> {
        self.last_outcome.lock().unwrap().clone()
    }

    /// The table read from the file, once.
    pub(super) fn take(&self) -> Option<Saved> {
        self.loaded.lock().unwrap().take()
    }

    /// Whether a save between two iterations is due.
    pub(super) fn due(&self) -> bool {
        self.last_save.lock().unwrap().elapsed() >= SAVE_EVERY
    }

    /// Writes `tt`, with the iterations known to fail and what the searches took up to
    /// now (`spent`, earlier runs included), and remembers how it went.
    pub(super) fn save(
        &self,
        tt: &TranspositionTable,
        no_win: NoWin,
        spent: Spent,
    ) -> std::io::Result<()> {
        let saved = self.write(tt, no_win, spent);
        *self.last_outcome.lock().unwrap() = Some(match &saved {
            Ok(()) => Ok(no_win),
            Err(e) => Err(e.to_string()),
        });
        saved
    }

    fn write(&self, tt: &TranspositionTable, no_win: NoWin, spent: Spent) -> std::io::Result<()> {
        let part = Path::new(std::ffi::OsStr::from_bytes(self.part.to_bytes()));
        let written = (|| {
            // Named before it is created, until renamed: a process ended meanwhile removes
            // it. Named only after `create`, a signal between the two left it behind.
            PART_BEING_WRITTEN.store(self.part.as_ptr().cast_mut(), Ordering::SeqCst);
            let file = std::fs::File::create(part)?;
            let file = BufWriter::with_capacity(1 << 20, file);
            let mut out = Hashing::new(file);
            let [one, two] = no_win.0;
            writeln!(
                out,
                "{MAGIC} {VERSION} {} no-win {one} {two} bytes {} spent {:.3} {}",
                self.cell,
                tt.bytes(),
                spent.seconds,
                spent.nodes
            )?;
            tt.write_to(&mut out)?;
            let (mut file, digest) = out.finish();
            writeln!(file, "{CHECKSUM}{digest}")?;
            file.into_inner()?.sync_all()?;
            // Onto a link's target, so that a link stays a link (`output_file`).
            std::fs::rename(part, output_file::resolved(&self.path))
        })();
        PART_BEING_WRITTEN.store(std::ptr::null_mut(), Ordering::SeqCst);
        if written.is_err() {
            // A part file left behind would only take room (a full disk is a likely cause).
            let _ = std::fs::remove_file(part);
        }
        written?;
        *self.last_save.lock().unwrap() = Instant::now();
        Ok(())
    }

    fn read(&self) -> std::result::Result<Saved, String> {
        let file = std::fs::File::open(&self.path).map_err(|e| e.to_string())?;
        let mut input = Hashing::new(BufReader::with_capacity(1 << 20, file));
        let mut header = Vec::new();
        // A header is a short line: a file that is not a checkpoint is not read whole.
        (&mut input)
            .take(512)
            .read_until(b'\n', &mut header)
            .map_err(|e| e.to_string())?;
        let unknown = "not a checkpoint of this program";
        let header = std::str::from_utf8(&header)
            .map_err(|_| unknown)?
            .trim_end();
        let (version, rest) = header
            .strip_prefix(MAGIC)
            .and_then(|r| r.trim_start().split_once(' '))
            .ok_or(unknown)?;
        if version != VERSION && version != VERSION_WITHOUT_SPENT {
            return Err(match version {
                "1" | "2" => format!(
                    "it was written by an older version of this program (format {version}) \
                     without a checksum, so it cannot be checked"
                ),
                _ => format!("{unknown} (its format {version} is not {VERSION})"),
            });
        }
        let (cell, numbers) = rest
            .split_once(" no-win ")
            .ok_or("its header does not say which iterations failed")?;
        if cell != self.cell {
            // The full tables' ids were numbered otherwise before 3345ae9 (keys
            // "enumeration-1"): not another cell, an older numbering of the same one.
            let why = if cell.ends_with(" keys enumeration-1") {
                "; its keys are the full tables' ids as numbered before 2026-11-28 (commit \
                 3345ae9): a binary built from an earlier commit goes on from it"
            } else {
                " (keys name the store's numbering: `--store` must be the same)"
            };
            return Err(format!("it is for {cell}, not {}{why}", self.cell));
        }
        let (depths, bytes) = numbers
            .split_once(" bytes ")
            .ok_or("its header names no size")?;
        let no_win = match depths
            .split(' ')
            .map(str::parse)
            .collect::<std::result::Result<Vec<u8>, _>>()
            .as_deref()
        {
            Ok(&[one, two]) => NoWin([one, two]),
            _ => return Err("its header's depths are not two numbers of 0 to 255".into()),
        };
        let (bytes, spent) = match version {
            VERSION_WITHOUT_SPENT => (bytes, None),
            _ => {
                let (bytes, spent) = bytes
                    .split_once(" spent ")
                    .ok_or("its header does not say what the searches took")?;
                (bytes, Some(parse_spent(spent)?))
            }
        };
        let bytes = bytes
            .parse::<u64>()
            .map_err(|_| "its header's size is not a number")?;
        let length = std::fs::metadata(&self.path)
            .map_err(|e| e.to_string())?
            .len();
        // The header, the table and the checksum line: a size that is not the file's is
        // refused before a table of that size is made.
        let expected = (header.len() + 1) as u64 + bytes + (CHECKSUM.len() + 65) as u64;
        if length != expected {
            return Err(format!(
                "it is {length} bytes long, not the {expected} its header says: cut short \
                 or damaged"
            ));
        }
        let tt = TranspositionTable::read_from(&mut input, bytes, self.with_dominance)
            .map_err(|e| format!("its table is cut short or damaged ({e})"))?;
        let (mut input, digest) = input.finish();
        let mut trailer = String::new();
        input
            .read_to_string(&mut trailer)
            .map_err(|_| "its checksum line is damaged")?;
        if trailer.strip_prefix(CHECKSUM).map(str::trim_end) != Some(digest.as_str()) {
            return Err("its checksum does not match its content: it is damaged".into());
        }
        Ok(Saved { tt, no_win, spent })
    }
}

/// `FILE.part` for the checkpoint `FILE` (`output_file::temporary_path`), as a C string
/// for `unlink`.
fn part_of(path: &Path) -> Result<CString> {
    let name = output_file::temporary_path(path)
        .into_os_string()
        .into_vec();
    CString::new(name).map_err(|_| {
        Error::Argument(format!(
            "{} is not a path: it holds a NUL byte",
            path.display()
        ))
    })
}

/// The most seconds a header may say the searches took: a century. No run of this
/// program took that long, so a larger figure (a sealed 1e300 printed 300 digits, and
/// left a campaign's cell no time) is damage, refused like any other.
const MAX_SPENT_SECONDS: f64 = 100.0 * 365.25 * 24.0 * 3600.0;

/// The header's `spent` field: seconds (finite, not negative, at most `MAX_SPENT_SECONDS`)
/// and nodes.
fn parse_spent(text: &str) -> std::result::Result<Spent, String> {
    let bad = || {
        format!(
            "its header's work spent ({}) is not seconds and nodes",
            clip(text)
        )
    };
    let (seconds, nodes) = text.split_once(' ').ok_or_else(bad)?;
    let seconds = seconds
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .ok_or_else(bad)?;
    if seconds > MAX_SPENT_SECONDS {
        return Err(format!(
            "its header says the searches took {seconds:.3e} s, more than a century: it is \
             damaged"
        ));
    }
    let nodes = nodes.parse::<u64>().map_err(|_| bad())?;
    Ok(Spent { seconds, nodes })
}

/// Whether the table of `saved` backs its header: for each player, the claim that they
/// cannot win within their bound from the start must not contradict the table (a win the
/// table proves within it) and must be what a search that went that deep leaves behind.
/// A failed iteration at depth d stores its refutation of the start (or, should that
/// entry have been replaced, of its children at d - 1), unless the distance to the goal
/// alone refutes it or it asks a single move (nothing stored at 1 or 2 plies). A sound
/// checksum over an edited file gets this far; this catches bounds the table cannot hold.
fn check<T: ConfigTables>(saved: &Saved, tables: &T) -> std::result::Result<(), String> {
    let start =
        Position::start(tables.board(), tables.walls_per_player()).map_err(|e| e.to_string())?;
    let node = Node::from_position(tables, &start).ok_or("the start has no configuration")?;
    let key = node.key(tables);
    for player in [Player::One, Player::Two] {
        let bound = saved.no_win.0[player.index()];
        let fact = saved.tt.probe(key, player);
        if fact.win <= bound {
            return Err(format!(
                "its header says Player {} cannot win within {}, but its table proves a \
                 win within {}",
                player.number(),
                count(bound, "ply"),
                count(fact.win, "ply")
            ));
        }
        // The deepest iteration the bound covers in which this player attacks.
        let Some(depth) = (1..=bound)
            .rev()
            .find(|&d| attacker_at(&start, d) == player)
        else {
            continue;
        };
        let dist = tables.distance(node.config, player, node.pawn(player));
        let attacking = start.to_move == player;
        let refuted_by_distance = beyond_reach(
            &node,
            tables.board(),
            dist,
            own_moves(depth, attacking),
            attacking,
        );
        let deepest = saved.tt.deepest_refuted(player);
        if depth > 2 && !refuted_by_distance && fact.refuted < depth && deepest + 1 < depth {
            return Err(format!(
                "its header says Player {} cannot win within {}, but its table refutes \
                 no iteration deeper than {}",
                player.number(),
                count(bound, "ply"),
                count(deepest, "ply")
            ));
        }
    }
    Ok(())
}

/// A reader or writer that hashes every byte that goes through it.
struct Hashing<S> {
    inner: S,
    hasher: Sha256,
}

impl<S> Hashing<S> {
    fn new(inner: S) -> Hashing<S> {
        Hashing {
            inner,
            hasher: Sha256::new(),
        }
    }

    /// The stream back, and the SHA-256 (hex) of what went through.
    fn finish(self) -> (S, String) {
        let digest = self.hasher.finalize();
        let hex = digest.iter().map(|b| format!("{b:02x}")).collect();
        (self.inner, hex)
    }
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Hashing<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        // The bytes consumed are the ones `fill_buf` showed: hash them before they go.
        if let Ok(buf) = self.inner.fill_buf() {
            self.hasher.update(&buf[..amt]);
        }
        self.inner.consume(amt);
    }
}
