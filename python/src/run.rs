//! Long work off the GIL, and Ctrl-C. The work runs on a thread of its own while the
//! caller's thread waits with the GIL released (other Python threads run meanwhile) and
//! wakes every few milliseconds to let Python see its signals. On Ctrl-C (Python's
//! `KeyboardInterrupt`, or whatever the program's SIGINT handler raises) the work is asked
//! to stop: a proof search as at its deadline (`search::request_stop`, as the command line
//! asks), the retrograde analysis after the groups it is solving (`retro::request_stop`,
//! which the command line never asks: it ends the process instead); building the
//! configuration tables and reading a saved table run to their end. The call then raises
//! the exception once the work has ended, so that no work outlives the call and its memory
//! is free again when the exception is seen.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use quoridor_solver::{Error, Result};
use quoridor_solver::{retro, search};

use crate::QuoridorError;

/// The library's error as Python's: a stop is a `KeyboardInterrupt`, anything else a
/// `QuoridorError` with the one line the command line prints.
pub fn to_py(e: Error) -> PyErr {
    match e {
        Error::Interrupted => PyKeyboardInterrupt::new_err("interrupted"),
        e => QuoridorError::new_err(crate::error_text::error_text(&e)),
    }
}

/// How long the waiting thread sleeps between two looks at Python's signals.
const POLL: Duration = Duration::from_millis(20);

/// Calls running `work` now: the stop a Ctrl-C asks for is process-wide, and forgotten only
/// when none runs, so that a stop asked for during a call ends every call it reached.
static RUNNING: AtomicUsize = AtomicUsize::new(0);

struct Running;

impl Running {
    fn enter() -> Running {
        if RUNNING.fetch_add(1, Ordering::SeqCst) == 0 {
            search::clear_stop();
            retro::clear_stop();
        }
        Running
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Runs `work` on a thread of its own, the GIL released (see the module doc).
pub fn detached<T: Send>(py: Python<'_>, work: impl FnOnce() -> Result<T> + Send) -> PyResult<T> {
    let _running = Running::enter();
    let mut signal: Option<PyErr> = None;
    let joined = std::thread::scope(|scope| {
        let (done, finished) = mpsc::channel::<()>();
        let worker = scope.spawn(move || {
            let result = work();
            let _ = done.send(());
            result
        });
        let mut finished = Some(finished);
        loop {
            let waiting = finished.take().expect("the receiver is given back");
            let (ended, waiting) = py.detach(move || {
                let ended = !matches!(
                    waiting.recv_timeout(POLL),
                    Err(mpsc::RecvTimeoutError::Timeout)
                );
                (ended, waiting)
            });
            if ended {
                break worker.join();
            }
            finished = Some(waiting);
            if signal.is_none()
                && let Err(e) = py.check_signals()
            {
                signal = Some(e);
                search::request_stop();
                retro::request_stop();
            }
        }
    });
    let result = match joined {
        Ok(result) => result,
        // A bug in the work: raised as PyO3 raises any panic (`PanicException`).
        Err(panic) => std::panic::resume_unwind(panic),
    };
    match signal {
        Some(e) => Err(e),
        None => result.map_err(to_py),
    }
}

/// A pool of `threads` workers for the library's parallel loops (rayon), one per call: a
/// process-wide pool would fix the count at the first call.
pub fn pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Argument(format!("cannot start the threads: {e}")))
}
