//! `table`: solve the cells of the published table (cheapest first), write results/ as
//! CSV, JSON and Markdown after every cell, and check the outcomes against the published
//! table.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use quoridor_solver::error::{clip, count, format_bytes};
use quoridor_solver::estimate::CellEstimate;
use quoridor_solver::geometry::Board;
use quoridor_solver::plan;
use quoridor_solver::position::MAX_WALLS_PER_PLAYER;
use quoridor_solver::report::beyond::{BEYOND_BOARDS, even_heights_decided};
use quoridor_solver::report::check::{CheckSummary, check};
use quoridor_solver::report::published::{self, EVEN_BOARDS};
use quoridor_solver::report::{self, CSV_NAME, CellRecord};
use quoridor_solver::retro::{Precision, saved};
use quoridor_solver::solver::{
    DEFAULT_TT_BYTES, Method, MethodUsed, Need, Outcome, SolveOptions, Store, solve,
};
use quoridor_solver::{Error, Result};

use super::progress::Bars;
use super::resources::ResourceArgs;
use super::walls_range;

/// Solve the table of small boards (the published one by default) and check it
#[derive(Args, Debug)]
pub struct TableArgs {
    /// Only these boards, e.g. 5x5,3x7 (any valid board, published or not)
    #[arg(long, value_name = "WxH,...")]
    boards: Option<String>,

    /// Only these wall counts (0 to 31): N, A..B, A..=B or a list A,B,C
    #[arg(
        long,
        value_name = "RANGE",
        default_value = "0..=10",
        allow_negative_numbers = true
    )]
    walls: String,

    /// Also the even-height boards of at most 28 cells (2x4 to 7x4, 2x6 to 4x6, 2x8, 3x8),
    /// which "Solving Quoridor" says are all Player 1 wins
    #[arg(long)]
    even: bool,

    /// The second table, beyond the published one: boards of 29 to 81 cells (10x3 to 21x3,
    /// 6x5 to 12x5, 5x7 to 9x7, 4x9 to 7x9, the standard 9x9, 3x11, 5x11; even heights 5x6,
    /// 6x6, 4x8, 8x8).
    /// Proof search with configurations built on demand where the full tables do not fit.
    /// Implies --stop-at-undecided. Output in results/beyond unless --out is given;
    /// --max-seconds defaults to 60
    #[arg(long, conflicts_with_all = ["boards", "even"])]
    beyond: bool,

    /// Once a board has a cell left undecided (time or depth limit), skip its cells with
    /// more walls: they are harder, and each would cost the limit again
    #[arg(long)]
    stop_at_undecided: bool,

    /// Give up on a cell's proof search after this many seconds: it is recorded as unknown
    /// with the depth reached, and retried by a later --resume [default: 900; 60 with
    /// --beyond]. A retrograde
    /// analysis runs only when its estimated time fits; the search for its length then gets
    /// the limit again
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    max_seconds: Option<f64>,

    /// How to decide each cell: `auto` (planned per cell from the estimated cost of each
    /// method and the cells already solved: the retrograde analysis, or proof search and
    /// then the analysis if neither player has won, or proof search alone when no analysis
    /// fits), `search` or `retro` (see `solve --help`)
    #[arg(long, value_enum, default_value_t = super::solve::MethodArg::Auto)]
    method: super::solve::MethodArg,

    /// Deepest search iteration in plies for each cell [default: 120]
    #[arg(long, value_name = "D")]
    max_depth: Option<u8>,

    /// Keep the cells already decided in OUT/table.csv and solve only the others
    #[arg(long)]
    resume: bool,

    /// Solve nothing: compare the results in FILE (a table.csv) with the published table.
    /// Not with the options that choose or solve cells, which it would ignore
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = [
            "boards", "walls", "even", "beyond", "stop_at_undecided", "max_seconds", "method", "max_depth",
            "resume", "out", "threads", "memory", "save",
        ]
    )]
    check: Option<PathBuf>,

    /// Directory for table.csv, table.json, table.md and table.svg [default: results, or
    /// results/beyond with --beyond]
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,

    /// Also save each cell's values in DIR/WxH-wN (as `solve --save`, read by `analyze
    /// --table`): such a cell is solved by the exact retrograde analysis, each layer saved
    /// as it is solved, where that fits the memory budget; the others are planned as usual and not
    /// saved (their line says why). DIR must be new or empty (checked before solving);
    /// with --resume it may hold the cells of the run resumed: those kept stay, those
    /// solved again are replaced. Each cell is written beside its directory and renamed
    /// onto it when whole
    #[arg(long, value_name = "DIR")]
    save: Option<PathBuf>,

    /// With --save: replace the saved tables already in DIR: each cell's as it is saved,
    /// and at the end of the run those this run did not save (with --resume, only a
    /// single table saved by `solve`; the cells kept stay). A directory holding other
    /// files is never replaced
    #[arg(long, requires = "save")]
    force: bool,

    #[command(flatten)]
    resources: ResourceArgs,

    /// Also print the solver's own messages on stderr: a line per search depth of each cell
    #[arg(short, long, conflicts_with = "quiet")]
    pub verbose: bool,

    /// Print nothing on stderr but errors: no progress bars, no line per cell
    #[arg(short, long)]
    pub quiet: bool,
}

