//! `solve`: decide one cell (board, walls per player) and the exact length of the win.

use quoridor_solver::retro::saved_dir;
use std::io::Write;
use std::process::ExitCode;

use clap::Args;
use quoridor_solver::cell::estimate::CellEstimate;
use quoridor_solver::cell::plan::{self, AcrossCosts, Costs};
use quoridor_solver::cell::solver::{
    CellResult, DEFAULT_TT_BYTES, Method, MethodUsed, Outcome, SolveOptions, Store,
    retro_configs_bytes, retro_precision, solve,
};
use quoridor_solver::error::{count, format_bytes};
use quoridor_solver::retro::Precision;
use quoridor_solver::rules::geometry::{Board, Player};
use quoridor_solver::rules::notation::{action_name, format_moves};
use quoridor_solver::search::NoWin;
use quoridor_solver::support::progress::Progress;
use quoridor_solver::{Error, Result};
use serde::Serialize;

use super::interrupt::Hint;
use super::progress::Bars;
use super::resources::{ResourceArgs, Resources};
use super::{CellArgs, max_depth, refuse_search_flags, time_limit};

/// Solve a board and wall count: who wins, in how many plies, and a line of best play
#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    cell: CellArgs,

    /// Print one JSON object (width, height, walls, outcome, plies, method, nodes, seconds,
    /// peak_bytes, pv, ...) instead of text
    #[arg(long)]
    json: bool,

    /// How to decide the cell: `search` (iterative-deepening proof search: wins and exact
    /// lengths), `retro` (retrograde analysis of every position: also proves draws and
    /// counts every position's outcome; see --precision), or
    /// `auto` (search, then retrograde if neither player won by the search's limit and it
    /// fits the memory budget)
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    method: MethodArg,

    /// What the retrograde analysis keeps per position: `exact` (a byte: value and
    /// remoteness of every position, line from the values) or `compact` (2 bits: win, loss
    /// or draw; the length and line then come from a proof search that skips every move
    /// the outcomes show to throw the win away). Default: exact when every layer fits the
    /// memory budget that way, else compact. With --method auto, refused where the plan
    /// runs the proof search alone
    #[arg(long, value_enum)]
    precision: Option<PrecisionArg>,

    /// Solve nothing: print how this command would solve the cell (the planner's decision)
    /// and what each way to solve it would take (memory, disk, time), from the estimates
    #[arg(long)]
    plan: bool,

    /// With --plan: also what the analysis across R MPI ranks would take (`--distributed`):
    /// each rank's memory, the shared directory's disk, the bytes the ranks send each other
    /// for a layer, the time (docs/CLUSTER.md)
    #[arg(long, value_name = "R", requires = "plan",
          value_parser = clap::value_parser!(u16).range(1..=64))]
    ranks: Option<u16>,

    /// With --method retro: also print the counts over every position of the cell
    /// (positions, wins for Player 1, wins for Player 2, draws)
    #[arg(long)]
    stats: bool,

    /// Deepest search iteration in plies; if neither player wins by then the outcome is
    /// "unknown" (never a guess) [default: 120]. With --method retro only where the
    /// compact analysis runs (see --precision): it bounds the search for the length
    #[arg(long, value_name = "D")]
    max_depth: Option<u8>,

    /// Give up after this many seconds with outcome "unknown" and the depth reached. With
    /// --method retro only where the compact analysis runs (see --precision): it bounds the
    /// search for the length, and the analysis itself runs to the end. The clock starts with the command;
    /// building the configuration tables is not cut short (a second or two on the
    /// published boards, a minute on the largest), so a small limit is passed by that much
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    max_seconds: Option<f64>,

    /// The proof search's transposition table, e.g. 256M or 2G [default: 1G]: at most what
    /// the memory budget leaves beside the configuration tables (a quarter of the budget
    /// with configurations built on demand), and no larger than the cell's positions need.
    /// It starts at 64M and grows to this size once half full. With --method retro only
    /// where the compact analysis runs (see --precision): the search for the length
    #[arg(long, value_name = "SIZE")]
    tt: Option<String>,

    /// With --method retro: also write every position's value to DIR (a saved table, read
    /// by `analyze --table` and checked by `verify`; format in docs/FORMATS.md), each
    /// layer as soon as it is solved, so the memory is the analysis's own; where two layers
    /// do not fit --memory, every layer is solved in parts through DIR. Exact, or outcomes
    /// only with --precision compact. DIR must be new or empty (checked before solving);
    /// the table is written beside it and renamed onto it when whole
    #[arg(long, value_name = "DIR", conflicts_with = "scratch")]
    save: Option<std::path::PathBuf>,

    /// With --method retro: write each layer of the analysis into DIR as soon as it is
    /// solved (in parts through DIR where two layers do not fit --memory; the disk is
    /// checked before each layer). Stopped (Ctrl-C, kill, a crash), the same command goes
    /// on from the last layer written, each checked against its SHA-256 (a damaged one is
    /// solved again). When done DIR is a saved table, as --save writes it; run again, the
    /// command reads the answer from it
    #[arg(long, value_name = "DIR")]
    scratch: Option<std::path::PathBuf>,

    /// With --method retro and --scratch: run as one rank of an MPI job, `mpirun -np R
    /// quoridor-solver solve ... --distributed`. Every rank solves a share of every layer
    /// over the ranked numbering, and the ranks exchange the layer above through MPI; DIR
    /// must be one directory every rank reaches, and ends as the table one process writes.
    /// Rank 0 prints. Needs a build with `--features mpi` (docs/CLUSTER.md)
    #[arg(long, requires = "scratch")]
    distributed: bool,

    /// With --save: replace the saved table (or `table --save` directory) already in DIR,
    /// deleting it once the new one is whole. A directory holding other files is never
    /// replaced
    #[arg(long, requires = "save")]
    force: bool,

    /// Where the proof search reads wall configurations from: `full` (every configuration
    /// built first: fastest, and what the retrograde analysis needs), `on-demand` (each
    /// built when the search first meets it, within the memory budget: for cells whose
    /// full tables do not fit; only with --method search), or `auto` (full where it fits)
    #[arg(long, value_enum, default_value_t = StoreArg::Auto)]
    store: StoreArg,

    /// Keep the proof search's transposition table in FILE, saved every 10 minutes
    /// between iterations and when the search ends (time limit, full store, a win, or
    /// Ctrl-C or SIGTERM while it runs; a second one quits at once, removing the part
    /// file of a save it cuts short). Run the same command again and it reads the table
    /// back and skips the iterations it knows to fail (the table's size is the saved one:
    /// --tt must allow it). With --method search, or for the search
    /// for the length after a compact analysis (a file that search cannot take is left
    /// alone, with a warning); refused where only the exact analysis runs
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<std::path::PathBuf>,

    /// With --method search: search only Player N's wins (N is 1 or 2), a guess at the
    /// winner that spares the other player's iterations. A win found is proven and its
    /// length exact (a player who can force a win leaves the other none); if Player N
    /// cannot win, the cell stays unknown
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=2))]
    winner: Option<u8>,

    #[command(flatten)]
    resources: ResourceArgs,

    /// Also print the solver's own messages on stderr: a line per search depth
    #[arg(short, long, conflicts_with = "quiet")]
    pub verbose: bool,

    /// Print nothing on stderr but errors: no progress bars
    #[arg(short, long)]
    pub quiet: bool,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum StoreArg {
    Full,
    OnDemand,
    Auto,
}

