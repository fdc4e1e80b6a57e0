//! One cell (W, H, N) from start to result: build the configuration tables, run the
//! iterative-deepening proof search, and extract the principal line.

use crate::cell::estimate::CellEstimate;
use crate::cell::fewer;
use crate::configs::{ConfigTables, OnDemand, Ranked, Tables};
use crate::error::{Error, Result, Unrun, count};
use crate::retro::{self, Precision, RetroResult};
use crate::rules::cell::Cell;
use crate::rules::geometry::{Board, Player};
use crate::rules::position::Position;
use crate::search::Checkpoint;
use crate::search::{self, Oracle};
use crate::support::memory;
use crate::support::progress::Progress;
use std::time::Instant;

pub use crate::cell::oracle::{Both, FewerWalls, RetroOracle};
pub use crate::cell::outcome::{CellResult, MethodUsed, Outcome, PrunedBy};
pub use crate::cell::plan::{
    AUTO_SEARCH_SHARE, DEFAULT_TT_BYTES, MIN_ON_DEMAND_BYTES, MIN_SEARCH_SECONDS, Method, Need,
    SolveOptions, Store, retro_configs_bytes, retro_over_ranked, retro_precision,
};
use crate::cell::plan::{Decision, ON_DEMAND_SLACK_BYTES, on_demand_split};
use crate::cell::searching::{
    SearchRun, length_checkpoint, record_found, search_cell, search_checkpoint, search_limits,
};

/// Solves the cell by the chosen method.
pub fn solve(
    board: Board,
    walls: u8,
    options: &SolveOptions,
    progress: &dyn Progress,
) -> Result<CellResult> {
    let started = Instant::now();
    if options.method == Method::Retro {
        crate::retro::check_board(board)?;
    }
    memory::reset_peak();
    if options.winner.is_some() && options.method != Method::Search {
        return Err(Error::Unrun(Unrun::Winner));
    }
    if options.store == Store::OnDemand && options.method != Method::Search {
        return Err(Error::Unrun(Unrun::OnDemand));
    }
    if let Some(fewer) = options.fewer_walls {
        refuse_unbounded(board, (walls, fewer), options)?;
    }
    let pool = thread_pool(options.threads)?;
    pool.install(|| match options.fewer_walls {
        Some(fewer) if options.method == Method::Search => {
            let bound = (fewer, fewer::half(options));
            bounded(board, (walls, bound), options, (started, false), progress).map(|(_, r)| r)
        }
        _ => solve_cell(board, walls, options, None, started, progress),
    })
}

/// Refuses a bound of `fewer` walls (`SolveOptions::fewer_walls`) that no search of the
/// cell would take, before any work: the proof search from the start takes it, and the
/// search for the length after a compact analysis; the exact analysis has no search.
fn refuse_unbounded(board: Board, (walls, fewer): (u8, u8), options: &SolveOptions) -> Result<()> {
    match options.method {
        Method::Search => {}
        Method::Retro if options.precision != Some(Precision::Exact) => {}
        Method::Retro => {
            return Err(Error::Argument(
                "the analysis of fewer walls prunes the search for the length after a compact \
                 analysis, and this analysis is exact (asked, or the default where a table is \
                 written), finding the length without a search: ask for the compact one"
                    .into(),
            ));
        }
        _ => return Err(Error::Unrun(Unrun::FewerWalls)),
    }
    // Two analyses in one directory would each take it, the second after hours of the first.
    if let (Some(own), Some(bound)) = (&options.save, &options.fewer_scratch)
        && same_dir(&own.dir, &bound.dir)
    {
        return Err(Error::Argument(format!(
            "the analysis of fewer walls needs a directory of its own, not the cell's {}",
            own.dir.display()
        )));
    }
    fewer::check(board, walls, fewer)
}

/// Whether two paths name one directory (as given, or once both exist, resolved).
fn same_dir(a: &std::path::Path, b: &std::path::Path) -> bool {
    a == b || matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}