/// The time limit of each cell when `--max-seconds` is not given.
const DEFAULT_MAX_SECONDS: f64 = 900.0;
/// The same with `--beyond`: a first pass over many more cells, most decided by search
/// in seconds or not within minutes.
const BEYOND_MAX_SECONDS: f64 = 60.0;

/// What a checked `table` command does (named apart from the configuration tables and the
/// results table it writes).
pub enum TableJob {
    Check(PathBuf),
    Run {
        cells: Vec<(Board, u8)>,
        options: SolveOptions,
        resume: bool,
        out: PathBuf,
        save: Option<PathBuf>,
        /// Replace the saved tables found in `save` (`--force`).
        force: bool,
        /// Skip a board's cells with more walls than one left undecided (`--beyond`).
        stop_at_undecided: bool,
    },
}

impl TableArgs {
    pub fn validate(&self) -> Result<TableJob> {
        if let Some(file) = &self.check {
            return Ok(TableJob::Check(file.clone()));
        }
        let walls = parse_walls(&self.walls)?;
        let mut boards: Vec<Board> = match &self.boards {
            None if self.beyond => BEYOND_BOARDS
                .iter()
                .map(|&(w, h)| Board::new(w, h))
                .collect::<Result<_>>()?,
            Some(list) => {
                let boards: Vec<Board> = list
                    .split(',')
                    .map(|b| Board::parse(b.trim()))
                    .collect::<Result<_>>()?;
                // A board given twice would be solved twice: almost surely a slip.
                if let Some((_, b)) = boards
                    .iter()
                    .enumerate()
                    .find(|&(i, b)| boards[..i].contains(b))
                {
                    return Err(Error::Argument(format!(
                        "--boards '{}': {b} is given twice",
                        clip(list)
                    )));
                }
                boards
            }
            None => {
                let mut v: Vec<Board> = Vec::new();
                for c in published::cells() {
                    let b = Board::new(c.width, c.height)?;
                    if !v.contains(&b) {
                        v.push(b);
                    }
                }
                v
            }
        };
        if self.even {
            for (w, h) in EVEN_BOARDS {
                let b = Board::new(w, h)?;
                if !boards.contains(&b) {
                    boards.push(b);
                }
            }
        }
        let mut cells: Vec<(Board, u8)> = boards
            .iter()
            .flat_map(|&b| walls.iter().map(move |&n| (b, n)))
            .collect();
        // Cheapest first: smaller boards, then fewer walls.
        cells.sort_by_key(|(b, n)| (b.cells(), *n, b.height(), b.width()));
        let default_seconds = match self.beyond {
            true => BEYOND_MAX_SECONDS,
            false => DEFAULT_MAX_SECONDS,
        };
        let time_limit = super::time_limit(self.max_seconds.unwrap_or(default_seconds))?;
        let max_depth = super::max_depth(self.max_depth)?;
        let method = self.method.into();
        if self.save.is_some() && method == Method::Search {
            return Err(Error::Argument(
                "--save keeps the retrograde analysis's values; --method search runs none".into(),
            ));
        }
        let r = self.resources.validate()?;
        let options = SolveOptions {
            checkpoint: None,
            winner: None,
            method,
            max_depth,
            time_limit: Some(time_limit),
            threads: r.threads,
            memory_budget: r.memory_budget,
            tt_bytes: DEFAULT_TT_BYTES,
            precision: None,
            save: None,
            store: Store::Auto,
        };
        refuse_budget_below_every_cell(&cells, &options)?;
        Ok(TableJob::Run {
            cells,
            options,
            resume: self.resume,
            out: self.out.clone().unwrap_or_else(|| match self.beyond {
                true => PathBuf::from("results/beyond"),
                false => PathBuf::from("results"),
            }),
            save: self.save.clone(),
            force: self.force,
            stop_at_undecided: self.beyond || self.stop_at_undecided,
        })
    }
}

