//! The Python package `quoridor_solver` (docs/PYTHON.md): the solver's library called
//! in-process, with no subprocess and no JSON in between.
//!
//! Another edge beside the command line, and built the same way: Python's arguments are
//! turned into the library's checked options once (`args.rs`), with the command line's
//! one-line messages (a refusal is a `QuoridorError`, a `ValueError`); long work runs on a
//! thread of its own with the GIL released, and Ctrl-C stops it (`run.rs`). The library
//! underneath is the one the binary uses: the same numbers, the same memory budget.
//!
//! - `solve.rs`: `solve`, one cell (the command `solve`);
//! - `analyze.rs`: `analyze`, a position and every move (the command `analyze`);
//! - `table.rs`: `Table`, a saved table opened once and looked up (the explorer's path);
//! - `state.rs`: `State`, a position as numbers, and positions given as records;
//! - `results.rs`: what the calls return;
//! - `error_text/`: the command line's own files (`src/cli/error_text/`), the library's
//!   errors in its words.

mod analyze;
mod args;
// The command line's words for the library's errors, one folder for both edges.
#[path = "../../src/cli/error_text/mod.rs"]
mod error_text;
mod results;
mod run;
mod solve;
mod state;
mod table;

use pyo3::prelude::*;

pyo3::create_exception!(
    quoridor_solver,
    QuoridorError,
    pyo3::exceptions::PyValueError,
    "Bad input or a refused request: the command line's one-line message (it exits 2 there)."
);

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("QuoridorError", m.py().get_type::<QuoridorError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    m.add_function(wrap_pyfunction!(analyze::analyze, m)?)?;
    m.add_class::<results::Solution>()?;
    m.add_class::<results::Analysis>()?;
    m.add_class::<results::Value>()?;
    m.add_class::<results::Move>()?;
    m.add_class::<state::State>()?;
    m.add_class::<table::Table>()?;
    Ok(())
}
