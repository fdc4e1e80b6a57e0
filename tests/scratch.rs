//! `solve --method retro --scratch DIR`: each layer goes to DIR as soon as it is solved; the
//! finished directory is the saved table `--save` writes, byte for byte, whether the
//! analysis kept every layer in memory or two; a run killed with SIGKILL goes on from the
//! layers written, a damaged layer is named and solved again, and a directory of another
//! cell or of other files is refused.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod common;
use common::cli::{killed_when, ok, refused, run, scratch, stderr};

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn manifest(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("MANIFEST.sha256")).expect("a finished table")
}

/// `solve WxH --walls N --method retro` and more flags; its stdout.
fn retro(cell: &str, walls: &str, more: &[&str]) -> String {
    ok(&[
        &["solve", cell, "--walls", walls, "--method", "retro"],
        more,
    ]
    .concat())
}

/// Each split file's members (one a segment) add up to the file, and the larger layers
/// have several.
fn check_segments(dir: &Path) {
    let text = std::fs::read_to_string(dir.join("header.json")).unwrap();
    let header: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut most = 0;
    for split in header["layers"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|l| l.as_array().unwrap())
    {
        let members: Vec<u64> = split["segments"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_u64().unwrap())
            .collect();
        let file = dir.join(split["file"].as_str().unwrap());
        assert_eq!(
            members.iter().sum::<u64>(),
            std::fs::metadata(file).unwrap().len()
        );
        assert_eq!(
            members.iter().sum::<u64>(),
            split["file_bytes"].as_u64().unwrap()
        );
        most = most.max(members.len());
    }
    assert!(most > 1, "{}: no file of several segments", dir.display());
}