impl From<StoreArg> for Store {
    fn from(s: StoreArg) -> Store {
        match s {
            StoreArg::Full => Store::Full,
            StoreArg::OnDemand => Store::OnDemand,
            StoreArg::Auto => Store::Auto,
        }
    }
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum MethodArg {
    Search,
    Retro,
    Auto,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum PrecisionArg {
    Exact,
    Compact,
}

impl From<PrecisionArg> for Precision {
    fn from(p: PrecisionArg) -> Precision {
        match p {
            PrecisionArg::Exact => Precision::Exact,
            PrecisionArg::Compact => Precision::Compact,
        }
    }
}

impl From<MethodArg> for Method {
    fn from(m: MethodArg) -> Method {
        match m {
            MethodArg::Search => Method::Search,
            MethodArg::Retro => Method::Retro,
            MethodArg::Auto => Method::Auto,
        }
    }
}

pub struct Solve {
    board: Board,
    walls: u8,
    json: bool,
    plan: bool,
    ranks: Option<u16>,
    stats: bool,
    distributed: bool,
    options: SolveOptions,
}

impl SolveArgs {
    pub fn validate(&self) -> Result<Solve> {
        let (board, walls) = self.cell.validate()?;
        let max_depth = max_depth(self.max_depth)?;
        let time_limit = self.max_seconds.map(time_limit).transpose()?;
        let method = Method::from(self.method);
        if self.plan && self.json {
            return Err(Error::Argument(
                "--plan prints text only (no --json)".into(),
            ));
        }
        if self.stats && method != Method::Retro {
            return Err(Error::Argument(
                "--stats counts every position, which only --method retro visits".into(),
            ));
        }
        if self.precision.is_some() && method == Method::Search {
            return Err(Error::Argument(
                "--precision says what the retrograde analysis keeps; --method search runs none"
                    .into(),
            ));
        }
        if self.distributed && (method != Method::Retro || self.plan) {
            return Err(Error::Argument(
                "--distributed shares out the retrograde analysis: use it with --method retro \
                 (and without --plan)"
                    .into(),
            ));
        }
        if self.distributed && !cfg!(feature = "mpi") {
            return Err(Error::Argument(
                "--distributed needs MPI, and this build has none: build with `cargo build \
                 --release --features mpi` (docs/CLUSTER.md)"
                    .into(),
            ));
        }
        if (self.save.is_some() || self.scratch.is_some()) && method != Method::Retro {
            return Err(Error::Argument(
                "--save and --scratch write the retrograde analysis's values: use them with \
                 --method retro"
                    .into(),
            ));
        }
        let Resources {
            threads,
            memory_budget,
        } = self.resources.validate()?;
        let options = SolveOptions {
            method,
            max_depth,
            time_limit,
            threads,
            memory_budget,
            tt_bytes: match &self.tt {
                Some(size) => quoridor_solver::support::memory::parse_size(size)?,
                None => DEFAULT_TT_BYTES,
            },
            // A table is exact unless the outcomes only are asked for.
            precision: match self.save.is_some() || self.scratch.is_some() {
                true => Some(self.precision.map_or(Precision::Exact, Precision::from)),
                false => self.precision.map(Precision::from),
            },
            save: match (&self.save, &self.scratch) {
                (Some(dir), _) => Some(saved_dir::Target {
                    dir: dir.clone(),
                    replace: self.force,
                    resume: false,
                    ranks: None,
                }),
                (None, Some(dir)) => Some(saved_dir::Target {
                    dir: dir.clone(),
                    replace: false,
                    resume: true,
                    ranks: None,
                }),
                (None, None) => None,
            },
            store: self.store.into(),
            checkpoint: self.checkpoint.clone(),
            in_campaign: false,
            winner: self
                .winner
                .map(|n| if n == 1 { Player::One } else { Player::Two }),
        };
        self.refuse_ignored_search_flags(board, walls, &options)?;
        plan::refuse_ignored_precision(board, walls, &options, self.precision.is_some())?;
        Ok(Solve {
            board,
            walls,
            json: self.json,
            plan: self.plan,
            ranks: self.ranks,
            stats: self.stats,
            distributed: self.distributed,
            options,
        })
    }

    /// Refuses the flags that bound the proof search where none runs: the exact analysis
    /// (asked for, or what `--method retro` gets where every layer fits the budget at a
    /// byte). The compact one runs a search for the length, which they bound. Never
    /// accepted and then silently ignored.
    fn refuse_ignored_search_flags(
        &self,
        board: Board,
        walls: u8,
        options: &SolveOptions,
    ) -> Result<()> {
        let given = [
            ("--tt", self.tt.is_some()),
            ("--max-depth", self.max_depth.is_some()),
            ("--max-seconds", self.max_seconds.is_some()),
        ];
        if options.method != Method::Retro || !given.iter().any(|(_, g)| *g) {
            return Ok(());
        }
        // Only now: counting the configurations takes a moment on large boards.
        let e = CellEstimate::new(board, walls);
        let configs = retro_configs_bytes(&e, options);
        let exact = retro_precision(&e.retro, configs, options) == Precision::Exact;
        let which = match (
            self.save.is_some() || self.scratch.is_some(),
            self.precision,
        ) {
            (true, _) => "the exact analysis that --save and --scratch keep does not run",
            (false, Some(_)) => "--precision exact does not run",
            (false, None) => {
                "--method retro runs only in its compact analysis (for the length), and this \
                 cell gets the exact one: every layer fits the memory budget at a byte \
                 (--precision compact asks for the other)"
            }
        };
        refuse_search_flags(!exact, which, &given)
    }
}

pub fn run(s: Solve, bars: &Bars, out: &mut dyn Write) -> Result<ExitCode> {
    if s.distributed {
        return as_a_rank(s, bars, out);
    }
    solve_here(s, bars, out)
}

/// Solves (or plans) the cell in this process: the whole of `solve` but `--distributed`.
fn solve_here(s: Solve, bars: &Bars, out: &mut dyn Write) -> Result<ExitCode> {
    if s.plan {
        let decision = plan::decide(s.board, s.walls, &s.options);
        writeln!(out, "{}", decision.why)?;
        let budget = format_bytes(s.options.memory_budget);
        match decision.need.bytes <= s.options.memory_budget {
            true => writeln!(
                out,
                "memory: needs at least {} of {budget}",
                format_bytes(decision.need.bytes)
            )?,
            false => writeln!(
                out,
                "memory: needs at least {}, over the budget of {budget}",
                format_bytes(decision.need.bytes)
            )?,
        }
        let costs = Costs::of(s.board, s.walls, s.options.memory_budget);
        for line in costs.lines() {
            writeln!(out, "{line}")?;
        }
        if let Some(ranks) = s.ranks.filter(|_| costs.retro_board) {
            for line in AcrossCosts::of(s.board, s.walls, ranks.into()).lines() {
                writeln!(out, "{line}")?;
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    // Where a search keeps a checkpoint (from the start, or for the length after a compact
    // analysis): Ctrl-C while it runs makes it save first. During an analysis, or a second
    // time, it ends the process at once (its layers through disk are kept), saying what the
    // file is then: it may never have been saved.
    if let Some(path) = &s.options.checkpoint {
        let layers = match &s.options.save {
            Some(to) if to.resume => format!(
                " (the analysis goes on from the layers in {})",
                to.dir.display()
            ),
            _ => String::new(),
        };
        let file = path.display();
        super::interrupt::on_interrupt(Some(Hint::Checkpoint {
            file: path,
            saved: &format!(
                "interrupted: {file} holds the checkpoint last saved{layers}; run the same \
                 command again to go on"
            ),
            missing: &format!(
                "interrupted: {file} does not exist: no checkpoint was saved{layers}; run the \
                 same command again to start over"
            ),
        }));
    }
    let mut result = solve(s.board, s.walls, &s.options, bars)?;
    if !s.stats {
        result.stats = None;
        result.left_out = None;
    }
    if s.json {
        let json = Json {
            result: &result,
            pv: result
                .line
                .iter()
                .map(|&a| action_name(s.board, a))
                .collect(),
        };
        writeln!(
            out,
            "{}",
            serde_json::to_string(&json).expect("serializable")
        )?;
    } else {
        write_text(s.board, &result, s.options.winner, out)?;
    }
    if let Some(path) = &s.options.checkpoint {
        report_checkpoint(path, &result, s.options.max_depth, bars);
    }
    if quoridor_solver::search::stop_requested() {
        // Interrupted (the checkpoint is saved): the conventional status of SIGINT.
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

/// `--distributed`: this process becomes a rank of the MPI job. Rank 0 solves as one
/// process would (the ranks in its options) and prints; any other rank solves its share of
/// every layer and prints nothing. Refusals that every rank makes alike, before any rank
/// waits on another (memory, arguments, a directory none can take up), are printed by rank
/// 0 alone, and the job ends with its status 2. Any other error stops the whole job: the
/// rank prints it, naming itself and the layer, and aborts every rank (the others would
/// wait for it in an exchange forever).
#[cfg(feature = "mpi")]
fn as_a_rank(mut s: Solve, bars: &Bars, out: &mut dyn Write) -> Result<ExitCode> {
    use quoridor_solver::retro::ranks::{Ranks, SharedRanks};
    let ranks = std::sync::Arc::new(super::mpi_ranks::MpiRanks::start()?);
    let rank = ranks.rank();
    if let Some(to) = s.options.save.as_mut() {
        to.ranks = Some(SharedRanks(ranks.clone()));
    }
    let result = match rank {
        0 => solve_here(s, bars, out),
        _ => {
            let silent = quoridor_solver::support::progress::Silent;
            quoridor_solver::cell::solver::solve_share(s.board, s.walls, &s.options, &silent)
                .map(|()| ExitCode::SUCCESS)
        }
    };
    match result {
        Err(e @ (Error::Memory { .. } | Error::Argument(_))) if rank == 0 => Err(e),
        // Exit 0: a rank's non-zero status makes mpirun end the job at once, which could
        // cut rank 0 off before its line; the job's status is then rank 0's 2.
        Err(Error::Memory { .. } | Error::Argument(_)) => Ok(ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("error: {e}");
            ranks.abort(2)
        }
        done => done,
    }
}

#[cfg(not(feature = "mpi"))]
fn as_a_rank(_: Solve, _: &Bars, _: &mut dyn Write) -> Result<ExitCode> {
    unreachable!("refused by `validate` without the mpi feature")
}

/// `solve --json`: the result with its line in notation (docs/FORMATS.md).
#[derive(Serialize)]
struct Json<'a> {
    #[serde(flatten)]
    result: &'a CellResult,
    pv: Vec<String>,
}

/// Where the work of an undecided search went, and how to go on; or, whatever the
/// verbosity, that it was not saved.
fn report_checkpoint(path: &std::path::Path, r: &CellResult, max_depth: u8, bars: &Bars) {
    match &r.checkpoint_saved {
        // Undecided, or a winner whose length the search did not reach.
        Some(Ok(NoWin([one, two]))) if r.outcome != Outcome::Draw && r.plies.is_none() => {
            bars.line(&format!(
                "the search's table is saved in {} (no win for Player 1 within {}, for \
                 Player 2 within {}); to go on, run the same command again{}: {}",
                path.display(),
                count(*one, "ply"),
                count(*two, "ply"),
                // The same limit would stop at once.
                match (*one).max(*two) + 1 >= max_depth {
                    true => " with a larger --max-depth",
                    false => "",
                },
                this_command()
            ))
        }
        Some(Err(e)) => bars.warn(&format!(
            "the checkpoint {} could not be saved at the end ({e}): the work since its last \
             save is lost",
            path.display()
        )),
        _ => {}
    }
}

/// This process's command line, quoted for a POSIX shell where needed.
fn this_command() -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_./=:,+-@%".contains(c);
    std::env::args()
        .map(|a| {
            if !a.is_empty() && a.chars().all(safe) {
                a
            } else {
                format!("'{}'", a.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn write_text(
    board: Board,
    r: &CellResult,
    guessed: Option<Player>,
    out: &mut dyn Write,
) -> Result<()> {
    let cell = format!("{board} with {} per player", count(r.walls, "wall"));
    match (r.outcome, r.plies) {
        (Outcome::Player1 | Outcome::Player2, Some(plies)) => writeln!(
            out,
            "{cell}: Player {} wins in {}",
            r.outcome.code(),
            count(plies, "ply")
        )?,
        (Outcome::Player1 | Outcome::Player2, None) => writeln!(
            out,
            "{cell}: Player {} wins (the length was not found: see the warning above)",
            r.outcome.code()
        )?,
        (Outcome::Draw, _) => writeln!(out, "{cell}: draw")?,
        // Only the guessed winner's iterations ran: say how far, and that the other's did not.
        _ if guessed.is_some() && r.method == MethodUsed::Search => {
            let p = guessed.expect("a guess");
            writeln!(
                out,
                "{cell}: unknown (Player {} does not win within {}; Player {}'s wins were \
                 not searched)",
                p.number(),
                count(r.no_win[p.index()], "ply"),
                p.other().number()
            )?
        }
        _ => writeln!(
            out,
            "{cell}: unknown (neither player wins within {})",
            count(r.depth_reached, "ply")
        )?,
    }
    writeln!(out, "method       {}", r.method)?;
    if r.line.is_empty() && r.plies.is_some() {
        writeln!(
            out,
            "line         not kept (the retrograde analysis streamed its layers to fit the \
             memory budget; --method search finds a line)"
        )?;
    }
    if !r.line.is_empty() {
        let line = format_moves(board, Player::One, &r.line);
        match r.cycle_start {
            Some(0) => writeln!(
                out,
                "line         {line} (back at the start: both players repeat this for ever)"
            )?,
            Some(i) => writeln!(
                out,
                "line         {line} (from ply {} on both players repeat for ever)",
                i + 1
            )?,
            None => writeln!(out, "line         {line}")?,
        }
    }
    if let Some(st) = &r.stats {
        writeln!(
            out,
            "positions    {} (Player 1 wins {}, Player 2 wins {}, draws {})",
            st.positions, st.p1_wins, st.p2_wins, st.draws
        )?;
        if let Some(left_out) = r.left_out {
            writeln!(
                out,
                "left out     {left_out} placements with a pawn cut off from its goal \
                 (unreachable; with them {} in all)",
                st.positions + left_out
            )?;
        }
    }
    // A search that went on from its checkpoint counts the earlier runs' work too.
    writeln!(
        out,
        "nodes        {}{}",
        r.nodes,
        r.in_earlier_runs(r.earlier.nodes.to_string())
    )?;
    writeln!(
        out,
        "seconds      {:.2}{}",
        r.seconds,
        r.in_earlier_runs(format!("{:.2}", r.earlier.seconds))
    )?;
    writeln!(out, "peak memory  {}", format_bytes(r.peak_bytes))?;
    Ok(())
}
