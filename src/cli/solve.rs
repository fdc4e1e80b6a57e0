//! `solve`: decide one cell (board, walls per player) and the exact length of the win. The
//! flags become `SolveOptions` (the refusals that need the plan are `cell::plan`'s); the
//! library solves (`cell::solver`) and reports (`cell::solve`); this file prints.

use std::io::Write;
use std::process::ExitCode;

use clap::Args;
use quoridor_solver::cell::plan;
use quoridor_solver::cell::solve::{checkpoint_note, plan_report, save_target, table_precision};
use quoridor_solver::cell::solver::{Method, SolveOptions, solve};
use quoridor_solver::error::Setting;
use quoridor_solver::retro::Precision;
use quoridor_solver::rules::cell::Cell;
use quoridor_solver::rules::geometry::Player;
use quoridor_solver::{Error, Result};

use super::choices::{MethodArg, PrecisionArg, StoreArg};
use super::interrupt::Hint;
use super::plan_text::{write_bounded_plan, write_plan};
use super::progress::Bars;
use super::resources::{ResourceArgs, Resources};
use super::solve_text::{checkpoint_hints, write_checkpoint_note, write_json, write_text};
use super::{CellArgs, max_depth, time_limit};

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
    /// and what each way to solve it would take (memory, disk, time), from the estimates.
    /// With --method search --fewer-walls M: that plan for the bound's analysis of M walls,
    /// then the search (whose nodes are not estimated)
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

    /// The proof search's transposition table, e.g. 256M or 2G [default: 1G beside full
    /// configuration tables; with configurations built on demand, and for the search for
    /// the length after an analysis over the ranked numbering, the largest power of two
    /// within half of the search's memory]: at most what the memory budget leaves beside the
    /// configuration tables (half the search's memory with configurations built on demand),
    /// and no larger than the cell's positions need. It starts at 64M and doubles once three
    /// quarters full, up to this size. With --method retro only
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

    /// With --method search: first analyse the same board with M walls per player (fewer
    /// than --walls; boards of three rows or more), in memory within half of --memory, and
    /// prune the search with it: a player who cannot win a position even when the other
    /// holds M fewer walls cannot win it here, nor sooner than there, and one who wins it
    /// holding M fewer walls themselves wins it here as soon or sooner (a wall in hand never
    /// hurts; docs/ARCHITECTURE.md). Exact when every layer of that analysis fits, else its
    /// outcomes only (which only refute, and bound the outcome, not the length);
    /// `--precision exact` keeps it exact where every layer does not fit, its layers from
    /// the start that fit (those near the root bound the most). With --scratch DIR that
    /// analysis goes through DIR (in parts; outcomes only unless `--precision exact`) and a
    /// later run goes on from the layers written there, or reads them back, as `solve
    /// --method retro --scratch` does. The answer is the
    /// same as without it. With --method retro: the search for the length after a compact
    /// analysis is pruned by the exact analysis of M walls beside the cell's outcomes (3x9
    /// with 5 walls by 4: 21 times fewer nodes), that analysis run after the cell's, in
    /// memory over the cell's own tables (their first layers are its configurations) while
    /// it may take what the cell's layers kept leave, keeping its layers from the start
    /// that fit half of that, or through --fewer-scratch; unasked, one wall fewer where at
    /// least two of its layers fit so (--no-bound: none)
    #[arg(long, value_name = "M")]
    fewer_walls: Option<u8>,

    /// With --method retro: the search for the length after a compact analysis runs on the
    /// cell's outcomes alone. By default it is also pruned by the exact analysis of one
    /// wall fewer per player, run in memory after the cell's over its tables, keeping the
    /// layers from the start that fit half of what the cell's layers leave (3x9 with 5
    /// walls: 21 times fewer nodes; 4x7 with 7, its first 8 of 13 layers: 500 times);
    /// --fewer-walls M chooses another count, or a directory for it
    #[arg(long, conflicts_with = "fewer_walls")]
    no_bound: bool,

    /// With --method retro and --fewer-walls: the exact analysis of fewer walls goes
    /// through DIR (in parts where it does not fit), and a later run goes on from the
    /// layers written there, or reads them back, as `solve --method retro --scratch` does.
    /// With --method search that analysis's directory is --scratch
    #[arg(long, value_name = "DIR", requires = "fewer_walls")]
    fewer_scratch: Option<std::path::PathBuf>,

    /// Keep on disk only the layers of the analysis that are read back at its end (those
    /// from the start that fit its share of --memory), each layer above them deleted once
    /// the layer below it is written: the disk then holds two layers at a time besides
    /// those kept (7x5 with 5 walls exact: about 337 GiB of values before compression
    /// otherwise). For the directory of the analysis of --fewer-walls (--scratch with
    /// --method search, --fewer-scratch with --method retro), or without --fewer-walls for
    /// --method retro --scratch DIR, to make DIR the bound of a later `solve --fewer-walls
    /// --scratch DIR`. The directory is then no table for verify, analyze or serve
    #[arg(long)]
    bound_layers_only: bool,

    #[command(flatten)]
    resources: ResourceArgs,

    /// Also print the solver's own messages on stderr: a line per search depth
    #[arg(short, long, conflicts_with = "quiet")]
    pub verbose: bool,

    /// Print nothing on stderr but errors: no progress bars
    #[arg(short, long)]
    pub quiet: bool,
}