/// Two cells of a board at once (a table's): `walls` by the exact analysis, every layer
/// kept, and `walls + 1` by the proof search that analysis bounds on both sides
/// (`FewerWalls`), which on the boards where the winner and length stay from one wall count
/// to the next decides the second cell in a fraction of its own analysis (4x7 with 6 walls:
/// 5 s of search beside 88 s). `None` for the second where every layer of the first does
/// not fit half of the budget in memory, or the board has two rows: the caller solves it
/// alone. The second's seconds and peak are its own, the analysis it reads held.
pub fn solve_pair(
    board: Board,
    walls: u8,
    options: &SolveOptions,
    progress: &dyn Progress,
) -> Result<(CellResult, Option<CellResult>)> {
    let started = Instant::now();
    memory::reset_peak();
    let options = SolveOptions {
        method: Method::Search,
        fewer_walls: Some(walls),
        save: None,
        checkpoint: None,
        ..options.clone()
    };
    let alone = SolveOptions {
        method: Method::Retro,
        precision: Some(Precision::Exact),
        fewer_walls: None,
        ..options.clone()
    };
    let share = fewer::pair_budget(board, walls, &options).filter(|_| board.height() >= 3);
    let Some(share) = share else {
        return Ok((solve(board, walls, &alone, progress)?, None));
    };
    let paired = thread_pool(options.threads)?.install(|| {
        let cells = (walls + 1, (walls, share));
        bounded(board, cells, &options, (started, true), progress)
    });
    let (first, second) = match paired {
        Ok(both) => both,
        // The estimates said the two fit together; should they not, each is solved alone.
        Err(Error::Memory { .. }) => return Ok((solve(board, walls, &alone, progress)?, None)),
        Err(e) => return Err(e),
    };
    // The estimate said every layer fits; should the analysis have found otherwise (it
    // kept outcomes only), the first cell is solved again alone.
    let first = match first {
        Some(first) => first,
        None => solve(board, walls, &alone, progress)?,
    };
    Ok((first, Some(second)))
}

/// The cell of `walls` by the proof search bounded by the analysis of `fewer` walls (see
/// `solve`) within `share` of the budget, and the cell of `fewer` itself from that analysis
/// when it is exact and kept every layer (its seconds and peak until the search begins). With `own_clock`, the
/// search's seconds and peak are its own; else they count from `started`.
fn bounded(
    board: Board,
    (walls, (fewer, share)): (u8, (u8, u64)),
    options: &SolveOptions,
    (started, own_clock): (Instant, bool),
    progress: &dyn Progress,
) -> Result<(Option<CellResult>, CellResult)> {
    // Taken first, as `solve_cell` takes its own: the analysis of fewer walls writes
    // into the directory, if any.
    let _taken = options.save.as_ref().map(|to| to.take()).transpose()?;
    let configs = fewer::configs((board, walls, None), fewer, (options, share), progress)?;
    let mut solved = fewer::analyse(&configs, (options, share, own_clock), progress)?;
    let exact = solved.precision() == Precision::Exact;
    let analysed = exact.then(|| {
        let mut r = CellResult::undecided(board, fewer);
        let placements = retro::cell_estimate(configs.source()).positions;
        record_retro(&solved.result(), placements, &mut r);
        r.seconds = started.elapsed().as_secs_f64();
        r.peak_bytes = memory::peak_bytes();
        r
    });
    // The bound reads the layers it kept; the search gets the indices of the others.
    solved.free_indices_past_kept();
    let oracle = FewerWalls::new(&solved, walls.into())
        .expect("fewer walls on a board of three rows, checked with its configurations");
    // The search has what the bound holds to the end leaves; the second of a pair no more
    // than its share (`fewer::pair_budget`): the layers kept are often fewer than the
    // analysis's peak, and a store sized to all that is left was resident past the budget
    // (4x7 with 10 walls: 18.1 GiB of 17.9).
    let left = options
        .memory_budget
        .saturating_sub(configs.bytes() + solved.held_bytes());
    let rest = SolveOptions {
        memory_budget: match own_clock {
            true => left.min(options.memory_budget.saturating_sub(share)),
            false => left,
        },
        fewer_walls: None,
        save: None,
        ..options.clone()
    };
    // The second of a pair counts its own seconds and peak (the analysis resident); a
    // `solve --fewer-walls` counts the analysis too.
    let search_started = match own_clock {
        true => {
            memory::reset_peak();
            Instant::now()
        }
        false => started,
    };
    let mut result = solve_cell(board, walls, &rest, Some(&oracle), search_started, progress)?;
    let (kept, of) = solved.layers_kept();
    result.pruned_by = Some(PrunedBy {
        walls: fewer,
        exact,
        first_layers: (kept < of).then_some([kept, of]),
    });
    Ok((analysed, result))
}

