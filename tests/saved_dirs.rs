//! Saved-table directories through the binary: `--save DIR` never mixes two tables, never
//! deletes what is not a saved table's, refuses before solving, and leaves no temporary
//! behind; `verify` exits 0 (whole), 1 (damaged, whatever the damage) or 2 (wrong
//! command), and checks a `table --save` directory cell by cell.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::cli::{ok, refused, run, stderr, stdout};

/// Runs `verify` on `dir`, which must exit with `code`; returns its stdout.
fn verify(dir: &Path, code: i32) -> String {
    let out = run(&["verify", s(dir), "-q"]);
    assert_eq!(
        out.status.code(),
        Some(code),
        "verify {}\nstdout:\n{}\nstderr:\n{}",
        dir.display(),
        stdout(&out),
        stderr(&out)
    );
    stdout(&out)
}

/// A fresh directory for this test's files (removed first if a previous run left it),
/// so that the siblings a save might leave are this test's alone.
fn scratch(name: &str) -> PathBuf {
    let path = common::cli::scratch(name);
    std::fs::create_dir_all(&path).unwrap();
    path
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// Saves `cell` (e.g. `["3x3", "--walls", "1"]`) with `solve --save dir`.
fn save(cell: &[&str], dir: &Path, extra: &[&str]) {
    let mut args = vec!["solve"];
    args.extend_from_slice(cell);
    args.extend_from_slice(&["--method", "retro", "--save", s(dir), "-q"]);
    args.extend_from_slice(extra);
    ok(&args);
}

/// `dir` holds exactly the files its manifest names and the manifest: no file of another
/// table beside them.
fn assert_only_its_own_files(dir: &Path) {
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.sha256")).unwrap();
    let mut listed: BTreeSet<String> = manifest
        .lines()
        .map(|l| l.split_once("  ").unwrap().1.to_string())
        .collect();
    listed.insert("MANIFEST.sha256".into());
    assert_eq!(names(dir), listed, "{}", dir.display());
}

/// Width, height and walls of the saved table in `dir`, from its header.
fn cell_of(dir: &Path) -> (u64, u64, u64) {
    let text = std::fs::read_to_string(dir.join("header.json")).unwrap();
    let header: serde_json::Value = serde_json::from_str(&text).unwrap();
    let n = |k: &str| header[k].as_u64().unwrap();
    (n("width"), n("height"), n("walls"))
}

/// No temporary directory of a save (`NAME.part-PID`, `NAME.old-PID`) in `dir`.
fn assert_no_temporaries(dir: &Path) {
    let left: Vec<String> = names(dir)
        .into_iter()
        .filter(|n| n.contains(".part-") || n.contains(".old-"))
        .collect();
    assert!(left.is_empty(), "left in {}: {left:?}", dir.display());
}

#[test]
fn solve_save_refuses_a_saved_table_and_force_replaces_it_whole() {
    let root = scratch("replace");
    let dir = root.join("t");
    save(&["4x3", "--walls", "2"], &dir, &[]);
    let before = names(&dir);
    // Another cell's table, or the same cell's: refused, naming the directory and --force.
    for cell in [["3x3", "--walls", "1"], ["4x3", "--walls", "2"]] {
        let mut args = vec!["solve"];
        args.extend_from_slice(&cell);
        args.extend_from_slice(&["--method", "retro", "--save", s(&dir)]);
        let err = refused(&args);
        assert!(err.contains(s(&dir)), "{err}");
        assert!(
            err.contains("already holds a saved table (4x3 with 2 walls); --force replaces it"),
            "{err}"
        );
    }
    assert_eq!(names(&dir), before, "a refusal touches nothing");
    assert_eq!(cell_of(&dir), (4, 3, 2));
    // --force: 3x3's table alone, none of 4x3's layers 3 and 4 beside it.
    save(&["3x3", "--walls", "1"], &dir, &["--force"]);
    assert_eq!(cell_of(&dir), (3, 3, 1));
    assert_only_its_own_files(&dir);
    assert!(!dir.join("layer-04-split-00.bin.zst").exists());
    let out = verify(&dir, 0);
    assert!(out.contains("3x3 with 1 wall,"), "{out}");
    assert_no_temporaries(&root);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn solve_save_writes_into_a_new_or_empty_directory_and_leaves_no_temporary() {
    let root = scratch("fresh");
    let new = root.join("deep").join("new");
    save(&["3x3", "--walls", "1"], &new, &[]);
    assert_only_its_own_files(&new);
    let empty = root.join("empty");
    std::fs::create_dir(&empty).unwrap();
    save(&["3x3", "--walls", "1"], &empty, &[]);
    assert_only_its_own_files(&empty);
    assert_eq!(names(&root), ["deep", "empty"].map(String::from).into());
    assert_no_temporaries(&root.join("deep"));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn save_never_deletes_files_that_are_not_a_saved_tables() {
    let root = scratch("foreign");
    let dir = root.join("notes");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    for force in [&[][..], &["--force"][..]] {
        let mut args = vec![
            "solve",
            "3x3",
            "--walls",
            "1",
            "--method",
            "retro",
            "--save",
            s(&dir),
        ];
        args.extend_from_slice(force);
        let err = refused(&args);
        assert!(err.contains(s(&dir)), "{err}");
        assert!(
            err.contains("is not empty and not a saved table (it holds notes.txt)"),
            "{err}"
        );
        let mut args = vec!["table", "--boards", "3x3", "--walls", "1", "--out"];
        let out = root.join("out");
        args.extend_from_slice(&[s(&out), "--save", s(&dir)]);
        args.extend_from_slice(force);
        let err = refused(&args);
        assert!(err.contains("it holds notes.txt"), "{err}");
    }
    // A saved table beside foreign files is not a saved table either.
    save(&["3x3", "--walls", "1"], &root.join("t"), &[]);
    std::fs::write(root.join("t").join("notes.txt"), "mine").unwrap();
    refused(&[
        "solve",
        "3x3",
        "--walls",
        "1",
        "--method",
        "retro",
        "--save",
        s(&root.join("t")),
        "--force",
    ]);
    assert_eq!(names(&dir), ["notes.txt".to_string()].into());
    assert!(root.join("t").join("notes.txt").exists());
    assert_no_temporaries(&root);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn the_destination_is_refused_before_any_work() {
    let root = scratch("early");
    let dir = root.join("t");
    save(&["3x3", "--walls", "1"], &dir, &[]);
    // 4x7 with 7 walls would need far more than 1G: the destination is refused first.
    let err = refused(&[
        "solve",
        "4x7",
        "--walls",
        "7",
        "--method",
        "retro",
        "--memory",
        "1G",
        "--save",
        s(&dir),
    ]);
    assert!(err.contains("already holds a saved table"), "{err}");
    // table: before its first cell, so no results are written.
    let out = root.join("out");
    let err = refused(&[
        "table",
        "--boards",
        "3x3",
        "--walls",
        "0..=1",
        "--out",
        s(&out),
        "--save",
        s(&dir),
    ]);
    assert!(
        err.contains("already holds a saved table (3x3 with 1 wall)"),
        "{err}"
    );
    assert!(!out.join("table.csv").exists());
    // A path under a file cannot be written: said before solving, not after.
    let file = root.join("file");
    std::fs::write(&file, "x").unwrap();
    refused(&[
        "solve",
        "3x3",
        "--walls",
        "1",
        "--method",
        "retro",
        "--save",
        s(&file.join("t")),
    ]);
    refused(&[
        "solve",
        "3x3",
        "--walls",
        "1",
        "--method",
        "retro",
        "--save",
        s(&file),
    ]);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn force_without_save_is_refused() {
    refused(&[
        "solve", "3x3", "--walls", "1", "--method", "retro", "--force",
    ]);
    refused(&["table", "--boards", "3x3", "--walls", "1", "--force"]);
}

#[test]
fn table_save_refuses_an_earlier_run_and_force_replaces_it() {
    let root = scratch("table");
    let (out, dir) = (root.join("out"), root.join("cells"));
    let table = |cells: &[&str], extra: &[&str]| -> Output {
        let mut args = vec!["table", "--boards"];
        args.extend_from_slice(cells);
        args.extend_from_slice(&["--out", s(&out), "--save", s(&dir), "-q"]);
        args.extend_from_slice(extra);
        run(&args)
    };
    assert_eq!(
        table(&["3x3,4x3", "--walls", "1"], &[]).status.code(),
        Some(0)
    );
    assert_eq!(names(&dir), ["3x3-w1", "4x3-w1"].map(String::from).into());
    let again = table(&["3x3", "--walls", "2"], &[]);
    assert_eq!(again.status.code(), Some(2));
    let err = stderr(&again);
    assert!(
        err.contains(
            "already holds the saved tables of 2 cells (3x3-w1, 4x3-w1); --force \
                      replaces them"
        ),
        "{err}"
    );
    // --force: this run's cells only, the earlier run's gone.
    assert_eq!(
        table(&["3x3", "--walls", "2"], &["--force"]).status.code(),
        Some(0)
    );
    assert_eq!(names(&dir), ["3x3-w2".to_string()].into());
    assert_only_its_own_files(&dir.join("3x3-w2"));
    // A single saved table (solve --save) is not a table run's: refused, --force replaces it.
    let single = root.join("single");
    save(&["4x3", "--walls", "2"], &single, &[]);
    let mut args = vec!["table", "--boards", "3x3", "--walls", "1", "--out", s(&out)];
    args.extend_from_slice(&["--save", s(&single), "-q"]);
    let err = refused(&args);
    assert!(
        err.contains("not one per cell; --force replaces it"),
        "{err}"
    );
    args.push("--force");
    ok(&args);
    assert_eq!(names(&single), ["3x3-w1".to_string()].into());
    assert_no_temporaries(&root);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn table_resume_keeps_the_saved_cells_it_keeps_and_replaces_those_it_solves_again() {
    use std::os::unix::fs::MetadataExt;
    let root = scratch("resume");
    let (out, dir) = (root.join("out"), root.join("cells"));
    let table = |walls: &str, extra: &[&str]| {
        let mut args = vec![
            "table",
            "--boards",
            "3x3",
            "--walls",
            walls,
            "--out",
            s(&out),
        ];
        args.extend_from_slice(&["--save", s(&dir), "-q"]);
        args.extend_from_slice(extra);
        ok(&args);
    };
    table("1..=2", &[]);
    let kept = std::fs::metadata(dir.join("3x3-w1")).unwrap().ino();
    // As if killed after saving 3x3 with 2 walls but before its row was written, with
    // another cell's table under its name, and a temporary of a killed save.
    let csv = out.join("table.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with("3,3,2,")).collect();
    std::fs::write(&csv, rows.join("\n") + "\n").unwrap();
    std::fs::remove_dir_all(dir.join("3x3-w2")).unwrap();
    save(&["4x3", "--walls", "3"], &dir.join("3x3-w2"), &[]);
    save(
        &["3x3", "--walls", "1"],
        &dir.join("3x3-w2.part-999999"),
        &[],
    );
    table("1..=2", &["--resume"]);
    assert_eq!(names(&dir), ["3x3-w1", "3x3-w2"].map(String::from).into());
    assert_eq!(std::fs::metadata(dir.join("3x3-w1")).unwrap().ino(), kept);
    assert_eq!(cell_of(&dir.join("3x3-w2")), (3, 3, 2));
    assert_only_its_own_files(&dir.join("3x3-w2"));
    let out = verify(&dir, 0);
    assert!(out.contains("2 cells checked, 2 whole, 0 damaged"), "{out}");
    let _ = std::fs::remove_dir_all(&root);
}

/// Flips a bit of `file`.
fn flip(file: &Path) {
    let mut bytes = std::fs::read(file).unwrap();
    bytes[2] ^= 0x10;
    std::fs::write(file, &bytes).unwrap();
}

#[test]
fn verify_exits_1_for_any_damage() {
    let root = scratch("damage");
    for (what, damage) in [
        (
            "header",
            &(|d: &Path| flip(&d.join("header.json"))) as &dyn Fn(&Path),
        ),
        ("manifest", &|d: &Path| flip(&d.join("MANIFEST.sha256"))),
        ("layer", &|d: &Path| {
            flip(&d.join("layer-01-split-00.bin.zst"))
        }),
        ("no manifest", &|d: &Path| {
            std::fs::remove_file(d.join("MANIFEST.sha256")).unwrap()
        }),
        ("no header", &|d: &Path| {
            std::fs::remove_file(d.join("header.json")).unwrap()
        }),
        ("no layer", &|d: &Path| {
            std::fs::remove_file(d.join("layer-02-split-00.bin.zst")).unwrap()
        }),
    ] {
        let dir = root.join(what.replace(' ', "-"));
        save(&["3x3", "--walls", "1"], &dir, &[]);
        verify(&dir, 0);
        damage(&dir);
        let out = verify(&dir, 1);
        assert!(out.starts_with("verification failed: "), "{what}: {out}");
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// Replaces the header's SHA-256 in the manifest of `dir` by that of its bytes now, as one
/// who edits a table and reseals it would.
fn reseal_header(dir: &Path) {
    use sha2::{Digest, Sha256};
    let header = std::fs::read(dir.join("header.json")).unwrap();
    let sha: String = Sha256::digest(&header)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.sha256")).unwrap();
    let resealed: String = manifest
        .lines()
        .map(|l| match l.ends_with("  header.json") {
            true => format!("{sha}  header.json\n"),
            false => format!("{l}\n"),
        })
        .collect();
    std::fs::write(dir.join("MANIFEST.sha256"), resealed).unwrap();
}

#[test]
fn verify_names_what_is_wrong_with_a_manifest_or_header() {
    let root = scratch("named");
    // A manifest line for a file that is not there: every file there matches, still damaged.
    let dir = root.join("extra");
    save(&["3x3", "--walls", "1"], &dir, &[]);
    let mut manifest = std::fs::read_to_string(dir.join("MANIFEST.sha256")).unwrap();
    manifest.push_str(&format!("{}  layer-09-split-00.bin.zst\n", "0".repeat(64)));
    std::fs::write(dir.join("MANIFEST.sha256"), manifest).unwrap();
    let out = verify(&dir, 1);
    assert!(
        out.contains("lists layer-09-split-00.bin.zst, which is not a file"),
        "{out}"
    );
    // A precision edited and resealed: the message names the precision, not the format.
    let dir = root.join("precision");
    save(&["3x3", "--walls", "1"], &dir, &[]);
    let header = std::fs::read_to_string(dir.join("header.json")).unwrap();
    let edited = header.replace("\"precision\": \"exact\"", "\"precision\": \"fuzzy\"");
    assert_ne!(header, edited);
    std::fs::write(dir.join("header.json"), edited).unwrap();
    reseal_header(&dir);
    let out = verify(&dir, 1);
    assert!(out.contains("precision \"fuzzy\""), "{out}");
    // No manifest: a table stopped before its end, or an analysis still going on.
    let dir = root.join("unfinished");
    save(&["3x3", "--walls", "1"], &dir, &[]);
    std::fs::remove_file(dir.join("MANIFEST.sha256")).unwrap();
    let out = verify(&dir, 1);
    assert!(
        out.contains("is not a whole table: its MANIFEST.sha256"),
        "{out}"
    );
    std::fs::write(dir.join("progress.json"), "{}").unwrap();
    let err = refused(&["verify", s(&dir)]);
    assert!(err.contains("holds an analysis in progress"), "{err}");
    // A scratch directory of other files is refused in the words of --scratch.
    let err = refused(&[
        "solve",
        "3x3",
        "--walls",
        "1",
        "--method",
        "retro",
        "--scratch",
        s(&root),
    ]);
    assert!(
        err.contains("is not empty and holds neither layers"),
        "{err}"
    );
    assert!(!err.contains("--save") && !err.contains("--force"), "{err}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn verify_exits_2_when_nothing_saved_is_named() {
    let root = scratch("wrong");
    let err = refused(&["verify", s(&root.join("missing"))]);
    assert!(err.contains("does not exist"), "{err}");
    std::fs::write(root.join("file"), "x").unwrap();
    let err = refused(&["verify", s(&root.join("file"))]);
    assert!(err.contains("is not a directory"), "{err}");
    std::fs::create_dir(root.join("empty")).unwrap();
    let err = refused(&["verify", s(&root.join("empty"))]);
    assert!(err.contains("holds no saved table"), "{err}");
    refused(&["verify", s(&root)]);
    refused(&["verify", s(&root.join("empty")), "--no-such-flag"]);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn verify_checks_each_cell_of_a_table_save_directory() {
    let root = scratch("cells");
    let (out, dir) = (root.join("out"), root.join("cells"));
    ok(&[
        "table",
        "--boards",
        "3x3,4x3",
        "--walls",
        "1",
        "--out",
        s(&out),
        "--save",
        s(&dir),
        "-q",
    ]);
    let text = verify(&dir, 0);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("3x3-w1: whole: "), "{text}");
    assert!(lines[1].starts_with("4x3-w1: whole: "), "{text}");
    assert!(
        lines[2].ends_with("2 cells checked, 2 whole, 0 damaged"),
        "{text}"
    );
    // One cell damaged: the others still checked, that one named, exit 1.
    flip(&dir.join("3x3-w1").join("header.json"));
    let text = verify(&dir, 1);
    assert!(text.contains("3x3-w1: DAMAGED: "), "{text}");
    assert!(text.contains("4x3-w1: whole: "), "{text}");
    assert!(text.contains("1 whole, 1 damaged (3x3-w1)"), "{text}");
    // A whole table under another cell's name is not that cell's.
    std::fs::remove_dir_all(dir.join("3x3-w1")).unwrap();
    save(&["3x3", "--walls", "2"], &dir.join("3x3-w1"), &[]);
    let text = verify(&dir, 1);
    assert!(
        text.contains("holds 3x3 with 2 walls, not 3x3 with 1 wall as its name says"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn verify_help_states_the_exit_codes() {
    let help = ok(&["verify", "--help"]);
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    for code in [
        "0 every check passed",
        "1 a table is damaged",
        "2 the command is wrong",
    ] {
        assert!(flat.contains(code), "{code}\n{help}");
    }
}

/// A saved table of layout 1 (written before 3345ae9, its configurations numbered
/// otherwise), whole and matching its manifest, is refused by `verify` with what to do,
/// never read.
#[test]
fn a_table_of_the_old_numbering_is_refused_with_why() {
    use sha2::{Digest, Sha256};
    let dir = scratch("old-layout").join("t");
    save(&["3x4", "--walls", "1"], &dir, &[]);
    let header = std::fs::read_to_string(dir.join("header.json")).unwrap();
    let old = header.replace("\"layout_version\": 2,", "\"layout_version\": 1,");
    assert_ne!(old, header, "{header}");
    std::fs::write(dir.join("header.json"), &old).unwrap();
    let digest: String = Sha256::digest(old.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let manifest: String = std::fs::read_to_string(dir.join("MANIFEST.sha256"))
        .unwrap()
        .lines()
        .map(|line| match line.strip_suffix("  header.json") {
            Some(_) => format!("{digest}  header.json\n"),
            None => format!("{line}\n"),
        })
        .collect();
    std::fs::write(dir.join("MANIFEST.sha256"), manifest).unwrap();
    let out = run(&["verify", s(&dir), "-q"]);
    // `verify` reports a failed check on stdout, a refusal on stderr.
    let err = format!("{}{}", stdout(&out), stderr(&out));
    assert_ne!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("(layout 1)") && err.contains("a binary built from an earlier commit"),
        "{err}"
    );
}
