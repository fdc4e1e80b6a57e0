//! The binary end to end: output shape, exit codes (0 success, 2 bad usage or input) and
//! one-line error messages, never a panic.

use std::io::Write;
use std::process::{Command, Stdio};

use quoridor_solver::rules::geometry::Board;
use quoridor_solver::rules::position::Position;

mod common;
use common::cli::{interrupted_in_search, ok, refused, run, scratch, stderr, stdout};

fn last_line(text: &str) -> &str {
    text.lines().last().expect("some output")
}

#[test]
fn perft_prints_the_count_last() {
    let out = ok(&["perft", "3x3", "--walls", "1", "--depth", "2"]);
    let count = last_line(&out);
    assert!(count.parse::<u64>().is_ok(), "last line {count:?}\n{out}");
}

#[test]
fn perft_depth_1_counts_the_legal_actions() {
    let board = Board::parse("5x5").unwrap();
    let start = Position::start(board, 3).unwrap();
    let want = start.legal_actions(board).len().to_string();
    let out = ok(&["perft", "5x5", "--walls", "3", "--depth", "1"]);
    assert_eq!(last_line(&out), want, "{out}");
}

#[test]
fn perft_from_moves_and_from_the_same_record_agree() {
    let from_moves = ok(&[
        "perft",
        "5x5",
        "--walls",
        "3",
        "--depth",
        "2",
        "--moves",
        "1. c2 c4 2. b2h",
    ]);
    let record = "b2 / - / c2 c4 / 2 3 / 2";
    assert!(from_moves.contains(record), "{from_moves}");
    let from_record = ok(&[
        "perft",
        "5x5",
        "--walls",
        "3",
        "--depth",
        "2",
        "--position",
        record,
    ]);
    assert_eq!(last_line(&from_moves), last_line(&from_record));
}

#[test]
fn bad_boards_are_refused() {
    for board in ["12x11", "2x65", "1x5", "5x", "27x2"] {
        let err = refused(&["perft", board, "--walls", "1", "--depth", "1"]);
        assert!(err.contains(board), "{err}");
        refused(&["show", board]);
    }
}

#[test]
fn bad_records_are_refused() {
    let perft = ["perft", "5x5", "--walls", "3", "--depth", "1", "--position"];
    refused(&[&perft[..], &["garbage"]].concat());
    refused(&[&perft[..], &["- / - / c1 c1 / 3 3 / 1"]].concat());
    refused(&["show", "5x5", "--position", "b2 / b2 / c2 c4 / 2 3 / 1"]);
}

#[test]
fn an_off_board_wall_is_named() {
    let err = refused(&[
        "perft", "5x5", "--walls", "3", "--depth", "1", "--moves", "c2 j2h",
    ]);
    assert!(err.contains("wall j2h is off a 5x5 board"), "{err}");
}

#[test]
fn an_illegal_move_says_why() {
    let moves = "1. c2 c4 2. c2h b4 3. c3";
    let err = refused(&[
        "perft", "5x5", "--walls", "3", "--depth", "1", "--moves", moves,
    ]);
    assert!(err.contains("c3 is not a legal move"), "{err}");
    assert!(err.contains("the wall c2h blocks it"), "{err}");
    refused(&["show", "5x5", "--walls", "3", "--moves", moves]);
}

#[test]
fn walls_left_above_n_are_refused() {
    let record = "b2 / a1c3 / c2 c4 / 2 3 / 1";
    let err = refused(&[
        "perft",
        "5x5",
        "--walls",
        "2",
        "--depth",
        "1",
        "--position",
        record,
    ]);
    assert!(err.contains("more than the 2 walls per player"), "{err}");
    refused(&["show", "5x5", "--walls", "2", "--position", record]);
}

#[test]
fn position_and_moves_together_are_refused() {
    let record = "- / - / c1 c5 / 3 3 / 1";
    let err = refused(&[
        "perft",
        "5x5",
        "--walls",
        "3",
        "--depth",
        "1",
        "--position",
        record,
        "--moves",
        "c2",
    ]);
    assert!(
        err.contains("--position") && err.contains("--moves"),
        "{err}"
    );
    refused(&["show", "5x5", "--position", record, "--moves", "c2"]);
}

#[test]
fn too_many_walls_per_player_are_refused() {
    refused(&["perft", "5x5", "--walls", "40", "--depth", "1"]);
}

#[test]
fn walls_out_of_range_get_one_message_everywhere() {
    let out = scratch("walls-range");
    let out = out.to_str().unwrap();
    for n in ["32", "255", "256", "100000000000000000000", "-1", "x"] {
        for args in [
            &["solve", "3x3", "--walls", n][..],
            &["configs", "3x3", "--walls", n],
            &["perft", "3x3", "--walls", n, "--depth", "1"],
            &["show", "3x3", "--walls", n],
            &["table", "--boards", "3x3", "--walls", n, "--out", out],
        ] {
            if args[0] == "table" && n == "x" {
                continue; // not a number at all: the table's --walls says how to write one
            }
            let err = refused(args);
            assert!(
                err.contains("walls per player must be a whole number from 0 to 31"),
                "{args:?}: {err}"
            );
        }
    }
    let table =
        |walls: &str| refused(&["table", "--boards", "3x3", "--walls", walls, "--out", out]);
    for empty in ["5..2", "3..3", "5..=2"] {
        let err = table(empty);
        assert!(err.contains("the range is empty"), "{empty}: {err}");
    }
    let err = table("0..=40");
    assert!(err.contains("40 is out of range"), "{err}");
    let err = table("2,1,2");
    assert!(err.contains("2 is given twice"), "{err}");
}

#[test]
fn show_draws_the_start() {
    let out = ok(&["show", "5x5", "--walls", "3"]);
    for label in ["5 |", "4 |", "3 |", "2 |", "1 |", "a   b   c   d   e"] {
        assert!(out.contains(label), "{label:?} missing\n{out}");
    }
    assert!(
        out.contains("5 | .   .   2   .   . |"),
        "Player 2's pawn on c5\n{out}"
    );
    assert!(
        out.contains("1 | .   .   1   .   . |"),
        "Player 1's pawn on c1\n{out}"
    );
    assert!(out.contains("Record: - / - / c1 c5 / 3 3 / 1"), "{out}");
}

#[test]
fn show_takes_a_record_without_walls() {
    let out = ok(&["show", "5x5", "--position", "b2 / a1c3 / c2 c4 / 2 3 / 1"]);
    assert!(out.contains("+=======+"), "{out}");
    assert!(out.contains("Record: b2 / a1c3 / c2 c4 / 2 3 / 1"), "{out}");
}