/// `solve` in its thread pool, with the oracle that prunes the proof search, if any.
fn solve_cell(
    board: Board,
    walls: u8,
    options: &SolveOptions,
    oracle: Option<&dyn Oracle>,
    started: Instant,
    progress: &dyn Progress,
) -> Result<CellResult> {
    let estimate = CellEstimate::new(board, walls);
    // Before the tables and the analysis: a destination refused at the end would lose them.
    // Taken first: another run writing there would drop or overwrite what this one writes.
    let _taken = match &options.save {
        Some(to) => {
            let taken = to.take()?;
            crate::retro::saved_dir::check_destination(to)?;
            taken
        }
        None => None,
    };
    let decision = crate::cell::plan::decide(Cell::new(board, walls), options);
    if options.checkpoint.is_some() && !decision.searches() {
        return Err(Error::Unrun(Unrun::Checkpoint));
    }
    // Before the tables and the search: a save that cannot be written is found at once.
    // (A campaign checks its scratch directory once: `TableRun::create_scratch`.)
    if let Some(path) = &options.checkpoint
        && !options.in_campaign
    {
        Checkpoint::check_place(path)?;
    }
    progress.message(&decision.why);
    let need = decision.need;
    let on_demand = need.on_demand;
    memory::check(
        &need.what(Cell::new(board, walls), &estimate),
        need.bytes,
        options.memory_budget,
    )?;
    let mut result = CellResult::undecided(board, walls);
    if on_demand {
        search_on_demand(
            board,
            walls,
            options,
            oracle,
            started,
            progress,
            &mut result,
        )?;
    } else if let (true, Some(precision)) = (need.ranked, decision.retro) {
        retro_ranked(board, walls, precision, options, progress, &mut result)?;
    } else {
        let how = (&decision, oracle);
        solve_with_tables(board, walls, how, options, started, progress, &mut result)?;
    }
    result.seconds = started.elapsed().as_secs_f64() + result.earlier.seconds;
    result.peak_bytes = memory::peak_bytes();
    Ok(result)
}

/// The cell with every configuration built first: proof search, the retrograde analysis,
/// or the search and then the analysis (`Method::Auto`), into `result`.
fn solve_with_tables(
    board: Board,
    walls: u8,
    (decision, oracle): (&Decision, Option<&dyn Oracle>),
    options: &SolveOptions,
    started: Instant,
    progress: &dyn Progress,
    result: &mut CellResult,
) -> Result<()> {
    let tables = Tables::build(board, walls, options.memory_budget, progress)?;
    if let Some(time_limit) = decision.search {
        let room = options.memory_budget.saturating_sub(tables.bytes());
        let tt_room = options.tt_beside_tables(room);
        let checkpoint = search_checkpoint(&tables, options, tt_room, progress)?;
        let run = SearchRun {
            time_limit,
            oracle,
            winner: options.winner,
            tt_room,
            checkpoint: checkpoint.as_ref(),
        };
        search_cell(&tables, options, started, &run, progress, result)?;
    }
    // After a search, the analysis only where it left the cell undecided, and not when a
    // stop (Ctrl-C) cut it short: the stop ends the command, its checkpoint saved.
    let go_on = result.outcome == Outcome::Unknown && !search::stop_requested();
    if let Some(precision) = decision.retro
        && (decision.search.is_none() || go_on)
    {
        retro_cell(&tables, precision, options, progress, result)?;
    }
    Ok(())
}

