//! One cell (W, H, N) from start to result: build the configuration tables, run the
//! iterative-deepening proof search, and extract the principal line.

use crate::cell::estimate::CellEstimate;
use crate::configs::{ConfigTables, OnDemand, Ranked, Tables};
use crate::error::{Error, Result, count};
use crate::retro::{self, Precision, RetroResult, RetroStats, Solved, Wdl};
use crate::rules::geometry::{Board, Player};
use crate::rules::position::{Action, Position};
use crate::rules::walls::WallSet;
use crate::search::Checkpoint;
use crate::search::{self, Node, Oracle};
use crate::support::memory;
use crate::support::progress::Progress;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

pub use crate::cell::plan::{
    AUTO_SEARCH_SHARE, DEFAULT_TT_BYTES, MIN_ON_DEMAND_BYTES, MIN_SEARCH_SECONDS, Method, Need,
    SolveOptions, Store, retro_configs_bytes, retro_over_ranked, retro_precision,
};
use crate::cell::plan::{Decision, ON_DEMAND_SLACK_BYTES};

/// The value of a cell, as reported: `1`, `2`, `D` or `unknown` in CSV and JSON
/// (docs/FORMATS.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String")]
pub enum Outcome {
    #[serde(rename = "1")]
    Player1,
    #[serde(rename = "2")]
    Player2,
    #[serde(rename = "D")]
    Draw,
    #[serde(rename = "unknown")]
    Unknown,
}

