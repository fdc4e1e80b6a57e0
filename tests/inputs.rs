//! What a new user typed and got wrong (issue 26): each input that cannot work is refused
//! up front with exit 2 and one line, never a run that does nothing, a stale file or a
//! message that repeats a huge argument.

mod common;
use common::cli::{ok, refused, run, scratch, stderr, stdout};

#[test]
fn a_huge_argument_is_quoted_in_a_few_dozen_characters() {
    // 100,000 characters: about the most one argument may hold on Linux (128 KiB).
    let long = "z".repeat(100_000);
    let digits = "9".repeat(100_000);
    let moves = format!("1. b2 {long}");
    let dir = scratch("huge");
    let dir = dir.to_str().unwrap();
    for args in [
        &["solve", &long, "--walls", "1"][..],
        &["solve", "3x3", "--walls", &long],
        &["solve", "3x3", "--walls", "1", "--memory", &long],
        &["solve", "3x3", "--walls", "1", "--tt", &long],
        &["solve", "3x3", "--walls", "1", "--method", &long],
        &["show", "3x3", "--walls", "1", "--moves", &moves],
        &["show", "3x3", "--walls", "1", "--position", &long],
        &["perft", "3x3", "--walls", "1", "--depth", &digits],
        &["table", "--boards", &long, "--out", dir],
        &["table", "--walls", &long, "--out", dir],
        &["play", "3x3", "--walls", "1", "--as", &long],
    ] {
        let err = refused(args);
        assert!(err.len() < 300, "{} bytes: {}", err.len(), &err[..300]);
        assert!(err.contains("... (100000 characters)"), "{err}");
    }
}

#[test]
fn move_numbers_are_checked_and_solve_lines_read_back() {
    let shown = ok(&["show", "5x5", "--walls", "3", "--moves", "1. c2 b2h 2. d2"]);
    assert!(
        shown.contains("Record: b2 / - / d2 c5 / 3 2 / 2"),
        "{shown}"
    );
    for (moves, expected) in [
        (
            "1. c2 5. c4",
            "'5.' is not the move number here: Player 2 is to move, so 1... or none",
        ),
        (
            "2. c2",
            "'2.' is not the move number here: Player 1 is to move, so 1. or none",
        ),
        (
            "1. c2 c4 3. c3",
            "'3.' is not the move number here: Player 1 is to move, so 2. or none",
        ),
    ] {
        let err = refused(&["show", "5x5", "--walls", "3", "--moves", moves]);
        assert!(err.contains(expected), "{moves}: {err}");
    }
    // The line `solve` prints is a valid --moves.
    let solved = ok(&["solve", "3x5", "--walls", "1", "--threads", "1"]);
    let line = solved
        .lines()
        .find_map(|l| l.strip_prefix("line"))
        .expect("a line")
        .trim();
    assert!(line.starts_with("1. ") && line.contains(" 2. "), "{line}");
    let shown = ok(&["show", "3x5", "--walls", "1", "--moves", line]);
    assert!(shown.contains("has won"), "{shown}");
}

#[test]
fn perft_refuses_a_depth_whose_count_may_not_fit_and_reports_each_depth() {
    let started = std::time::Instant::now();
    let err = refused(&["perft", "3x3", "--walls", "1", "--depth", "1000"]);
    assert!(started.elapsed().as_secs() < 5, "refused at once");
    assert!(
        err.contains("--depth 1000: perft counts at most 17 plies from this position"),
        "{err}"
    );
    // The deepest depth allowed is the bound itself: 13^17 fits 64 bits, 13^18 does not.
    let err = refused(&["perft", "3x3", "--walls", "1", "--depth", "18"]);
    assert!(err.contains("at most 17 plies"), "{err}");
    // A line per depth on stderr, with the next depth's estimate; none with -q.
    let out = run(&["perft", "3x3", "--walls", "1", "--depth", "4"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out).lines().last(), Some("1189"));
    let lines: Vec<String> = stderr(&out).lines().map(String::from).collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[2].starts_with("depth 3: 317 in "), "{lines:?}");
    assert!(lines[2].contains("depth 4 estimated at"), "{lines:?}");
    let out = run(&["perft", "3x3", "--walls", "1", "--depth", "4", "-q"]);
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().last(), Some("1189"));
}

