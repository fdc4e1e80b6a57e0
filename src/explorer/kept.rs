//! The cells solved on request, kept: each by a thread of its own that owns its
//! configuration tables and values and answers from them, so a solve outlives the request
//! that started it. A client that gives up (a browser moving on, `curl -m 1`) leaves the
//! solve to finish, and the next request for that cell is a lookup instead of the same
//! solve again.
//!
//! A solve keeps the layers from the position's up to the cell's last when they fit `serve
//! --memory` (then a game clicked through from there, walls placed included, is lookups),
//! else the position's layer and the next (those of its answer). Several cells are kept,
//! their memory together within `--memory` (`shelf.rs`): a new solve first drops the kept
//! cells it needs the room of, the least recently used first, and the cell's own entry
//! when a position below its layers kept is asked (it is solved again from there). One
//! solve runs at a time: while it does, every request that needs one, its own cell's
//! included, is told the server is busy; the kept cells go on answering.

use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Instant;

use super::shelf::{Entry, Shelf};
use super::{Limits, Refusal};
use crate::cell::analysis::Analyst;
use crate::cell::estimate::CellEstimate;
use crate::configs::Tables;
use crate::retro::Keep;
use crate::rules::cell::Cell;
use crate::rules::position::Position;
use crate::support::progress::Silent;

/// A question for a kept cell: the JSON of `analyze --json` for `position`.
struct Question {
    cell: Cell,
    position: Position,
    /// When the request came (its answer's `seconds` count from there).
    started: Instant,
    answer: Sender<Result<String, Refusal>>,
}

/// The door to the thread that keeps a cell: its questions, and the thread, to wait for
/// its memory to go once the door is closed.
struct Door {
    questions: Sender<Question>,
    thread: JoinHandle<()>,
}

impl Door {
    /// Ends the thread once it has answered the questions it was given (a kept cell being
    /// answered when dropped still answers), and waits for its memory to be freed.
    fn close(self) {
        drop(self.questions);
        let _ = self.thread.join();
    }
}

/// A cell kept, as `/api/cells` lists it.
pub struct Listed {
    pub cell: Cell,
    /// The walls on the board of the positions it answers, from and to (both included).
    pub layers: (usize, usize),
    pub bytes: u64,
}

/// The cells kept and the door to each.
pub struct Kept {
    shelf: Arc<Mutex<Shelf<Door>>>,
    limits: Limits,
}

impl Kept {
    /// Keeps nothing yet; every thread it starts ends once this is dropped.
    pub fn start(limits: Limits) -> Kept {
        Kept {
            shelf: Arc::new(Mutex::new(Shelf::new(limits.memory))),
            limits,
        }
    }

    /// The JSON of `analyze --json` for `position` of `cell` (a cell that fits the
    /// limits: the caller checks), from a kept cell or by solving it, unless another
    /// solve is running.
    pub fn analyze(
        &self,
        cell: Cell,
        position: Position,
        started: Instant,
    ) -> Result<String, Refusal> {
        let (send, receive) = channel();
        let question = Question {
            cell,
            position,
            started,
            answer: send,
        };
        let layers = crate::output::report::analyze::layers(&position, None);
        {
            let mut shelf = lock(&self.shelf);
            match shelf.find(cell, &layers) {
                Some(kept) if kept.ready => kept
                    .held
                    .questions
                    .send(question)
                    .expect("a kept cell's thread lives as long as its door"),
                _ => {
                    if let Some(solving) = shelf.solving() {
                        return Err(Refusal::Busy(format!(
                            "busy: {solving} is being solved on request (one at a time); try \
                             again in a moment"
                        )));
                    }
                    // Under the lock: a second request cannot start a second solve.
                    self.solve(&mut shelf, question, layers.start);
                }
            }
        }
        receive
            .recv()
            .expect("the keeping thread answers every question")
    }

