//! The planner against the solver: on a spread of small cells, methods and budgets,
//! `plan::decide` says before anything is built how `solve` will run the cell, and `solve`
//! then does exactly that (the method it reports, the precision its length shows, the
//! store), or refuses the budget the decision names as too small.

use quoridor_solver::cell::estimate::CellEstimate;
use quoridor_solver::cell::plan::{Decision, decide};
use quoridor_solver::cell::solver::{
    CellResult, Method, MethodUsed, Outcome, SolveOptions, Store, solve,
};
use quoridor_solver::error::Error;
use quoridor_solver::retro::{Keep, Precision};
use quoridor_solver::rules::cell::Cell;
use quoridor_solver::rules::geometry::Board;
use quoridor_solver::support::progress::Silent;
use std::time::Duration;

fn options(method: Method, memory_budget: u64) -> SolveOptions {
    SolveOptions {
        method,
        max_depth: 60,
        time_limit: Some(Duration::from_secs(120)),
        threads: 2,
        memory_budget,
        tt_bytes: Some(8 << 20),
        ..SolveOptions::default()
    }
}

/// Budgets that put the cell on each side of the planner's lines: everything fits; the
/// exact analysis fits with two layers but not every layer (so `solve` goes compact); the
/// compact analysis only just fits; below the tables (search on demand or a refusal).
fn budgets(board: Board, walls: u8) -> Vec<u64> {
    let e = CellEstimate::new(board, walls);
    let tables = e.tables.finished_bytes;
    vec![
        1 << 30,
        tables + e.retro.exact_peak(&Keep::Every) - 1,
        e.retro_bytes(None),
        e.tables.bytes / 2,
    ]
}

/// What `solve` did, held against the decision.
fn check(cell: &str, d: &Decision, r: &CellResult) {
    let why = format!("{cell}: {}", d.why);
    match (d.search, d.retro) {
        (None, Some(precision)) => {
            assert_ne!(r.method, MethodUsed::Search, "{why}: the analysis ran");
            if r.outcome != Outcome::Draw {
                // A win's length comes from the exact analysis itself, or from the search
                // guided by the compact one.
                let expected = match precision {
                    Precision::Exact => MethodUsed::Retro,
                    Precision::Compact => MethodUsed::RetroSearch,
                };
                assert_eq!(r.method, expected, "{why}");
            }
        }
        (Some(_), None) => assert_eq!(r.method, MethodUsed::Search, "{why}: search only"),
        (Some(_), Some(_)) => {
            // The analysis follows only a search that left the cell undecided: a draw here.
            if r.method != MethodUsed::Search {
                assert_eq!(r.outcome, Outcome::Draw, "{why}");
            }
        }
        (None, None) => panic!("{why}: nothing runs"),
    }
}

#[test]
fn the_solver_does_what_the_planner_decided() {
    let mut seen = std::collections::BTreeSet::new();
    for (w, h, walls) in [(3, 3, 1), (3, 5, 2), (4, 4, 2), (8, 3, 3), (5, 5, 1)] {
        let board = Board::new(w, h).unwrap();
        for budget in budgets(board, walls) {
            let asks = [
                (Method::Auto, Store::Auto),
                (Method::Retro, Store::Auto),
                (Method::Search, Store::Auto),
                (Method::Search, Store::OnDemand),
            ];
            for (method, store) in asks {
                let o = SolveOptions {
                    store,
                    ..options(method, budget)
                };
                let cell = format!("{board} w{walls} {method:?} {store:?} at {budget} B");
                let d = decide(Cell::new(board, walls), &o);
                match solve(board, walls, &o, &Silent) {
                    Ok(r) => {
                        check(&cell, &d, &r);
                        seen.insert(format!(
                            "{:?} {:?} {}",
                            d.search.is_some(),
                            d.retro,
                            d.need.on_demand
                        ));
                    }
                    // Refused only below what the decision says the cell needs.
                    Err(Error::Memory { .. }) => {
                        assert!(
                            budget < d.need.bytes,
                            "{cell}: refused within {}",
                            d.need.bytes
                        )
                    }
                    Err(e) => panic!("{cell}: {e}"),
                }
            }
        }
    }
    // The spread reached every kind of decision: search alone (on demand too), each
    // precision alone, search then each precision.
    for kind in [
        "true None false",
        "true None true",
        "false Some(Exact) false",
        "false Some(Compact) false",
        "true Some(Exact) false",
        "true Some(Compact) false",
    ] {
        assert!(seen.contains(kind), "no cell decided {kind}: {seen:?}");
    }
}

/// The table's plan (`plan::plan`) never promises an analysis in memory that the solver,
/// given the plan's method and precision, then refuses as over the budget: one rule for
/// the plan and the run. Every cell up to 5x5 and 4 walls, at budgets from 1 MiB to 2 GiB.
#[test]
fn the_table_plan_and_the_solver_agree_on_what_fits() {
    let mut checked = 0;
    for (w, h) in [
        (3, 3),
        (4, 3),
        (3, 5),
        (4, 4),
        (4, 5),
        (5, 5),
        (3, 7),
        (4, 7),
    ] {
        let board = Board::new(w, h).unwrap();
        for walls in 0..=4 {
            for mib in (0..12).map(|i| 1u64 << i) {
                let budget = mib << 20;
                let planned = quoridor_solver::cell::plan::plan(
                    Cell::new(board, walls),
                    budget,
                    Duration::MAX,
                    &[],
                );
                if planned.method == Method::Search {
                    continue;
                }
                let run = SolveOptions {
                    precision: planned.precision,
                    ..options(Method::Retro, budget)
                };
                let d = decide(Cell::new(board, walls), &run);
                assert!(
                    d.need.bytes <= budget,
                    "{board} with {walls} at {mib} MiB: planned {:?} ({}), the run needs {} bytes",
                    planned.method,
                    planned.why,
                    d.need.bytes
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked}");
}