/// Proof search from the start over configuration records built on demand (the full
/// tables do not fit): the budget shared between the transposition table and the store as
/// `on_demand_split` says.
fn search_on_demand(
    board: Board,
    walls: u8,
    options: &SolveOptions,
    oracle: Option<&dyn Oracle>,
    started: Instant,
    progress: &dyn Progress,
    result: &mut CellResult,
) -> Result<()> {
    let (tt_room, store_budget) = on_demand_split(options.memory_budget, options.tt_bytes);
    let mut store = OnDemand::new(board, walls, store_budget);
    let checkpoint = search_checkpoint(&store, options, tt_room, progress)?;
    let run = SearchRun {
        time_limit: options.time_limit,
        oracle,
        winner: options.winner,
        tt_room,
        checkpoint: checkpoint.as_ref(),
    };
    let limits = search_limits(options, started, &run);
    let start = Position::start(board, walls)?;
    let (found, emptied) = search::solve_forgetting(&mut store, &start, &limits, progress);
    record_found(&found, options, &start, result);
    result.checkpoint_saved = checkpoint.as_ref().and_then(Checkpoint::last_outcome);
    progress.message(&format!(
        "configurations built on demand: {} with their mirror images, of {} ({}){}",
        store.built(),
        store.configurations(),
        crate::error::format_bytes(store.bytes()),
        if emptied > 0 {
            format!(
                ", since the store was last emptied ({})",
                count(emptied, "time")
            )
        } else {
            String::new()
        }
    ));
    if found.out_of_memory {
        progress.message(&format!(
            "the configuration store filled its {}: stopped at depth {}",
            crate::error::format_bytes(store_budget),
            found.depth_reached
        ));
    }
    Ok(())
}

/// Retrograde analysis of the whole cell: the start's value, its line, and the counts.
/// Exact when asked for or when every layer fits that way; else compact, and the length
/// and line come from a proof search that prunes with the compact analysis's outcomes.
fn retro_cell(
    tables: &Tables,
    precision: Precision,
    options: &SolveOptions,
    progress: &dyn Progress,
    result: &mut CellResult,
) -> Result<()> {
    let e = retro::cell_estimate(tables);
    let room = options.memory_budget.saturating_sub(tables.bytes());
    if precision == Precision::Exact {
        return retro_exact(tables, options, progress, result);
    }
    // The layers kept take at most two thirds of what the tables leave (more layers make a
    // better oracle); the rest is for the search's table and slack.
    let mut solved = outcomes(tables, tables.bytes() + room / 3 * 2, options, progress)?;
    let r = solved.result();
    record_retro(&r, e.positions, result);
    solved.free_indices_past_kept();
    if let Some(winner) = r.winner {
        // The length: proof search for the winner only, pruned by the outcomes (and the
        // analysis of fewer walls, if asked). Its proof of the win stands on its own (and
        // on that analysis where it proves); that no shorter win exists rests on them.
        let own = RetroOracle(&solved);
        let left = room.saturating_sub(solved.held_bytes());
        let cell = (tables.board(), tables.walls_per_player(), Some(tables));
        let mut found = result.clone();
        found.outcome = Outcome::Unknown;
        let room = (left, 0);
        found.pruned_by =
            with_length_oracle(cell, &own, room, options, progress, |oracle, left| {
                let tt_room = options.tt_beside_tables(left);
                let checkpoint = length_checkpoint(tables, options, tt_room, progress);
                let run = length_run(options, (oracle, winner), tt_room, checkpoint.as_ref());
                search_cell(tables, options, Instant::now(), &run, progress, &mut found).map(|_| ())
            })?;
        take_length(found, result);
    }
    Ok(())
}

