//! `solve --method retro` where the configuration tables do not fit the budget: the
//! analysis reads the ranked numbering instead (`tables::Ranked`), and gives what the
//! analysis over the tables gives.

mod common;

use common::cli::{ok, scratch};
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

/// A table saved over the numbering is the table saved over the tables, byte for byte
/// (the same manifest of SHA-256s), and `verify` passes it.
#[test]
fn a_table_saved_without_tables_is_the_same_table() {
    let (over_tables, over_ranked) = (scratch("tables"), scratch("ranked"));
    let save = |dir: &std::path::Path, memory: &[&str]| {
        let mut args = vec!["solve", "5x5", "--walls", "3", "--method", "retro"];
        args.extend_from_slice(memory);
        args.extend_from_slice(&["--save", dir.to_str().unwrap()]);
        ok(&args);
    };
    save(&over_tables, &[]);
    // The tables and the analysis need 112 MiB; the numbering and the analysis 75 MiB.
    save(&over_ranked, &["--memory", "80M"]);
    let manifest = |dir: &std::path::Path| std::fs::read(dir.join("MANIFEST.sha256")).unwrap();
    assert_eq!(manifest(&over_ranked), manifest(&over_tables));
    ok(&["verify", over_ranked.to_str().unwrap()]);
    for dir in [over_tables, over_ranked] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}
