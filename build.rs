//! Records the commit the binary is built from (`QUORIDOR_SOLVER_COMMIT`), so that a
//! results row says which code wrote it and `table --resume` can tell the rows of another
//! build apart (`report::version`). Outside a git checkout nothing is recorded.

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}

/// Runs this script again when `path` changes. Only paths that exist: cargo reruns a build
/// script on every build when one of its paths is missing, which would rebuild the crate
/// every time.
fn watch(path: Option<String>) {
    if let Some(path) = path.filter(|p| Path::new(p).exists()) {
        println!("cargo:rerun-if-changed={path}");
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // HEAD moves when a commit is made or checked out: watch HEAD, the branch it names
    // (in a worktree, in the common directory), and the packed refs.
    watch(git(&["rev-parse", "--git-path", "HEAD"]));
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watch(git(&["rev-parse", "--git-path", &branch]));
    }
    watch(git(&["rev-parse", "--git-path", "packed-refs"]));
    if let Some(commit) = git(&["rev-parse", "--short=7", "HEAD"]) {
        println!("cargo:rustc-env=QUORIDOR_SOLVER_COMMIT={commit}");
    }
}