pub struct Solve {
    cell: Cell,
    json: bool,
    plan: bool,
    ranks: Option<u16>,
    stats: bool,
    distributed: bool,
    /// With --plan: also the analysis in parts layer by layer.
    verbose: bool,
    options: SolveOptions,
}

impl SolveArgs {
    pub fn validate(&self) -> Result<Solve> {
        let cell = self.cell.validate()?;
        let max_depth = max_depth(self.max_depth)?;
        let time_limit = self.max_seconds.map(time_limit).transpose()?;
        let method = Method::from(self.method);
        if self.plan && self.json {
            return Err(Error::Argument(
                "--plan prints text only (no --json)".into(),
            ));
        }
        if self.plan && self.fewer_walls.is_some() && method != Method::Search {
            return Err(Error::Argument(
                "--plan with --fewer-walls plans the bound of a proof search (--method \
                 search); for the bound of the length after a compact analysis, plan the \
                 two cells apart"
                    .into(),
            ));
        }
        // With --fewer-walls and the proof search from the start, --precision and --scratch
        // are the bounding analysis's; with the analysis, the cell's own.
        let bound_owns = self.fewer_walls.is_some() && method == Method::Search;
        if self.fewer_scratch.is_some() && method != Method::Retro {
            return Err(Error::Argument(
                "--fewer-scratch is for --method retro: with --method search the analysis of \
                 fewer walls goes through --scratch"
                    .into(),
            ));
        }
        if self.no_bound
            && (method == Method::Search || matches!(self.precision, Some(PrecisionArg::Exact)))
        {
            return Err(Error::Argument(
                "--no-bound is for the search for the length after a compact analysis \
                 (--method retro or auto, not --precision exact)"
                    .into(),
            ));
        }
        plan::refuse_unrun_by_method(
            method,
            &plan::Asked {
                stats: self.stats,
                precision: self.precision.is_some() && !bound_owns,
                distributed: self.distributed,
                plan: self.plan,
                table: self.save.is_some() || (self.scratch.is_some() && !bound_owns),
            },
        )?;
        let Resources {
            threads,
            memory_budget,
        } = self.resources.validate()?;
        let mut save = save_target(self.save.as_deref(), self.scratch.as_deref(), self.force);
        let mut fewer_scratch = save_target(None, self.fewer_scratch.as_deref(), false);
        if self.bound_layers_only {
            let bound = match (self.fewer_walls.is_some(), method) {
                (true, Method::Search) | (false, Method::Retro) => {
                    save.as_mut().filter(|t| t.resume)
                }
                (true, _) => fewer_scratch.as_mut(),
                (false, _) => None,
            };
            let Some(bound) = bound else {
                return Err(Error::Argument(
                    "--bound-layers-only needs the directory of an analysis that bounds a \
                     search: --scratch DIR with --method search --fewer-walls M, \
                     --fewer-scratch DIR with --method retro --fewer-walls M, or --scratch DIR \
                     with --method retro (the cell's own, to bound a later search)"
                        .into(),
                ));
            };
            bound.bound_only = true;
        }
        let options = SolveOptions {
            method,
            max_depth,
            time_limit,
            threads,
            memory_budget,
            tt_bytes: self
                .tt
                .as_deref()
                .map(quoridor_solver::support::memory::parse_size)
                .transpose()?,
            precision: match bound_owns {
                // The bound's analysis: the solver's choice unless asked.
                true => self.precision.map(Precision::from),
                false => table_precision(self.precision.map(Precision::from), save.is_some()),
            },
            save,
            store: self.store.into(),
            checkpoint: self.checkpoint.clone(),
            in_campaign: false,
            winner: self
                .winner
                .map(|n| if n == 1 { Player::One } else { Player::Two }),
            fewer_walls: self.fewer_walls,
            default_bound: !self.no_bound,
            fewer_scratch,
        };
        let search_flags = [
            (Setting::TtSize, self.tt.is_some()),
            (Setting::MaxDepth, self.max_depth.is_some()),
            (Setting::MaxSeconds, self.max_seconds.is_some()),
        ];
        let precision = self.precision.is_some();
        plan::refuse_ignored_search_flags(cell, &options, &search_flags, precision)?;
        plan::refuse_ignored_precision(cell, &options, precision)?;
        Ok(Solve {
            cell,
            json: self.json,
            plan: self.plan,
            ranks: self.ranks,
            stats: self.stats,
            distributed: self.distributed,
            verbose: self.verbose,
            options,
        })
    }
}

