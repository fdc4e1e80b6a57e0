//! The search's entry: iterative deepening from a position until one player is proven to
//! win, the depth limit, or the time limit; then the principal line of the win.

use super::checkpoint::{Checkpoint, Saved, Spent};
use super::no_win::{NoWin, attacker_at};
use super::node::Node;
use super::pv::principal_line;
use super::tt::{self, TranspositionTable};
use super::{Oracle, Search, Shared};
use crate::configs::ConfigTables;
use crate::error::count;
use crate::rules::geometry::Player;
use crate::rules::position::{Action, Position};
use crate::support::progress::Progress;
use std::sync::atomic::Ordering;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

/// Plies left from which a node's moves are searched in parallel (when `parallel`).
const SPLIT_DEPTH: u8 = 11;

/// How often a search iteration's status (its nodes so far) is told while it runs.
const STATUS_EVERY: Duration = Duration::from_secs(2);

/// The transposition table's first size; once crowded, it doubles in place between
/// iterations, up to its full size.
pub const INITIAL_TT_BYTES: u64 = 64 << 20;

/// Tries of one iteration over an emptied store (`solve_forgetting`) before a search with
/// neither a deadline nor a checkpoint gives up: each try starts where the table's facts
/// let it, so a try that fills the store again has still moved on, but a cell far beyond
/// the store's room would try forever. A search with a deadline or a checkpoint ends by
/// its clock or by Ctrl-C, keeping what it proved, so it tries as long as it may (9x9 with
/// 3 walls: 3 tries at 21 plies with a 14 GiB store, more than 10 at 36).
const MAX_TRIES: u32 = 64;

/// What a search may spend, and what it may use.
#[derive(Clone, Copy)]
pub struct Limits<'a> {
    /// The deepest iteration, in plies.
    pub max_depth: u8,
    /// Stop (the answer is then "not decided") at this moment.
    pub deadline: Option<Instant>,
    /// The largest transposition table, in bytes.
    pub tt_bytes: u64,
    /// Whether deep nodes split their moves over the threads of the current rayon pool.
    /// The answers do not depend on it; node counts may.
    pub parallel: bool,
    /// Only this player's depths are searched, when the winner is known.
    pub winner: Option<Player>,
    /// Known outcomes to prune with (see `Oracle`).
    pub oracle: Option<&'a dyn Oracle>,
    /// Where the table is kept between runs (`solve` and `solve_forgetting` only): read
    /// at the start, saved now and then between iterations and at the end.
    pub checkpoint: Option<&'a Checkpoint>,
}

impl<'a> Limits<'a> {
    /// A plain search to `max_depth` plies with a table of at most `tt_bytes`: no
    /// deadline, on this thread, for both players' wins, no oracle, no checkpoint. A
    /// caller that wants any of those sets that field over this one.
    pub fn new(max_depth: u8, tt_bytes: u64) -> Limits<'a> {
        Limits {
            max_depth,
            deadline: None,
            tt_bytes,
            parallel: false,
            winner: None,
            oracle: None,
            checkpoint: None,
        }
    }
}

/// A proven win from the searched position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Win {
    pub winner: Player,
    /// Plies of the win under best play (the winner hurries, the loser holds out).
    pub plies: u8,
    /// The winner's line of exactly `plies` plies, with the loser holding out.
    pub line: Vec<Action>,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// `None`: neither player wins within `depth_reached` plies (or the winner asked for,
    /// within it).
    pub win: Option<Win>,
    /// The deepest iteration completed.
    pub depth_reached: u8,
    pub nodes: u64,
    /// Whether the search stopped because its configuration store was full (else, if
    /// undecided below `max_depth`, its deadline stopped it).
    pub out_of_memory: bool,
    /// Each player's deepest iteration known to hold no win for them (`Player::index`):
    /// found by this search or read from its checkpoint.
    pub no_win: NoWin,
    /// What the earlier runs this search went on from took (from its checkpoint; not in
    /// `nodes`).
    pub earlier: Spent,
}

/// A proof search over one cell's tables with one transposition table, for any number of
/// questions: what it proves for one stays in the table for the next.
pub struct Prover<'a, T: ConfigTables> {
    shared: Shared<'a, T>,
    tt_bytes: u64,
    checkpoint: Option<&'a Checkpoint>,
}

