//! `solve --checkpoint`: a search stopped at a depth limit, run again with the same file,
//! goes on from the iteration after the last one finished and finds what a fresh search
//! finds, with either store; a file for another cell or another store's numbering is
//! refused with a clear error.

use quoridor_solver::cell::solver::{CellResult, Method, Outcome, SolveOptions, Store, solve};
use quoridor_solver::rules::geometry::{Board, Player};
use quoridor_solver::support::progress::Silent;
use std::path::PathBuf;

mod common;
use common::cli::{interrupt, interrupted_in_search, started_search};

fn options(store: Store, max_depth: u8, checkpoint: Option<PathBuf>) -> SolveOptions {
    SolveOptions {
        method: Method::Search,
        max_depth,
        threads: 2,
        memory_budget: 1 << 30,
        tt_bytes: Some(16 << 20),
        store,
        checkpoint,
        ..SolveOptions::default()
    }
}

/// A file of its own in the temporary directory, removed first.
fn file(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("qs-checkpoint-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

fn outcome(r: &CellResult) -> (Outcome, Option<u32>) {
    (r.outcome, r.plies)
}

#[test]
fn a_search_goes_on_from_its_checkpoint() {
    for (store, name) in [(Store::Full, "full"), (Store::OnDemand, "on-demand")] {
        let board = Board::new(4, 4).unwrap();
        let fresh = solve(board, 3, &options(store, 60, None), &Silent).unwrap();
        let plies = fresh.plies.expect("4x4 with 3 walls is decided") as u8;
        let path = file(name);
        let stopped = solve(
            board,
            3,
            &options(store, plies - 3, Some(path.clone())),
            &Silent,
        )
        .unwrap();
        assert_eq!(stopped.outcome, Outcome::Unknown);
        assert_eq!(stopped.depth_reached, plies as u32 - 3);
        assert!(path.exists(), "{name}: saved when the search ended");
        let resumed = solve(board, 3, &options(store, 60, Some(path.clone())), &Silent).unwrap();
        assert_eq!(outcome(&resumed), outcome(&fresh), "{name}");
        assert_eq!(resumed.line.len(), plies as usize);
        // The first run's work is counted, once: its nodes, and its search's seconds
        // (less than its whole run, which built the tables too).
        assert_eq!(resumed.earlier.nodes, stopped.nodes, "{name}");
        assert!(resumed.earlier.seconds <= stopped.seconds, "{name}");
        assert!(resumed.seconds >= resumed.earlier.seconds, "{name}");
        // The iterations before the checkpoint's depth were not searched again.
        let this_run = resumed.nodes - resumed.earlier.nodes;
        assert!(
            this_run < fresh.nodes,
            "{name}: {this_run} >= {}",
            fresh.nodes
        );
        // Read once more, the finished search answers at once, and counts both runs.
        let again = solve(board, 3, &options(store, 60, Some(path.clone())), &Silent).unwrap();
        assert_eq!(outcome(&again), outcome(&fresh));
        assert_eq!(again.earlier.nodes, resumed.nodes, "{name}");
        std::fs::remove_file(&path).unwrap();
    }
}

#[test]
fn a_checkpoint_of_another_cell_or_store_is_refused() {
    let board = Board::new(4, 4).unwrap();
    let path = file("other");
    solve(
        board,
        2,
        &options(Store::Full, 5, Some(path.clone())),
        &Silent,
    )
    .unwrap();
    let other_walls = solve(
        board,
        3,
        &options(Store::Full, 5, Some(path.clone())),
        &Silent,
    );
    let message = other_walls.unwrap_err().to_string();
    assert!(
        message.contains("walls 2") && message.contains("walls 3"),
        "{message}"
    );
    let other_store = solve(
        board,
        2,
        &options(Store::OnDemand, 5, Some(path.clone())),
        &Silent,
    );
    let message = other_store.unwrap_err().to_string();
    assert!(message.contains("--store"), "{message}");
    // Not a checkpoint at all.
    std::fs::write(&path, "hello\n").unwrap();
    let junk = solve(
        board,
        2,
        &options(Store::Full, 5, Some(path.clone())),
        &Silent,
    );
    assert!(junk.unwrap_err().to_string().contains("not a checkpoint"));
    // The exact analysis (what 4x4 gets from the retrograde method) searches nothing.
    let mut retro = options(Store::Full, 5, Some(path.clone()));
    retro.method = Method::Retro;
    assert!(solve(board, 2, &retro, &Silent).is_err());
    std::fs::remove_file(&path).unwrap();
}

/// The file's header line and the table after it.
fn split_header(path: &PathBuf) -> (String, Vec<u8>) {
    let bytes = std::fs::read(path).unwrap();
    let end = bytes.iter().position(|&b| b == b'\n').unwrap();
    let header = String::from_utf8(bytes[..end].to_vec()).unwrap();
    (header, bytes[end..].to_vec())
}

#[test]
fn a_checkpoint_of_one_players_search_leaves_the_others_iterations_to_search() {
    let board = Board::new(4, 4).unwrap();
    let fresh = solve(board, 3, &options(Store::Full, 60, None), &Silent).unwrap();
    let plies = fresh.plies.expect("4x4 with 3 walls is decided") as u8;
    let winner = match fresh.outcome {
        Outcome::Player1 => Player::One,
        _ => Player::Two,
    };
    // The wrong guess: only the loser's iterations, which never win, up to the limit.
    let path = file("guess");
    let mut wrong = options(Store::Full, plies + 2, Some(path.clone()));
    wrong.winner = Some(winner.other());
    let guessed = solve(board, 3, &wrong, &Silent).unwrap();
    assert_eq!(guessed.outcome, Outcome::Unknown);
    // Nothing is known of the winner: the cell holds no win within 0 or 1 ply.
    assert!(guessed.depth_reached <= 1, "{}", guessed.depth_reached);
    let (header, _) = split_header(&path);
    // The loser's iterations have the other parity than the win's: the last is plies + 1.
    let mut no_win = [0; 2];
    no_win[winner.other().index()] = plies + 1;
    assert!(
        header.contains(&format!(" no-win {} {} ", no_win[0], no_win[1])),
        "{header}"
    );
    // Asked of both players, the run searches the winner's iterations from the first.
    let resumed = solve(
        board,
        3,
        &options(Store::Full, 60, Some(path.clone())),
        &Silent,
    )
    .unwrap();
    assert_eq!(outcome(&resumed), outcome(&fresh));
    assert_eq!(resumed.line.len(), plies as usize);
    std::fs::remove_file(&path).unwrap();
}

/// Runs the binary; returns its exit code, stdout and stderr.
fn cli(args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_quoridor-solver"))
        .args(args)
        .output()
        .expect("the binary runs");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("UTF-8");
    (out.status.code(), text(out.stdout), text(out.stderr))
}

/// `solve 4x4 --walls 2 --method search --checkpoint PATH` and more flags.
fn solve_cli(path: &std::path::Path, more: &[&str]) -> (Option<i32>, String, String) {
    let path = path.to_str().unwrap();
    let mut args = vec![
        "solve",
        "4x4",
        "--walls",
        "2",
        "--method",
        "search",
        "--checkpoint",
        path,
    ];
    args.extend_from_slice(more);
    cli(&args)
}

/// Asserts the run was refused as a damaged checkpoint: exit 2, one line naming the file
/// and what to do, nothing on stdout.
fn assert_refused(run: (Option<i32>, String, String), path: &std::path::Path, why: &str) {
    let (code, out, err) = run;
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(&path.display().to_string()), "{err}");
    assert!(err.contains("delete it") && err.contains(why), "{err}");
}

/// The file with its header's `no-win` bounds replaced and its checksum made anew, as a
/// careful forger (or a bug in the writer) would leave it.
fn reseal(path: &std::path::Path, no_win: [u8; 2]) {
    reseal_header(path, |header| {
        let (before, after) = header.split_once(" no-win ").unwrap();
        let (_, rest) = after.split_once(" bytes ").unwrap();
        format!("{before} no-win {} {} bytes {rest}", no_win[0], no_win[1])
    });
}

/// The file with its header line made `edit(header)` and its checksum made anew.
fn reseal_header(path: &std::path::Path, edit: impl Fn(&str) -> String) {
    use sha2::{Digest, Sha256};
    let bytes = std::fs::read(path).unwrap();
    let end = bytes.iter().position(|&b| b == b'\n').unwrap();
    let header = String::from_utf8(bytes[..end].to_vec()).unwrap();
    let header = format!("{}\n", edit(&header));
    let trailer = bytes.len() - "sha256 \n".len() - 64;
    let content = [header.as_bytes(), &bytes[end + 1..trailer]].concat();
    let digest: String = Sha256::digest(&content)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    std::fs::write(
        path,
        [content, format!("sha256 {digest}\n").into_bytes()].concat(),
    )
    .unwrap();
}

#[test]
fn an_edited_or_damaged_checkpoint_is_refused_never_read() {
    let path = file("edited");
    let (code, out, _) = solve_cli(&path, &[]);
    assert_eq!(code, Some(0));
    assert!(out.starts_with("4x4 with 2 walls per player: Player 1 wins in 11 plies"));
    let good = std::fs::read(&path).unwrap();
    // The header's bounds raised by hand: the answer was "Player 1 wins in 41 plies".
    let (header, table) = split_header(&path);
    let edited = header.replace(" no-win 9 10 ", " no-win 40 40 ");
    assert_ne!(edited, header, "{header}");
    std::fs::write(&path, [edited.as_bytes(), &table].concat()).unwrap();
    assert_refused(solve_cli(&path, &[]), &path, "checksum");
    // One bit flipped in the table.
    let mut flipped = good.clone();
    flipped[good.len() / 2] ^= 1;
    std::fs::write(&path, &flipped).unwrap();
    assert_refused(solve_cli(&path, &[]), &path, "checksum");
    // Cut short, and one byte too many.
    std::fs::write(&path, &good[..good.len() - 100]).unwrap();
    assert_refused(solve_cli(&path, &[]), &path, "cut short");
    std::fs::write(&path, [&good[..], b"x"].concat()).unwrap();
    assert_refused(solve_cli(&path, &[]), &path, "cut short");
    // Whole again, it is read and answers as before.
    std::fs::write(&path, &good).unwrap();
    let (code, out, _) = solve_cli(&path, &[]);
    assert_eq!(code, Some(0));
    assert!(out.starts_with("4x4 with 2 walls per player: Player 1 wins in 11 plies"));
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_checkpoint_whose_table_does_not_back_its_bounds_is_refused() {
    let path = file("bounds");
    // A search stopped at 8 plies: no win for Player 1 within 7, for Player 2 within 8.
    let (code, out, err) = solve_cli(&path, &["--max-depth", "8"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("unknown (neither player wins within 8 plies)"),
        "{out}"
    );
    assert!(
        err.contains("saved in") && err.contains("run the same command again"),
        "{err}"
    );
    let good = std::fs::read(&path).unwrap();
    // Bounds the table holds no search for, with a checksum that matches them.
    reseal(&path, [11, 8]);
    assert_refused(solve_cli(&path, &[]), &path, "refutes no iteration deeper");
    std::fs::write(&path, &good).unwrap();
    // The bounds it was saved with go on to the win, and a search that found it cannot
    // be told that no such win exists.
    let (code, out, _) = solve_cli(&path, &[]);
    assert_eq!(code, Some(0));
    assert!(out.starts_with("4x4 with 2 walls per player: Player 1 wins in 11 plies"));
    reseal(&path, [11, 10]);
    assert_refused(solve_cli(&path, &[]), &path, "proves a win within 11 plies");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_checkpoint_without_a_checksum_is_refused() {
    let path = file("version-2");
    let (code, _, _) = solve_cli(&path, &["--max-depth", "8"]);
    assert_eq!(code, Some(0));
    // What version 2 wrote for the same search: no checksum line.
    let (header, table) = split_header(&path);
    let old = header.replace("checkpoint 4 ", "checkpoint 2 ");
    let table = &table[..table.len() - "sha256 \n".len() - 64];
    std::fs::write(&path, [old.as_bytes(), table].concat()).unwrap();
    assert_refused(solve_cli(&path, &[]), &path, "without a checksum");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_checkpoint_counts_the_work_of_every_run() {
    let path = file("spent");
    let (code, _, err) = solve_cli(&path, &["--max-depth", "8"]);
    assert_eq!(code, Some(0), "{err}");
    let (header, _) = split_header(&path);
    let spent = header.split_once(" spent ").expect("a header with spent").1;
    let (seconds, nodes) = spent.split_once(' ').unwrap();
    let (seconds, nodes): (f64, u64) = (seconds.parse().unwrap(), nodes.parse().unwrap());
    assert!(nodes > 0 && seconds >= 0.0, "{header}");
    let good = std::fs::read(&path).unwrap();
    // The next run says what the first took, and counts it in its own figures.
    let (code, out, err) = solve_cli(&path, &["--max-depth", "60", "-v"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains(&format!("{nodes} nodes and ")), "{err}");
    assert!(
        out.contains(&format!("({nodes} in earlier runs, from the checkpoint)")),
        "{out}"
    );
    let total: u64 = out
        .lines()
        .find_map(|l| l.strip_prefix("nodes"))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("a nodes line");
    assert!(total > nodes, "{out}");
    // A file of version 3 (no `spent`, checksum and all) is still read, with no earlier work.
    std::fs::write(&path, &good).unwrap();
    reseal_header(&path, |h| {
        let h = h.replace("checkpoint 4 ", "checkpoint 3 ");
        h[..h.find(" spent ").unwrap()].to_string()
    });
    let (code, out, err) = solve_cli(&path, &["-v"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("4x4 with 2 walls per player: Player 1 wins in 11 plies"));
    assert!(!out.contains("earlier runs"), "{out}");
    assert!(
        err.contains("an older file: what earlier runs took is not recorded"),
        "{err}"
    );
    // Work that is not seconds and nodes is refused like any other damage.
    std::fs::write(&path, &good).unwrap();
    reseal_header(&path, |h| {
        format!("{} spent -1 x", &h[..h.find(" spent ").unwrap()])
    });
    assert_refused(solve_cli(&path, &[]), &path, "not seconds and nodes");
    // So are seconds no run can have taken (they printed 300 digits).
    std::fs::write(&path, &good).unwrap();
    reseal_header(&path, |h| {
        format!("{} spent 1e300 5", &h[..h.find(" spent ").unwrap()])
    });
    let refused = solve_cli(&path, &[]);
    assert!(refused.2.len() < 300, "{}", refused.2);
    assert_refused(
        refused,
        &path,
        "the searches took 1.000e300 s, more than a century: it is damaged",
    );
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_campaign_cells_limit_counts_the_seconds_of_its_earlier_runs() {
    let board = Board::new(4, 4).unwrap();
    let fresh = solve(board, 3, &options(Store::Full, 60, None), &Silent).unwrap();
    let plies = fresh.plies.expect("4x4 with 3 walls is decided") as u8;
    let path = file("campaign-limit");
    let stopped = options(Store::Full, plies - 3, Some(path.clone()));
    assert_eq!(
        solve(board, 3, &stopped, &Silent).unwrap().outcome,
        Outcome::Unknown
    );
    // Earlier runs said to have taken 100,000 s: a campaign's cell with a limit of 60 s
    // has none of it left, and stops at once with what it had.
    reseal_header(&path, |h| {
        format!("{} spent 100000.000 5", &h[..h.find(" spent ").unwrap()])
    });
    let limited = |in_campaign| SolveOptions {
        time_limit: Some(std::time::Duration::from_secs(60)),
        in_campaign,
        ..options(Store::Full, 60, Some(path.clone()))
    };
    let campaign = solve(board, 3, &limited(true), &Silent).unwrap();
    assert_eq!(campaign.outcome, Outcome::Unknown);
    assert_eq!(
        campaign.depth_reached,
        plies as u32 - 3,
        "no iteration finished"
    );
    assert!(campaign.seconds >= 100_000.0, "{}", campaign.seconds);
    // `solve --checkpoint --max-seconds 60`: the run's own 60 s, which decide the cell.
    let own = solve(board, 3, &limited(false), &Silent).unwrap();
    assert_eq!(outcome(&own), outcome(&fresh));
    assert!(own.earlier.seconds >= 100_000.0, "{}", own.earlier.seconds);
    // Seconds no run can have taken (past what a Duration holds) are damage: the campaign's
    // search runs without the file, and decides the cell (no panic).
    std::fs::remove_file(&path).unwrap();
    assert_eq!(
        solve(board, 3, &stopped, &Silent).unwrap().outcome,
        Outcome::Unknown
    );
    reseal_header(&path, |h| {
        format!("{} spent 1e300 5", &h[..h.find(" spent ").unwrap()])
    });
    let campaign = solve(board, 3, &limited(true), &Silent).unwrap();
    assert_eq!(outcome(&campaign), outcome(&fresh));
    assert!(campaign.seconds < 1e9, "{}", campaign.seconds);
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_failed_save_is_said_without_verbose() {
    // Files may grow to 4 KiB at most (`ulimit -f`): the probe before the search (an
    // empty part file) passes, every save fails.
    let path = file("too-large");
    let run = |more: &[&str]| {
        use std::os::unix::process::CommandExt;
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_quoridor-solver"));
        command.args([
            "solve",
            "4x4",
            "--walls",
            "2",
            "--method",
            "search",
            "--checkpoint",
            path.to_str().unwrap(),
            "--max-depth",
            "6",
        ]);
        command.args(more);
        // SAFETY: only setrlimit and signal between fork and exec, both async-signal-safe.
        unsafe {
            command.pre_exec(|| {
                let limit = libc::rlimit {
                    rlim_cur: 4096,
                    rlim_max: 4096,
                };
                libc::setrlimit(libc::RLIMIT_FSIZE, &limit);
                // A write past the limit then fails (EFBIG) instead of ending the process.
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                Ok(())
            })
        };
        let out = command.output().expect("the binary runs");
        let text = |b: Vec<u8>| String::from_utf8(b).expect("UTF-8");
        (out.status.code(), text(out.stdout), text(out.stderr))
    };
    let (code, out, err) = run(&[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("unknown"), "{out}");
    assert!(
        err.contains("warning: could not save the checkpoint")
            && err.contains("could not be saved at the end"),
        "{err}"
    );
    // Even with -q, which keeps only what the user must see.
    let (_, _, err) = run(&["-q"]);
    assert!(err.contains("could not be saved"), "{err}");
    assert!(!path.exists());
}

#[test]
fn a_checkpoint_that_cannot_be_written_is_refused_before_the_search() {
    let missing = file("missing-dir");
    let not_a_dir = file("not-a-dir");
    std::fs::write(&not_a_dir, "").unwrap();
    // /proc/self: a directory where even root creates no file.
    for dir in [
        missing.as_path(),
        &not_a_dir,
        std::path::Path::new("/proc/self"),
    ] {
        let path = dir.join("c.qsc");
        // Without the check, the search runs to the end (9 s) and only its saves fail.
        let mut args = vec!["solve", "5x5", "--walls", "4", "--method", "search"];
        args.extend(["--threads", "1", "--checkpoint", path.to_str().unwrap()]);
        let (code, out, err) = cli(&args);
        assert_eq!(code, Some(2), "{err}");
        assert!(out.is_empty(), "{out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with("error: ") && err.contains(&path.display().to_string()),
            "{err}"
        );
    }
    assert!(!missing.exists());
    std::fs::remove_file(&not_a_dir).unwrap();
}

#[test]
fn ctrl_c_says_where_the_work_was_saved_and_how_to_go_on() {
    let path = file("interrupted");
    // A search of many seconds (5x5 with 4 walls, one thread), stopped once it has begun.
    let at = path.to_str().unwrap();
    let (code, out, err) = interrupted_in_search(&[
        "solve",
        "5x5",
        "--walls",
        "4",
        "--method",
        "search",
        "--threads",
        "1",
        "-v",
        "--checkpoint",
        at,
    ]);
    assert_eq!(code, Some(130), "{err}");
    assert!(
        err.contains(&format!("saved in {}", path.display()))
            && err.contains("run the same command again: ")
            && err.contains("--checkpoint"),
        "{err}"
    );
    assert!(out.contains("unknown"), "{out}");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn ctrl_c_under_method_auto_stops_before_the_analysis() {
    let path = file("auto-interrupted");
    // `--method auto` (the default) plans the search first, then the exact analysis (about
    // 8 s here) if the search leaves the cell undecided: a stop in the search is the end.
    let (code, out, err) = interrupted_in_search(&[
        "solve",
        "5x5",
        "--walls",
        "4",
        "--threads",
        "1",
        "-v",
        "--checkpoint",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(130), "{err}");
    assert!(
        out.contains("unknown") && out.contains("method       proof-search"),
        "{out}"
    );
    assert!(
        err.contains(&format!("saved in {}", path.display()))
            && err.contains("run the same command again: "),
        "{err}"
    );
    std::fs::remove_file(&path).unwrap();
}

/// Runs the binary with `args` (which must include `-v`), sends it SIGINT once its search
/// has begun and again once the save that first one asks for has begun (`part`, the file
/// a save writes, appears), or as soon as the search has said it is stopping if the save
/// ends before it is seen. Returns the exit code, stdout and the whole of stderr.
fn interrupted_twice(args: &[&str], part: &std::path::Path) -> (Option<i32>, String, String) {
    use std::io::Read;
    let (mut child, mut stream, mut err) = started_search(args);
    assert_eq!(interrupt(&child), 0);
    let rest = std::thread::spawn(move || {
        let mut rest = String::new();
        stream.read_to_string(&mut rest).unwrap();
        rest
    });
    // The save takes a tenth of a second or more (tens of MB and their SHA-256).
    let started = std::time::Instant::now();
    while !part.exists() && started.elapsed().as_secs() < 60 {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    interrupt(&child);
    let out = child.wait_with_output().unwrap();
    err.push_str(&rest.join().unwrap());
    let text = |b: Vec<u8>| String::from_utf8(b).expect("UTF-8");
    (out.status.code(), text(out.stdout), err)
}

#[test]
fn a_second_ctrl_c_during_the_save_removes_its_part_and_says_what_the_file_is() {
    let path = file("twice");
    let mut part = path.clone().into_os_string();
    part.push(".part");
    let part = PathBuf::from(part);
    let at = path.to_str().unwrap();
    let args = [
        "solve",
        "5x5",
        "--walls",
        "4",
        "--method",
        "search",
        "--threads",
        "1",
        "-v",
        "--checkpoint",
        at,
    ];
    // No checkpoint before: cut short, its first save leaves nothing.
    let (code, _, err) = interrupted_twice(&args, &part);
    assert_eq!(code, Some(130), "{err}");
    assert!(!part.exists(), "{err}");
    assert!(!err.contains("as it was"), "{err}");
    match path.exists() {
        // The save ended before the second signal.
        true => assert!(
            err.contains(&format!("{at} holds the checkpoint last saved")),
            "{err}"
        ),
        false => assert!(
            err.contains(&format!("{} removed", part.display()))
                && err.contains(&format!("{at} does not exist: no checkpoint was saved")),
            "{err}"
        ),
    }
    // With a checkpoint saved before, a save cut short leaves it whole.
    let _ = std::fs::remove_file(&path);
    let (code, _, err) = interrupted_in_search(&args);
    assert_eq!(code, Some(130), "{err}");
    let before = std::fs::read(&path).unwrap();
    let (code, _, err) = interrupted_twice(&args, &part);
    assert_eq!(code, Some(130), "{err}");
    assert!(!part.exists(), "{err}");
    assert!(
        err.contains(&format!("{at} holds the checkpoint last saved")),
        "{err}"
    );
    if err.contains(&format!("{} removed", part.display())) {
        assert!(std::fs::read(&path).unwrap() == before, "{err}");
    }
    std::fs::remove_file(&path).unwrap();
}

/// `solve CELL --walls N --method retro --precision compact --json` and more flags: the
/// JSON, and stderr.
fn compact_json(cell: &str, walls: &str, more: &[&str]) -> (serde_json::Value, String) {
    let mut args = vec![
        "solve",
        cell,
        "--walls",
        walls,
        "--method",
        "retro",
        "--precision",
        "compact",
        "--json",
    ];
    args.extend_from_slice(more);
    let (code, out, err) = cli(&args);
    assert_eq!(code, Some(0), "{err}");
    (serde_json::from_str(&out).expect("JSON"), err)
}

/// After a compact analysis the search for the length keeps its table too, over the tables
/// and over the ranked numbering (a scratch directory at a budget the tables do not fit,
/// as the campaign's largest cells): stopped at a depth limit, it goes on from its file,
/// and finds the length a fresh run finds with fewer nodes.
#[test]
fn the_length_search_after_a_compact_analysis_goes_on_from_its_checkpoint() {
    let layers = file("layers");
    let _ = std::fs::remove_dir_all(&layers);
    let ranked = ["--scratch", layers.to_str().unwrap(), "--memory", "128M"];
    for (cell, walls, more, over) in [
        ("4x4", "3", &[][..], "the tables"),
        ("5x5", "3", &ranked[..], "the ranked numbering"),
    ] {
        let path = file(&format!("length-{cell}"));
        let (fresh, fresh_said) = compact_json(cell, walls, &[more, &["-v"]].concat());
        assert!(fresh_said.contains(over), "{fresh_said}");
        let first_iteration = |t: &str| t.contains("depth 1: ") || t.contains("depth 2: ");
        assert!(first_iteration(&fresh_said), "{cell}: {fresh_said}");
        assert_eq!(fresh["method"], "retrograde+search");
        let plies = fresh["plies"].as_u64().expect("a length");
        let limit = (plies - 3).to_string();
        let keep = ["--checkpoint", path.to_str().unwrap()];
        let stopped = [more, &keep, &["--max-depth", &limit]].concat();
        let (cut, said) = compact_json(cell, walls, &stopped);
        assert_eq!(cut["outcome"], fresh["outcome"], "{cell}");
        assert!(cut["plies"].is_null(), "{cell}: {cut}");
        assert!(
            said.contains(&format!("saved in {}", path.display()))
                && said.contains("run the same command again"),
            "{cell}: {said}"
        );
        let (resumed, said) = compact_json(cell, walls, &[more, &keep, &["-v"]].concat());
        assert_eq!(resumed["plies"], fresh["plies"], "{cell}");
        // A line of that length (not always the same one: the table orders the moves).
        let line = resumed["pv"].as_array().map(Vec::len);
        assert_eq!(line, Some(plies as usize), "{cell}");
        // The iterations the first run finished were not searched again. (Not by counting
        // nodes: they are a small share of the search, less than its nodes vary by the
        // threads' timing.)
        assert!(
            said.contains("checkpoint read: ") && !first_iteration(&said),
            "{cell}: {said}"
        );
        if !more.is_empty() {
            // The layers are read, not solved: no time or bytes left to tell.
            let told = "written by an earlier run: nothing left to solve";
            assert!(said.contains(told) && !said.contains("s left"), "{said}");
        }
        std::fs::remove_file(&path).unwrap();
    }
    std::fs::remove_dir_all(&layers).unwrap();
}

/// A file the length's search cannot take (another cell's) does not cost the analysis's
/// answer: the run warns, finds the length without it, and leaves the file as it was.
#[test]
fn a_checkpoint_the_length_search_cannot_take_is_left_alone() {
    let path = file("length-other");
    let (code, _, err) = solve_cli(&path, &["--max-depth", "6"]);
    assert_eq!(code, Some(0), "{err}");
    let before = std::fs::read(&path).unwrap();
    let keep = ["--checkpoint", path.to_str().unwrap()];
    let (result, said) = compact_json("4x4", "3", &keep);
    assert!(result["plies"].is_u64(), "{result}");
    assert!(
        said.contains("warning: ")
            && said.contains("runs without the checkpoint, which is left as it is")
            && said.contains("walls 2"),
        "{said}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
    std::fs::remove_file(&path).unwrap();
}

/// A checkpoint whose keys are the full tables' ids as numbered before 3345ae9
/// (`enumeration-1`) is refused, and the message says it is an older numbering of the same
/// cell, read by an earlier binary, not another cell.
#[test]
fn a_checkpoint_of_the_old_numbering_is_refused_with_why() {
    let path = file("old-numbering");
    let (code, _, err) = solve_cli(&path, &["--store", "full"]);
    assert_eq!(code, Some(0), "{err}");
    reseal_header(&path, |header| {
        assert!(header.contains(" keys enumeration-2 "), "{header}");
        header.replace(" keys enumeration-2 ", " keys enumeration-1 ")
    });
    assert_refused(
        solve_cli(&path, &["--store", "full"]),
        &path,
        "a binary built from an earlier commit goes on from it",
    );
    std::fs::remove_file(&path).unwrap();
}
