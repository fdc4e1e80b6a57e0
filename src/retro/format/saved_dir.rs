//! The directories of saved tables: writing never mixes two tables. A save goes into a
//! new or empty directory, or replaces a saved table when told to (`Target::replace`), and
//! never deletes files that are not a saved table's. The files are written into a
//! temporary directory beside the destination and renamed onto it when whole. A `table
//! --save` directory holds one saved table per cell, in subdirectories named `WxH-wN`.
//! What a directory holds (`contents`) decides whether a save may write there and what
//! `verify` checks.

use super::saved::{HEADER, MANIFEST, PROGRESS, header, io, write_files};
use super::symmetry_cache;
use crate::error::{Clash, Error, Occupied, Result, count};
use crate::retro::engine::solved::Solved;
use crate::retro::engine::store::Precision;
use crate::rules::cell::Cell;
use crate::rules::geometry::Board;
use crate::support::dir_lock::DirLock;
use std::path::{Path, PathBuf};

/// Where to save a table, and whether a saved table already there may be replaced.
#[derive(Clone, Debug)]
pub struct Target {
    pub dir: PathBuf,
    /// Replace a saved table (or a `table --save` directory of them) found at `dir`; files
    /// that are not a saved table's are never replaced.
    pub replace: bool,
    /// Write straight into `dir` layer by layer, going on from the layers an earlier run of
    /// the same cell wrote there (`spill.rs`, `solve --scratch`), rather than into a
    /// temporary directory renamed onto `dir` at the end.
    pub resume: bool,
    /// Solve across these ranks (`retro::across`), each a share of every layer, `dir`
    /// shared by all (with `resume`: they write straight into it).
    pub ranks: Option<crate::retro::engine::ranks::SharedRanks>,
    /// Keep on disk only the layers read back at the end (with `resume`): each layer above
    /// them is deleted once the layer below it is written. The directory then bounds a
    /// search (`solve --fewer-walls`) but is no table: the disk holds the two layers being
    /// solved and those kept, where 7x5 with 5 walls exact would take the whole 337 GiB
    /// before compression.
    pub bound_only: bool,
}

impl Target {
    /// A scratch directory of one process: written into as the run goes, and taken up
    /// where an earlier run stopped (`resume`), never replacing a finished table.
    pub fn scratch(dir: PathBuf) -> Target {
        Target {
            dir,
            replace: false,
            resume: true,
            ranks: None,
            bound_only: false,
        }
    }

    /// Takes `dir` for this run before any work is done for it (`dir_lock.rs`): where the
    /// run writes straight into it (`resume`), created if need be, on rank 0 only of an MPI
    /// job; else where a table is there to be replaced. A new table goes through a
    /// temporary directory of this process's own first.
    pub fn take(&self) -> Result<Option<DirLock>> {
        let first_rank = self.ranks.as_ref().is_none_or(|r| r.0.rank() == 0);
        match (self.resume, first_rank) {
            (true, true) => DirLock::create_and_take(&self.dir).map(Some),
            (false, _) if self.dir.is_dir() => DirLock::take(&self.dir).map(Some),
            _ => Ok(None),
        }
    }
}

/// The name of a cell's directory in a `table --save` directory, e.g. `3x3-w1`.
pub fn cell_dir_name(cell: Cell) -> String {
    format!("{}-w{}", cell.board, cell.walls)
}

/// The cell a `table --save` subdirectory is named for, if its name is one.
pub fn parse_cell_dir_name(name: &str) -> Option<Cell> {
    let (board, walls) = name.split_once("-w")?;
    let walls: u8 = walls.parse().ok()?;
    let cell = Cell::new(Board::parse(board).ok()?, walls);
    (cell_dir_name(cell) == name).then_some(cell)
}

/// Whether `name` is the name of one of a saved table's own files, or of the record of an
/// analysis writing one (`spill.rs`).
fn is_table_file(name: &str) -> bool {
    name == HEADER
        || name == MANIFEST
        || name == PROGRESS
        || name == format!("{}.part", PROGRESS)
        || name == symmetry_cache::FILE
        || name == format!("{}.part", symmetry_cache::FILE)
        || (name.starts_with("layer-") && (name.ends_with(".bin.gz") || name.ends_with(".bin.zst")))
}

/// The directory beside `dir` that a save writes into (`part`) or moves the table it
/// replaces to (`old`) before deleting it: `NAME.part-PID`, `NAME.old-PID`.
fn sibling(dir: &Path, what: &str) -> PathBuf {
    let name = dir.file_name().map(|n| n.to_string_lossy().into_owned());
    let name = name.unwrap_or_else(|| "saved".into());
    dir.with_file_name(format!("{name}.{what}-{}", std::process::id()))
}