/// The search for the length after a compact analysis: the winner's iterations only,
/// pruned by `oracle`, within its own time limit (the analysis is not interrupted).
fn length_run<'a>(
    options: &SolveOptions,
    (oracle, winner): (&'a dyn Oracle, Player),
    tt_room: u64,
    checkpoint: Option<&'a Checkpoint>,
) -> SearchRun<'a> {
    SearchRun {
        time_limit: options.time_limit,
        oracle: Some(oracle),
        winner: Some(winner),
        tt_room,
        checkpoint,
    }
}

/// Runs `search` with the oracle of the search for the length after a compact analysis of
/// the cell of `board` with `walls`: its outcomes `own`, and with `--fewer-walls M`
/// (`options.fewer_walls`, else `fewer::default_bound`'s one wall fewer where that fits)
/// beside them the exact analysis of `M` walls (`oracle::Both`),
/// run within half of what `left` (what the cell's layers kept leave of the budget) has
/// over `floor` (the least the search needs: it keeps that and half the rest), in memory
/// keeping its layers from the start that fit, or through `options.fewer_scratch`.
/// `search` gets the oracle and the bytes left for it; what pruned it comes back.
/// The outcomes say where the winner cannot win at all; the bound, that they cannot win
/// within fewer plies than the cell of fewer walls says, or surely can within as many:
/// every fact the search stores is true whatever pruned it, so a checkpoint saved with the
/// bound serves a run without it, and the other way round.
fn with_length_oracle(
    (board, walls, tables): (Board, u8, Option<&Tables>),
    own: &dyn Oracle,
    (left, floor): (u64, u64),
    options: &SolveOptions,
    progress: &dyn Progress,
    search: impl FnOnce(&dyn Oracle, u64) -> Result<()>,
) -> Result<Option<PrunedBy>> {
    let share = left.saturating_sub(floor) / 2;
    let fewer = options
        .fewer_walls
        .or_else(|| fewer::default_bound((board, walls, tables.is_some()), share, options));
    let Some(fewer) = fewer else {
        return search(own, left).map(|()| None);
    };
    let bound_options = fewer::length_bound_options(options);
    let _taken = bound_options
        .save
        .as_ref()
        .map(|to| to.take())
        .transpose()?;
    let cell = (board, walls, tables);
    let configs = fewer::configs(cell, fewer, (&bound_options, share), progress)?;
    let asked = (&bound_options, share, true);
    // Outcomes only, the bound would refute no node the cell's own outcomes leave (who
    // cannot win with the other's walls cut cannot win here): not worth its analysis.
    if !fewer::exact(&configs, asked) {
        progress.warn(&format!(
            "not even two layers of the exact analysis of {} per player fit {} (half of what \
             the cell's layers leave): the search for the length runs on the outcomes alone \
             (raise --memory, or give --fewer-scratch DIR)",
            count(fewer, "wall"),
            crate::error::format_bytes(share)
        ));
        drop(configs);
        return search(own, left).map(|()| None);
    }
    let mut solved = fewer::analyse(&configs, asked, progress)?;
    solved.free_indices_past_kept();
    let bound = FewerWalls::new(&solved, walls.into())
        .expect("fewer walls on a board of three rows, checked before the analysis");
    let (kept, of) = solved.layers_kept();
    let pruned_by = PrunedBy {
        walls: fewer,
        exact: solved.precision() == Precision::Exact,
        first_layers: (kept < of).then_some([kept, of]),
    };
    progress.message(&format!("the search for the length: {pruned_by}"));
    let both = Both { own, fewer: &bound };
    let held = configs.bytes() + solved.held_bytes();
    search(&both, left.saturating_sub(held)).map(|()| Some(pruned_by))
}

