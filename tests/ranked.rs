//! `solve --method retro` where the configuration tables do not fit the budget: the
//! analysis reads the ranked numbering instead (`tables::Ranked`), and gives what the
//! analysis over the tables gives.

mod common;

use common::cli::ok;
use serde_json::Value;

fn solve_json(args: &[&str]) -> Value {
    let mut all = vec!["solve"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--method", "retro", "--json", "--stats"]);
    serde_json::from_str(&ok(&all)).expect("solve --json prints JSON")
}

/// The exact analysis over the numbering, at a budget the tables do not fit: the same
/// value, length and counts as over the tables.
#[test]
fn exact_analysis_without_tables_counts_the_same() {
    let tables = solve_json(&["5x5", "--walls", "3"]);
    let ranked = solve_json(&[
        "5x5",
        "--walls",
        "3",
        "--precision",
        "exact",
        "--memory",
        "60M",
    ]);
    for key in [
        "outcome",
        "plies",
        "method",
        "positions",
        "p1_wins",
        "p2_wins",
        "draws",
        "left_out",
    ] {
        assert_eq!(ranked[key], tables[key], "{key}");
    }
    assert_eq!(
        (&ranked["outcome"], &ranked["plies"]),
        (&"2".into(), &28.into())
    );
    // Far below what the tables and the analysis would need together (112 MiB).
    assert!(
        ranked["peak_bytes"].as_u64().unwrap() < 80 << 20,
        "{ranked}"
    );
}

/// The compact analysis over the numbering, then the length by a proof search over
/// configurations built on demand that asks the analysis by wall set: the table's value.
#[test]
fn compact_analysis_without_tables_finds_the_length() {
    let ranked = solve_json(&["5x5", "--walls", "4", "--memory", "300M"]);
    assert_eq!(ranked["outcome"], "2");
    assert_eq!(ranked["plies"], 38);
    assert_eq!(ranked["method"], "retrograde+search");
    assert_eq!(ranked["positions"], 2264065340u64);
    assert_eq!(ranked["pv"].as_array().map(Vec::len), Some(38));
}
