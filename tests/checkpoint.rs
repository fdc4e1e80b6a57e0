//! `solve --checkpoint`: a search stopped at a depth limit, run again with the same file,
//! goes on from the iteration after the last one finished and finds what a fresh search
//! finds, with either store; a file for another cell or another store's numbering is
//! refused with a clear error.

use quoridor_solver::geometry::{Board, Player};
use quoridor_solver::progress::Silent;
use quoridor_solver::solver::{CellResult, Method, Outcome, SolveOptions, Store, solve};
use std::path::PathBuf;

fn options(store: Store, max_depth: u8, checkpoint: Option<PathBuf>) -> SolveOptions {
    SolveOptions {
        method: Method::Search,
        max_depth,
        time_limit: None,
        threads: 2,
        memory_budget: 1 << 30,
        tt_bytes: 16 << 20,
        precision: None,
        save: None,
        store,
        checkpoint,
        winner: None,
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
        // The iterations before the checkpoint's depth were not searched again.
        assert!(
            resumed.nodes < fresh.nodes,
            "{name}: {} >= {}",
            resumed.nodes,
            fresh.nodes
        );
        // Read once more, the finished search answers at once.
        let again = solve(board, 3, &options(store, 60, Some(path.clone())), &Silent).unwrap();
        assert_eq!(outcome(&again), outcome(&fresh));
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
    // With the retrograde analysis there is no table to keep.
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

#[test]
fn a_version_1_checkpoint_is_read_as_one_depth_for_both_players() {
    let board = Board::new(4, 4).unwrap();
    let fresh = solve(board, 3, &options(Store::OnDemand, 60, None), &Silent).unwrap();
    let plies = fresh.plies.expect("4x4 with 3 walls is decided") as u8;
    let path = file("version-1");
    let stopped = solve(
        board,
        3,
        &options(Store::OnDemand, plies - 3, Some(path.clone())),
        &Silent,
    )
    .unwrap();
    let (header, table) = split_header(&path);
    // What version 1 wrote for the same search: the deepest iteration finished.
    let (cell, rest) = header.split_once(" no-win ").unwrap();
    let (_, bytes) = rest.split_once(" bytes ").unwrap();
    let old = format!(
        "{} depth {} bytes {bytes}",
        cell.replace("checkpoint 2 ", "checkpoint 1 "),
        stopped.depth_reached
    );
    std::fs::write(&path, [old.as_bytes(), &table].concat()).unwrap();
    let resumed = solve(
        board,
        3,
        &options(Store::OnDemand, 60, Some(path.clone())),
        &Silent,
    )
    .unwrap();
    assert_eq!(outcome(&resumed), outcome(&fresh));
    assert!(
        resumed.nodes < fresh.nodes,
        "{} >= {}",
        resumed.nodes,
        fresh.nodes
    );
    // Saved again in version 2.
    assert!(split_header(&path).0.contains("checkpoint 2 "));
    std::fs::remove_file(&path).unwrap();
}