/// Whether `name` is that of a temporary directory of a save (`sibling`).
fn is_temporary_name(name: &str) -> bool {
    ["part", "old"].iter().any(|what| {
        name.rsplit_once(&format!(".{what}-"))
            .is_some_and(|(_, pid)| !pid.is_empty() && pid.chars().all(|c| c.is_ascii_digit()))
    })
}

/// What a directory holds, as far as saved tables go: enough to decide whether a save may
/// write there, replace it, or what `verify` should check.
#[derive(Debug, Default)]
pub struct Contents {
    /// Files of one saved table directly in the directory (`solve --save`).
    pub table_files: bool,
    /// Subdirectories named for a cell (`WxH-wN`, `table --save`), sorted.
    pub cells: Vec<String>,
    /// Temporary directories of a save that was killed (`NAME.part-PID`, `NAME.old-PID`)
    /// holding only a saved table's files: never a result.
    pub leftovers: Vec<PathBuf>,
    /// The first entry (by name, at any depth) that is not a saved table's: a reason
    /// never to delete the directory.
    pub foreign: Option<String>,
}

impl Contents {
    /// Whether it holds the tables of several cells rather than a single saved table:
    /// what a message about them counts.
    pub fn many(&self) -> bool {
        !self.table_files && self.cells.len() > 1
    }

    pub fn is_empty(&self) -> bool {
        !self.table_files
            && self.cells.is_empty()
            && self.leftovers.is_empty()
            && self.foreign.is_none()
    }
}

/// The names in `dir`, sorted, each with whether it is a directory.
fn entries(dir: &Path) -> Result<Vec<(String, bool)>> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| io(dir, "read", e))? {
        let entry = entry.map_err(|e| io(dir, "read", e))?;
        // A symbolic link is not followed: it counts as a file, so it is never a table.
        let is_dir = entry.file_type().map_err(|e| io(dir, "read", e))?.is_dir();
        names.push((entry.file_name().to_string_lossy().into_owned(), is_dir));
    }
    names.sort();
    Ok(names)
}

/// The first entry of `dir` that is not one of a saved table's files, if any.
fn foreign_in_table(dir: &Path) -> Result<Option<String>> {
    Ok(entries(dir)?
        .into_iter()
        .find(|(name, is_dir)| *is_dir || !is_table_file(name))
        .map(|(name, _)| name))
}

/// What `dir` holds; `None` if nothing is there. A path that is not a directory is an
/// error: nothing can be saved or verified there.
pub fn contents(dir: &Path) -> Result<Option<Contents>> {
    // Followed if a link: a link to a directory is that directory.
    match std::fs::metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(dir, "read", e)),
        Ok(m) if !m.is_dir() => {
            return Err(Error::NotADirectory {
                path: dir.to_path_buf(),
            });
        }
        Ok(_) => {}
    }
    let mut c = Contents::default();
    for (name, is_dir) in entries(dir)? {
        let foreign_inside = |c: &mut Contents| -> Result<bool> {
            match foreign_in_table(&dir.join(&name))? {
                Some(inner) => {
                    c.foreign.get_or_insert(format!("{name}/{inner}"));
                    Ok(true)
                }
                None => Ok(false),
            }
        };
        if !is_dir && is_table_file(&name) {
            c.table_files = true;
        } else if is_dir && parse_cell_dir_name(&name).is_some() {
            foreign_inside(&mut c)?;
            c.cells.push(name);
        } else if is_dir && is_temporary_name(&name) {
            if !foreign_inside(&mut c)? {
                c.leftovers.push(dir.join(&name));
            }
        } else {
            c.foreign.get_or_insert(name);
        }
    }
    Ok(Some(c))
}

/// A short description of the saved tables in `dir` (`c`), for a message: the cell of
/// one table (read from its header when it can be), or the cells of a `table --save`.
pub fn describe(dir: &Path, c: &Contents) -> String {
    if c.table_files {
        return match header(dir) {
            Ok(h) => format!(
                "a saved table ({}x{} with {})",
                h.width,
                h.height,
                count(h.walls, "wall")
            ),
            Err(_) => "a saved table (its header unreadable)".into(),
        };
    }
    if !c.cells.is_empty() {
        return format!(
            "the {} of {} ({})",
            match c.many() {
                true => "saved tables",
                false => "saved table",
            },
            count(c.cells.len(), "cell"),
            c.cells.join(", ")
        );
    }
    "the remains of an interrupted save".into()
}