/// The exact analysis of the cell over `configs`, saved if the options say so, into
/// `result` (its length is the analysis's own).
fn retro_exact(
    configs: &dyn retro::ConfigSource,
    options: &SolveOptions,
    progress: &dyn Progress,
    result: &mut CellResult,
) -> Result<()> {
    if options.fewer_walls.is_some() {
        progress.warn(
            "the analysis is exact: it finds the length without a search, and the analysis of \
             fewer walls is not run",
        );
    }
    // Saved, each layer goes to disk as it is solved: the memory is the analysis's own.
    let request = retro::Request {
        storage: storage(options),
        ..retro::Request::exact(options.memory_budget)
    };
    let solved = retro::solve(configs, &request, progress)?;
    record_retro(
        &solved.result(),
        retro::cell_estimate(configs).positions,
        result,
    );
    Ok(())
}

/// The compact analysis of the cell over `configs` within `budget`, saved if the options
/// say so (then every layer goes through the disk in parts, `retro::parts`, which may take
/// the whole of `--memory`).
fn outcomes<'t>(
    configs: &'t dyn retro::ConfigSource,
    budget: u64,
    options: &SolveOptions,
    progress: &dyn Progress,
) -> Result<retro::Solved<'t>> {
    let request = retro::Request {
        storage: storage(options),
        // Through a directory the parts are freed before the search: they may take the
        // whole budget, the layers kept `budget`.
        parts_budget: Some(options.memory_budget),
        ..retro::Request::outcomes(budget)
    };
    retro::solve(configs, &request, progress)
}

/// Where the analysis writes its layers: the directory of the options (`--save`,
/// `--scratch`), else nowhere.
fn storage(options: &SolveOptions) -> retro::Storage {
    match &options.save {
        Some(to) => retro::Storage::Dir(to.clone()),
        None => retro::Storage::Memory,
    }
}

/// After a compact analysis, what the search for the length found (`found`, a copy of
/// `result` searched on: its nodes hold the analysis's positions already): the length and
/// line when it agrees on the winner, the nodes and depth whatever it found.
fn take_length(found: CellResult, result: &mut CellResult) {
    result.nodes = found.nodes;
    result.earlier = found.earlier;
    result.depth_reached = found.depth_reached;
    result.checkpoint_saved = found.checkpoint_saved;
    result.pruned_by = found.pruned_by;
    if found.outcome == result.outcome {
        result.method = MethodUsed::RetroSearch;
        result.plies = found.plies;
        result.line = found.line;
    }
}

/// Retrograde analysis over the ranked numbering of the configurations (the tables do not
/// fit). As `retro_cell`, but a compact analysis's length comes from a proof search over
/// configurations built on demand, asking the outcomes by wall set.
fn retro_ranked(
    board: Board,
    walls: u8,
    precision: Precision,
    options: &SolveOptions,
    progress: &dyn Progress,
    result: &mut CellResult,
) -> Result<()> {
    progress.message("ranking the wall configurations");
    let ranked = Ranked::build(board, walls);
    let e = retro::cell_estimate(&ranked);
    let room = options.memory_budget.saturating_sub(ranked.bytes());
    if precision == Precision::Exact {
        return retro_exact(&ranked, options, progress, result);
    }
    let budget = ranked_analysis_budget(&ranked, precision, options);
    let mut solved = outcomes(&ranked, budget, options, progress)?;
    let r = solved.result();
    record_retro(&r, e.positions, result);
    let Some(winner) = r.winner else {
        return Ok(());
    };
    let search_floor = MIN_ON_DEMAND_BYTES + ON_DEMAND_SLACK_BYTES;
    // The search reads the layers kept, and the indices of the others are its room (8.4
    // of 6x6 w5's 8.9 GiB).
    solved.free_indices_past_kept();
    // The search gets what the layers kept leave: at least the floor the analysis left it
    // (shared as `on_demand_split` says), unless the layers kept took more
    // than their share.
    let left = room.saturating_sub(solved.held_bytes());
    if left < search_floor {
        progress.warn(&format!(
            "no room left for the search for the length ({} of {} needed): the winner is \
             known, the length is not",
            crate::error::format_bytes(left),
            crate::error::format_bytes(search_floor)
        ));
        return Ok(());
    }
    let ((kept, layers), held) = (solved.layers_kept(), solved.held_bytes());
    let own = RetroOracle(&solved);
    let mut searched = result.clone();
    searched.outcome = Outcome::Unknown;
    let cell = (board, walls, None);
    let room = (left, search_floor);
    searched.pruned_by =
        with_length_oracle(cell, &own, room, options, progress, |oracle, left| {
            let (tt_room, store_bytes) = on_demand_split(left, options.tt_bytes);
            progress.message(&format!(
                "the search for the length: the outcomes of its first {} of {} read back ({}), \
                 a table of up to {} and a store of configurations of {}",
                kept,
                count(layers, "layer"),
                crate::error::format_bytes(held),
                crate::error::format_bytes(tt_room),
                crate::error::format_bytes(store_bytes)
            ));
            let mut store = OnDemand::new(board, walls, store_bytes);
            let checkpoint = length_checkpoint(&store, options, tt_room, progress);
            let run = length_run(options, (oracle, winner), tt_room, checkpoint.as_ref());
            let limits = search_limits(options, Instant::now(), &run);
            let start = Position::start(board, walls)?;
            let (found, _) = search::solve_forgetting(&mut store, &start, &limits, progress);
            record_found(&found, options, &start, &mut searched);
            searched.checkpoint_saved = checkpoint.as_ref().and_then(Checkpoint::last_outcome);
            Ok(())
        })?;
    take_length(searched, result);
    Ok(())
}

