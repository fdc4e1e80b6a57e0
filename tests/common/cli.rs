//! Running the binary in the CLI tests: its output, and the two shapes every command's
//! answer takes (success with stdout, or a refusal: exit 2 and one `error: ` line).

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, ChildStderr, Command, Output, Stdio};

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

/// Runs the binary with `args` (which must include `-v`) until its search has begun (its
/// first `depth` line on stderr: a signal before that finds nothing to save, and on a busy
/// machine the tables can take seconds). Returns the running child, the rest of its stderr
/// to read, and its stderr so far.
pub fn started_search(args: &[&str]) -> (Child, BufReader<ChildStderr>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_quoridor-solver"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stream = BufReader::new(child.stderr.take().unwrap());
    let mut err = String::new();
    let mut line = String::new();
    while !line.starts_with("depth ") {
        line.clear();
        assert!(stream.read_line(&mut line).unwrap() > 0, "{err}");
        err.push_str(&line);
    }
    (child, stream, err)
}

/// Sends SIGINT to `child`, as Ctrl-C would; `kill`'s status (0: sent).
pub fn interrupt(child: &Child) -> i32 {
    // SAFETY: `child` is this test's own, not yet waited for, so its pid is still its own.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) }
}

/// Runs the binary with `args` (which must include `-v`) and sends it SIGINT once its
/// search has begun (`started_search`). Returns the exit code, stdout and the whole of
/// stderr.
pub fn interrupted_in_search(args: &[&str]) -> (Option<i32>, String, String) {
    let (child, mut stream, mut err) = started_search(args);
    assert_eq!(interrupt(&child), 0);
    stream.read_to_string(&mut err).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.code(), stdout(&out), err)
}

/// Runs the binary with `args`, its output thrown away, and kills it (SIGKILL: no chance to
/// tidy up) as soon as `ready` holds, or after a minute. Returns whether `ready` held when
/// it was killed: the tests of a run going on from what a killed one left start here.
pub fn killed_when(args: &[&str], ready: impl Fn() -> bool) -> bool {
    use std::time::{Duration, Instant};
    let mut child = Command::new(env!("CARGO_BIN_EXE_quoridor-solver"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let started = Instant::now();
    // Looked at every millisecond, so that the kill lands soon after `ready`.
    while !ready() && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(1));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    ready()
}