#[test]
fn help_works_everywhere() {
    let commands = [
        "table", "solve", "configs", "perft", "show", "analyze", "play", "verify",
    ];
    for args in [&["--help"][..]]
        .into_iter()
        .chain(commands.map(|c| [c, "--help"]).iter().map(|a| &a[..]))
    {
        let out = ok(args);
        assert!(out.contains("Usage:"), "{args:?}\n{out}");
    }
    let top = ok(&["--help"]);
    for c in commands {
        assert!(top.contains(c), "{c} missing from --help:\n{top}");
    }
}

#[test]
fn usage_errors_are_one_line() {
    let err = refused(&["perft", "5x5"]);
    assert!(
        err.contains("required arguments were not provided: --walls <N>, --depth <D>"),
        "{err}"
    );
    let err = refused(&["solve", "5x5", "--wals", "3"]);
    assert!(
        err.contains("'--wals'") && err.contains("'--walls'"),
        "{err}"
    );
    refused(&["no-such-command"]);
    refused(&["solve", "3x3", "--walls", "1", "--threads", "x"]);
}

#[test]
fn configs_json_reports_counts_and_memory() {
    let out = ok(&["configs", "3x3", "--walls", "2", "--json"]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["width"], 3);
    assert_eq!(v["height"], 3);
    assert_eq!(v["walls"], 2);
    assert_eq!(v["configurations"], 47);
    assert_eq!(v["by_walls"], serde_json::json!([1, 8, 20, 16, 2]));
    assert!(v["table_bytes"].as_u64().unwrap() > 0);
    let text = ok(&["configs", "5x5", "--walls", "1"]);
    assert!(text.contains("total"), "{text}");
}

#[test]
fn configs_over_the_memory_budget_are_refused_before_building() {
    let err = refused(&["configs", "5x5", "--walls", "10", "--memory", "10M"]);
    assert!(err.contains("memory budget is 10.00 MiB"), "{err}");
    assert!(err.contains("2532560 configurations"), "{err}");
    let err = refused(&["solve", "5x5", "--walls", "10", "--memory", "10M"]);
    assert!(err.contains("memory budget"), "{err}");
    refused(&["configs", "5x5", "--walls", "1", "--memory", "lots"]);
    refused(&["configs", "5x5", "--walls", "1", "--threads", "0"]);
}

#[test]
fn solve_json_has_the_documented_fields() {
    let out = ok(&["solve", "3x5", "--walls", "3", "--json"]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["outcome"], "1");
    assert_eq!(v["plies"], 19);
    assert_eq!(v["pv"].as_array().unwrap().len(), 19);
    for field in [
        "width",
        "height",
        "walls",
        "method",
        "nodes",
        "seconds",
        "peak_bytes",
    ] {
        assert!(!v[field].is_null(), "{field} missing: {out}");
    }
    let text = ok(&["solve", "3x3", "--walls", "1"]);
    assert!(
        text.starts_with("3x3 with 1 wall per player: Player 2 wins in 8 plies"),
        "{text}"
    );
    assert!(text.contains("line         1. "), "{text}");
}

/// Boards over 64 cells: proof search decides 9x9 with one wall each (the eager tables,
/// 64 anchors) and 11x11 without walls (configurations on demand: 100 anchors), `show`
/// replays the line to the winner's goal, and the retrograde analysis refuses them.
#[test]
fn boards_over_64_cells_are_solved_by_proof_search() {
    for (board, walls, plies) in [("9x9", "1", 20), ("11x11", "0", 20)] {
        let args = ["solve", board, "--walls", walls, "--method", "search"];
        let out = ok(&[&args[..], &["--threads", "1", "--memory", "1G", "--json"]].concat());
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(
            (v["outcome"].as_str(), v["plies"].as_u64()),
            (Some("2"), Some(plies))
        );
        let pv: Vec<&str> = v["pv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert_eq!(pv.len(), plies as usize);
        let moves: Vec<String> = pv
            .chunks(2)
            .enumerate()
            .map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" ")))
            .collect();
        let shown = ok(&["show", board, "--walls", walls, "--moves", &moves.join(" ")]);
        assert!(shown.contains("Player 2 has won"), "{shown}");
    }
    let err = refused(&["solve", "9x9", "--walls", "1", "--method", "retro"]);
    assert!(err.contains("at most 64 cells"), "{err}");
}

#[test]
fn solve_reports_unknown_at_the_depth_limit() {
    let args = ["solve", "3x5", "--walls", "3", "--max-depth", "6", "--json"];
    let out = ok(&[&args[..], &["--method", "search"]].concat());
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["outcome"], "unknown");
    assert!(v["plies"].is_null());
    assert_eq!(v["depth_reached"], 6);
    // The default method falls back to retrograde analysis, which decides the cell.
    let v: serde_json::Value = serde_json::from_str(ok(&args).trim()).unwrap();
    assert_eq!(
        (v["outcome"].as_str(), v["method"].as_str()),
        (Some("1"), Some("retrograde"))
    );
    refused(&["solve", "3x5", "--walls", "3", "--max-depth", "0"]);
    refused(&["solve", "3x5", "--walls", "3", "--max-seconds", "0"]);
    refused(&["solve", "12x11", "--walls", "3"]);
}

#[test]
fn max_seconds_out_of_range_is_refused_with_the_range() {
    let out = scratch("max-seconds");
    let out = out.to_str().unwrap();
    for value in ["1e30", "inf", "NaN", "-1", "0", "1e-300", "31536001"] {
        let solve = ["solve", "3x5", "--walls", "3", "--max-seconds", value];
        let table = [
            "table",
            "--boards",
            "3x5",
            "--walls",
            "3",
            "--out",
            out,
            "--max-seconds",
            value,
        ];
        for args in [&solve[..], &table[..]] {
            let err = refused(args);
            assert!(
                err.contains(
                    "--max-seconds must be a positive number of seconds of at most 31536000"
                ),
                "{args:?}: {err}"
            );
        }
    }
}

#[test]
fn solve_proves_the_8x3_draw_by_retrograde_analysis() {
    let out = ok(&["solve", "8x3", "--walls", "3", "--json"]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["outcome"], "D");
    assert_eq!(v["method"], "retrograde");
    assert!(v["plies"].is_null());
    assert_eq!(v["cycle_start"], 0);
    assert_eq!(v["pv"], serde_json::json!(["d1", "d3", "e1", "e3"]));
}

