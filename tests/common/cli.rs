//! Running the binary in the CLI tests: its output, and the two shapes every command's
//! answer takes (success with stdout, or a refusal: exit 2 and one `error: ` line).

use std::path::PathBuf;
use std::process::{Command, Output};

pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_quoridor-solver"))
        .args(args)
        .output()
        .expect("the binary runs")
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8")
}

/// Runs a command that must succeed and returns its stdout.
pub fn ok(args: &[&str]) -> String {
    let out = run(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}\nstdout:\n{}\nstderr:\n{}",
        stdout(&out),
        stderr(&out)
    );
    stdout(&out)
}

/// Runs a command that must be refused: exit code 2, exactly one line on stderr starting
/// `error: `, no panic. Returns that line.
pub fn refused(args: &[&str]) -> String {
    let out = run(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}\nstderr:\n{err}");
    assert!(!err.contains("panicked"), "{args:?}\nstderr:\n{err}");
    assert_eq!(err.lines().count(), 1, "{args:?}\nstderr:\n{err}");
    assert!(err.starts_with("error: "), "{args:?}\nstderr:\n{err}");
    err
}

/// A path for a test's files in the temporary directory, named for the test binary, the
/// test's `name` and the process, removed first if a previous run left it.
pub fn scratch(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "qs-{}-{name}-{}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&path);
    let _ = std::fs::remove_file(&path);
    path
}