/// Refuses a budget below what the least demanding cell needs: every cell would be
/// skipped, and the run would write an empty table and succeed after doing nothing. A
/// budget that fits some cells only runs; the others are skipped with a line each.
fn refuse_budget_below_every_cell(cells: &[(Board, u8)], options: &SolveOptions) -> Result<()> {
    let least = cells
        .iter()
        .map(|&(board, walls)| {
            let estimate = CellEstimate::new(board, walls);
            let need = Need::least(board, &estimate, options);
            (need.bytes, need.what(board, walls, &estimate))
        })
        .min_by_key(|(bytes, _)| *bytes);
    match least {
        Some((bytes, what)) if bytes > options.memory_budget => Err(Error::Argument(format!(
            "the memory budget, {}, is below what any selected cell needs: the least is {what}, \
             an estimated {} (raise it with --memory)",
            format_bytes(options.memory_budget),
            format_bytes(bytes)
        ))),
        _ => Ok(()),
    }
}

/// `N`, `A..B`, `A..=B` or `A,B,C` into a sorted list of wall counts. A number out of
/// range gets the same words as `--walls` of the other commands; an empty range or a count
/// given twice is refused rather than quietly dropped, since it is almost surely a slip.
fn parse_walls(text: &str) -> Result<Vec<u8>> {
    let refuse = |why: String| Error::Argument(format!("--walls '{}': {why}", clip(text)));
    let num = |s: &str| -> Result<u8> {
        let s = s.trim();
        let digits = s.strip_prefix('-').unwrap_or(s);
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
            return Err(refuse("write N, A..B, A..=B or A,B,C (e.g. 0..=10)".into()));
        }
        s.parse::<u8>()
            .ok()
            .filter(|&n| n <= MAX_WALLS_PER_PLAYER)
            .ok_or_else(|| refuse(format!("{} is out of range: {}", clip(s), walls_range())))
    };
    let mut v: Vec<u8> = if let Some((a, b)) = text.split_once("..=") {
        (num(a)?..=num(b)?).collect()
    } else if let Some((a, b)) = text.split_once("..") {
        (num(a)?..num(b)?).collect()
    } else {
        text.split(',').map(num).collect::<Result<_>>()?
    };
    if v.is_empty() {
        return Err(refuse("the range is empty (it has no wall count)".into()));
    }
    v.sort_unstable();
    if let Some(pair) = v.windows(2).find(|p| p[0] == p[1]) {
        return Err(refuse(format!("{} is given twice", pair[0])));
    }
    Ok(v)
}