#[test]
fn a_scratch_directory_ends_as_the_saved_table_whatever_the_memory() {
    let root = scratch("same");
    for (cell, walls, streaming) in [("3x3", "1", None), ("4x5", "5", Some("30M"))] {
        let saved = root.join(format!("{cell}-saved"));
        let out = retro(cell, walls, &["--save", s(&saved)]);
        // Every layer in memory, and (where the budget allows only two) streaming.
        let mut budgets = vec![None];
        budgets.extend(streaming.map(Some));
        for budget in budgets {
            let dir = root.join(format!("{cell}-{}", budget.unwrap_or("all")));
            let mut more = vec!["--scratch", s(&dir)];
            more.extend(budget.iter().flat_map(|b| ["--memory", *b]));
            let through = retro(cell, walls, &more);
            assert_eq!(through.lines().next(), out.lines().next());
            if budget.is_some() {
                assert!(through.contains("line         not kept"), "{through}");
            }
            assert_eq!(manifest(&dir), manifest(&saved), "{cell} {budget:?}");
            assert!(!dir.join("progress.json").exists());
            check_segments(&dir);
            ok(&["verify", s(&dir), "-q"]);
            // Run again, the command answers from the table: nothing is solved.
            let again = retro(cell, walls, &more);
            assert_eq!(again.lines().next(), out.lines().next());
            assert_eq!(manifest(&dir), manifest(&saved));
        }
    }
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_killed_run_goes_on_from_the_layers_written_and_solves_a_damaged_one_again() {
    let root = scratch("killed");
    let whole = root.join("whole");
    retro("5x5", "3", &["--save", s(&whole)]);
    let dir: PathBuf = root.join("run");
    // Killed as soon as its first layer (the largest, of 6 walls) is written.
    killed_after_a_layer(&dir, &[]);
    assert!(!dir.join("MANIFEST.sha256").exists());
    // A layer file damaged while the run was stopped.
    damage(&dir.join("layer-06-split-00.bin.zst"));
    let out = run(&[
        "solve",
        "5x5",
        "--walls",
        "3",
        "--method",
        "retro",
        "--scratch",
        s(&dir),
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("layer-06-split-00.bin.zst is damaged")
            && err.contains("layer 6 and those below it are solved again"),
        "{err}"
    );
    assert_eq!(manifest(&dir), manifest(&whole));
    ok(&["verify", s(&dir), "-q"]);
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_scratch_directory_of_another_cell_or_of_other_files_is_refused() {
    let root = scratch("other");
    let dir = root.join("t");
    retro("3x3", "1", &["--scratch", s(&dir)]);
    let err = refused(&[
        "solve",
        "3x3",
        "--walls",
        "2",
        "--method",
        "retro",
        "--scratch",
        s(&dir),
    ]);
    assert!(
        err.contains("holds the saved table of 3x3 with 1 wall, not of 3x3 with 2 walls"),
        "{err}"
    );
    let other = root.join("notes");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("notes.txt"), "mine").unwrap();
    let err = refused(&[
        "solve",
        "3x3",
        "--walls",
        "1",
        "--method",
        "retro",
        "--scratch",
        s(&other),
    ]);
    assert!(err.contains("it holds notes.txt"), "{err}");
    assert!(other.join("notes.txt").exists());
    // Only the exact analysis is written there.
    refused(&[
        "solve",
        "3x3",
        "--walls",
        "1",
        "--method",
        "retro",
        "--precision",
        "compact",
        "--scratch",
        s(&dir),
    ]);
    std::fs::remove_dir_all(&root).unwrap();
}

/// Where two layers do not fit the memory, every layer is solved in parts through the
/// directory (`retro::parts`); killed with SIGKILL in the middle of a layer, while its
/// files are being written, the same command goes on from the layers written and ends with
/// the table saved from memory, byte for byte.
#[test]
fn a_run_in_parts_killed_in_the_middle_of_a_layer_ends_as_the_table_saved_from_memory() {
    let root = scratch("parts");
    let whole = root.join("whole");
    retro("5x5", "3", &["--save", s(&whole)]);
    let dir: PathBuf = root.join("run");
    let args = [
        "solve", "5x5", "--walls", "3", "--method", "retro", "--memory", "30M", "-v",
    ];
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_quoridor-solver"))
        .args(args)
        .args(["--scratch", s(&dir)])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the binary runs");
    // Killed once the top layer is recorded and the next one's file is being written.
    let (progress, next) = (
        dir.join("progress.json"),
        dir.join("layer-05-split-00.bin.zst"),
    );
    let started = Instant::now();
    while !(progress.exists() && next.exists()) && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(2));
    }
    std::thread::sleep(Duration::from_millis(100));
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        progress.exists() && !dir.join("MANIFEST.sha256").exists(),
        "killed before the end"
    );
    let out = run(&[&args[..], &["--scratch", s(&dir)]].concat());
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("layer 4: "), "solved in parts: {err}");
    assert!(err.contains("written by an earlier run"), "{err}");
    // Its pace counts the work left, the layers written left out: all of it at the end.
    assert!(
        err.contains("layer 0 solved: 100.0 % of the analysis"),
        "{err}"
    );
    assert_eq!(manifest(&dir), manifest(&whole));
    ok(&["verify", s(&dir), "-q"]);
    // Where the tables and the values do not fit, verify reads the files in one pass.
    let out = ok(&["verify", s(&dir), "-q", "--memory", "50M"]);
    assert!(out.contains("read from the files in one pass"), "{out}");
    std::fs::remove_dir_all(&root).unwrap();
}

