//! One run at a time in a directory (`dir_lock.rs`): a second run started while a first
//! writes the same results, save or scratch directory is refused in one line naming the
//! first's process, and the first finishes with every cell it was asked for. Each case runs
//! two processes of the binary, as a user starting a command twice would.

mod common;

use common::cli::{ok, refused, scratch, stderr};
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Starts the binary with `args` in the background.
fn start(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_quoridor-solver"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// Waits until some process holds `dir` (the kernel's list of locks names its inode), by
/// reading that list only: trying the lock ourselves could take it from under the run.
fn wait_until_held(dir: &Path, child: &mut Child) {
    let started = Instant::now();
    loop {
        if let Ok(meta) = std::fs::metadata(dir) {
            let ino = meta.ino().to_string();
            let locks = std::fs::read_to_string("/proc/locks").unwrap();
            if locks.lines().any(|l| {
                l.contains("FLOCK")
                    && l.split_whitespace()
                        .nth(5)
                        .is_some_and(|f| f.ends_with(&format!(":{ino}")))
            }) {
                return;
            }
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "the first run ended before it took {}",
            dir.display()
        );
        assert!(started.elapsed() < Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The first run's exit code, stdout and stderr once it ends.
fn finish(child: Child) -> (Option<i32>, String, String) {
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout.clone()).unwrap(),
        stderr(&out),
    )
}

/// The cells (`WxH,walls` prefixes) of a results table.
fn cells_in(csv: &Path) -> Vec<String> {
    std::fs::read_to_string(csv)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').take(3).collect::<Vec<_>>().join(","))
        .collect()
}

#[test]
fn a_second_table_run_on_one_output_directory_is_refused_and_the_first_keeps_its_cells() {
    let out = scratch("out");
    let o = out.to_str().unwrap();
    let mut first = start(&["table", "--boards", "5x5", "--walls", "2..=3", "--out", o]);
    wait_until_held(&out, &mut first);
    let pid = first.id();
    for second in [
        vec!["table", "--boards", "4x4", "--walls", "0..=2", "--out", o],
        vec![
            "table", "--boards", "4x4", "--walls", "0..=2", "--out", o, "--resume",
        ],
    ] {
        let line = refused(&second);
        assert!(
            line.contains(&format!("{o} is in use by another run (process {pid})")),
            "{line}"
        );
    }
    let (code, _, err) = finish(first);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        cells_in(&out.join("table.csv")),
        ["5,5,2", "5,5,3"],
        "the first run's cells, and only those"
    );
    // Once it has ended the directory is free: the second run goes on from it.
    ok(&[
        "table", "--boards", "4x4", "--walls", "0..=2", "--out", o, "--resume",
    ]);
    assert_eq!(cells_in(&out.join("table.csv")).len(), 5);
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_campaign_directory_belongs_to_one_run() {
    let camp = scratch("camp");
    let (out, other) = (scratch("camp-out"), scratch("camp-other"));
    let (c, o, p) = (
        camp.to_str().unwrap(),
        out.to_str().unwrap(),
        other.to_str().unwrap(),
    );
    let args = |boards: &'static str, walls: &'static str, out: &'static str| {
        vec![
            "table",
            "--boards",
            boards,
            "--walls",
            walls,
            "--campaign",
            c,
            "--out",
            out,
            "--confirm-seconds",
            "0",
        ]
    };
    let leak = |s: &str| -> &'static str { Box::leak(s.to_string().into_boxed_str()) };
    let mut first = start(&args("5x5", "3", leak(o)));
    wait_until_held(&camp.join("scratch"), &mut first);
    // The same results directory, or only the same campaign: both refused.
    for out in [leak(o), leak(p)] {
        let line = refused(&args("4x4", "0..=2", out));
        assert!(line.contains("is in use by another run (process"), "{line}");
    }
    let (code, _, err) = finish(first);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(cells_in(&out.join("table.csv")), ["5,5,3"]);
    for d in [camp, out] {
        std::fs::remove_dir_all(d).unwrap();
    }
    let _ = std::fs::remove_dir_all(other);
}

#[test]
fn a_save_directory_in_use_is_neither_written_nor_cleaned() {
    let (save, a, b) = (scratch("save"), scratch("save-a"), scratch("save-b"));
    let s = save.to_str().unwrap();
    let mut first = start(&[
        "table",
        "--boards",
        "5x5",
        "--walls",
        "3",
        "--out",
        a.to_str().unwrap(),
        "--save",
        s,
    ]);
    wait_until_held(&save, &mut first);
    let line = refused(&[
        "table",
        "--boards",
        "3x3",
        "--walls",
        "1",
        "--out",
        b.to_str().unwrap(),
        "--save",
        s,
        "--resume",
    ]);
    assert!(
        line.contains(&format!("{s} is in use by another run")),
        "{line}"
    );
    let (code, _, err) = finish(first);
    assert_eq!(code, Some(0), "{err}");
    assert!(save.join("5x5-w3").join("MANIFEST.sha256").exists());
    ok(&["verify", s]);
    for d in [save, a] {
        std::fs::remove_dir_all(d).unwrap();
    }
    let _ = std::fs::remove_dir_all(b);
}

#[test]
fn a_scratch_directory_in_use_is_refused_and_the_first_run_finishes() {
    let dir = scratch("layers");
    let d = dir.to_str().unwrap();
    let args = [
        "solve",
        "5x5",
        "--walls",
        "3",
        "--method",
        "retro",
        "--scratch",
        d,
        "--memory",
        "64M",
    ];
    let mut first = start(&args);
    wait_until_held(&dir, &mut first);
    let line = refused(&args);
    assert!(
        line.contains(&format!(
            "{d} is in use by another run (process {})",
            first.id()
        )),
        "{line}"
    );
    let (code, out, err) = finish(first);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.starts_with("5x5 with 3 walls per player: Player 2 wins in 28 plies"),
        "{out}"
    );
    ok(&["verify", d]);
    std::fs::remove_dir_all(dir).unwrap();
}