pub fn run(t: TableJob, bars: &Bars, out: &mut dyn Write) -> Result<ExitCode> {
    let (cells, options, resume, dir, save, force, stop_at_undecided) = match t {
        TableJob::Check(file) => {
            let records = report::read_csv(&file)?;
            // A check of nothing would pass: an empty file is a wrong path, not a result.
            if records.is_empty() {
                return Err(Error::Input(format!(
                    "{}: no results to check (the file has no rows)",
                    file.display()
                )));
            }
            let summary = check(&records, &published::cells());
            write_summary(&summary, out)?;
            return Ok(exit_code(&summary));
        }
        TableJob::Run {
            cells,
            options,
            resume,
            out,
            save,
            force,
            stop_at_undecided,
        } => (cells, options, resume, out, save, force, stop_at_undecided),
    };
    report::check_writable(&dir)?;
    report::remove_stale_temporaries(&dir);
    // Before any cell is solved: a refusal at the first save would come minutes in.
    let found = match &save {
        Some(save) => check_save_dir(save, force, resume)?,
        None => saved::Contents::default(),
    };
    // The cells saved by this run, and (with --resume) those kept: what --force keeps.
    let mut keep = match resume {
        true => found.cells.clone(),
        false => Vec::new(),
    };
    let csv_path = dir.join(CSV_NAME);
    let mut records: Vec<CellRecord> = if resume && csv_path.exists() {
        report::read_csv(&csv_path)?
    } else {
        Vec::new()
    };
    let done = |records: &[CellRecord], b: &Board, n: u8| {
        records
            .iter()
            .any(|r| r.cell() == (b.width(), b.height(), n) && r.is_decided())
    };
    let todo: Vec<(Board, u8)> = cells
        .iter()
        .copied()
        .filter(|(b, n)| !done(&records, b, *n))
        .collect();
    let other_builds = kept_from_other_builds(&records, &cells);
    if let Some(line) = &other_builds {
        bars.line(line);
    }
    let overall = bars.overall("table", todo.len() as u64);
    super::interrupt::hint_on_interrupt(&format!(
        "interrupted: every cell finished so far is in {}; run the same command again with \
         --resume to solve only the others",
        csv_path.display()
    ));
    let started = std::time::Instant::now();
    let mut skipped = 0;
    let mut passed_over = 0;
    for (i, &(board, walls)) in todo.iter().enumerate() {
        overall.set_message(format!("table: {board} with {}", count(walls, "wall")));
        let undecided_below = || {
            records.iter().find(|r| {
                (r.width, r.height) == (board.width(), board.height())
                    && r.walls < walls
                    && !r.is_decided()
            })
        };
        if stop_at_undecided && let Some(r) = undecided_below() {
            bars.line(&format!(
                "[{}/{}] {board} with {} skipped: {} was not decided within the limit",
                i + 1,
                todo.len(),
                count(walls, "wall"),
                count(r.walls, "wall")
            ));
            overall.inc(1);
            passed_over += 1;
            continue;
        }
        let planned = plan::plan(
            board,
            walls,
            options.memory_budget,
            options.time_limit.unwrap_or(Duration::MAX),
            &earlier(&records),
        );
        let mut cell_options = SolveOptions {
            // `auto` (the default) follows the plan; `search` and `retro` are the user's.
            method: match options.method {
                Method::Auto => planned.method,
                m => m,
            },
            tt_bytes: planned.tt_bytes,
            precision: planned.precision,
            ..options.clone()
        };
        let mut saved = String::new();
        if let Some(save) = &save {
            // The layers go to disk as they are solved: the streaming analysis's memory.
            let e = CellEstimate::new(board, walls);
            let needed = e.retro_bytes(Some(Precision::Exact));
            if needed <= options.memory_budget {
                let name = saved::cell_dir_name(board, walls);
                let path = save.join(&name);
                saved = format!("; values saved in {}", path.display());
                cell_options.method = Method::Retro;
                cell_options.precision = Some(Precision::Exact);
                // The directory was checked as a whole: a cell's own table found there is
                // the resumed run's or one --force replaces.
                cell_options.save = Some(saved::Target {
                    dir: path,
                    replace: force || resume,
                    resume: false,
                });
                keep.push(name);
            } else {
                saved = format!(
                    "; not saved: the exact analysis needs {}",
                    format_bytes(needed)
                );
            }
        }
        let result = match solve(board, walls, &cell_options, bars) {
            Ok(r) => r,
            // One cell too large for the budget does not stop the others; it stays missing.
            Err(e @ Error::Memory { .. }) => {
                bars.line(&format!("[{}/{}] skipped: {e}", i + 1, todo.len()));
                overall.inc(1);
                skipped += 1;
                continue;
            }
            Err(e) => return Err(e),
        };
        let record = CellRecord::from_result(&result);
        // The plan's reason where the plan was followed, then what was saved.
        let followed = cell_options.save.is_none() && cell_options.method == planned.method;
        let mut why = match followed {
            true => format!("; planned {}{saved}", planned.why),
            false => saved,
        };
        // A row says how far the search has gone on an undecided cell: a shorter try
        // (--resume with a smaller limit) does not take that back.
        let deeper_before = records
            .iter()
            .find(|r| r.cell() == record.cell() && !r.is_decided() && !record.is_decided())
            .map(|r| r.depth_reached)
            .filter(|&d| d > record.depth_reached);
        if let Some(d) = deeper_before {
            why.push_str(&format!(
                "; the earlier row, searched to {}, is kept",
                count(d, "ply")
            ));
        }
        bars.line(&format!(
            "[{}/{}] {board} with {}: {} in {:.2} s ({}, peak {:.2} GiB){why}",
            i + 1,
            todo.len(),
            count(walls, "wall"),
            report::markdown::cell_text(&record),
            record.seconds,
            count(record.nodes, "node"),
            record.peak_bytes as f64 / (1u64 << 30) as f64
        ));
        if deeper_before.is_none() {
            records.retain(|r| r.cell() != record.cell());
            records.push(record);
        }
        report::write_all(&dir, &records)?;
        overall.inc(1);
    }
    overall.finish_and_clear();
    if let (Some(save), true) = (&save, force) {
        saved::remove_tables_except(save, &keep)?;
    }
    // Written again at the end, so that a run with nothing left to solve (--resume)
    // brings the files up to date with this version, table.svg included.
    report::write_all(&dir, &records)?;
    writeln!(
        out,
        "{} solved, {skipped} skipped (over the memory budget), {passed_over} skipped (a cell \
         of the board with fewer walls undecided) in {:.1} s; results in {}",
        count(todo.len() - skipped - passed_over, "cell"),
        started.elapsed().as_secs_f64(),
        dir.display()
    )?;
    if let Some(line) = &other_builds {
        writeln!(out, "{line}")?;
    }
    let summary = check(&records, &published::cells());
    write_summary(&summary, out)?;
    write_even_heights(&records, out)?;
    Ok(exit_code(&summary))
}

