//! `mpirun -np R quoridor-solver solve ... --method retro --scratch DIR --distributed`, with
//! the `mpi` feature (`cargo test --release --features mpi --test mpi`; CI runs it): for 2
//! and 3 ranks (more ranks than the machine's cores, `--oversubscribe`), the directory ends
//! as the table one process writes, file for file (the same manifest), and rank 0 prints
//! what one process prints; a rank that fails in a layer names itself and the layer and
//! ends the job. Without the feature, `--distributed` is refused (tests/cli.rs).
#![cfg(feature = "mpi")]

use std::path::Path;
use std::process::{Command, Output};

mod common;
use common::cli::{ok, scratch};

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// `mpirun` of the solver on `ranks` ranks with `args`, as root too (CI runs as root).
fn mpirun(ranks: usize, args: &[&str]) -> Output {
    Command::new("mpirun")
        .args(["--oversubscribe", "-np", &ranks.to_string()])
        .arg(env!("CARGO_BIN_EXE_quoridor-solver"))
        .args(args)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .output()
        .expect("mpirun runs (apt-get install openmpi-bin)")
}

fn manifest(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("MANIFEST.sha256")).expect("a finished table")
}

#[test]
fn ranks_under_mpirun_write_the_table_one_process_writes() {
    let root = scratch("mpi");
    for (cell, walls, precision) in [
        ("3x4", "2", "exact"),
        ("4x5", "3", "exact"),
        ("4x4", "2", "compact"),
    ] {
        let solve = [
            "solve", cell, "--walls", walls, "--method", "retro", "--stats",
        ];
        let with = |dir: &Path| {
            let mut args = solve.to_vec();
            args.extend(["--precision", precision, "--scratch", s(dir)]);
            args.into_iter().map(String::from).collect::<Vec<_>>()
        };
        let one = root.join(format!("{cell}-{walls}-one"));
        let alone = ok(&with(&one).iter().map(String::as_str).collect::<Vec<_>>());
        for ranks in [2, 3] {
            let dir = root.join(format!("{cell}-{walls}-{ranks}"));
            let mut args = with(&dir);
            args.push("--distributed".into());
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = mpirun(ranks, &args);
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                out.status.success(),
                "{cell} w{walls} on {ranks} ranks: {err}"
            );
            let printed = String::from_utf8_lossy(&out.stdout);
            // Rank 0 alone prints: the answer and the counts, as one process (which
            // keeps every layer of these small cells, and so prints a line too).
            let answer = |text: &str| -> Vec<String> {
                let differ = ["seconds", "peak", "line"];
                text.lines()
                    .filter(|l| !differ.iter().any(|d| l.starts_with(d)))
                    .map(String::from)
                    .collect()
            };
            assert_eq!(
                answer(&printed),
                answer(&alone),
                "{cell} w{walls} on {ranks} ranks"
            );
            assert_eq!(
                manifest(&dir),
                manifest(&one),
                "{cell} w{walls} on {ranks} ranks"
            );
        }
    }
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn more_ranks_than_the_work_are_refused_in_one_line() {
    let dir = scratch("mpi-too-many");
    let out = mpirun(
        17,
        &[
            "solve",
            "3x3",
            "--walls",
            "1",
            "--method",
            "retro",
            "--scratch",
            s(&dir),
            "--distributed",
        ],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "rank 0's status: {err}");
    let ours: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(ours.len(), 1, "{err}");
    assert!(ours[0].contains("17 ranks for 3x3 with 1 wall"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_rank_that_fails_in_a_layer_names_itself_and_the_layer_and_ends_the_job() {
    let dir = scratch("mpi-rank-fails");
    let bin = env!("CARGO_BIN_EXE_quoridor-solver");
    let job = Command::new("mpirun")
        .args(["--oversubscribe", "-np", "2", bin])
        .args(["solve", "5x5", "--walls", "4", "--method", "retro"])
        .args(["--scratch", s(&dir), "--distributed"])
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("mpirun runs");
    // Once layer 6 is joined, a directory where rank 1 will write its share of layer 4
    // makes that write fail on rank 1 alone.
    let started = std::time::Instant::now();
    while !dir.join("layer-06-split-00.bin.zst").exists() {
        assert!(started.elapsed().as_secs() < 120, "layer 6 never written");
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    std::fs::create_dir(dir.join("layer-04-split-00.rank-001.bin.zst")).unwrap();
    let out = job.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    let ours: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(ours.len(), 1, "{err}");
    assert!(ours[0].starts_with("error: rank 1, layer 4: "), "{err}");
    assert!(!dir.join("MANIFEST.sha256").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