#[test]
fn solve_methods_and_stats() {
    let out = ok(&[
        "solve", "3x5", "--walls", "3", "--method", "retro", "--stats", "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (v["outcome"].as_str(), v["plies"].as_u64()),
        (Some("1"), Some(19))
    );
    assert_eq!(v["method"], "retrograde");
    let total = ["p1_wins", "p2_wins", "draws"]
        .iter()
        .map(|k| v[k].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(v["positions"].as_u64().unwrap(), total);
    let out = ok(&[
        "solve", "3x5", "--walls", "3", "--method", "search", "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (v["outcome"].as_str(), v["plies"].as_u64()),
        (Some("1"), Some(19))
    );
    assert_eq!(v["method"], "proof-search");
    assert!(v["positions"].is_null(), "no stats without --stats");
    // The compact analysis: the same outcome, length and counts, the length found by the
    // oracle-guided search, whose line the rules accept.
    let exact: serde_json::Value = serde_json::from_str(
        ok(&[
            "solve", "3x5", "--walls", "3", "--method", "retro", "--stats", "--json",
        ])
        .trim(),
    )
    .unwrap();
    let out = ok(&[
        "solve",
        "3x5",
        "--walls",
        "3",
        "--method",
        "retro",
        "--precision",
        "compact",
        "--stats",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["method"], "retrograde+search");
    for key in [
        "outcome",
        "plies",
        "positions",
        "p1_wins",
        "p2_wins",
        "draws",
    ] {
        assert_eq!(v[key], exact[key], "{key}");
    }
    let line: Vec<&str> = v["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(line.len(), 19);
    let shown = ok(&["show", "3x5", "--walls", "3", "--moves", &line.join(" ")]);
    assert!(shown.contains("Player 1 has won"), "{shown}");
    let err = refused(&["solve", "3x5", "--walls", "3", "--stats"]);
    assert!(err.contains("--method retro"), "{err}");
    let err = refused(&[
        "solve", "5x5", "--walls", "10", "--method", "retro", "--memory", "256M",
    ]);
    assert!(
        err.contains("retrograde analysis (configurations ranked, no tables) of 5x5 with 10 walls"),
        "{err}"
    );
}

#[test]
fn table_refuses_an_unwritable_out_before_solving() {
    let file = scratch("out-file");
    std::fs::write(&file, "not a directory").unwrap();
    let below_file = file.join("results");
    for out in [&file, std::path::Path::new("/dev/null"), &below_file] {
        let out = out.to_str().unwrap();
        // One line on stderr: no cell was solved (each solved cell prints a line).
        let err = refused(&["table", "--boards", "3x3", "--walls", "1", "--out", out]);
        assert!(
            err.contains(&format!("cannot write results to {out}"))
                && err.contains("ot a directory"),
            "{err}"
        );
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "not a directory");
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn flags_that_would_be_ignored_are_refused() {
    let out = scratch("ignored");
    let out = out.to_str().unwrap();
    let err = refused(&[
        "table",
        "--boards",
        "3x3,2x3, 3x3",
        "--walls",
        "1",
        "--out",
        out,
    ]);
    assert!(err.contains("3x3 is given twice"), "{err}");
    let file = scratch("ignored.csv");
    std::fs::write(
        &file,
        format!("{CSV_HEADER}3,3,1,2,8,proof-search,1,0.1,1,0.1.0,8\n"),
    )
    .unwrap();
    let check = ["table", "--check", file.to_str().unwrap()];
    for (flag, value) in [
        ("--boards", "5x5"),
        ("--walls", "1"),
        ("--max-seconds", "5"),
        ("--method", "search"),
        ("--out", out),
        ("--threads", "1"),
    ] {
        let err = refused(&[&check[..], &[flag, value]].concat());
        assert!(
            err.contains("--check") && err.contains(flag),
            "{flag}: {err}"
        );
    }
    for flag in ["--even", "--resume"] {
        let err = refused(&[&check[..], &[flag]].concat());
        assert!(
            err.contains("--check") && err.contains(flag),
            "{flag}: {err}"
        );
    }
    ok(&check);
    std::fs::remove_file(&file).unwrap();
    let exact = [
        "solve",
        "3x3",
        "--walls",
        "1",
        "--method",
        "retro",
        "--precision",
        "exact",
    ];
    for (flag, value) in [
        ("--tt", "64M"),
        ("--max-depth", "5"),
        ("--max-seconds", "5"),
    ] {
        let err = refused(&[&exact[..], &[flag, value]].concat());
        assert!(
            err.contains(&format!(
                "{flag} does not apply here: it bounds the proof search, which --precision \
                 exact does not run"
            )),
            "{err}"
        );
        // The compact analysis finds the length by proof search, which they bound.
        ok(&[&exact[..6], &["--precision", "compact", flag, value]].concat());
    }
    let err = refused(&[
        "solve",
        "3x3",
        "--walls",
        "1",
        "--precision",
        "exact",
        "--method",
        "search",
    ]);
    assert!(err.contains("--precision"), "{err}");
    // Under --method auto, --precision only where the plan runs an analysis: not on a board
    // over the analysis's 64 squares, which gets the proof search alone.
    let err = refused(&[
        "solve",
        "9x8",
        "--walls",
        "0",
        "--precision",
        "compact",
        "--max-depth",
        "1",
    ]);
    assert!(
        err.contains("--precision does not apply here") && err.contains("proof search alone"),
        "{err}"
    );
    // analyze and play under --method auto: the flags that bound the search are refused
    // where the analysis answers (it fits here), and taken where the search does.
    for command in ["analyze", "play"] {
        for (flag, value) in [
            ("--tt", "64M"),
            ("--max-depth", "3"),
            ("--max-seconds", "5"),
        ] {
            if command == "play" && flag == "--max-seconds" {
                continue; // play has no time limit
            }
            let err = refused(&[command, "3x3", "--walls", "1", flag, value]);
            assert!(
                err.contains(&format!("{flag} does not apply here"))
                    && err.contains("--method auto"),
                "{command} {flag}: {err}"
            );
        }
    }
    ok(&[
        "analyze",
        "3x3",
        "--walls",
        "1",
        "--method",
        "search",
        "--max-depth",
        "3",
        "-q",
    ]);
    let v: serde_json::Value = serde_json::from_str(
        ok(&[
            "solve",
            "3x3",
            "--walls",
            "1",
            "--tt",
            "64M",
            "--max-depth",
            "20",
            "--json",
        ])
        .trim(),
    )
    .unwrap();
    assert_eq!(v["plies"], 8, "the search flags still work with the search");
}

#[test]
fn counts_of_one_are_singular() {
    let text = ok(&[
        "solve",
        "3x3",
        "--walls",
        "1",
        "--method",
        "search",
        "--max-depth",
        "1",
    ]);
    assert!(
        text.starts_with("3x3 with 1 wall per player: unknown (neither player wins within 1 ply)"),
        "{text}"
    );
    let text = ok(&["configs", "3x3", "--walls", "1"]);
    assert!(
        text.starts_with("board 3x3, 1 wall per player: configurations of up to 2 walls"),
        "{text}"
    );
    let text = ok(&["perft", "3x3", "--walls", "1", "--depth", "1"]);
    assert!(text.starts_with("board 3x3, 1 wall per player"), "{text}");
    let dir = scratch("singular");
    let out = run(&[
        "table",
        "--boards",
        "2x3",
        "--walls",
        "1",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let (text, progress) = (stdout(&out), stderr(&out));
    assert_eq!(out.status.code(), Some(0), "{text}{progress}");
    assert!(text.starts_with("1 cell solved, 0 skipped"), "{text}");
    assert!(progress.contains("2x3 with 1 wall: "), "{progress}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The header of results/table.csv.
const CSV_HEADER: &str =
    "width,height,walls,outcome,plies,method,nodes,seconds,peak_bytes,version,depth_reached\n";

#[test]
fn table_check_refuses_rows_that_cannot_be_results() {
    let dir = scratch("check");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("table.csv");
    let path = file.to_str().unwrap();
    let check = |rows: &[&str]| {
        let body: String = rows.iter().map(|r| format!("{r}\n")).collect();
        std::fs::write(&file, format!("{CSV_HEADER}{body}")).unwrap();
        let err = refused(&["table", "--check", path]);
        assert!(err.contains(path), "{rows:?}: {err}");
        err
    };
    let good = "3,3,1,2,8,proof-search,1,0.1,1,0.1.0,8";
    for (row, why) in [
        (
            "3,3,1,7,,proof-search,1,0.1,1,0.1.0,8",
            "outcome '7' is not 1, 2, D or unknown",
        ),
        ("99,3,1,1,5,proof-search,1,0.1,1,0.1.0,8", "board 99x3"),
        ("3,1,1,1,5,proof-search,1,0.1,1,0.1.0,8", "board 3x1"),
        (
            "12,11,1,1,5,proof-search,1,0.1,1,0.1.0,8",
            "at most 128 cells",
        ),
        (
            "3,3,40,1,5,proof-search,1,0.1,1,0.1.0,8",
            "40 walls per player",
        ),
        ("3,3,256,1,5,proof-search,1,0.1,1,0.1.0,8", "column walls"),
        (
            "3,3,1,2,7,proof-search,1,0.1,1,0.1.0,8",
            "Player 2 cannot win in 7 plies",
        ),
        (
            "3,3,1,1,8,proof-search,1,0.1,1,0.1.0,8",
            "Player 1 cannot win in 8 plies",
        ),
        ("3,3,1,2,,proof-search,1,0.1,1,0.1.0,8", "needs its length"),
        // (A retrograde win without its length is a result: see the `ok` check below.)
        (
            "8,3,3,D,40,retrograde,1,0.1,1,0.1.0,8",
            "only a win has a length",
        ),
        ("3,3,1,2,8,proof-search,1,0.1,1,0.1.0", "10 fields"),
    ] {
        let err = check(&[good, row]);
        assert!(
            err.contains("line 3: ") && err.contains(why),
            "{row}: {err}"
        );
    }
    let err = check(&[good, good]);
    assert!(
        err.contains("line 3: ") && err.contains("first on line 2"),
        "{err}"
    );
    let err = check(&[]);
    assert!(err.contains("no rows"), "{err}");
    std::fs::write(&file, "").unwrap();
    let err = refused(&["table", "--check", path]);
    assert!(err.contains(path) && err.contains("no rows"), "{err}");
    let err = refused(&["table", "--check", dir.to_str().unwrap()]);
    assert!(err.contains("is a directory"), "{err}");
    // A win by the compact analysis whose search for the length hit the time limit.
    let row = "3,3,1,2,,retrograde,1,0.1,1,0.1.0,8";
    std::fs::write(&file, format!("{CSV_HEADER}{row}\n")).unwrap();
    ok(&["table", "--check", path]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_closed_output_ends_quietly() {
    use std::io::{BufRead, BufReader};
    // More output than a pipe holds (64 KiB): one "new result" line per record.
    // Every board with 11 to 31 walls (which the published table never lists): over 3,000
    // distinct cells.
    let file = scratch("pipe.csv");
    let mut csv = String::from(CSV_HEADER);
    for width in 2..=26 {
        for height in 2..=64 / width {
            for walls in 11..=31 {
                csv.push_str(&format!(
                    "{width},{height},{walls},1,25,proof-search,1,0.1,1,0.1.0,25\n"
                ));
            }
        }
    }
    std::fs::write(&file, csv).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_quoridor-solver"))
        .arg("table")
        .arg("--check")
        .arg(&file)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap(); // then the pipe is closed, like `| head -1`
    let out = child.wait_with_output().unwrap();
    std::fs::remove_file(&file).unwrap();
    assert!(
        first.starts_with("check against the published table"),
        "{first}"
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn stderr_is_as_loud_as_asked() {
    let solve = ["solve", "3x3", "--walls", "1"];
    let depth_lines = |err: &str| err.lines().filter(|l| l.starts_with("depth ")).count();
    // Default: the result on stdout, no line per search depth (bars are drawn only on a
    // terminal, so stderr is empty here).
    let out = run(&solve);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(depth_lines(&stderr(&out)), 0, "{}", stderr(&out));
    let plain = stdout(&out);
    // -v: a line per depth searched, the same result.
    let out = run(&[&solve[..], &["-v"]].concat());
    assert!(depth_lines(&stderr(&out)) > 0, "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().next(), plain.lines().next());
    // -q: nothing on stderr, for a table either (which prints a line per cell otherwise).
    let out = run(&[&["-q"], &solve[..]].concat());
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().next(), plain.lines().next());
    let dir = scratch("quiet");
    let table = ["table", "--boards", "2x3", "--walls", "0..2", "--out"];
    let out = run(&[&table[..], &[dir.to_str().unwrap(), "--quiet"]].concat());
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("2 cells solved"),
        "{}",
        stdout(&out)
    );
    std::fs::remove_dir_all(&dir).unwrap();
    // Both at once is a usage error.
    refused(&["solve", "3x3", "--walls", "1", "-q", "-v"]);
}

#[test]
fn ctrl_c_during_a_table_says_how_to_go_on() {
    let dir = scratch("interrupt");
    // 5x5 with 6 walls takes the search tens of seconds: still running after its first
    // iterations, when the signal comes.
    let interrupted = |more: &[&str]| {
        let out = dir.to_str().unwrap();
        let table = [
            "table",
            "--boards",
            "5x5",
            "--walls",
            "6",
            "--method",
            "search",
            "-v",
            "--out",
            out,
            "--threads",
            "1",
        ];
        let (code, _, err) = interrupted_in_search(&[&table[..], more].concat());
        assert_eq!(code, Some(130), "{err}");
        assert!(err.contains("table.csv"), "{err}");
        err
    };
    // No search keeps a checkpoint there: the run ends at once.
    let err = interrupted(&[]);
    assert!(err.contains("--resume"), "{err}");
    assert!(!err.contains("stopping"), "{err}");
    // A campaign's search saves its table first, its cell is not written as tried, and the
    // same command goes on (a campaign resumes by itself).
    let campaign = dir.join("campaign");
    let err = interrupted(&["--campaign", campaign.to_str().unwrap()]);
    let checkpoint = campaign.join("scratch").join("5x5-w6.checkpoint");
    let kept = format!(
        "the searches' tables last saved in {}; run the same command again to go on",
        campaign.join("scratch").display()
    );
    assert!(err.contains(&kept), "{err}");
    assert!(
        err.contains("stopping: the search saves its checkpoint first"),
        "{err}"
    );
    let stopped = err
        .lines()
        .find(|l| l.starts_with("5x5 with 6 walls: stopped after"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(
        stopped.contains(" plies; its search's table saved in ")
            && stopped.ends_with(&checkpoint.display().to_string()),
        "{err}"
    );
    // The deepest iteration it names is one the search reported finished.
    let within = stopped.split("no win within ").nth(1).unwrap();
    let depth = within.split(' ').next().unwrap();
    assert!(err.contains(&format!("depth {depth}: ")), "{err}");
    let header = std::fs::read(&checkpoint).unwrap();
    assert!(header.starts_with(b"quoridor-solver checkpoint"), "{err}");
    let rows = std::fs::read_to_string(dir.join("table.csv")).unwrap_or_default();
    assert!(!rows.contains("\n5,5,6,"), "{rows}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ctrl_c_in_a_campaign_cell_that_would_go_on_to_the_analysis_writes_no_row() {
    let dir = scratch("interrupt-auto");
    let campaign = dir.join("campaign");
    // The campaign plans 5x5 with 4 walls as the search first, then the analysis if
    // undecided (`--method auto`): the stop ends the cell in the search.
    let (code, _, err) = interrupted_in_search(&[
        "table",
        "--boards",
        "5x5",
        "--walls",
        "4",
        "-v",
        "--out",
        dir.to_str().unwrap(),
        "--threads",
        "1",
        "--campaign",
        campaign.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(130), "{err}");
    let checkpoint = campaign.join("scratch").join("5x5-w4.checkpoint");
    assert!(
        err.lines()
            .any(|l| l.starts_with("5x5 with 4 walls: stopped after")
                && l.ends_with(&checkpoint.display().to_string())),
        "{err}"
    );
    assert!(checkpoint.exists(), "{err}");
    let rows = std::fs::read_to_string(dir.join("table.csv")).unwrap_or_default();
    assert!(!rows.contains("\n5,5,4,"), "{rows}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_scratch_directory_that_cannot_be_written_is_refused_before_the_first_cell() {
    let out = scratch("scratch-unwritable");
    // /proc/self: a directory that exists and takes its lock, where even root creates no
    // file. Without the check, the cells' searches run and only their saves fail.
    let err = refused(&[
        "table",
        "--boards",
        "3x3",
        "--walls",
        "1",
        "--method",
        "search",
        "--scratch",
        "/proc/self",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(err.contains("/proc/self"), "{err}");
    let rows = std::fs::read_to_string(out.join("table.csv")).unwrap_or_default();
    assert!(!rows.contains("\n3,3,1,"), "{rows}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn every_output_field_is_documented() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/FORMATS.md"))
        .expect("docs/FORMATS.md");
    let json = ok(&[
        "solve", "3x3", "--walls", "1", "--json", "--method", "retro", "--stats",
    ]);
    let object: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&json).expect("one JSON object");
    let csv_fields = CSV_HEADER.trim().split(',').map(String::from);
    for field in object.keys().cloned().chain(csv_fields) {
        assert!(
            doc.contains(&format!("`{field}`")),
            "{field} is not in docs/FORMATS.md"
        );
    }
}

#[test]
fn analyze_values_the_position_and_every_move() {
    let out = ok(&["analyze", "3x3", "--walls", "1", "-q"]);
    assert!(
        out.starts_with("3x3 with 1 wall per player, Player 1 to move: Player 2 wins in 8 plies"),
        "{out}"
    );
    assert!(out.contains("11 legal moves, best first:"), "{out}");
    assert!(out.contains("  b2     Player 2 wins in 2 plies"), "{out}");
    // The same by proof search, and as JSON.
    let search = ok(&["analyze", "3x3", "--walls", "1", "--method", "search", "-q"]);
    let moves = |text: &str| {
        text.lines()
            .filter(|l| l.starts_with("  "))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(moves(&out), moves(&search));
    let json: serde_json::Value =
        serde_json::from_str(&ok(&["analyze", "3x3", "--walls", "1", "--json", "-q"])).unwrap();
    assert_eq!(json["verdict"]["kind"], "loss");
    assert_eq!(json["verdict"]["plies"], 8);
    assert_eq!(json["method"], "retrograde");
    assert_eq!(json["moves"].as_array().unwrap().len(), 11);
    assert_eq!(json["moves"][0]["verdict"]["plies"], 8);
}

#[test]
fn analyze_shows_draws_and_marks_the_moves_of_a_game_that_throw_a_result_away() {
    // From the start of 8x3 with 3 walls, a draw.
    let game = scratch("game");
    std::fs::write(&game, "1. e2 d3\n").unwrap();
    let out = ok(&[
        "analyze",
        "8x3",
        "--walls",
        "3",
        "--game",
        game.to_str().unwrap(),
        "-q",
    ]);
    assert!(out.contains("Player 1 to move: draw"), "{out}");
    assert!(out.contains("2 moves:"), "{out}");
    let json: serde_json::Value = serde_json::from_str(&ok(&[
        "analyze",
        "8x3",
        "--walls",
        "3",
        "--game",
        game.to_str().unwrap(),
        "--json",
        "-q",
    ]))
    .unwrap();
    let plies = json["game"].as_array().unwrap();
    assert_eq!(plies.len(), 2);
    assert_eq!(plies[0]["before"]["kind"], "draw");
    // Each annotated value after a move is the next one's value before, from the other side.
    let flip = |kind: &serde_json::Value| match kind.as_str().unwrap() {
        "win" => "loss",
        "loss" => "win",
        k => {
            if k == "draw" {
                "draw"
            } else {
                "unknown"
            }
        }
    };
    assert_eq!(
        flip(&plies[0]["after"]["kind"]),
        plies[1]["before"]["kind"].as_str().unwrap()
    );
    let _ = std::fs::remove_file(&game);
}

#[test]
fn analyze_by_search_says_unknown_when_its_limits_stop_it() {
    let out = ok(&[
        "analyze",
        "5x5",
        "--walls",
        "4",
        "--method",
        "search",
        "--max-seconds",
        "0.3",
        "-q",
    ]);
    assert!(out.contains("Player 1 to move: unknown ("), "{out}");
    assert!(out.contains("35 legal moves, best first:"), "{out}");
    let out = ok(&[
        "analyze",
        "8x3",
        "--walls",
        "3",
        "--method",
        "search",
        "--max-depth",
        "9",
        "-q",
    ]);
    assert!(
        out.starts_with(
            "8x3 with 3 walls per player, Player 1 to move: unknown (no win for either player \
             within 9 plies)"
        ),
        "{out}"
    );
}

#[test]
fn analyze_refuses_bad_input_in_one_line() {
    refused(&["analyze", "3x3", "--walls", "1", "--moves", "b1"]);
    refused(&[
        "analyze",
        "3x3",
        "--walls",
        "1",
        "--method",
        "retro",
        "--max-depth",
        "9",
    ]);
    refused(&[
        "analyze",
        "3x3",
        "--walls",
        "1",
        "--game",
        "/nonexistent/game.txt",
    ]);
    let err = refused(&[
        "analyze", "5x5", "--walls", "4", "--method", "retro", "--memory", "64M",
    ]);
    assert!(err.contains("memory budget"), "{err}");
}

/// Runs `play` with `input` piped in; returns its stdout.
fn play(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_quoridor-solver"))
        .args(["play", "-q"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    stdout(&out)
}

#[test]
fn play_answers_with_perfect_play_and_takes_hints_undo_and_bad_moves() {
    let out = play(
        &["3x3", "--walls", "1", "--as", "2"],
        "hint\nzz\nb1\na3\nundo\nb2\n",
    );
    assert!(
        out.contains("The program (Player 1) plays a1: Player 2 wins in 8 plies"),
        "{out}"
    );
    assert!(out.contains("Best: b2 (Player 2 wins in 7 plies)"), "{out}");
    assert!(out.contains("'zz' is not a cell"), "{out}");
    assert!(out.contains("b1 is not legal here"), "{out}");
    assert!(
        out.contains("You play a3: Player 2 wins in 11 plies (slower win)"),
        "{out}"
    );
    assert!(out.contains("Took back your last move."), "{out}");
    assert!(
        out.contains("You play b2: Player 2 wins in 7 plies"),
        "{out}"
    );
    assert!(out.contains("End of input: the game stops here."), "{out}");
}

#[test]
fn show_writes_an_svg_picture() {
    let path = scratch("show.svg");
    let out = ok(&[
        "show",
        "5x5",
        "--position",
        "b2 / a1c3 / c2 c4 / 2 3 / 1",
        "--svg",
        path.to_str().unwrap(),
    ]);
    assert!(out.contains("Picture: "), "{out}");
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg ") && svg.contains("Record: b2 / a1c3 / c2 c4 / 2 3 / 1"));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_saved_table_answers_analyze_and_verify_catches_a_damaged_file() {
    let dir = scratch("saved");
    let d = dir.to_str().unwrap();
    let solved = ok(&[
        "solve", "4x3", "--walls", "2", "--method", "retro", "--save", d, "-q",
    ]);
    assert!(
        solved.starts_with("4x3 with 2 walls per player: Player 2 wins in 10 plies"),
        "{solved}"
    );
    let out = ok(&["verify", d, "-q"]);
    assert!(
        out.contains("values consistent on 54620 positions"),
        "{out}"
    );
    let from_disk = ok(&["analyze", "4x3", "--walls", "2", "--table", d, "-q"]);
    let solving = ok(&["analyze", "4x3", "--walls", "2", "-q"]);
    let body = |t: &str| {
        t.lines()
            .skip(3)
            .take_while(|l| l.starts_with("  ") || l.contains("legal"))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(body(&from_disk), body(&solving));
    assert!(!body(&from_disk).is_empty());
    // A table that does not fit the memory with the cell's tables is read a few positions
    // at a time, from the files that hold them: the same answers, and the same game.
    let out = run(&[
        "analyze", "4x3", "--walls", "2", "--table", d, "--memory", "40K", "-v",
    ]);
    assert!(
        stderr(&out).contains("reading the positions asked from its files"),
        "{}",
        stderr(&out)
    );
    assert_eq!(body(&stdout(&out)), body(&solving));
    let game = |more: &[&str]| {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_quoridor-solver"))
            .args(
                [
                    &["play", "4x3", "--walls", "2", "--table", d, "--as", "2"][..],
                    more,
                ]
                .concat(),
            )
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        use std::io::Write as _;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"hint\nc2\nhint\nquit\n")
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let loaded = game(&[]);
    assert!(loaded.contains("Best: "), "{loaded}");
    assert_eq!(game(&["--memory", "40K"]), loaded);
    // Another cell, or --save without the analysis, is refused.
    refused(&["analyze", "4x3", "--walls", "3", "--table", d]);
    refused(&["solve", "4x3", "--walls", "2", "--save", d]);
    // A table of outcomes only (--precision compact): verify checks it, analyze refuses it.
    let compact = scratch("saved-compact");
    let c = compact.to_str().unwrap();
    let out = ok(&[
        "solve",
        "4x3",
        "--walls",
        "2",
        "--method",
        "retro",
        "--precision",
        "compact",
        "--save",
        c,
    ]);
    assert!(
        out.starts_with("4x3 with 2 walls per player: Player 2 wins in 10 plies"),
        "{out}"
    );
    let out = ok(&["verify", c, "-q"]);
    assert!(out.contains("read from the files in one pass"), "{out}");
    let err = refused(&["analyze", "4x3", "--walls", "2", "--table", c]);
    assert!(err.contains("holds outcomes only"), "{err}");
    let _ = std::fs::remove_dir_all(&compact);
    // A flipped bit: verify fails (exit 1) naming the file; analyze refuses it.
    let file = dir.join("layer-01-split-00.bin.zst");
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[5] ^= 1;
    std::fs::write(&file, &bytes).unwrap();
    let out = run(&["verify", d, "-q"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("layer-01-split-00.bin.zst is damaged"),
        "{}",
        stdout(&out)
    );
    let err = refused(&["analyze", "4x3", "--walls", "2", "--table", d]);
    assert!(
        err.contains("layer-01-split-00.bin.zst is damaged"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn solve_with_a_guessed_winner_finds_the_same_win_or_none() {
    let args = [
        "solve", "3x5", "--walls", "3", "--method", "search", "--json",
    ];
    let fresh: serde_json::Value = serde_json::from_str(ok(&args).trim()).unwrap();
    let mut decided = 0;
    for n in ["1", "2"] {
        let out = ok(&[&args[..], &["--winner", n, "--max-depth", "30"]].concat());
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        if v["outcome"] == fresh["outcome"] {
            assert_eq!(v["plies"], fresh["plies"]);
            decided += 1;
        } else {
            assert_eq!(v["outcome"], "unknown");
        }
    }
    assert_eq!(decided, 1);
    refused(&[&args[..], &["--winner", "3"]].concat());
    let err = refused(&["solve", "3x5", "--walls", "3", "--winner", "1"]);
    assert!(err.contains("--method search"), "{err}");
}

#[test]
fn an_unknown_after_one_players_search_says_who_was_searched_and_how_far() {
    let search = |more: &[&str]| {
        ok(&[
            &["solve", "4x4", "--walls", "2", "--method", "search"],
            more,
        ]
        .concat())
    };
    let out = search(&["--winner", "2", "--max-depth", "12"]);
    assert!(
        out.starts_with(
            "4x4 with 2 walls per player: unknown (Player 2 does not win within 12 plies; \
             Player 1's wins were not searched)"
        ),
        "{out}"
    );
    let json = search(&["--winner", "2", "--max-depth", "12", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["no_win"], serde_json::json!([0, 12]), "{json}");
    // Both players searched: one bound for both.
    let out = search(&["--max-depth", "8"]);
    assert!(
        out.starts_with(
            "4x4 with 2 walls per player: unknown (neither player wins within 8 plies)"
        ),
        "{out}"
    );
}

#[test]
fn solve_plan_says_how_and_what_it_would_take_and_solves_nothing() {
    let out = ok(&["solve", "5x5", "--walls", "4", "--plan"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "5x5 with 4 walls: proof search for 1 s, then if undecided the exact retrograde analysis"
    );
    assert!(lines[1].starts_with("memory: needs at least "), "{out}");
    assert!(lines[2].starts_with("positions: 2.998e9"), "{out}");
    assert!(
        out.contains("analysis in parts through --scratch DIR"),
        "{out}"
    );
    assert!(!out.contains("wins"), "nothing is solved: {out}");
    // A cell past the analysis says so; the search's decision still names the store.
    let big = ok(&["solve", "9x9", "--walls", "3", "--plan"]);
    assert!(
        big.starts_with("9x9 with 3 walls: proof search over configurations built on demand"),
        "{big}"
    );
    assert!(
        big.contains("retrograde analysis: none (boards of at most 64 cells)"),
        "{big}"
    );
    // The search on demand's memory, shared as the run will share it (half of what its
    // slack leaves, as a power of two, for the table; the store the rest but the table's
    // first 64 MiB, held while it grows).
    let shared = ok(&["solve", "9x9", "--walls", "3", "--plan", "--memory", "8G"]);
    assert!(
        shared.contains(
            "proof search: a transposition table of up to 2.00 GiB, a configuration store of \
             5.91 GiB"
        ),
        "{shared}"
    );
    assert!(
        !out.contains("proof search: a transposition table"),
        "{out}"
    );
    assert!(
        refused(&["solve", "3x3", "--walls", "1", "--plan", "--json"])
            .contains("--plan prints text only")
    );
}

#[test]
fn solve_plan_with_ranks_says_what_each_rank_takes() {
    let per_rank = |ranks: &str| -> String {
        let out = ok(&["solve", "5x5", "--walls", "4", "--plan", "--ranks", ranks]);
        let line = out
            .lines()
            .find(|l| l.starts_with("across "))
            .unwrap_or_default();
        assert!(out.contains("sent between ranks: at most"), "{out}");
        line.to_string()
    };
    assert!(per_rank("1").starts_with("across 1 rank (--distributed)"));
    assert!(per_rank("4").starts_with("across 4 ranks (--distributed)"));
    assert_ne!(per_rank("1"), per_rank("4"), "a share falls with the ranks");
    for bad in [
        &["--ranks", "0", "--plan"][..],
        &["--ranks", "65", "--plan"],
        &["--ranks", "2"],
    ] {
        let args = [&["solve", "5x5", "--walls", "4"][..], bad].concat();
        refused(&args);
    }
    // Past the analysis, no ranks' line.
    let big = ok(&["solve", "9x9", "--walls", "3", "--plan", "--ranks", "4"]);
    assert!(!big.contains("across"), "{big}");
}

#[test]
fn distributed_is_refused_without_its_build_or_its_directory() {
    let solve = [
        "solve",
        "3x3",
        "--walls",
        "1",
        "--method",
        "retro",
        "--distributed",
    ];
    let err = refused(&solve);
    assert!(err.contains("--scratch"), "{err}");
    let dir = std::env::temp_dir().join("qs-distributed-refused");
    let _ = std::fs::remove_dir_all(&dir);
    let with_dir = [&solve[..], &["--scratch", dir.to_str().unwrap()]].concat();
    if cfg!(feature = "mpi") {
        return;
    }
    let err = refused(&with_dir);
    assert!(err.contains("--features mpi"), "{err}");
    assert!(!dir.exists(), "nothing is written");
    let search = [&with_dir[..4], &["--method", "search"], &with_dir[6..]].concat();
    assert!(refused(&search).contains("--method retro"));
}

/// `solve --method retro --precision compact --fewer-walls M`: the length's search pruned
/// by the exact analysis of M walls, said in the method line; `--fewer-scratch` takes that
/// analysis's directory, only with the analysis; the exact analysis, which has no search,
/// and the method left to the solver are refused. Unasked, the bound is one wall fewer;
/// `--no-bound` leaves it out.
#[test]
fn fewer_walls_prunes_the_length_after_a_compact_analysis() {
    let compact = [
        "solve",
        "4x4",
        "--walls",
        "3",
        "--method",
        "retro",
        "--precision",
        "compact",
        "--fewer-walls",
        "2",
    ];
    let out = ok(&compact);
    assert!(
        out.contains("Player 1 wins in 13 plies")
            && out
                .contains("retrograde+search (pruned by the exact analysis of 2 walls per player)"),
        "{out}"
    );
    let dir = scratch("fewer-scratch");
    let _ = std::fs::remove_dir_all(&dir);
    let dir_arg = dir.to_str().unwrap();
    ok(&[&compact[..], &["--fewer-scratch", dir_arg]].concat());
    assert!(
        dir.join("header.json").exists(),
        "the bound's table is in DIR"
    );
    let same = [
        &compact[..],
        &["--scratch", dir_arg, "--fewer-scratch", dir_arg],
    ]
    .concat();
    let err = refused(&same);
    assert!(err.contains("needs a directory of its own"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
    let search = [
        "solve",
        "4x4",
        "--walls",
        "3",
        "--method",
        "search",
        "--fewer-walls",
        "2",
    ];
    let err = refused(&[&search[..], &["--fewer-scratch", dir_arg]].concat());
    assert!(
        err.contains("--fewer-scratch is for --method retro"),
        "{err}"
    );
    let err = refused(&["solve", "4x4", "--walls", "3", "--fewer-scratch", dir_arg]);
    assert!(err.contains("--fewer-walls"), "{err}");
    // Keeping only the bound's layers needs the bound's directory: --fewer-scratch with the
    // analysis (its --scratch is the cell's own), --scratch with the search.
    let retro_scratch = [&compact[..], &["--scratch", dir_arg]].concat();
    for args in [&retro_scratch[..], &search[..]] {
        let err = refused(&[args, &["--bound-layers-only"]].concat());
        assert!(err.contains("needs the directory of an analysis"), "{err}");
    }
    let err = refused(&["solve", "4x4", "--walls", "3", "--bound-layers-only"]);
    assert!(err.contains("needs the directory of an analysis"), "{err}");
    let exact = [
        &compact[..6],
        &["--precision", "exact", "--fewer-walls", "2"],
    ]
    .concat();
    let err = refused(&exact);
    assert!(err.contains("ask for the compact one"), "{err}");
    // The solver's own choice exact (it fits): the length needs no search, and it says so.
    let chosen = run(&[&compact[..6], &compact[8..]].concat());
    assert_eq!(chosen.status.code(), Some(0));
    assert!(
        stdout(&chosen).contains("method       retrograde\n"),
        "{}",
        stdout(&chosen)
    );
    assert!(
        stderr(&chosen).contains("the analysis of fewer walls is not run"),
        "{}",
        stderr(&chosen)
    );
    let err = refused(&["solve", "4x4", "--walls", "3", "--fewer-walls", "2"]);
    assert!(
        err.contains("use --method search, or --method retro --precision compact"),
        "{err}"
    );
    let err = refused(&[&compact[..8], &["--fewer-walls", "3"]].concat());
    assert!(err.contains("--fewer-walls 3: at most 2"), "{err}");
    // --plan costs the bound of a proof search first, writing nothing; not the bound of
    // the length after a compact analysis, nor a bound of too many walls.
    let plan_dir = scratch("bounded-plan");
    let _ = std::fs::remove_dir_all(&plan_dir);
    let planned = [
        &search[..],
        &["--scratch", plan_dir.to_str().unwrap(), "--plan"],
    ]
    .concat();
    let plan = ok(&planned);
    assert!(
        plan.starts_with("first the bound: the analysis of 4x4 with 2 walls per player")
            && plan.contains("positions: ")
            && plan.contains("read back, not solved again")
            && plan.contains("then the proof search of 4x4 with 3 walls per player"),
        "{plan}"
    );
    assert!(!plan_dir.exists(), "a plan writes nothing");
    let err = refused(&[&compact[..], &["--plan"]].concat());
    assert!(err.contains("plans the bound of a proof search"), "{err}");
    let err = refused(&[&search[..6], &["--fewer-walls", "3", "--plan"]].concat());
    assert!(err.contains("--fewer-walls 3: at most 2"), "{err}");
    // Unasked, the bound is one wall fewer where it fits; --no-bound searches on the
    // outcomes alone, the same length, and is refused where no such search runs.
    let by_default = ok(&compact[..8]);
    assert!(
        by_default.contains("Player 1 wins in 13 plies")
            && by_default
                .contains("retrograde+search (pruned by the exact analysis of 2 walls per player)"),
        "{by_default}"
    );
    let alone = ok(&[&compact[..8], &["--no-bound"]].concat());
    assert!(
        alone.contains("Player 1 wins in 13 plies\nmethod       retrograde+search\n"),
        "{alone}"
    );
    let err = refused(&[&compact[..], &["--no-bound"]].concat());
    assert!(err.contains("cannot be used with"), "{err}");
    for method in [&search[..6], &exact[..8]] {
        let err = refused(&[method, &["--no-bound"]].concat());
        assert!(
            err.contains("--no-bound is for the search for the length"),
            "{err}"
        );
    }
}

/// `solve --method retro --scratch DIR --bound-layers-only` keeps on disk only the layers
/// read back, to bound a later `solve --fewer-walls --scratch DIR`, which reads them (at
/// most those) with or without the flag; `verify` refuses DIR and says why.
#[test]
fn an_analysis_keeping_only_its_bound_layers_bounds_a_later_search() {
    let dir = scratch("bound-layers-only");
    let _ = std::fs::remove_dir_all(&dir);
    let dir_arg = dir.to_str().unwrap();
    let out = ok(&[
        "solve",
        "3x7",
        "--walls",
        "4",
        "--method",
        "retro",
        "--precision",
        "exact",
        "--scratch",
        dir_arg,
        "--bound-layers-only",
        "--memory",
        "28M",
    ]);
    assert!(out.contains("Player 2 wins in 32 plies"), "{out}");
    assert!(dir.join("progress.json").exists() && !dir.join("header.json").exists());
    assert!(!dir.join("layer-08-split-00.bin.zst").exists());
    let search = [
        "solve",
        "3x7",
        "--walls",
        "5",
        "--method",
        "search",
        "--fewer-walls",
        "4",
        "--precision",
        "exact",
        "--scratch",
        dir_arg,
        "--memory",
        "56M",
    ];
    for flag in [&[][..], &["--bound-layers-only"]] {
        let out = ok(&[&search[..], flag].concat());
        assert!(
            out.contains("Player 1 wins in 27 plies")
                && out.contains("pruned by the exact analysis of 4 walls per player, its first"),
            "{out}"
        );
    }
    let err = refused(&["verify", dir_arg]);
    assert!(err.contains("--bound-layers-only"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