    /// Starts the solve of the cell of `first` from layer `from`, on a thread that then
    /// keeps it, after making room for it.
    fn solve(&self, shelf: &mut Shelf<Door>, first: Question, from: usize) {
        let cell = first.cell;
        let (layers, top, bytes) = plan(cell, from, self.limits.memory);
        let (dropped, room) = shelf.make_room(cell, bytes);
        let (send, questions) = channel();
        let id = shelf.next_id();
        let keeping = self.shelf.clone();
        let solve = layers.clone();
        let thread = std::thread::spawn(move || {
            // The cells dropped go first: their memory is freed before this solve's comes.
            dropped
                .into_iter()
                .for_each(|e: Entry<Door>| e.held.close());
            // A bug while solving or answering must not leave every later request busy.
            let kept = catch_unwind(AssertUnwindSafe(|| {
                keep(id, first, solve, room, &questions, &keeping)
            }));
            if kept.is_err() {
                lock(&keeping).remove(id);
            }
        });
        let door = Door {
            questions: send,
            thread,
        };
        let started = shelf.start(cell, layers, top, bytes, door);
        debug_assert_eq!(started, id);
    }

    /// The cells kept, the most recently used first, and the solves started since the
    /// server started.
    pub fn listed(&self) -> (Vec<Listed>, u64) {
        let shelf = lock(&self.shelf);
        let kept = shelf
            .kept()
            .into_iter()
            .map(|e| Listed {
                cell: e.cell,
                layers: (e.layers.start, e.layers.end.saturating_sub(1)),
                bytes: e.bytes,
            })
            .collect();
        (kept, shelf.solves())
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What a solve of `cell` from layer `from` keeps: the layers up to the cell's last when
/// they fit `memory`, else `from` and the next; the cell's layers; the solve's estimated
/// peak bytes, tables included (the sum `fits` makes: the tables' build counted whole).
fn plan(cell: Cell, from: usize, memory: u64) -> (Range<usize>, usize, u64) {
    let e = CellEstimate::new(cell.board, cell.walls);
    let top = e.retro.layers;
    let from = from.min(top);
    let peak = |layers: &Range<usize>| {
        let keep = Keep::Layers(layers.clone());
        e.tables.bytes.saturating_add(e.retro.exact_peak(&keep))
    };
    let every = from..top;
    if peak(&every) <= memory {
        let bytes = peak(&every);
        return (every, top, bytes);
    }
    let two = from..(from + 2).min(top);
    let bytes = peak(&two);
    (two, top, bytes)
}

/// A keeping thread: solves `cell` keeping `layers` within `budget` bytes, then answers
/// `first` and every question after it until its door is closed. On a refusal (the
/// memory) it answers `first` with it and leaves the shelf.
fn keep(
    id: u64,
    first: Question,
    layers: Range<usize>,
    budget: u64,
    questions: &Receiver<Question>,
    shelf: &Mutex<Shelf<Door>>,
) {
    let cell = first.cell;
    let tables = Tables::build(cell.board, cell.walls, budget, &Silent);
    let analyst = tables
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|t| Analyst::retro(t, budget, layers, &Silent));
    let (tables, mut analyst) = match (&tables, analyst) {
        (Ok(tables), Ok(analyst)) => (tables, analyst),
        (_, Err(e)) => {
            lock(shelf).remove(id);
            let _ = first.answer.send(Err(e.into()));
            return;
        }
        (Err(_), Ok(_)) => unreachable!("an analysis needs its tables"),
    };
    lock(shelf).solved(id, tables.bytes() + analyst.held_bytes());
    let mut question = first;
    loop {
        let json = answer(&mut analyst, &question);
        // The client may have given up: its values are kept all the same.
        let _ = question.answer.send(Ok(json));
        match questions.recv() {
            Ok(next) => question = next,
            Err(_) => return,
        }
    }
}

/// The JSON of `analyze --json` for the question.
fn answer(analyst: &mut Analyst, q: &Question) -> String {
    let answer = crate::output::report::analyze::answer(analyst, &q.position, None, &Silent);
    let seconds = q.started.elapsed().as_secs_f64();
    crate::output::report::analyze::json(q.cell.board, q.cell.walls, &q.position, &answer, seconds)
}