/// The budget of the analysis over the ranked numbering `ranked` at `precision`
/// (`plan::ranked_analysis_budget`).
fn ranked_analysis_budget(ranked: &Ranked, precision: Precision, options: &SolveOptions) -> u64 {
    crate::cell::plan::ranked_analysis_budget(ranked.bytes(), precision, options.memory_budget)
}

/// What a rank other than rank 0 does of `solve` across ranks (`options.save`'s ranks,
/// the same options as rank 0): its share of every layer of the analysis, over the
/// ranked numbering at the precision rank 0 decides. Rank 0 runs `solve`, answers, and
/// searches the length alone.
pub fn solve_share(
    board: Board,
    walls: u8,
    options: &SolveOptions,
    progress: &dyn Progress,
) -> Result<()> {
    let to = match &options.save {
        Some(to) if to.ranks.is_some() && to.resume => to,
        _ => {
            return Err(Error::Unrun(Unrun::ShareWithoutDirectory));
        }
    };
    crate::retro::check_board(board)?;
    let decision = crate::cell::plan::decide(Cell::new(board, walls), options);
    let Some(precision) = decision.retro.filter(|_| decision.need.ranked) else {
        return Err(Error::Unrun(Unrun::RanksWithoutRetro));
    };
    let pool = thread_pool(options.threads)?;
    pool.install(|| {
        let ranked = Ranked::build(board, walls);
        let budget = ranked_analysis_budget(&ranked, precision, options);
        let request = retro::Request {
            precision,
            budget,
            keep: retro::Layers::Fitting,
            storage: retro::Storage::Dir(to.clone()),
            parts_budget: None,
        };
        retro::run(&ranked, &request, progress).map(drop)
    })
}

/// A pool of `threads` workers for one cell's work (results do not depend on their number).
fn thread_pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::ThreadPool {
            threads: count(threads, "thread"),
            why: e.to_string(),
        })
}

/// The analysis's answer into the cell's result (no length after a compact analysis).
/// `placements`: every placement of the pawns in every configuration and split, both sides
/// to move (`RetroEstimate::positions`), of which the analysis leaves out those with a pawn
/// cut off from its goal.
fn record_retro(r: &RetroResult, placements: u128, result: &mut CellResult) {
    result.method = MethodUsed::Retro;
    result.outcome = r.winner.map_or(Outcome::Draw, Outcome::winner);
    result.plies = r.plies;
    result.line = r.line.clone();
    result.cycle_start = r.cycle_start;
    result.nodes += r.stats.positions;
    result.stats = Some(r.stats);
    result.left_out = u64::try_from(placements - r.stats.positions as u128).ok();
}