#[test]
fn a_table_budget_below_every_cell_is_refused_before_any_work() {
    let dir = scratch("tiny-budget");
    let d = dir.to_str().unwrap();
    let err = refused(&["table", "--memory", "1k", "--out", d]);
    assert!(
        err.contains("the memory budget, 1.00 KiB, is below what any selected cell needs: the least is solving 2x3 with 0 walls"),
        "{err}"
    );
    assert!(!dir.exists(), "nothing written, not even an empty table");
    // Boards over the on-demand floor name it: 9x9 with 9 walls has no full tables.
    let err = refused(&[
        "table", "--boards", "9x9", "--walls", "9", "--memory", "40M", "--out", d,
    ]);
    assert!(
        err.contains("the least is proof search on 9x9 with 9 walls"),
        "{err}"
    );
    assert!(err.contains("an estimated 64.00 MiB"), "{err}");
    // A budget that fits some cells runs them and skips the others, each with a line.
    let out = run(&[
        "table", "--boards", "3x3,9x9", "--walls", "0,9", "--memory", "40M", "--out", d,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("3 cells solved, 1 skipped (over the memory budget)"),
        "{}",
        stdout(&out)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_budget_above_physical_memory_is_refused_by_every_command() {
    let dir = scratch("huge-budget");
    let d = dir.to_str().unwrap();
    for args in [
        &["solve", "3x3", "--walls", "1"][..],
        &["table", "--boards", "3x3", "--walls", "1", "--out", d],
        &["configs", "3x3", "--walls", "1"],
        &["analyze", "3x3", "--walls", "1"],
        &["play", "3x3", "--walls", "1"],
    ] {
        let err = refused(&[args, &["--memory", "1000T"]].concat());
        assert!(
            err.contains(
                "--memory 1000T: 1000.00 TiB is more than this machine's physical memory, "
            ),
            "{args:?}: {err}"
        );
    }
    assert!(!dir.exists());
}

/// The names in `dir` that end in `.part`: temporaries a failed write left.
fn temporaries(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".part"))
        .collect()
}

#[test]
fn table_out_is_checked_file_by_file_before_the_first_cell() {
    let dir = scratch("out-md-dir");
    std::fs::create_dir_all(dir.join("table.md")).unwrap();
    let err = refused(&[
        "table",
        "--boards",
        "3x3",
        "--walls",
        "0..2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        err.contains("table.md: it is a directory, not a file"),
        "{err}"
    );
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["table.md"], "no cell solved, nothing written");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_failed_write_leaves_no_temporary() {
    // The picture's path is a directory: refused before a temporary is written.
    let dir = scratch("svg-dir");
    let target = dir.join("picture.svg");
    std::fs::create_dir_all(&target).unwrap();
    refused(&[
        "show",
        "3x3",
        "--walls",
        "1",
        "--svg",
        target.to_str().unwrap(),
    ]);
    assert_eq!(temporaries(&dir), Vec::<String>::new());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn resuming_says_which_kept_cells_another_version_solved() {
    let dir = scratch("resume-versions");
    let d = dir.to_str().unwrap();
    let table = ["table", "--boards", "2x3", "--walls", "0..=2", "--out", d];
    ok(&table);
    let csv = dir.join("table.csv");
    let rows = std::fs::read_to_string(&csv).unwrap();
    // Each row names the build that wrote it; all three are this one's.
    let version = rows
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .nth(9)
        .unwrap()
        .to_string();
    assert!(
        rows.lines()
            .skip(1)
            .all(|r| r.contains(&format!(",{version},"))),
        "{rows}"
    );
    // Two rows from an older build (version 0.0.9), the third left to solve.
    let older: Vec<String> = rows
        .lines()
        .take(3)
        .map(|r| r.replace(&format!(",{version},"), ",0.0.9,"))
        .collect();
    std::fs::write(&csv, older.join("\n") + "\n").unwrap();
    let out = run(&[&table[..], &["--resume"]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let said = format!(
        "kept 2 cells solved by another version of this tool (0.0.9; this is {version}): \
         remove their rows from table.csv, or run without --resume, to solve them again"
    );
    assert!(stdout(&out).contains(&said), "{}", stdout(&out));
    assert!(stderr(&out).contains(&said), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("1 cell solved"),
        "{}",
        stdout(&out)
    );
    // Resumed again, every row is this build's or the older one's as before: said again.
    let out = ok(&[&table[..], &["--resume", "-q"]].concat());
    assert!(out.contains(&said), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn only_commands_with_something_to_report_offer_v_and_q() {
    let has = |command: &str, flag: &str| {
        ok(&[command, "--help"])
            .lines()
            .any(|l| l.trim_start().starts_with(&format!("{flag},")))
    };
    for command in ["table", "solve", "analyze", "play"] {
        assert!(has(command, "-v") && has(command, "-q"), "{command}");
    }
    for command in ["configs", "verify", "perft"] {
        assert!(!has(command, "-v") && has(command, "-q"), "{command}");
    }
    assert!(!has("show", "-v") && !has("show", "-q"));
    assert!(!ok(&["--help"]).contains("--verbose"));
    let err = refused(&["show", "3x3", "--walls", "1", "-v"]);
    assert!(err.contains("unexpected argument '-v'"), "{err}");
    refused(&["configs", "3x3", "--walls", "1", "-v"]);
    let err = refused(&["-v", "perft", "3x3", "--walls", "1", "--depth", "1"]);
    assert!(
        err.contains("`perft` runs no search: it has nothing more to report"),
        "{err}"
    );
    // Before the command they still work where the command takes them.
    let out = run(&["-q", "configs", "3x3", "--walls", "1"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    refused(&["-q", "solve", "3x3", "--walls", "1", "-v"]);
}

#[test]
fn tt_is_taken_wherever_a_search_runs_as_its_help_says() {
    let help = ok(&["solve", "--help"]);
    assert!(help.contains("With --method retro only"), "{help}");
    // Where every layer does not fit at a byte, `--method retro` runs the compact analysis,
    // whose search for the length takes the table (docs/PERFORMANCE.md: `solve 4x7 --walls
    // 10 --method retro --stats --tt 4G`).
    let retro = [
        "solve", "4x5", "--walls", "4", "--method", "retro", "--tt", "4M",
    ];
    let out = ok(&[&retro[..], &["--memory", "24M"]].concat());
    assert!(
        out.starts_with(
            "4x5 with 4 walls per player: Player 1 wins in 27 plies\nmethod       retrograde+search"
        ),
        "{out}"
    );
    // Where they fit, the exact analysis runs no search: refused, not ignored.
    let err = refused(&[&retro[..], &["--memory", "48M"]].concat());
    assert!(
        err.contains("--tt does not apply here") && err.contains("this cell gets the exact one"),
        "{err}"
    );
    let err = refused(&[&retro[..], &["--precision", "exact"]].concat());
    assert!(err.contains("--precision exact does not run"), "{err}");
}

#[test]
fn a_resumed_table_keeps_the_deeper_of_two_undecided_rows() {
    let dir = scratch("deeper");
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("table.csv");
    std::fs::write(
        &csv,
        "width,height,walls,outcome,plies,method,nodes,seconds,peak_bytes,version,depth_reached\n\
         4,4,2,unknown,,proof-search,1000,1.0,1000000,0.1.0,8\n",
    )
    .unwrap();
    let out = dir.to_str().unwrap();
    let resume = [
        "table", "--out", out, "--resume", "--boards", "4x4", "--walls", "2",
    ];
    let shallow = run(&[&resume[..], &["--method", "search", "--max-depth", "4"]].concat());
    assert_eq!(shallow.status.code(), Some(0), "{}", stderr(&shallow));
    assert!(
        stderr(&shallow).contains("the earlier row, searched to 8 plies, is kept"),
        "{}",
        stderr(&shallow)
    );
    let row = |csv: &std::path::Path| {
        let text = std::fs::read_to_string(csv).unwrap();
        text.lines()
            .find(|l| l.starts_with("4,4,2,"))
            .unwrap()
            .to_string()
    };
    assert!(row(&csv).ends_with(",8,"), "{}", row(&csv));
    // A decided cell replaces it.
    ok(&[&resume[..], &["-q"]].concat());
    assert!(row(&csv).starts_with("4,4,2,1,11,"), "{}", row(&csv));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_record_whose_walls_do_not_add_up_says_what_it_says() {
    // No wall placed, 5 left each of 10: 10 used between the two, not 10 "each".
    let err = refused(&[
        "show",
        "3x3",
        "--walls",
        "10",
        "--position",
        "- / - / b1 b3 / 5 5 / 1",
    ]);
    assert!(
        err.ends_with(
            "0 walls on the board, but with 5 and 5 left of their 10 walls each the players \
             have placed 10 between them\n"
        ),
        "{err}"
    );
}