/// The refusal of a destination `dir` that holds `foreign`, not a saved table's.
pub fn not_a_table(dir: &Path, foreign: &str) -> Error {
    Error::Occupied {
        dir: dir.to_path_buf(),
        holds: foreign.to_string(),
        what: Occupied::Foreign,
    }
}

/// The refusal of a directory `dir` for the layers of an analysis (`--scratch`) that holds
/// `foreign`.
pub fn not_for_layers(dir: &Path, foreign: &str) -> Error {
    Error::Occupied {
        dir: dir.to_path_buf(),
        holds: foreign.to_string(),
        what: Occupied::ForeignForLayers,
    }
}

/// Refuses `to` before any work is done for it, unless a save may write there: `to.dir`
/// does not exist or is empty, or holds saved tables and `to.replace` is set. Files that
/// are not a saved table's are never replaced, even with `replace`: deleting what this
/// program did not write is not its to do. Then makes sure the temporary directory beside
/// it can be created, so that a full analysis is not lost to a directory that cannot be
/// written at the end.
pub fn check_destination(to: &Target) -> Result<()> {
    if let Some(c) = contents(&to.dir)? {
        if let Some(foreign) = &c.foreign {
            return Err(match to.resume {
                true => not_for_layers(&to.dir, foreign),
                false => not_a_table(&to.dir, foreign),
            });
        }
        if to.resume {
            // One cell's layers or table is taken up (the cell is checked when the run
            // opens it: `Spill::open`); a `table --save` directory is not one cell's.
            if !c.cells.is_empty() {
                return Err(Error::Occupied {
                    dir: to.dir.clone(),
                    holds: describe(&to.dir, &c),
                    what: Occupied::NotOneCell,
                });
            }
            return Ok(());
        }
        if !c.is_empty() && !to.replace {
            return Err(Error::Occupied {
                dir: to.dir.clone(),
                holds: describe(&to.dir, &c),
                what: Occupied::Tables { many: c.many() },
            });
        }
    }
    // The directory written: the temporary one beside `dir`, or `dir` itself.
    let part = match to.resume {
        true => to.dir.clone(),
        false => sibling(&to.dir, "part"),
    };
    if !part.exists() {
        create_fresh(&part)?;
        std::fs::remove_dir(&part).map_err(|e| io(&part, "remove", e))?;
    }
    Ok(())
}

/// Creates `dir` empty (its parents if need be), first removing one left by a killed
/// process with this process's id.
fn create_fresh(dir: &Path) -> Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| io(dir, "remove", e))?;
    }
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| io(parent, "create", e))?;
    }
    std::fs::create_dir(dir).map_err(|e| io(dir, "create", e))
}

/// A directory removed when dropped unless kept: the temporary table of a save that
/// failed (an error, or a panic unwinding) never stays behind.
struct Scratch<'a>(Option<&'a Path>);

impl Scratch<'_> {
    /// The directory is no longer scratch (it was renamed into place).
    fn keep(mut self) {
        self.0 = None;
    }
}