/// Where a `deepen` call starts: the iterations known to fail (it searches the others),
/// the clock and node count of the search it continues (`solve_forgetting`), and what the
/// earlier runs of its checkpoint took.
struct Resume {
    no_win: NoWin,
    started: Instant,
    nodes: u64,
    earlier: Spent,
}

impl Resume {
    /// What the cell's search has taken once this run has visited `nodes`, earlier runs
    /// included: what a save records.
    fn spent(&self, nodes: u64) -> Spent {
        self.earlier
            + Spent {
                seconds: self.started.elapsed().as_secs_f64(),
                nodes,
            }
    }
}

impl<'a, T: ConfigTables> Prover<'a, T> {
    pub fn new(tables: &'a T, limits: &Limits<'a>) -> Prover<'a, T> {
        Prover::with_table(tables, limits, None)
    }

    /// A prover that goes on with the transposition table `tt`, if any (its keys must be
    /// the same numbers: see `ConfigTables::key_numbers`).
    fn with_table(
        tables: &'a T,
        limits: &Limits<'a>,
        tt: Option<TranspositionTable>,
    ) -> Prover<'a, T> {
        // No more entries than the cell has positions: configurations x splits of walls
        // left x pawn placements x sides to move (an upper bound).
        let cells = tables.board().squares() as u128;
        let positions = tables.configurations()
            * (tables.walls_per_player() as u128 + 1)
            * cells
            * (cells - 1)
            * 2;
        let tt_bytes = limits
            .tt_bytes
            .min(
                u64::try_from(positions * TranspositionTable::ENTRY_BYTES as u128)
                    .unwrap_or(u64::MAX),
            )
            .max(1 << 16);
        Prover {
            shared: Shared {
                tables,
                oracle: limits.oracle,
                proving: limits.oracle.filter(|o| o.proves()),
                tt: tt.unwrap_or_else(|| {
                    TranspositionTable::with_room(
                        tt_bytes.min(INITIAL_TT_BYTES),
                        tt_bytes,
                        tt::dominance_holds(tables.board()),
                    )
                }),
                abort: Default::default(),
                deadline: limits.deadline,
                nodes: Default::default(),
                history: Default::default(),
                split_depth: if limits.parallel {
                    SPLIT_DEPTH
                } else {
                    u8::MAX
                },
            },
            tt_bytes,
            checkpoint: limits.checkpoint,
        }
    }

    /// Saves the table with the iterations known to fail and the work `spent`; a failure
    /// is reported, and the search goes on.
    fn save(&self, checkpoint: &Checkpoint, no_win: NoWin, spent: Spent, progress: &dyn Progress) {
        let started = Instant::now();
        match checkpoint.save(&self.shared.tt, no_win, spent) {
            Ok(()) => progress.message(&format!(
                "checkpoint saved with no win for Player 1 within {} and for Player 2 within \
                 {} ({:.1} s)",
                count(no_win.0[0], "ply"),
                count(no_win.0[1], "ply"),
                started.elapsed().as_secs_f64()
            )),
            // Said whatever the verbosity: the user must not believe the work is kept.
            Err(e) => progress.warn(&format!(
                "could not save the checkpoint {}: {e} (the search goes on; the work since \
                 the last save is not kept)",
                checkpoint.path().display()
            )),
        }
    }

    /// Whether `attacker` can force their pawn home within `depth` plies from `position`,
    /// which must not be over. Meaningless once the deadline has passed (`timed_out`).
    pub fn wins_within(&self, position: &Position, attacker: Player, depth: u8) -> bool {
        let node = Node::from_position(self.shared.tables, position)
            .expect("a position of the cell has a configuration in its tables");
        depth > 0 && Search::attack_root(&self.shared, attacker, &node, depth)
    }

    /// Whether the deadline, or a full configuration store, stopped a search.
    pub fn timed_out(&self) -> bool {
        self.shared.abort.load(Ordering::Relaxed) || self.shared.tables.exhausted()
    }

    /// Nodes visited so far, over every question.
    pub fn nodes(&self) -> u64 {
        self.shared.nodes.get()
    }

    /// `Search::attack_root` from `start`, its status (`status` of the nodes counted so
    /// far) told when it begins and every `STATUS_EVERY` while it runs: an iteration of a
    /// deep search lasts hours, and its nodes were told only when it ended.
    fn attack_telling(
        &self,
        attacker: Player,
        start: &Node,
        depth: u8,
        (progress, status): (&dyn Progress, &(dyn Fn(u64) -> String + Sync)),
    ) -> bool {
        progress.status(&status(self.nodes()));
        if !progress.shows_status() {
            // No thread for nobody: a test's thousands of small searches spawned one an
            // iteration and took 10 times as long.
            return Search::attack_root(&self.shared, attacker, start, depth);
        }
        let (done, waiting) = std::sync::mpsc::channel::<()>();
        let nodes = &self.shared.nodes;
        std::thread::scope(|scope| {
            scope.spawn(move || {
                while waiting.recv_timeout(STATUS_EVERY) == Err(RecvTimeoutError::Timeout) {
                    progress.status(&status(nodes.get()));
                }
            });
            let won = Search::attack_root(&self.shared, attacker, start, depth);
            drop(done);
            won
        })
    }

    /// Iterative deepening from `position` (not over): Player to move's win at depths 1,
    /// 3, 5, ..., the other's at 2, 4, ... (only the winner's, if `winner`), until one wins,
    /// `max_depth`, or the deadline. The first win found is the shortest.
    pub fn deepen(
        &mut self,
        position: &Position,
        max_depth: u8,
        winner: Option<Player>,
        progress: &dyn Progress,
    ) -> SearchResult {
        // No bar of depths: the depth of the win is what the search finds out.
        progress.begin("proof search", 0);
        let resume = Resume {
            no_win: NoWin::default(),
            started: Instant::now(),
            nodes: 0,
            earlier: Spent::default(),
        };
        let result = self.deepen_from(position, &resume, max_depth, winner, progress);
        progress.finish();
        result
    }

    /// `deepen` over the iterations `resume.no_win` does not settle. `depth_reached` is
    /// then the deepest within which neither player wins, or with `winner`, the winner's
    /// deepest iteration.
    fn deepen_from(
        &mut self,
        position: &Position,
        resume: &Resume,
        max_depth: u8,
        winner: Option<Player>,
        progress: &dyn Progress,
    ) -> SearchResult {
        let tables = self.shared.tables;
        let start = Node::from_position(tables, position)
            .expect("a position of the cell has a configuration in its tables");
        let started = resume.started;
        let reached = |no_win: NoWin| match winner {
            Some(w) => no_win.of(w),
            None => no_win.neither_within(position.to_move),
        };
        let mut result = SearchResult {
            win: None,
            depth_reached: reached(resume.no_win),
            nodes: 0,
            out_of_memory: false,
            no_win: resume.no_win,
            earlier: resume.earlier,
        };
        let nodes_before = self.nodes();
        let so_far = |prover: &Self| prover.nodes() - nodes_before + resume.nodes;
        for depth in 1..=max_depth {
            if self.shared.tt.crowded() && self.shared.tt.bytes() * 2 <= self.tt_bytes {
                // Doubled in place, so a table is only as large as its search has needed:
                // on this machine the first write to new memory costs more than a search
                // of a few seconds gains from a larger table (docs/PERFORMANCE.md, "The
                // table grown in place").
                let bytes = self.shared.tt.bytes() * 2;
                self.shared.tt.grow(bytes);
            }
            let attacker = attacker_at(position, depth);
            if winner.is_some_and(|w| w != attacker) || result.no_win.settles(attacker, depth) {
                continue;
            }
            let status = |now: u64| {
                let nodes = now - nodes_before + resume.nodes;
                let seconds = started.elapsed().as_secs_f64();
                format!(
                    "depth {depth} (Player {}), {} nodes so far, {}/s",
                    attacker.number(),
                    si(nodes as f64),
                    si(nodes as f64 / seconds.max(1e-3)),
                )
            };
            let won = self.attack_telling(attacker, &start, depth, (progress, &status));
            if self.timed_out() {
                break;
            }
            if won {
                result.depth_reached = depth;
            } else {
                result.no_win.0[attacker.index()] = depth;
                result.depth_reached = reached(result.no_win);
            }
            if let Some(checkpoint) = self.checkpoint.filter(|c| !won && c.due()) {
                self.save(
                    checkpoint,
                    result.no_win,
                    resume.spent(so_far(self)),
                    progress,
                );
            }
            progress.message(&format!(
                "depth {depth}: Player {} {} within {} ({}, {:.2} s)",
                attacker.number(),
                if won { "wins" } else { "cannot win" },
                count(depth, "ply"),
                count(so_far(self), "node"),
                started.elapsed().as_secs_f64()
            ));
            if won {
                let line = principal_line(&self.shared, attacker, &start, depth);
                result.win = Some(Win {
                    winner: attacker,
                    plies: depth,
                    line: line.iter().map(|&m| Node::action(tables, m)).collect(),
                });
                break;
            }
        }
        result.nodes = self.nodes() - nodes_before;
        result.out_of_memory = tables.exhausted();
        result
    }
}

