//! The `table` command through the binary: files written, checked against the published
//! table, and a run killed in the middle finished by `--resume` with nothing lost.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::cli::killed_when;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_quoridor-solver"))
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qs-table-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Data rows of a table.csv, as (cell, whole line).
fn rows(dir: &Path) -> Vec<((String, String, String), String)> {
    let text = std::fs::read_to_string(dir.join("table.csv")).unwrap_or_default();
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(f.len(), 12, "a whole row: {l}");
            ((f[0].into(), f[1].into(), f[2].into()), l.to_string())
        })
        .collect()
}

#[test]
fn table_writes_all_three_files_and_checks_them() {
    let dir = temp_dir("files");
    let out = bin()
        .args([
            "table",
            "--boards",
            "2x3,3x3,4x3",
            "--walls",
            "0..=3",
            "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("12 match, 0 differ"), "{stdout}");
    assert!(stdout.contains("12 cells solved, 0 skipped"), "{stdout}");
    assert_eq!(rows(&dir).len(), 12);
    let md = std::fs::read_to_string(dir.join("table.md")).unwrap();
    assert!(
        md.contains("| 4 x 3 | 2 (4) | 2 (8) | 2 (10) | 1 (13) |"),
        "{md}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("table.json")).unwrap()).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 12);
    let svg = std::fs::read_to_string(dir.join("table.svg")).unwrap();
    assert!(svg.contains(">4 x 3<") && svg.contains(">1 (13)<"), "{svg}");
    assert_eq!(json[0]["outcome"], "2");

    // --check alone: passes on these results, fails (exit 1) on a contradicting file.
    let check = bin()
        .args(["table", "--check"])
        .arg(dir.join("table.csv"))
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(0));
    let text = std::fs::read_to_string(dir.join("table.csv")).unwrap();
    let bad = dir.join("bad.csv");
    // Player 1 wins in an odd number of plies: a row that could be a result, but is not.
    std::fs::write(&bad, text.replacen("\n2,3,0,2,4,", "\n2,3,0,1,5,", 1)).unwrap();
    let check = bin().args(["table", "--check"]).arg(&bad).output().unwrap();
    let stdout = String::from_utf8_lossy(&check.stdout);
    assert_eq!(check.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("DIFFERS 2x3 with 0 walls: ours 1, published 2"),
        "{stdout}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_killed_run_resumes_with_every_earlier_cell_intact() {
    let dir = temp_dir("kill");
    let args = [
        "table",
        "--boards",
        "2x3,3x3,4x3,5x3,2x5,3x5,6x3",
        "--walls",
        "0..=10",
    ];
    killed_when(
        &[&args[..], &["--out", dir.to_str().unwrap()]].concat(),
        || rows(&dir).len() >= 30,
    );
    let before = rows(&dir);
    assert!(
        before.len() >= 30 && before.len() < 77,
        "killed in the middle: {}",
        before.len()
    );

    let out = bin()
        .args(args)
        .arg("--out")
        .arg(&dir)
        .arg("--resume")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let after = rows(&dir);
    assert_eq!(after.len(), 77);
    for row in &before {
        assert!(
            after.contains(row),
            "earlier cell changed or lost: {}",
            row.1
        );
    }
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "tmp"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "half-written files left: {leftovers:?}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn beyond_solves_every_board_of_the_second_table_into_its_own_directory() {
    // With no walls every cell is a pawn race, decided in moments on any board.
    let dir = temp_dir("beyond");
    let out = bin()
        .args(["table", "--beyond", "--walls", "0", "-q", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = rows(&dir);
    assert_eq!(rows.len(), 35, "{stdout}");
    for board in [("21", "3"), ("9", "9")] {
        assert!(
            rows.iter()
                .any(|((w, h, _), _)| (w.as_str(), h.as_str()) == board),
            "{board:?}"
        );
    }
    assert!(rows.iter().all(|(_, l)| !l.contains("unknown")), "{stdout}");
    assert!(stdout.contains("0 match, 0 differ, 35 new"), "{stdout}");
    assert!(stdout.contains("even heights: 4 cells decided"), "{stdout}");
    for name in ["table.json", "table.md", "table.svg"] {
        assert!(dir.join(name).exists(), "{name}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_board_stops_at_its_first_undecided_cell_when_asked() {
    // 3x5 needs more than 5 plies at any wall count: 0 walls is undecided at depth 5, and
    // 1 and 2 walls are not tried.
    let dir = temp_dir("stop");
    let out = bin()
        .args([
            "table",
            "--boards",
            "3x5",
            "--walls",
            "0..=2",
            "--max-depth",
            "5",
        ])
        .args(["--method", "search", "--stop-at-undecided", "-q", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let rows = rows(&dir);
    assert_eq!(rows.len(), 1, "{stdout}");
    assert!(rows[0].1.contains("unknown"), "{}", rows[0].1);
    assert!(
        stdout.contains("2 skipped (a cell of the board"),
        "{stdout}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_table_options_are_refused() {
    for args in [
        &["table", "--walls", "x"][..],
        &["table", "--boards", "12x11"],
        &["table", "--max-seconds", "0"],
        &["table", "--check", "/nonexistent/table.csv"],
        &["table", "--beyond", "--boards", "5x5"],
        &["table", "--confirm-seconds", "-1"],
        &["table", "--campaign", "/tmp/c", "--scratch", "/tmp/s"],
        &["table", "--campaign", "/tmp/c", "--save", "/tmp/s"],
        &["table", "--check", "results/table.csv", "--plan"],
    ] {
        let out = bin().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn table_save_keeps_each_cells_values_and_verify_accepts_them() {
    let dir = temp_dir("save");
    let saved = temp_dir("saved-values");
    let out = bin()
        .args([
            "table", "--boards", "3x3,4x3", "--walls", "1..=2", "-q", "--out",
        ])
        .arg(&dir)
        .arg("--save")
        .arg(&saved)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for cell in ["3x3-w1", "3x3-w2", "4x3-w1", "4x3-w2"] {
        let verify = bin()
            .arg("verify")
            .arg(saved.join(cell))
            .arg("-q")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&verify.stdout);
        assert_eq!(verify.status.code(), Some(0), "{cell}: {text}");
        assert!(text.contains("values consistent on"), "{text}");
    }
    // Every cell went to the analysis, so the table says so.
    assert!(rows(&dir).iter().all(|(_, l)| l.contains(",retrograde,")));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&saved);
}

/// scripts/replay_lines.sh against a table the binary wrote: every decided cell's line
/// replays to its winner in its plies; a line cut short, or a length changed, fails.
#[test]
fn every_decided_line_replays_with_show_and_a_wrong_one_is_caught() {
    let dir = temp_dir("replay");
    let status = bin()
        .args([
            "table", "--boards", "3x3,4x3", "--walls", "0..=2", "-q", "--out",
        ])
        .arg(&dir)
        .status()
        .unwrap();
    assert!(status.success());
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/replay_lines.sh");
    let replay = |files: &[&Path]| {
        let out = Command::new("bash")
            .arg(script)
            .args(files)
            .env("BIN", env!("CARGO_BIN_EXE_quoridor-solver"))
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    let csv = dir.join("table.csv");
    let (code, text) = replay(&[&csv]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("6 lines replayed"), "{text}");
    assert!(
        text.contains("0 decided rows without a line, 0 failed"),
        "{text}"
    );
    // `solve`'s outputs are sources too (JSON and text), held against the table's rows:
    // 3x3 with 3 walls is a cell of its own, 4x3 with 2 walls the table's again.
    let json = dir.join("3x3-w3.json");
    let text_out = dir.join("4x3-w2.out");
    for (args, path) in [
        (&["solve", "3x3", "--walls", "3", "--json"][..], &json),
        (&["solve", "4x3", "--walls", "2"][..], &text_out),
    ] {
        let out = bin().args(args).output().unwrap();
        assert!(out.status.success());
        std::fs::write(path, out.stdout).unwrap();
    }
    let (code, text) = replay(&[&csv, &json, &text_out]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("8 lines replayed"), "{text}");
    assert!(
        text.contains("7 decided cells with a line replayed, 0 without one"),
        "{text}"
    );
    // A source that gives a cell another length than the table's fails.
    let solved = std::fs::read_to_string(&text_out).unwrap();
    std::fs::write(
        &text_out,
        solved.replacen("wins in 10 plies", "wins in 12 plies", 1),
    )
    .unwrap();
    let (code, text) = replay(&[&csv, &text_out]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("FAILED: 4x3 with 2 walls")
            && text.contains("another source says Player 2 in 10"),
        "{text}"
    );
    // Drop the last ply of each line: the winner is then not on the goal yet, and the
    // count no longer matches either.
    let table = std::fs::read_to_string(&csv).unwrap();
    let cut: String = table
        .lines()
        .map(|l| match l.rsplit_once(' ') {
            Some((head, _)) if !l.starts_with("width") => format!("{head}\n"),
            _ => format!("{l}\n"),
        })
        .collect();
    std::fs::write(&csv, cut).unwrap();
    let (code, text) = replay(&[&csv]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("0 lines replayed"), "{text}");
    assert!(text.contains("FAILED: 3x3 with 0 walls"), "{text}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// `table` with these flags, its campaign in `dir/campaign` and its results in `dir/out`.
fn run_campaign(dir: &Path, flags: &[&str]) -> std::process::Output {
    bin()
        .arg("table")
        .arg("--campaign")
        .arg(dir.join("campaign"))
        .arg("--out")
        .arg(dir.join("out"))
        .args(flags)
        .output()
        .unwrap()
}

/// A campaign's output over 3x3 and 4x3 with 0-3 walls: stdout and exit code.
fn campaign(dir: &Path, extra: &[&str]) -> (Option<i32>, String) {
    let cells = [
        "--boards",
        "3x3,4x3",
        "--walls",
        "0..=3",
        "-q",
        "--max-seconds",
        "30",
    ];
    let out = run_campaign(dir, &[&cells[..], extra].concat());
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

/// A campaign decides every cell, confirms each by the other method, resumes with nothing
/// left to do, and reports a disagreement (here a length edited into the table) with exit 1.
#[test]
fn a_campaign_decides_confirms_and_resumes_without_redoing() {
    let dir = temp_dir("campaign");
    let (code, text) = campaign(&dir, &[]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.starts_with("plan: 3x3 with 0 walls"), "{text}");
    assert!(text.contains("plan: 2 cells to solve"), "{text}");
    assert!(text.contains("8 cells solved"), "{text}");
    assert!(
        text.contains("second method: 8 cells the same (outcome and length)"),
        "{text}"
    );
    let confirm = std::fs::read_to_string(dir.join("out/confirm.csv")).unwrap();
    assert_eq!(confirm.lines().count(), 9, "{confirm}");
    // Resumed: nothing to solve, nothing to confirm again.
    let (code, text) = campaign(&dir, &[]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("plan: 0 cells to solve"), "{text}");
    assert!(text.contains("0 cells solved"), "{text}");
    assert_eq!(
        std::fs::read_to_string(dir.join("out/confirm.csv")).unwrap(),
        confirm
    );
    // 4x3 with 2 walls is Player 2 in 10: a table that says 12 is caught.
    let csv = dir.join("out/table.csv");
    let table = std::fs::read_to_string(&csv).unwrap();
    let edited = table.replace("4,3,2,2,10,", "4,3,2,2,12,");
    assert_ne!(edited, table, "{table}");
    std::fs::write(&csv, edited).unwrap();
    let (code, text) = campaign(&dir, &[]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("1 differ"), "{text}");
    assert!(text.contains("DIFFERS 4x3 with 2 walls: 2 (12)"), "{text}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// A campaign numbers its cells by their place in it, out of the cells known then (which
/// grow as each decided cell brings its board's next wall count), not `[1/1]` each.
#[test]
fn a_campaigns_cells_are_numbered_in_the_campaign() {
    let dir = temp_dir("campaign-numbers");
    let out = run_campaign(
        &dir,
        &[
            "--boards",
            "3x3,4x3",
            "--walls",
            "0..=1",
            "--confirm-seconds",
            "0",
        ],
    );
    let text = String::from_utf8([out.stdout, out.stderr].concat()).unwrap();
    assert_eq!(out.status.code(), Some(0), "{text}");
    let numbers: Vec<(usize, usize)> = text
        .lines()
        .filter_map(|l| l.strip_prefix('[')?.split_once(']'))
        .map(|(n, _)| n.split_once('/').unwrap())
        .map(|(a, b)| (a.parse().unwrap(), b.parse().unwrap()))
        .collect();
    // Two boards' first cells known at the start; the last cell knows all four.
    assert_eq!(numbers.len(), 4, "{text}");
    assert_eq!(numbers[0], (1, 2), "{text}");
    assert_eq!(numbers[3], (4, 4), "{text}");
    for (i, &(place, known)) in numbers.iter().enumerate() {
        assert_eq!(place, i + 1, "{text}");
        assert!(known >= place && known <= 4, "{text}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// A campaign whose scratch directory holds a cell's layers (an interrupted run's; here the
/// finished table `solve --scratch` leaves) goes on from them through the disk, even where
/// the analysis would fit in memory and start over, and gives the cell the same answer.
#[test]
fn a_campaign_goes_on_from_the_layers_in_its_scratch_directory() {
    let dir = temp_dir("campaign-layers");
    let layers = dir.join("campaign/scratch/4x3-w2");
    let solved = bin()
        .args(["solve", "4x3", "--walls", "2", "--method", "retro", "-q"])
        .args(["--precision", "compact", "--scratch"])
        .arg(&layers)
        .output()
        .unwrap();
    let said = String::from_utf8(solved.stdout).unwrap();
    assert!(solved.status.success(), "{said}");
    assert!(said.contains("Player 2 wins in 10 plies"), "{said}");
    let manifest = std::fs::read_to_string(layers.join("MANIFEST.sha256")).unwrap();
    let (code, text) = campaign_4x3_w2(&dir, &["--confirm-seconds", "0"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains(
            "plan: 4x3 with 2 walls: compact retrograde in parts through the scratch \
             directory, going on from the layers written there"
        ),
        "{text}"
    );
    let table = std::fs::read_to_string(dir.join("out/table.csv")).unwrap();
    assert!(table.contains("\n4,3,2,2,10,retrograde"), "{table}");
    // The length's search kept its table beside the layers, for a run stopped in it,
    // until the cell was solved.
    let checkpoint = dir.join("campaign/scratch/4x3-w2.checkpoint");
    let named = format!("the length's search in {}", checkpoint.display());
    let removed = format!("{} removed: the cell is solved", checkpoint.display());
    assert!(text.contains(&named) && text.contains(&removed), "{text}");
    assert!(!checkpoint.exists(), "{text}");
    assert_eq!(
        std::fs::read_to_string(layers.join("MANIFEST.sha256")).unwrap(),
        manifest
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// A campaign's proof searches keep their tables in its scratch directory: a cell stopped
/// (here at a depth limit) is searched again from what it had proven, with fewer nodes
/// than afresh, and its file is removed once the cell is solved; the second method's
/// search keeps a file of its own, likewise.
#[test]
fn a_campaigns_searches_go_on_from_their_checkpoints() {
    let run = |dir: &Path, extra: &[&str]| {
        let (code, text) = campaign_4x3_w2(dir, extra);
        assert_eq!(code, Some(0), "{text}");
        let row = rows(&dir.join("out")).remove(0).1;
        let nodes: u64 = row.split(',').nth(6).unwrap().parse().unwrap();
        (text, row, nodes)
    };
    let first = ["--method", "search", "--confirm-seconds", "0"];
    let fresh = temp_dir("campaign-search-fresh");
    let (_, row, fresh_nodes) = run(&fresh, &first);
    assert!(row.starts_with("4,3,2,2,10,proof-search"), "{row}");
    let dir = temp_dir("campaign-search");
    let checkpoint = dir.join("campaign/scratch/4x3-w2.checkpoint");
    let (text, row, stopped_nodes) = run(&dir, &[&first[..], &["--max-depth", "6"]].concat());
    assert!(row.starts_with("4,3,2,unknown"), "{row}");
    let named = format!("the search's table in {}", checkpoint.display());
    assert!(text.contains(&named) && checkpoint.exists(), "{text}");
    let (text, row, nodes) = run(&dir, &first);
    assert!(row.starts_with("4,3,2,2,10,proof-search"), "{row}");
    // The row counts both runs' work; the second run's own is less than a fresh search's.
    assert!(
        text.contains("in earlier runs, from the checkpoint"),
        "{text}"
    );
    assert!(nodes > stopped_nodes, "{nodes} after {stopped_nodes}");
    let own = nodes - stopped_nodes;
    assert!(own < fresh_nodes, "{own} against {fresh_nodes} afresh");
    let removed = format!("{} removed: the cell is solved", checkpoint.display());
    assert!(text.contains(&removed) && !checkpoint.exists(), "{text}");
    std::fs::remove_dir_all(dir).unwrap();
    // The second method's proof search, where the analysis decided the cell: stopped
    // short, then gone on with.
    let dir = fresh;
    std::fs::remove_dir_all(&dir).unwrap();
    let second = dir.join("campaign/scratch/4x3-w2.second.checkpoint");
    let confirm = ["--method", "retro", "--confirm-seconds", "30"];
    let (text, row, _) = run(&dir, &[&confirm[..], &["--max-depth", "6"]].concat());
    assert!(row.starts_with("4,3,2,2,10,retrograde"), "{row}");
    assert!(second.exists(), "{text}");
    assert!(text.contains("1 not decided within the limit"), "{text}");
    // A campaign directory made anew (another machine) over a table whose cells are all
    // decided: the second method's search still has its directory to save in.
    std::fs::remove_dir_all(dir.join("campaign")).unwrap();
    let (text, _, _) = run(&dir, &[&confirm[..], &["--max-depth", "6"]].concat());
    assert!(
        second.exists() && !text.contains("could not save"),
        "{text}"
    );
    let (text, _, _) = run(&dir, &confirm);
    assert!(text.contains("1 cell the same"), "{text}");
    let removed = format!("{} removed: the cell is solved", second.display());
    assert!(text.contains(&removed) && !second.exists(), "{text}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// A checkpoint file a campaign's search cannot take (not one at all) does not stop the
/// campaign: it is named and moved aside, the search saves its own table in its place (a
/// cell stopped short goes on from that one), and the cell is solved.
#[test]
fn a_campaign_searches_past_a_checkpoint_it_cannot_take() {
    let dir = temp_dir("campaign-bad-checkpoint");
    let scratch = dir.join("campaign/scratch");
    std::fs::create_dir_all(&scratch).unwrap();
    let checkpoint = scratch.join("4x3-w2.checkpoint");
    std::fs::write(&checkpoint, "not a checkpoint\n").unwrap();
    let flags = ["--method", "search", "--confirm-seconds", "0"];
    let (code, text) = campaign_4x3_w2(&dir, &[&flags[..], &["--max-depth", "6"]].concat());
    assert_eq!(code, Some(0), "{text}");
    let aside = scratch.join("4x3-w2.checkpoint.set-aside");
    assert!(
        text.contains("not a checkpoint of this program")
            && text.contains(&format!("the file is moved to {}", aside.display())),
        "{text}"
    );
    assert_eq!(std::fs::read(&aside).unwrap(), b"not a checkpoint\n");
    let saved = std::fs::read(&checkpoint).unwrap();
    assert!(
        saved.starts_with(b"quoridor-solver checkpoint"),
        "the search's own table"
    );
    let (code, text) = campaign_4x3_w2(&dir, &flags);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("checkpoint read") || !text.contains("warning"),
        "{text}"
    );
    assert!(
        rows(&dir.join("out"))[0]
            .1
            .starts_with("4,3,2,2,10,proof-search")
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// A campaign over 4x3 with 2 walls in `dir` with these flags: its exit code and all it
/// printed (the cells' lines are on stderr).
fn campaign_4x3_w2(dir: &Path, extra: &[&str]) -> (Option<i32>, String) {
    let out = run_campaign(
        dir,
        &[&["--boards", "4x3", "--walls", "2"][..], extra].concat(),
    );
    let text = String::from_utf8([out.stdout, out.stderr].concat()).unwrap();
    (out.status.code(), text)
}

/// `DIR/out/table.csv` with these rows (the columns before `line`) under its header.
fn write_rows(dir: &Path, rows: &str) {
    std::fs::create_dir_all(dir.join("out")).unwrap();
    let header =
        "width,height,walls,outcome,plies,method,nodes,seconds,peak_bytes,version,depth_reached\n";
    std::fs::write(dir.join("out/table.csv"), format!("{header}{rows}")).unwrap();
}

/// A cell an earlier pass left undecided short of the campaign's limit is tried again and
/// its board goes on past it; one left undecided after the whole limit is given up.
#[test]
fn a_campaign_goes_past_a_short_failure_and_gives_up_a_full_one() {
    let dir = temp_dir("campaign-undecided");
    write_rows(
        &dir,
        "3,3,0,2,4,proof-search,25,0.001,4800512,0.1.0,4\n\
         3,3,1,unknown,,proof-search,10,1.5,4800512,0.1.0,3\n\
         4,3,0,2,4,proof-search,25,0.001,4800512,0.1.0,4\n\
         4,3,1,unknown,,proof-search,10,45.0,4800512,0.1.0,5\n",
    );
    let (code, text) = campaign(&dir, &["--plan"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("plan: 3x3 with 1 wall: "), "{text}");
    assert!(
        text.contains("plan: 4x3 with 1 wall: not tried again: undecided after 45 s"),
        "{text}"
    );
    let (code, text) = campaign(&dir, &["--confirm-seconds", "0"]);
    assert_eq!(code, Some(0), "{text}");
    let table = std::fs::read_to_string(dir.join("out/table.csv")).unwrap();
    for decided in ["3,3,1,2,8,", "3,3,2,2,12,", "3,3,3,2,12,"] {
        assert!(table.contains(decided), "{decided}\n{table}");
    }
    assert!(table.contains("4,3,1,unknown,"), "{table}");
    assert!(!table.contains("4,3,2,"), "{table}");
    assert!(!dir.join("out/confirm.csv").exists());
    std::fs::remove_dir_all(dir).unwrap();
}

/// A row with a winner but no length (the length's search after a compact analysis stopped
/// at its limit) is not solved: a campaign solves it again, unless it took the whole limit.
#[test]
fn a_campaign_goes_on_to_the_length_a_row_lacks() {
    let dir = temp_dir("campaign-length");
    write_rows(
        &dir,
        "3,3,0,2,4,proof-search,25,0.001,4800512,0.1.0,4\n\
         3,3,1,2,,retrograde+search,10,1.5,4800512,0.1.0,3\n\
         4,3,0,2,,retrograde+search,10,45.0,4800512,0.1.0,2\n",
    );
    let (code, text) = campaign(&dir, &["--plan"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("plan: 3x3 with 1 wall: "), "{text}");
    assert!(
        text.contains("plan: 4x3 with 0 walls: not tried again: its length not found after 45 s"),
        "{text}"
    );
    let (code, text) = campaign(&dir, &["--confirm-seconds", "0"]);
    assert_eq!(code, Some(0), "{text}");
    let table = std::fs::read_to_string(dir.join("out/table.csv")).unwrap();
    assert!(table.contains("\n3,3,1,2,8,"), "{table}");
    assert!(table.contains("\n4,3,0,2,,"), "{table}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// Cells the analysis decided are confirmed by the proof search alone, in a plain table run
/// with --confirm-seconds.
#[test]
fn cells_the_analysis_decided_are_confirmed_by_the_search() {
    let dir = temp_dir("confirm-search");
    let out = bin()
        .args([
            "table", "--boards", "3x4", "--walls", "0..=2", "-q", "--method", "retro",
        ])
        .args(["--confirm-seconds", "30", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("second method: 3 cells the same"), "{text}");
    let confirm = std::fs::read_to_string(dir.join("confirm.csv")).unwrap();
    let methods: Vec<&str> = confirm
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(5).unwrap())
        .collect();
    assert_eq!(methods, ["proof-search"; 3], "{confirm}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// `table` with `args` and `--out DIR`: its exit code, stdout and stderr.
fn table_in(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = bin()
        .arg("table")
        .args(args)
        .args(["--out", dir.to_str().unwrap()])
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn the_plan_says_what_the_run_does() {
    // --method search: the plan promises no analysis, and a cell the search leaves
    // undecided is not counted as solved. (That a planned analysis fits the run's budget is
    // tests/plan.rs's, cell by cell.)
    let dir = temp_dir("plan-methods");
    let args = [
        "--boards",
        "5x5",
        "--walls",
        "4",
        "--method",
        "search",
        "--max-seconds",
        "1",
    ];
    let (_, plan, _) = table_in(&dir.join("search"), &[&args[..], &["--plan"]].concat());
    assert!(
        plan.contains("proof search alone (--method search) (at most 1 s)"),
        "{plan}"
    );
    assert!(!plan.contains("retrograde"), "{plan}");
    let (code, run, err) = table_in(&dir.join("search"), &args);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        run.starts_with("0 cells solved, 1 undecided within the limit"),
        "{run}"
    );
    // --method retro where one cell's analysis does not fit: the plan says it is skipped.
    let args = [
        "--boards", "5x5", "--walls", "3..=4", "--method", "retro", "--memory", "100M",
    ];
    let (_, plan, _) = table_in(&dir.join("retro"), &[&args[..], &["--plan"]].concat());
    assert!(
        plan.contains("5x5 with 3 walls: exact retrograde"),
        "{plan}"
    );
    assert!(
        plan.contains("5x5 with 4 walls: skipped: --method retro"),
        "{plan}"
    );
    let (code, run, err) = table_in(&dir.join("retro"), &args);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        run.starts_with("1 cell solved, 1 skipped (over the memory budget)"),
        "{run}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