/// Refuses `dir` for `table --save` unless the run may write there: it does not exist or
/// is empty; or it holds saved tables and the run replaces them (`force`), or it holds
/// cells of the run resumed (`resume`). Files that are not a saved table's are never
/// replaced. Removes the remains of killed saves, which are never results; returns what
/// was there.
fn check_save_dir(dir: &Path, force: bool, resume: bool) -> Result<saved::Contents> {
    let Some(found) = saved::contents(dir)? else {
        return Ok(saved::Contents::default());
    };
    if let Some(foreign) = &found.foreign {
        return Err(saved::not_a_table(dir, foreign));
    }
    if found.table_files && !force {
        return Err(Error::Argument(format!(
            "{} already holds {}, not one per cell; --force replaces it",
            dir.display(),
            saved::describe(dir, &found)
        )));
    }
    if !found.cells.is_empty() && !force && !resume {
        return Err(Error::Argument(format!(
            "{} already holds {}; --force replaces {} (--resume keeps those of the cells it \
             keeps)",
            dir.display(),
            saved::describe(dir, &found),
            found.it_or_them("it", "them")
        )));
    }
    saved::remove_leftovers(&found);
    Ok(found)
}

/// With --resume, says which of the selected cells it keeps were solved by another build
/// than this one (`report::version`), or `None`. They are kept, not solved again: a build
/// differs at every commit, and most commits change no result, so redoing them would make
/// a resumed run of the whole table start over. The line says how to redo them.
fn kept_from_other_builds(records: &[CellRecord], cells: &[(Board, u8)]) -> Option<String> {
    let this = report::version();
    let selected = |r: &CellRecord| {
        cells
            .iter()
            .any(|(b, n)| r.cell() == (b.width(), b.height(), *n))
    };
    let others: Vec<&CellRecord> = records
        .iter()
        .filter(|r| r.is_decided() && selected(r) && r.version != this)
        .collect();
    if others.is_empty() {
        return None;
    }
    let mut versions: Vec<&str> = others.iter().map(|r| r.version.as_str()).collect();
    versions.sort_unstable();
    versions.dedup();
    Some(format!(
        "kept {} solved by another version of this tool ({}; this is {this}): remove their \
         rows from table.csv, or run without --resume, to solve them again",
        count(others.len(), "cell"),
        versions.join(", ")
    ))
}