impl Drop for Scratch<'_> {
    fn drop(&mut self) {
        if let Some(dir) = self.0 {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// Writes `solved` (exact, every layer kept) into the new or empty directory `dir`;
/// returns the bytes written. `save_to` says what happens when `dir` holds a table.
pub fn save(solved: &Solved, dir: &Path) -> Result<u64> {
    save_to(
        solved,
        &Target {
            dir: dir.to_path_buf(),
            replace: false,
            resume: false,
            ranks: None,
            bound_only: false,
        },
    )
}

/// Writes `solved` (exact, every layer kept) as a saved table at `to.dir`; returns the
/// bytes written. The files go into a temporary directory beside it (`NAME.part-PID`,
/// the manifest last), which is renamed onto `to.dir` only when whole: a failure removes
/// it, and a killed process leaves it under its temporary name, never a part of a table
/// under the final one. A table replaced (`to.replace`) is moved aside and deleted only
/// once the new one is in place.
pub fn save_to(solved: &Solved, to: &Target) -> Result<u64> {
    if solved.precision != Precision::Exact || !solved.keeps_all_layers() {
        return Err(Error::Options(Clash::SaveNotExact));
    }
    through_temporary(to, |part| write_files(solved, part))
}

/// Writes a table at `to.dir` by `write` into a temporary directory beside it, renamed
/// onto `to.dir` when whole: a failure removes the temporary directory, and a killed
/// process leaves it under its temporary name, never part of a table under the final one.
pub(in crate::retro) fn through_temporary<T>(
    to: &Target,
    write: impl FnOnce(&Path) -> Result<T>,
) -> Result<T> {
    // A link to a directory stays a link: the table is renamed onto where it leads.
    let to = &Target {
        dir: crate::support::output_file::resolved(&to.dir),
        ..to.clone()
    };
    check_destination(to)?;
    let part = sibling(&to.dir, "part");
    create_fresh(&part)?;
    let scratch = Scratch(Some(&part));
    let done = write(&part)?;
    install(&part, &to.dir)?;
    scratch.keep();
    Ok(done)
}

/// Renames the whole table `part` onto `dir`, moving what `dir` held aside first and
/// deleting it last (checked by `check_destination`: nothing, or saved tables).
fn install(part: &Path, dir: &Path) -> Result<()> {
    if !dir.exists() {
        return std::fs::rename(part, dir).map_err(|e| io(dir, "create", e));
    }
    let old = sibling(dir, "old");
    if old.exists() {
        std::fs::remove_dir_all(&old).map_err(|e| io(&old, "remove", e))?;
    }
    std::fs::rename(dir, &old).map_err(|e| io(dir, "move aside", e))?;
    if let Err(e) = std::fs::rename(part, dir) {
        // Put the old table back rather than leave nothing under its name.
        let _ = std::fs::rename(&old, dir);
        return Err(io(dir, "create", e));
    }
    std::fs::remove_dir_all(&old).map_err(|e| io(&old, "remove", e))
}

/// Removes what a `table --save` run found in `dir` and did not write: the files of a
/// single saved table directly in it, and every cell directory not in `keep`. Only a saved
/// table's files are removed (`contents`): anything else stays, and is named.
pub fn remove_tables_except(dir: &Path, keep: &[String]) -> Result<()> {
    let Some(c) = contents(dir)? else {
        return Ok(());
    };
    if let Some(foreign) = &c.foreign {
        return Err(Error::Foreign {
            dir: dir.to_path_buf(),
            entry: foreign.clone(),
        });
    }
    if c.table_files {
        for (name, _) in entries(dir)? {
            if is_table_file(&name) {
                let path = dir.join(name);
                std::fs::remove_file(&path).map_err(|e| io(&path, "remove", e))?;
            }
        }
    }
    for cell in c.cells.iter().filter(|c| !keep.contains(c)) {
        let path = dir.join(cell);
        std::fs::remove_dir_all(&path).map_err(|e| io(&path, "remove", e))?;
    }
    remove_leftovers(&c);
    Ok(())
}

/// Removes the temporary directories of killed saves found by `contents`: never results.
pub fn remove_leftovers(c: &Contents) {
    for path in &c.leftovers {
        let _ = std::fs::remove_dir_all(path);
    }
}

/// The saved tables in `dir`: the one table it holds (`solve --save`), or one per cell
/// directory (`table --save`, `WxH-wN`), each with its cell read from its header. A
/// directory that holds neither, or files that are not a saved table's, is refused.
pub fn tables_in(dir: &Path) -> Result<Vec<(PathBuf, Cell)>> {
    let c = contents(dir)?.ok_or_else(|| Error::Missing {
        path: dir.to_path_buf(),
    })?;
    if let Some(foreign) = &c.foreign {
        return Err(Error::NotSavedTables {
            dir: dir.to_path_buf(),
            foreign: foreign.clone(),
        });
    }
    let dirs: Vec<PathBuf> = match c.table_files {
        true => vec![dir.to_path_buf()],
        false => c.cells.iter().map(|name| dir.join(name)).collect(),
    };
    if dirs.is_empty() {
        return Err(Error::Argument(format!(
            "{} holds no saved table",
            dir.display()
        )));
    }
    dirs.into_iter()
        .map(|d| {
            let h = header(&d)?;
            let board = Board::new(h.width, h.height)
                .map_err(|e| Error::Damaged(format!("{}: {e}", d.join(HEADER).display())))?;
            Ok((d, Cell::new(board, h.walls)))
        })
        .collect()
}

/// The bytes of the files of the saved table in `dir`.
pub(in crate::retro) fn table_bytes(dir: &Path) -> Result<u64> {
    let mut bytes = 0;
    for (name, is_dir) in entries(dir)? {
        if !is_dir && is_table_file(&name) {
            let path = dir.join(name);
            bytes += std::fs::metadata(&path)
                .map_err(|e| io(&path, "read", e))?
                .len();
        }
    }
    Ok(bytes)
}