pub fn run(s: Solve, bars: &Bars, out: &mut dyn Write) -> Result<ExitCode> {
    if s.distributed {
        #[cfg(feature = "mpi")]
        return super::mpi_ranks::as_a_rank(s.cell, s.options.clone(), |options| {
            solve_here(Solve { options, ..s }, bars, out)
        });
        #[cfg(not(feature = "mpi"))]
        unreachable!("refused by `validate` without the mpi feature");
    }
    solve_here(s, bars, out)
}

/// Solves (or plans) the cell in this process: the whole of `solve` but `--distributed`.
fn solve_here(s: Solve, bars: &Bars, out: &mut dyn Write) -> Result<ExitCode> {
    if s.plan {
        match s.options.fewer_walls {
            Some(fewer) => {
                write_bounded_plan((s.cell, fewer), &s.options, s.ranks, s.verbose, out)?
            }
            None => {
                let report = plan_report(s.cell, &s.options, s.ranks);
                write_plan(&report, &s.options, s.verbose, out)?;
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    // Where a search keeps a checkpoint (from the start, or for the length after a compact
    // analysis): Ctrl-C while it runs makes it save first. During an analysis, or a second
    // time, it ends the process at once (its layers through disk are kept), saying what the
    // file is then: it may never have been saved.
    if let Some(path) = &s.options.checkpoint {
        let (saved, missing) = checkpoint_hints(path, &s.options);
        super::interrupt::on_interrupt(Some(Hint::Checkpoint {
            file: path,
            saved: &saved,
            missing: &missing,
        }));
    }
    let mut result = solve(s.cell.board, s.cell.walls, &s.options, bars)?;
    if !s.stats {
        result.stats = None;
        result.left_out = None;
    }
    if s.json {
        write_json(s.cell.board, &result, out)?;
    } else {
        write_text(s.cell.board, &result, s.options.winner, out)?;
    }
    if let (Some(path), Some(note)) = (
        &s.options.checkpoint,
        checkpoint_note(&result, s.options.max_depth),
    ) {
        write_checkpoint_note(path, &note, bars);
    }
    if quoridor_solver::search::stop_requested() {
        // Interrupted (the checkpoint is saved): the conventional status of SIGINT.
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}
