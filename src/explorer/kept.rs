//! The cell last solved on request, kept: one thread owns its configuration tables and
//! values and answers from them, so a solve outlives the request that started it. A client
//! that gives up (a browser moving on, `curl -m 1`) leaves the solve to finish, and the
//! next request for that cell is a lookup instead of the same solve again.
//!
//! One cell is kept at a time (its memory within `serve --memory`), until a request for
//! another cell, or for a position of the same cell below the layers kept, replaces it.
//! While a solve runs, every request that needs one is told the server is busy.

use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use super::{Cell, Limits, Refusal};
use crate::cell::analysis::Analyst;
use crate::configs::Tables;
use crate::rules::position::Position;
use crate::support::progress::Silent;

/// A question for the kept cell: the JSON of `analyze --json` for `position`.
struct Question {
    cell: Cell,
    position: Position,
    /// When the request came (its answer's `seconds` count from there).
    started: Instant,
    answer: Sender<Result<String, Refusal>>,
}

impl Question {
    /// The layers (walls on the board) its answer needs, as `analyze` keeps them.
    fn layers(&self) -> Range<usize> {
        crate::output::report::analyze::layers(&self.position, None)
    }
}

/// What the keeping thread holds, as the workers see it.
#[derive(Default)]
struct Held {
    /// The cell kept or being solved, and the layers it keeps.
    cell: Option<(Cell, Range<usize>)>,
    solving: bool,
}

impl Held {
    fn covers(&self, cell: Cell, layers: &Range<usize>) -> bool {
        matches!(&self.cell, Some((c, kept)) if *c == cell
            && kept.start <= layers.start && layers.end <= kept.end)
    }
}

/// The door to the keeping thread.
pub struct Kept {
    questions: Mutex<Sender<Question>>,
    held: Arc<Mutex<Held>>,
}

impl Kept {
    /// Starts the keeping thread; it ends when this is dropped.
    pub fn start(limits: Limits) -> Kept {
        let (send, receive) = channel();
        let held = Arc::new(Mutex::new(Held::default()));
        let shared = held.clone();
        std::thread::spawn(move || keep(&receive, &shared, limits));
        Kept {
            questions: Mutex::new(send),
            held,
        }
    }

    /// The JSON of `analyze --json` for `position` of `cell` (a cell that fits the
    /// limits: the caller checks), from the kept cell or by solving it, unless another
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
        {
            let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
            if held.solving {
                let (solving, _) = held.cell.clone().expect("a solve is of a cell");
                return Err(Refusal::Busy(format!(
                    "busy: {solving} is being solved on request (one at a time); try again \
                     in a moment"
                )));
            }
            let layers = question.layers();
            if !held.covers(cell, &layers) {
                // Marked under the lock: a second request cannot start a second solve.
                *held = Held {
                    cell: Some((cell, layers)),
                    solving: true,
                };
            }
            self.questions
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .send(question)
                .expect("the keeping thread lives as long as the explorer");
        }
        receive
            .recv()
            .expect("the keeping thread answers every question")
    }
}

/// The keeping thread: solves the cell of a question not covered by what it holds, then
/// answers questions from it until one needs another solve.
fn keep(questions: &Receiver<Question>, held: &Mutex<Held>, limits: Limits) {
    let mut next = questions.recv().ok();
    while let Some(first) = next.take() {
        // A bug while solving must not leave every later request busy.
        let kept = catch_unwind(AssertUnwindSafe(|| {
            solve_and_answer(first, questions, held, limits)
        }));
        match kept {
            Ok(next_question) => next = next_question,
            Err(_) => {
                *held.lock().unwrap_or_else(PoisonError::into_inner) = Held::default();
                next = questions.recv().ok();
            }
        }
    }
}

/// Solves the cell of `first` (the layers it needs and above), answers it and every
/// question after it that the values cover; returns the first that they do not (`None`
/// once the explorer is gone). The tables and values are dropped on return, before the
/// next solve: one cell's memory at a time.
fn solve_and_answer(
    first: Question,
    questions: &Receiver<Question>,
    held: &Mutex<Held>,
    limits: Limits,
) -> Option<Question> {
    let cell = first.cell;
    let layers = first.layers();
    let tables = Tables::build(cell.board, cell.walls, limits.memory, &Silent);
    let analyst = tables
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|t| Analyst::retro(t, limits.memory, layers.clone(), &Silent));
    let mut analyst = match analyst {
        Ok(analyst) => analyst,
        Err(e) => {
            *held.lock().unwrap_or_else(PoisonError::into_inner) = Held::default();
            let _ = first.answer.send(Err(e.into()));
            return questions.recv().ok();
        }
    };
    held.lock().unwrap_or_else(PoisonError::into_inner).solving = false;
    let mut question = first;
    loop {
        let json = answer(&mut analyst, &question);
        // The client may have given up: its values are kept all the same.
        let _ = question.answer.send(Ok(json));
        question = questions.recv().ok()?;
        if !(question.cell == cell
            && layers.start <= question.layers().start
            && question.layers().end <= layers.end)
        {
            return Some(question);
        }
    }
}

/// The JSON of `analyze --json` for the question.
fn answer(analyst: &mut Analyst, q: &Question) -> String {
    let answer = crate::output::report::analyze::answer(analyst, &q.position, None, &Silent);
    let seconds = q.started.elapsed().as_secs_f64();
    crate::output::report::analyze::json(q.cell.board, q.cell.walls, &q.position, &answer, seconds)
}
