//! Every flag of `solve` against every method and precision: each combination either runs
//! (exit 0) or is refused (exit 2, one line), never accepted and then ignored. The table
//! below is the specification; a change of what a method honours changes a row here.

use std::process::Command;

/// The columns of `EXPECTED`: `--method` and `--precision` (None: not given).
const COLUMNS: [(&str, Option<&str>); 9] = [
    ("search", None),
    ("search", Some("exact")),
    ("search", Some("compact")),
    ("retro", None),
    ("retro", Some("exact")),
    ("retro", Some("compact")),
    ("auto", None),
    ("auto", Some("exact")),
    ("auto", Some("compact")),
];

/// Per flag, per column: `o` runs, `x` is refused. `--precision` says what the analysis
/// keeps, so it is refused with `--method search`. The flags that bound the proof search
/// are refused where none runs (the exact analysis, which a 3x3 cell gets unless compact is
/// asked for; the compact one's length comes from a search, tests/inputs.rs); `--stats`, `--save` count or keep every position, which only `--method retro`
/// visits (`--save` with `--precision compact` keeps outcomes only); a checkpoint keeps a
/// search's table, so it goes where the search-bounding flags go; a guessed winner and the
/// on-demand store belong to `--method search`.
const EXPECTED: [(&[&str], &str); 14] = [
    (&[], "oxx ooo ooo"),
    (&["--plan"], "oxx ooo ooo"),
    (&["--json"], "oxx ooo ooo"),
    (&["--threads", "1"], "oxx ooo ooo"),
    (&["--memory", "1G"], "oxx ooo ooo"),
    (&["--stats"], "xxx ooo xxx"),
    (&["--max-depth", "30"], "oxx xxo ooo"),
    (&["--max-seconds", "60"], "oxx xxo ooo"),
    (&["--tt", "64M"], "oxx xxo ooo"),
    (&["--save", "DIR"], "xxx ooo xxx"),
    (&["--store", "full"], "oxx ooo ooo"),
    (&["--store", "on-demand"], "oxx xxx xxx"),
    (&["--checkpoint", "FILE"], "oxx xxo ooo"),
    (&["--winner", "1"], "oxx xxx xxx"),
];

#[test]
fn every_flag_is_honoured_or_refused_by_every_method() {
    let scratch = std::env::temp_dir().join(format!("qs-flags-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    let mut wrong = Vec::new();
    for (row, (flags, expected)) in EXPECTED.iter().enumerate() {
        let expected: Vec<char> = expected.chars().filter(|c| *c != ' ').collect();
        for (col, (method, precision)) in COLUMNS.iter().enumerate() {
            // A path of its own for each run that writes one.
            let own = scratch.join(format!("{row}-{col}"));
            let flags = flags.iter().map(|f| match *f {
                "DIR" | "FILE" => own.to_str().unwrap(),
                f => f,
            });
            let mut args = vec!["solve", "3x3", "--walls", "1", "--method", method];
            if let Some(p) = precision {
                args.extend(["--precision", p]);
            }
            args.extend(flags);
            let out = Command::new(env!("CARGO_BIN_EXE_quoridor-solver"))
                .args(&args)
                .output()
                .expect("the binary runs");
            let err = String::from_utf8_lossy(&out.stderr);
            let got = match out.status.code() {
                Some(0) => 'o',
                Some(2) if err.lines().count() == 1 && err.starts_with("error: ") => 'x',
                _ => '?',
            };
            if got != expected[col] {
                wrong.push(format!(
                    "{}: expected {}, got {got} ({:?}): {err}",
                    args.join(" "),
                    expected[col],
                    out.status.code()
                ));
            }
        }
    }
    std::fs::remove_dir_all(&scratch).unwrap();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