impl Outcome {
    pub const ALL: [Outcome; 4] = [
        Outcome::Player1,
        Outcome::Player2,
        Outcome::Draw,
        Outcome::Unknown,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Outcome::Player1 => "1",
            Outcome::Player2 => "2",
            Outcome::Draw => "D",
            Outcome::Unknown => "unknown",
        }
    }

    pub fn winner(player: Player) -> Outcome {
        match player {
            Player::One => Outcome::Player1,
            Player::Two => Outcome::Player2,
        }
    }

    /// The winner, for a win.
    pub fn winning_player(self) -> Option<Player> {
        match self {
            Outcome::Player1 => Some(Player::One),
            Outcome::Player2 => Some(Player::Two),
            _ => None,
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

impl TryFrom<String> for Outcome {
    type Error = String;
    fn try_from(text: String) -> std::result::Result<Outcome, String> {
        Outcome::ALL
            .into_iter()
            .find(|o| o.code() == text)
            .ok_or_else(|| {
                format!(
                    "outcome '{}' is not 1, 2, D or unknown",
                    crate::error::clip(&text)
                )
            })
    }
}

/// How a cell was decided, as reported: `proof-search`, `retrograde` or
/// `retrograde+search` in CSV and JSON (docs/FORMATS.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String")]
pub enum MethodUsed {
    /// Proof search alone (or nothing yet, for an undecided cell).
    #[serde(rename = "proof-search")]
    Search,
    /// The retrograde analysis: outcome, and the length when it was exact.
    #[serde(rename = "retrograde")]
    Retro,
    /// The compact analysis for the outcome, proof search guided by it for the length.
    #[serde(rename = "retrograde+search")]
    RetroSearch,
}

impl MethodUsed {
    pub const ALL: [MethodUsed; 3] = [
        MethodUsed::Search,
        MethodUsed::Retro,
        MethodUsed::RetroSearch,
    ];

    pub fn name(self) -> &'static str {
        match self {
            MethodUsed::Search => "proof-search",
            MethodUsed::Retro => "retrograde",
            MethodUsed::RetroSearch => "retrograde+search",
        }
    }

    /// Whether the retrograde analysis decided the outcome.
    pub fn is_retro(self) -> bool {
        self != MethodUsed::Search
    }
}

impl std::fmt::Display for MethodUsed {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl TryFrom<String> for MethodUsed {
    type Error = String;
    fn try_from(text: String) -> std::result::Result<MethodUsed, String> {
        MethodUsed::ALL
            .into_iter()
            .find(|m| m.name() == text)
            .ok_or_else(|| {
                format!(
                    "method '{}' is not proof-search, retrograde or retrograde+search",
                    crate::error::clip(&text)
                )
            })
    }
}

/// The result of solving one cell.
#[derive(Clone, Debug, Serialize)]
pub struct CellResult {
    pub width: usize,
    pub height: usize,
    pub walls: u8,
    pub outcome: Outcome,
    /// Plies of the win under best play (the winner hurries, the loser holds out).
    pub plies: Option<u32>,
    /// The deepest search iteration completed.
    pub depth_reached: u32,
    /// Each player's deepest search iteration known to hold no win for them (Player 1,
    /// Player 2): they differ when one player's wins were searched (`SolveOptions::winner`).
    pub no_win: [u32; 2],
    pub method: MethodUsed,
    /// Nodes and seconds of the whole work, earlier runs of a checkpointed search included.
    pub nodes: u64,
    pub seconds: f64,
    /// The part of `nodes` and `seconds` that earlier runs took, whose checkpoint this
    /// run's search went on from (zero without one).
    #[serde(skip)]
    pub earlier: search::Spent,
    pub peak_bytes: u64,
    /// The principal line: for a win, the winner's exact line; for a draw, moves from the
    /// start into the cycle both players keep to. (Written in notation as `pv` by the CLI,
    /// which knows the board.)
    #[serde(skip)]
    pub line: Vec<Action>,
    /// For a draw: the index in `line` where the repeating cycle starts.
    pub cycle_start: Option<usize>,
    /// Counts over every position of the cell, when retrograde analysis ran.
    #[serde(flatten)]
    pub stats: Option<RetroStats>,
    /// With the counts: the placements the analysis leaves out (a pawn cut off from its
    /// goal: no legal play reaches them), so that totals compare with counts that include
    /// every placement.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left_out: Option<u64>,
    /// With a checkpoint: how its last save went (the bounds saved, or why it failed);
    /// `None` when no save was made.
    #[serde(skip)]
    pub checkpoint_saved: Option<std::result::Result<search::NoWin, String>>,
}

impl CellResult {
    /// After a figure of seconds: how much of it earlier runs took, from the checkpoint its
    /// search went on from ("" without one).
    pub fn earlier_note(&self) -> String {
        self.in_earlier_runs(format!("{:.0} s of it", self.earlier.seconds))
    }

    /// " (PART in earlier runs, from the checkpoint)" after a figure, when earlier runs
    /// took part of it ("" else).
    pub fn in_earlier_runs(&self, part: String) -> String {
        match self.earlier == search::Spent::default() {
            true => String::new(),
            false => format!(" ({part} in earlier runs, from the checkpoint)"),
        }
    }

    /// A cell not decided yet.
    fn undecided(board: Board, walls: u8) -> CellResult {
        CellResult {
            width: board.width(),
            height: board.height(),
            walls,
            outcome: Outcome::Unknown,
            plies: None,
            depth_reached: 0,
            no_win: [0; 2],
            method: MethodUsed::Search,
            nodes: 0,
            seconds: 0.0,
            earlier: search::Spent::default(),
            peak_bytes: 0,
            line: Vec::new(),
            cycle_start: None,
            stats: None,
            left_out: None,
            checkpoint_saved: None,
        }
    }
}

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
    let estimate = CellEstimate::new(board, walls);
    if options.winner.is_some() && options.method != Method::Search {
        return Err(Error::Argument(
            "a guessed winner steers the proof search: use --method search".into(),
        ));
    }
    if options.store == Store::OnDemand && options.method != Method::Search {
        return Err(Error::Argument(
            "configurations built on demand serve the proof search only: use --method search"
                .into(),
        ));
    }
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
    let decision = crate::cell::plan::decide(board, walls, options);
    if options.checkpoint.is_some() && !decision.searches() {
        return Err(Error::Argument(
            "a checkpoint keeps a proof search's table, and the exact analysis finds the \
             length without one: use --method search, or --precision compact"
                .into(),
        ));
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
        &need.what(board, walls, &estimate),
        need.bytes,
        options.memory_budget,
    )?;
    let pool = thread_pool(options.threads)?;
    pool.install(|| {
        let mut result = CellResult::undecided(board, walls);
        if on_demand {
            search_on_demand(board, walls, options, started, progress, &mut result)?;
        } else if let (true, Some(precision)) = (need.ranked, decision.retro) {
            retro_ranked(board, walls, precision, options, progress, &mut result)?;
        } else {
            solve_with_tables(
                board,
                walls,
                &decision,
                options,
                started,
                progress,
                &mut result,
            )?;
        }
        result.seconds = started.elapsed().as_secs_f64() + result.earlier.seconds;
        result.peak_bytes = memory::peak_bytes();
        Ok(result)
    })
}

/// The cell with every configuration built first: proof search, the retrograde analysis,
/// or the search and then the analysis (`Method::Auto`), into `result`.
fn solve_with_tables(
    board: Board,
    walls: u8,
    decision: &Decision,
    options: &SolveOptions,
    started: Instant,
    progress: &dyn Progress,
    result: &mut CellResult,
) -> Result<()> {
    let tables = Tables::build(board, walls, options.memory_budget, progress)?;
    if let Some(time_limit) = decision.search {
        let room = options.memory_budget.saturating_sub(tables.bytes());
        let checkpoint = search_checkpoint(&tables, options, room, progress)?;
        let run = SearchRun {
            time_limit,
            oracle: None,
            winner: options.winner,
            tt_room: room,
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
/// tables do not fit): the transposition table gets its usual size, at most a quarter of the
/// budget, and the store the rest.
fn search_on_demand(
    board: Board,
    walls: u8,
    options: &SolveOptions,
    started: Instant,
    progress: &dyn Progress,
    result: &mut CellResult,
) -> Result<()> {
    let tt_room = options.tt_bytes.min(options.memory_budget / 4);
    let store_budget = options
        .memory_budget
        .saturating_sub(tt_room + ON_DEMAND_SLACK_BYTES);
    let mut store = OnDemand::new(board, walls, store_budget);
    let checkpoint = search_checkpoint(&store, options, tt_room, progress)?;
    let run = SearchRun {
        time_limit: options.time_limit,
        oracle: None,
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

/// How one proof search runs.
struct SearchRun<'a> {
    time_limit: Option<Duration>,
    /// Known outcomes to prune with.
    oracle: Option<&'a dyn Oracle>,
    /// The winner, when known: only their depths are asked (`None`: both players').
    winner: Option<Player>,
    /// Bytes the transposition table may take at most.
    tt_room: u64,
    /// Where the table is kept between runs.
    checkpoint: Option<&'a Checkpoint>,
}

/// The checkpoint the options name, if any, with its table read back when its file
/// exists, which must fit `tt_room`.
fn open_checkpoint<T: ConfigTables>(
    tables: &T,
    options: &SolveOptions,
    tt_room: u64,
) -> Result<Option<Checkpoint>> {
    let Some(path) = &options.checkpoint else {
        return Ok(None);
    };
    let checkpoint = Checkpoint::open(path, tables)?;
    if let Some(bytes) = checkpoint.table_bytes()
        && bytes > options.tt_bytes.min(tt_room)
    {
        return Err(Error::Argument(format!(
            "the table in {} takes {}, more than this run gives its table ({}): run with \
             --tt {} (and a memory budget that leaves room for it)",
            path.display(),
            crate::error::format_bytes(bytes),
            crate::error::format_bytes(options.tt_bytes.min(tt_room)),
            crate::error::format_bytes(bytes)
                .replace(' ', "")
                .replace("iB", ""),
        )));
    }
    Ok(Some(checkpoint))
}

/// The checkpoint of a proof search from the start, if the options name one: a file it
/// cannot take refuses the run, or with `in_campaign` is left as it is.
fn search_checkpoint<T: ConfigTables>(
    tables: &T,
    options: &SolveOptions,
    tt_room: u64,
    progress: &dyn Progress,
) -> Result<Option<Checkpoint>> {
    match options.in_campaign {
        true => Ok(kept_apart(tables, options, tt_room, "the search", progress)),
        false => open_checkpoint(tables, options, tt_room),
    }
}

/// The checkpoint, or where its file cannot be taken (damaged, another cell's, a table
/// larger than the room), the reason warned about and, in a campaign, the file moved aside
/// to `NAME.set-aside` (named in the warning), so that `who` saves its own table in its
/// place: a file left where it was would be refused again by every later run, each
/// starting from nothing. Else (`solve --checkpoint`: the user's file) `who` runs without
/// a checkpoint and the file is left as it is.
fn kept_apart<T: ConfigTables>(
    tables: &T,
    options: &SolveOptions,
    tt_room: u64,
    who: &str,
    progress: &dyn Progress,
) -> Option<Checkpoint> {
    let e = match open_checkpoint(tables, options, tt_room) {
        Ok(checkpoint) => return checkpoint,
        Err(e) => e,
    };
    let path = options
        .checkpoint
        .as_ref()
        .expect("an error opening it names one");
    let mut aside = path.clone().into_os_string();
    aside.push(".set-aside");
    let aside = std::path::PathBuf::from(aside);
    // A campaign's own file only: `solve --checkpoint` names a file the user keeps.
    if options.in_campaign && path.is_file() && std::fs::rename(path, &aside).is_ok() {
        progress.warn(&format!(
            "{e}; the file is moved to {}, and {who} saves its own table in its place",
            aside.display()
        ));
        // The path is free now: a checkpoint that starts empty.
        return open_checkpoint(tables, options, tt_room).ok().flatten();
    }
    progress.warn(&format!(
        "{e}; {who} runs without the checkpoint, which is left as it is"
    ));
    None
}

/// The checkpoint of the search for the length after a compact analysis, if the options
/// name one. Its facts hold there too: the outcomes prune only nodes the attacker cannot
/// win at all, so every refutation stored is true without them. A file this search cannot
/// take (damaged, another cell's, a table larger than its room) is left as it is, and the
/// length is searched without it rather than lose the analysis's answer.
fn length_checkpoint<T: ConfigTables>(
    tables: &T,
    options: &SolveOptions,
    tt_room: u64,
    progress: &dyn Progress,
) -> Option<Checkpoint> {
    kept_apart(
        tables,
        options,
        tt_room,
        "the search for the length",
        progress,
    )
}

/// Proof search from the start (for the known winner only, if any) into `result`.
fn search_cell<T: ConfigTables>(
    tables: &T,
    options: &SolveOptions,
    started: Instant,
    run: &SearchRun,
    progress: &dyn Progress,
    result: &mut CellResult,
) -> Result<search::SearchResult> {
    let limits = search_limits(options, started, run);
    let start = Position::start(tables.board(), tables.walls_per_player())?;
    let found = search::solve(tables, &start, &limits, progress);
    record_found(&found, options, &start, result);
    result.checkpoint_saved = run.checkpoint.and_then(Checkpoint::last_outcome);
    Ok(found)
}

/// The search's limits for one run.
fn search_limits<'a>(
    options: &SolveOptions,
    started: Instant,
    run: &SearchRun<'a>,
) -> search::Limits<'a> {
    // A campaign's cell has one limit over all its runs (`SolveOptions::in_campaign`).
    // A header's seconds are finite and not negative, but may be past what a Duration
    // holds: such a cell has no time left.
    let earlier = match (options.in_campaign, run.checkpoint) {
        (true, Some(checkpoint)) => {
            Duration::try_from_secs_f64(checkpoint.earlier().seconds).unwrap_or(Duration::MAX)
        }
        _ => Duration::ZERO,
    };
    search::Limits {
        max_depth: options.max_depth,
        deadline: run.time_limit.map(|t| started + t.saturating_sub(earlier)),
        tt_bytes: options.tt_bytes.min(run.tt_room),
        parallel: options.threads > 1,
        winner: run.winner,
        oracle: run.oracle,
        checkpoint: run.checkpoint,
    }
}

/// What a search from `start` found, into the cell's result.
fn record_found(
    found: &search::SearchResult,
    options: &SolveOptions,
    start: &Position,
    result: &mut CellResult,
) {
    result.depth_reached = match options.winner {
        // The guess left the other player's iterations out: the cell is known to hold no
        // win within fewer plies than the guessed player's last iteration.
        Some(_) if found.win.is_none() => found.no_win.neither_within(start.to_move),
        _ => found.depth_reached,
    } as u32;
    result.no_win = found.no_win.0.map(u32::from);
    result.nodes += found.earlier.nodes + found.nodes;
    result.earlier = result.earlier + found.earlier;
    if let Some(win) = &found.win {
        result.outcome = Outcome::winner(win.winner);
        result.plies = Some(win.plies as u32);
        result.line = win.line.clone();
    }
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
    let solved = outcomes(tables, tables.bytes() + room / 3 * 2, options, progress)?;
    let r = solved.result();
    record_retro(&r, e.positions, result);
    if let Some(winner) = r.winner {
        // The length: proof search for the winner only, pruned by the outcomes. Its proof
        // of the win stands on its own; that no shorter win exists rests on the outcomes.
        let oracle = RetroOracle(&solved);
        let tt_room = room.saturating_sub(solved.held_bytes());
        let checkpoint = length_checkpoint(tables, options, tt_room, progress);
        let run = SearchRun {
            time_limit: options.time_limit,
            oracle: Some(&oracle),
            winner: Some(winner),
            tt_room,
            checkpoint: checkpoint.as_ref(),
        };
        let mut found = result.clone();
        found.outcome = Outcome::Unknown;
        // The time limit bounds this search on its own: the analysis is not interrupted.
        search_cell(tables, options, Instant::now(), &run, progress, &mut found)?;
        take_length(found, result);
    }
    Ok(())
}

/// The exact analysis of the cell over `configs`, saved if the options say so, into
/// `result` (its length is the analysis's own).
fn retro_exact(
    configs: &dyn retro::ConfigSource,
    options: &SolveOptions,
    progress: &dyn Progress,
    result: &mut CellResult,
) -> Result<()> {
    let solved = match &options.save {
        // Each layer goes to disk as it is solved: the memory is the analysis's own.
        Some(to) => {
            let budget = options.memory_budget;
            retro::through::save_through(configs, budget, Precision::Exact, to, progress)?.0
        }
        None => retro::analyse(configs, options.memory_budget, progress)?,
    };
    record_retro(
        &solved.result(),
        retro::cell_estimate(configs).positions,
        result,
    );
    Ok(())
}

/// The compact analysis of the cell over `configs` within `budget`, saved if the options
/// say so (then every layer goes through the disk in parts, `retro::parts`).
fn outcomes<'t>(
    configs: &'t dyn retro::ConfigSource,
    budget: u64,
    options: &SolveOptions,
    progress: &dyn Progress,
) -> Result<retro::Solved<'t>> {
    match &options.save {
        Some(to) => {
            let saved =
                retro::through::save_through(configs, budget, Precision::Compact, to, progress)?;
            Ok(saved.0)
        }
        None => retro::analyse_outcomes(configs, budget, progress),
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
    let solved = outcomes(&ranked, budget, options, progress)?;
    let r = solved.result();
    record_retro(&r, e.positions, result);
    let Some(winner) = r.winner else {
        return Ok(());
    };
    let search_floor = MIN_ON_DEMAND_BYTES + ON_DEMAND_SLACK_BYTES;
    // The search gets what the layers kept leave: at least the floor the analysis left it
    // (its table a quarter, its slack, the store the rest), unless the layers kept took more
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
    let tt_room = options.tt_bytes.min(left / 4);
    let store_bytes = left.saturating_sub(tt_room + ON_DEMAND_SLACK_BYTES);
    let mut store = OnDemand::new(board, walls, store_bytes);
    let checkpoint = length_checkpoint(&store, options, tt_room, progress);
    let oracle = RetroOracle(&solved);
    let run = SearchRun {
        time_limit: options.time_limit,
        oracle: Some(&oracle),
        winner: Some(winner),
        tt_room,
        checkpoint: checkpoint.as_ref(),
    };
    let limits = search_limits(options, Instant::now(), &run);
    let start = Position::start(board, walls)?;
    let (found, _) = search::solve_forgetting(&mut store, &start, &limits, progress);
    let mut searched = result.clone();
    searched.outcome = Outcome::Unknown;
    record_found(&found, options, &start, &mut searched);
    searched.checkpoint_saved = checkpoint.as_ref().and_then(Checkpoint::last_outcome);
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
            return Err(Error::Argument(
                "a rank's share goes through a directory all ranks share: give --scratch".into(),
            ));
        }
    };
    crate::retro::check_board(board)?;
    let decision = crate::cell::plan::decide(board, walls, options);
    let Some(precision) = decision.retro.filter(|_| decision.need.ranked) else {
        return Err(Error::Argument(
            "only the retrograde analysis runs across ranks: use --method retro".into(),
        ));
    };
    let pool = thread_pool(options.threads)?;
    pool.install(|| {
        let ranked = Ranked::build(board, walls);
        let budget = ranked_analysis_budget(&ranked, precision, options);
        crate::retro::through::save_share(&ranked, budget, precision, to, progress)
    })
}

/// A pool of `threads` workers for one cell's work (results do not depend on their number).
fn thread_pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Argument(format!("cannot start {}: {e}", count(threads, "thread"))))
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

/// A retrograde analysis's outcomes (either precision) as the search's oracle.
pub struct RetroOracle<'s, 't>(pub &'s Solved<'t>);

impl Oracle for RetroOracle<'_, '_> {
    fn wins(&self, node: &Node, walls: &dyn Fn() -> WallSet, player: Player) -> Option<bool> {
        // The eager tables number configurations as the search does; else by wall set.
        let config = match self.0.tables() {
            Some(_) => node.config,
            None => self.0.configs().id_of(walls())?,
        };
        let mover = self
            .0
            .outcome_of(config, node.left, node.pawns, node.to_move)?;
        Some(match mover {
            Wdl::Win => node.to_move == player,
            Wdl::Loss => node.to_move != player,
            Wdl::Draw => false,
        })
    }
}