/// Killed inside a layer solved in parts, once a part that ended at a segment's end is
/// recorded, the same command goes on from that part (not from the layer's start) and ends
/// with the table saved from memory, byte for byte; a recorded file that was altered is
/// named, and its layer solved from the start, with the same end.
#[test]
fn a_run_killed_inside_a_layer_goes_on_from_its_last_part_recorded() {
    let root = scratch("inside");
    let whole = root.join("whole");
    retro("5x5", "3", &["--save", s(&whole)]);
    let args = [
        "solve", "5x5", "--walls", "3", "--method", "retro", "--memory", "30M", "-v",
    ];
    // The kill must land while a layer's parts are recorded, not after the layer ends:
    // a few tries, each from an empty directory.
    let try_once = |dir: &Path| {
        let _ = std::fs::remove_dir_all(dir);
        let progress = dir.join("progress.json");
        let recorded =
            || std::fs::read_to_string(&progress).is_ok_and(|t| t.contains("\"partial\""));
        killed_when(&[&args[..], &["--scratch", s(dir)]].concat(), recorded)
    };
    let killed_inside = |dir: &Path| {
        let tries = 10;
        assert!(
            (0..tries).any(|_| try_once(dir)),
            "no kill landed inside a layer in {tries} tries"
        );
    };
    // The same command again: it ends with the table saved from memory; its stderr.
    let again = |dir: &Path| {
        let out = run(&[&args[..], &["--scratch", s(dir)]].concat());
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "{err}");
        assert_eq!(manifest(dir), manifest(&whole));
        err
    };
    let dir = root.join("run");
    killed_inside(&dir);
    let err = again(&dir);
    assert!(
        err.contains("written by an earlier run, whole; going on from there"),
        "{err}"
    );
    // The parts done before, with their reads of the layer above, left out of the pace
    // once: counted out twice, the share ends past 100 % (the pace does not cap it).
    assert!(
        err.contains("layer 0 solved: 100.0 % of the analysis"),
        "{err}"
    );
    // Altered after its part was recorded: named, and the layer solved from its start.
    let dir = root.join("altered");
    killed_inside(&dir);
    let text = std::fs::read_to_string(dir.join("progress.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let recorded = &json["partial"]["written"]["files"][0];
    let path = dir.join(recorded["file"].as_str().unwrap());
    let mut bytes = std::fs::read(&path).unwrap();
    // The last byte recorded: the end of a member's trailer.
    bytes[recorded["file_bytes"].as_u64().unwrap() as usize - 1] ^= 0xff;
    std::fs::write(&path, bytes).unwrap();
    let err = again(&dir);
    assert!(
        err.contains("not the bytes an earlier run recorded"),
        "{err}"
    );
    assert!(err.contains("is solved from its start"), "{err}");
    std::fs::remove_dir_all(&root).unwrap();
}

/// Flips a bit in the middle of `file`.
fn damage(file: &Path) {
    let mut bytes = std::fs::read(file).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(file, bytes).unwrap();
}

/// A run killed once its first layer is written, in `dir` (the command's `more` flags
/// added).
fn killed_after_a_layer(dir: &Path, more: &[&str]) {
    let progress = dir.join("progress.json");
    let args = ["solve", "5x5", "--walls", "3", "--method", "retro", "-q"];
    let with_dir = [&args[..], &["--scratch", s(dir)], more].concat();
    assert!(
        killed_when(&with_dir, || progress.exists()),
        "killed before the end"
    );
}

#[test]
fn counts_edited_in_the_progress_record_are_solved_again_not_sealed() {
    let root = scratch("edited");
    let whole = root.join("whole");
    let fresh = retro("5x5", "3", &["--save", s(&whole), "--stats"]);
    let dir = root.join("run");
    killed_after_a_layer(&dir, &[]);
    // Move 1000 positions from Player 2's wins to Player 1's in the top layer's record.
    let progress = dir.join("progress.json");
    let mut record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&progress).unwrap()).unwrap();
    let stats = &mut record["layers"][6]["stats"];
    let (p1, p2) = (
        stats["p1_wins"].as_u64().unwrap(),
        stats["p2_wins"].as_u64().unwrap(),
    );
    stats["p1_wins"] = (p1 + 1000).into();
    stats["p2_wins"] = (p2 - 1000).into();
    std::fs::write(&progress, serde_json::to_string_pretty(&record).unwrap()).unwrap();
    let out = run(&[
        "solve",
        "5x5",
        "--walls",
        "3",
        "--method",
        "retro",
        "--stats",
        "--scratch",
        s(&dir),
        "--memory",
        "64M",
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("was altered") && err.contains("layer 6 and those below it are solved again"),
        "{err}"
    );
    // The counts printed and sealed are the fresh run's.
    let counts = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with("positions") || l.starts_with("left out"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(counts(&fresh).len(), 2, "{fresh}");
    assert_eq!(counts(&common::cli::stdout(&out)), counts(&fresh));
    assert_eq!(manifest(&dir), manifest(&whole));
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_damaged_finished_table_is_refused_whatever_the_budget() {
    let root = scratch("damaged-finished");
    retro("5x5", "3", &["--scratch", s(&root), "-q"]);
    damage(&root.join("layer-06-split-00.bin.zst"));
    for budget in [&[][..], &["--memory", "64M"][..]] {
        let args = [
            &[
                "solve",
                "5x5",
                "--walls",
                "3",
                "--method",
                "retro",
                "--scratch",
                s(&root),
            ][..],
            budget,
        ]
        .concat();
        let line = refused(&args);
        assert!(
            line.contains("layer-06-split-00.bin.zst is damaged"),
            "{budget:?}: {line}"
        );
    }
    std::fs::remove_dir_all(&root).unwrap();
}

/// A tmpfs of `size` at a fresh path, unmounted when dropped; `None` where this process
/// may not mount (not root): the disk tests then say they did not run.
struct SmallDisk(PathBuf);

impl SmallDisk {
    fn mount(name: &str, size: &str) -> Option<SmallDisk> {
        let path = scratch(name);
        std::fs::create_dir_all(&path).unwrap();
        let mounted = std::process::Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={size}"),
                "tmpfs",
                s(&path),
            ])
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|st| st.success());
        mounted.then_some(SmallDisk(path))
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn the_disk_check_takes_a_disk_that_holds_the_table_and_says_its_estimate() {
    let (Some(small), Some(tiny)) = (
        SmallDisk::mount("disk60", "60m"),
        SmallDisk::mount("disk4", "4m"),
    ) else {
        println!("not run: this process cannot mount a tmpfs (run the tests as root)");
        return;
    };
    // 5x5 with 3 walls takes about 20 MB: a 60 MiB disk holds it (refused before, its first
    // layer taken at half its values and 64 MiB to spare).
    let args = |dir: &Path| {
        [
            "solve",
            "5x5",
            "--walls",
            "3",
            "--method",
            "retro",
            "-q",
            "--memory",
            "64M",
            "--scratch",
        ]
        .iter()
        .map(|a| a.to_string())
        .chain([s(dir).to_string()])
        .collect::<Vec<_>>()
    };
    let out = ok(&args(&small.0.join("t"))
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>());
    assert!(
        out.starts_with("5x5 with 3 walls per player: Player 2 wins in 28 plies"),
        "{out}"
    );
    // A 4 MiB one is refused before the first layer, with the estimate and what it rests on.
    let line = refused(
        &args(&tiny.0.join("t"))
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert!(
        line.contains(
            "layer 6 of the analysis (41.05 MiB of values, estimated compressed at a quarter"
        ) && line.contains("has 4.00 MiB free"),
        "{line}"
    );
}

/// The analysis in parts stays within its budget: it frees its parts and the stream's
/// pieces over and over, which glibc kept in its arenas (182 MiB at 128M before the
/// allocator was told to give blocks of a MiB or more back, `memory::return_freed_buffers`).
#[test]
fn an_analysis_in_parts_stays_within_its_memory_budget() {
    let dir = scratch("within-budget");
    // The compact analysis's parts take the whole budget, and the length's search comes
    // after them within it.
    for (precision, memory) in [("exact", 128), ("compact", 192)] {
        let budget = format!("{memory}M");
        let out = retro(
            "5x5",
            "4",
            &[
                "--precision",
                precision,
                "--memory",
                &budget,
                "--scratch",
                s(&dir.join(precision)),
                "--json",
            ],
        );
        let result: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(result["outcome"], "2", "{out}");
        assert_eq!(result["plies"], 38, "{out}");
        let peak = result["peak_bytes"].as_u64().unwrap();
        assert!(
            peak <= memory << 20,
            "{precision}: peak {} MiB over {budget}",
            peak >> 20
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