/// `solve` over a store that may fill (an on-demand store): when it does, the store is
/// emptied (`ConfigTables::forget`) and the iteration tried again with the same
/// transposition table, whose facts stay true and spare the new try what the last one
/// proved (at most `MAX_TRIES` times an iteration without a deadline or a checkpoint).
/// Returns the result and how often the store was emptied.
pub fn solve_forgetting<T: ConfigTables>(
    tables: &mut T,
    position: &Position,
    limits: &Limits,
    progress: &dyn Progress,
) -> (SearchResult, u32) {
    progress.begin("proof search", 0);
    let _saving = limits.checkpoint.map(|_| super::Saving::enter());
    let (mut tt, mut resume) = resume(position, limits, progress);
    let (mut forgotten, mut tries) = (0, 0);
    let most_tries = if limits.deadline.is_some() || limits.checkpoint.is_some() {
        u32::MAX
    } else {
        MAX_TRIES
    };
    let result = loop {
        let mut prover = Prover::with_table(tables, limits, tt.take());
        let mut found =
            prover.deepen_from(position, &resume, limits.max_depth, limits.winner, progress);
        found.nodes += resume.nodes;
        // A try that filled the store is tried again from the iteration it did not finish
        // (from the win's own depth, if the store filled while its line was read: a win
        // leaves `no_win` as it was).
        let next = next_depth(position, found.no_win, limits.winner);
        tries = if found.no_win == resume.no_win {
            tries + 1
        } else {
            1
        };
        let deadline_passed =
            super::stop_requested() || limits.deadline.is_some_and(|d| Instant::now() >= d);
        if !found.out_of_memory || deadline_passed || tries >= most_tries || next > limits.max_depth
        {
            prover.save_at_end(&found, &resume, progress);
            break found;
        }
        if found.win.is_some() {
            // The win is proven; only the reading of its line filled the store. Read on
            // from where it stopped, instead of proving the whole depth again.
            prover.save_at_end(&found, &resume, progress);
            let mut tt = Some(prover.shared.tt);
            if let Some(win) = &mut found.win {
                found.out_of_memory = !finish_line(
                    tables,
                    position,
                    win,
                    &mut tt,
                    limits,
                    progress,
                    &mut forgotten,
                );
            }
            break found;
        }
        if let Some(checkpoint) = prover.checkpoint.filter(|c| c.due()) {
            prover.save(
                checkpoint,
                found.no_win,
                resume.spent(found.nodes),
                progress,
            );
        }
        tt = Some(prover.shared.tt);
        if !tables.forget() {
            break found;
        }
        forgotten += 1;
        progress.message(&format!(
            "depth {next}: the configuration store is full; emptied it ({} so far) to try \
             depth {next} again",
            count(forgotten, "time")
        ));
        resume = Resume {
            no_win: found.no_win,
            started: resume.started,
            nodes: found.nodes,
            earlier: resume.earlier,
        };
    };
    progress.finish();
    (result, forgotten)
}