/// What the plan needs to know of the cells already solved.
fn earlier(records: &[CellRecord]) -> Vec<plan::Earlier> {
    records
        .iter()
        .filter_map(|r| {
            Some(plan::Earlier {
                board: Board::new(r.width, r.height).ok()?,
                walls: r.walls,
                by_search: r.method == MethodUsed::Search && r.is_decided(),
            })
        })
        .collect()
}

fn write_summary(s: &CheckSummary, out: &mut dyn Write) -> Result<()> {
    writeln!(out, "{}", s.line())?;
    for (r, published) in &s.differing {
        writeln!(
            out,
            "DIFFERS {}x{} with {}: ours {}, published {published}",
            r.width,
            r.height,
            count(r.walls, "wall"),
            r.outcome
        )?;
    }
    for r in &s.new {
        writeln!(
            out,
            "new result {}x{} with {}: {}",
            r.width,
            r.height,
            count(r.walls, "wall"),
            report::markdown::cell_text(r)
        )?;
    }
    for r in &s.unknown {
        writeln!(
            out,
            "undecided {}x{} with {} (searched to {})",
            r.width,
            r.height,
            count(r.walls, "wall"),
            count(r.depth_reached, "ply")
        )?;
    }
    Ok(())
}

/// What the decided even-height cells say of the claim that they are all Player 1 wins.
fn write_even_heights(records: &[CellRecord], out: &mut dyn Write) -> Result<()> {
    let decided = even_heights_decided(records);
    if decided.is_empty() {
        return Ok(());
    }
    let exceptions: Vec<&CellRecord> = decided
        .iter()
        .copied()
        .filter(|r| r.outcome != Outcome::Player1)
        .collect();
    writeln!(
        out,
        "even heights: {} decided, {} not a Player 1 win",
        count(decided.len(), "cell"),
        exceptions.len()
    )?;
    for r in exceptions {
        writeln!(
            out,
            "even height, not a Player 1 win: {}x{} with {}: {}",
            r.width,
            r.height,
            count(r.walls, "wall"),
            report::markdown::cell_text(r)
        )?;
    }
    Ok(())
}

fn exit_code(s: &CheckSummary) -> ExitCode {
    if s.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

#[cfg(test)]
mod tests {
    use super::parse_walls;

    #[test]
    fn wall_ranges() {
        assert_eq!(parse_walls("0..=3").unwrap(), vec![0, 1, 2, 3]);
        assert_eq!(parse_walls("2..4").unwrap(), vec![2, 3]);
        assert_eq!(parse_walls("5,1").unwrap(), vec![1, 5]);
        assert_eq!(parse_walls("7").unwrap(), vec![7]);
        assert_eq!(parse_walls("31").unwrap(), vec![31]);
        for bad in [
            "", "a", "3..1", "3..3", "1..=x", "40", "256", "-1", "5,1,5", "0..=32",
        ] {
            assert!(parse_walls(bad).is_err(), "{bad}");
        }
    }
}
