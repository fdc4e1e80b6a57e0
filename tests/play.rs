//! `play` driven through its standard input (issue 49 item 14): a line that is not text is
//! refused and the game goes on, notation is lower-case everywhere and says so, and the
//! record printed at the end includes the moves given with `--moves`.

mod common;
use common::cli::{ok, refused, stderr, stdout};
use std::io::Write;
use std::process::{Command, Stdio};

/// `play -q ARGS` with `input` on its standard input: its exit code and stdout.
fn play(args: &[&str], input: &[u8]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_quoridor-solver"))
        .args(["play", "-q"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    (out.status.code(), stdout(&out))
}

#[test]
fn a_line_that_is_not_utf8_is_refused_and_the_game_goes_on() {
    let (code, out) = play(&["3x3", "--walls", "0"], b"\xff\xfe\nb2\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("that line is not UTF-8 text; type a move"),
        "{out}"
    );
    assert!(out.contains("You play b2: "), "{out}");
    assert!(
        out.contains("Game over: Player 2 has won, the program wins. Moves: 1. b2 b1"),
        "{out}"
    );
}

#[test]
fn notation_is_lower_case_everywhere_and_errors_say_so() {
    let (code, out) = play(&["3x3", "--walls", "1"], b"B2\nb2H\nA1h\nquit\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("'B2' is not a cell: write a lower-case column letter and a row number"),
        "{out}"
    );
    assert!(
        out.contains("'b2H' is not a wall: write its anchor and h or v, in lower case"),
        "{out}"
    );
    assert!(
        out.contains("'A1' is not a wall anchor: write a lower-case column letter"),
        "{out}"
    );
    // The board size's x too, in every command.
    for args in [
        &["show", "3X3", "--walls", "1"][..],
        &["solve", "3X3", "--walls", "1"],
        &["table", "--boards", "3X3", "--walls", "1"],
    ] {
        let err = refused(args);
        assert!(
            err.contains("'3X3' is not a board size: write WIDTHxHEIGHT with a lower-case x"),
            "{args:?}: {err}"
        );
    }
    let err = refused(&["show", "3x3", "--walls", "1", "--moves", "1. B1"]);
    assert!(err.contains("lower-case"), "{err}");
    let err = refused(&["show", "3x3", "--position", "- / A1 / b1 b3 / 0 0 / 1"]);
    assert!(err.contains("lower-case"), "{err}");
}

#[test]
fn the_record_at_the_end_includes_the_moves_given_and_replays() {
    let (code, out) = play(&["3x3", "--walls", "1", "--moves", "a1"], b"quit\n");
    assert_eq!(code, Some(0), "{out}");
    let moves = out
        .lines()
        .find_map(|l| l.strip_prefix("Quit. Moves: "))
        .expect("a record at the end");
    assert!(moves.starts_with("1. a1 "), "{out}");
    // The program answered a1: the record is a1 and its reply, which show replays.
    let shown = ok(&["show", "3x3", "--walls", "1", "--moves", moves]);
    assert!(shown.contains("Player 1 to move"), "{shown}");
    // Before any reply too: at the end of input with Player 1 to move again.
    let (_, out) = play(&["3x3", "--walls", "1", "--moves", "1. a1 a3"], b"");
    assert!(
        out.contains("End of input: the game stops here. Moves: 1. a1 a3"),
        "{out}"
    );
}