/// Reads the rest of `win`'s line, cut where the configuration store filled: empties the
/// store and reads on from the position the line has reached, as often as that moves the
/// line on. Returns whether the line is whole.
fn finish_line<T: ConfigTables>(
    tables: &mut T,
    position: &Position,
    win: &mut Win,
    tt: &mut Option<TranspositionTable>,
    limits: &Limits,
    progress: &dyn Progress,
    forgotten: &mut u32,
) -> bool {
    while win.line.len() < win.plies as usize {
        if super::stop_requested() || !tables.forget() {
            return false;
        }
        *forgotten += 1;
        progress.message(&format!(
            "line of the win in {}: the configuration store is full; emptied it ({} so far) \
             to read on from ply {}",
            win.plies,
            count(*forgotten, "time"),
            win.line.len() + 1
        ));
        let reached = win.line.iter().fold(*position, |p, &a| p.play(a));
        let prover = Prover::with_table(tables, limits, tt.take());
        let start = Node::from_position(tables, &reached)
            .expect("a position of the cell has a configuration in its store");
        let left = win.plies - win.line.len() as u8;
        let rest = principal_line(&prover.shared, win.winner, &start, left);
        win.line
            .extend(rest.iter().map(|&m| Node::action(tables, m)));
        *tt = Some(prover.shared.tt);
        if rest.is_empty() && tables.exhausted() {
            return false; // one ply's searches fill the whole store: no way on
        }
    }
    true
}

/// Proof search from `position` (not over) within `limits`: who wins, in how many plies,
/// and the line.
pub fn solve<T: ConfigTables>(
    tables: &T,
    position: &Position,
    limits: &Limits,
    progress: &dyn Progress,
) -> SearchResult {
    progress.begin("proof search", 0);
    let _saving = limits.checkpoint.map(|_| super::Saving::enter());
    let (tt, resume) = resume(position, limits, progress);
    let mut prover = Prover::with_table(tables, limits, tt);
    let found = prover.deepen_from(position, &resume, limits.max_depth, limits.winner, progress);
    prover.save_at_end(&found, &resume, progress);
    progress.finish();
    found
}

/// The first iteration a search from `position` asks that `no_win` does not settle.
fn next_depth(position: &Position, no_win: NoWin, winner: Option<Player>) -> u8 {
    (1..=u8::MAX)
        .find(|&depth| {
            let attacker = attacker_at(position, depth);
            winner.is_none_or(|w| w == attacker) && !no_win.settles(attacker, depth)
        })
        .unwrap_or(u8::MAX)
}

/// Where a search from `position` starts: from the checkpoint's table and the iterations
/// it knows to fail, if it has them.
fn resume(
    position: &Position,
    limits: &Limits,
    progress: &dyn Progress,
) -> (Option<TranspositionTable>, Resume) {
    let saved = limits.checkpoint.and_then(Checkpoint::take);
    if let Some(s) = &saved {
        let [one, two] = s.no_win.0;
        progress.message(&format!(
            "checkpoint read: a table of {}, no win for Player 1 within {} and for Player 2 \
             within {} ({}); going on from depth {}",
            crate::error::format_bytes(s.tt.bytes()),
            count(one, "ply"),
            count(two, "ply"),
            match s.spent {
                Some(spent) => format!(
                    "{} and {:.1} s in earlier runs",
                    count(spent.nodes, "node"),
                    spent.seconds
                ),
                None => "an older file: what earlier runs took is not recorded".into(),
            },
            next_depth(position, s.no_win, limits.winner)
        ));
    }
    let resume = Resume {
        no_win: saved.as_ref().map_or(NoWin::default(), |s| s.no_win),
        started: Instant::now(),
        nodes: 0,
        earlier: saved.as_ref().and_then(|s| s.spent).unwrap_or_default(),
    };
    (saved.map(|Saved { tt, .. }| tt), resume)
}

impl<T: ConfigTables> Prover<'_, T> {
    /// The last save of a search that ended with `found` (its nodes this run's, from
    /// `resume`): the depth saved is the deepest known to hold no win, so that the next run
    /// finds the win again.
    fn save_at_end(&self, found: &SearchResult, resume: &Resume, progress: &dyn Progress) {
        if let Some(checkpoint) = self.checkpoint {
            // A win leaves `no_win` below its depth: the next run finds it again.
            self.save(
                checkpoint,
                found.no_win,
                resume.spent(found.nodes),
                progress,
            );
        }
    }
}

/// A count in about three digits with a metric suffix: 1234567 -> "1.235M".
fn si(x: f64) -> String {
    let (value, suffix) = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")]
        .into_iter()
        .find(|&(unit, _)| x >= unit)
        .map_or((x, ""), |(unit, s)| (x / unit, s));
    format!("{value:.3}{suffix}")
}
