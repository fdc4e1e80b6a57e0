//! The README's examples are today's output: every example block is run with the built
//! binary and compared with what the README shows.
//!
//! The convention, in README.md:
//!
//! - An example is a fenced block opened by ` ```console `. Other blocks (` ``` `,
//!   ` ```text `) are not run: `serve` runs until stopped, and commands that take minutes
//!   are shown that way.
//! - In a console block, a line `$ cargo run --release -- ARGS` is a command; the lines up
//!   to the next command or the end of the block are its output. ARGS are split as a shell
//!   would split simple words and 'single' or "double" quoted ones. A command may be fed
//!   standard input with `$ printf 'TEXT' | cargo run --release -- ARGS` (TEXT may hold
//!   `\n`).
//! - The commands of a file run in order, in one fresh directory, so a command may write a
//!   directory (`--out`, `--save`) that a later one reads.
//! - The output compared is stdout; when the command fails, stdout then stderr (its
//!   `error:` line is the example). A block whose output has a line starting `error: ` must
//!   fail with exit code 2; any other must succeed. The stderr of a command that succeeds
//!   (progress, a line per cell of `table`, perft's estimates) is not compared.
//! - Values that vary from run to run are compared by their place only: a line whose label
//!   is `seconds`, `peak memory` or `nodes` (the label, then two spaces or more) by its
//!   label (the node count of a search depends on the threads' timing); elsewhere, a
//!   decimal number followed by ` s`, ` KiB`, ` MiB` or ` GiB` (a duration or a size).
//! - A line `...` stands for any number of lines (zero included), so a long output can be
//!   shown in part.
//!
//! Examples must run in well under a second each: this test runs them all.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const PROMPT: &str = "$ ";
const CARGO_RUN: &str = "cargo run --release -- ";
const VARYING_LABELS: [&str; 3] = ["seconds", "peak memory", "nodes"];
const UNITS: [&str; 4] = ["s", "KiB", "MiB", "GiB"];

/// One command of a console block and the output the README shows for it.
#[derive(Debug)]
struct Example {
    /// The README's line number of the command, for messages.
    line: usize,
    command: String,
    args: Vec<String>,
    stdin: Option<String>,
    expected: Vec<String>,
}

/// The examples of a Markdown text, in order.
fn examples(markdown: &str) -> Vec<Example> {
    let mut found: Vec<Example> = Vec::new();
    let mut in_console = false;
    let mut in_other = false;
    for (i, line) in markdown.lines().enumerate() {
        let fence = line.trim_start().starts_with("```");
        if in_console {
            if fence {
                in_console = false;
            } else if let Some(command) = line.strip_prefix(PROMPT) {
                let (stdin, args) = parse_command(command)
                    .unwrap_or_else(|e| panic!("README.md:{}: {e}: {line}", i + 1));
                found.push(Example {
                    line: i + 1,
                    command: command.to_string(),
                    args,
                    stdin,
                    expected: Vec::new(),
                });
            } else {
                let example = found.last_mut().unwrap_or_else(|| {
                    panic!(
                        "README.md:{}: a console block starts with output, not `$ `",
                        i + 1
                    )
                });
                example.expected.push(line.to_string());
            }
        } else if in_other {
            in_other = !fence;
        } else if fence {
            match line.trim_start().trim_start_matches('`').trim() {
                "console" => in_console = true,
                _ => in_other = true,
            }
        }
    }
    found
}

/// The standard input and the arguments of `[printf 'TEXT' | ]cargo run --release -- ARGS`.
fn parse_command(command: &str) -> Result<(Option<String>, Vec<String>), String> {
    let (stdin, rest) = match command.strip_prefix("printf ") {
        Some(rest) => {
            let (text, rest) = rest
                .split_once(" | ")
                .ok_or("printf without a pipe into the command")?;
            let words = split_words(text)?;
            let [text] = words.as_slice() else {
                return Err("printf takes one quoted text".into());
            };
            (Some(text.replace("\\n", "\n")), rest)
        }
        None => (None, command),
    };
    let args = rest
        .strip_prefix(CARGO_RUN)
        .ok_or_else(|| format!("a command must start `{CARGO_RUN}`"))?;
    Ok((stdin, split_words(args)?))
}

/// Words as a shell splits simple ones: spaces separate, quotes group (no escapes).
fn split_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, ' ') => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    if quote.is_some() {
        return Err("an unclosed quote".into());
    }
    words.extend(word);
    Ok(words)
}

/// A line with its varying values replaced by `#` (see the module doc).
fn normalise(line: &str) -> String {
    let line = line.trim_end();
    for label in VARYING_LABELS {
        if let Some(rest) = line.strip_prefix(label)
            && rest.starts_with("  ")
        {
            return format!("{label}  #");
        }
    }
    let words: Vec<&str> = line.split(' ').collect();
    let mut out = Vec::with_capacity(words.len());
    for (i, word) in words.iter().enumerate() {
        let number = word.trim_start_matches('(');
        let unit = words
            .get(i + 1)
            .map(|u| u.trim_end_matches([',', ';', ')', '.']));
        let is_decimal = number.contains('.') && number.parse::<f64>().is_ok();
        if is_decimal && unit.is_some_and(|u| UNITS.contains(&u)) {
            out.push(format!("{}#", &word[..word.len() - number.len()]));
        } else {
            out.push(word.to_string());
        }
    }
    out.join(" ")
}

/// Whether `actual` is what `expected` shows, `...` standing for any run of lines.
fn matches(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(a, actual)| normalise(first) == normalise(a) && matches(rest, actual)),
    }
}

/// The example's expected lines, without the blank lines that end the block's part.
fn expected_lines(example: &Example) -> Vec<String> {
    let mut lines = example.expected.clone();
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    lines
}

/// Runs the example in `dir`; returns its exit code and the output compared.
fn run(example: &Example, dir: &Path) -> (Option<i32>, Vec<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_quoridor-solver"))
        .args(&example.args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("a pipe");
    if let Some(text) = &example.stdin {
        stdin.write_all(text.as_bytes()).expect("stdin written");
    }
    drop(stdin);
    let out = child.wait_with_output().expect("the binary ends");
    let mut text = String::from_utf8(out.stdout).expect("stdout is UTF-8");
    if !out.status.success() {
        text.push_str(&String::from_utf8(out.stderr).expect("stderr is UTF-8"));
    }
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    (out.status.code(), lines)
}

fn fresh_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qs-readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

#[test]
fn readme_examples_are_todays_output() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let readme = std::fs::read_to_string(&path).expect("README.md reads");
    let examples = examples(&readme);
    // One example of each command that ends (serve runs until stopped: not run).
    for command in [
        "table", "solve", "configs", "show", "analyze", "play", "verify", "perft",
    ] {
        assert!(
            examples
                .iter()
                .any(|e| e.args.first().is_some_and(|a| a == command)),
            "README.md has no console example of {command}"
        );
    }
    let dir = fresh_dir();
    let mut failures = Vec::new();
    for example in &examples {
        let expected = expected_lines(example);
        let (code, actual) = run(example, &dir);
        let must_fail = expected.iter().any(|l| l.starts_with("error: "));
        let code_ok = match must_fail {
            true => code == Some(2),
            false => code == Some(0),
        };
        if !code_ok || !matches(&expected, &actual) {
            failures.push(format!(
                "README.md:{}: $ {}\nexit code {code:?}\n--- the README shows:\n{}\n--- the binary prints:\n{}\n",
                example.line,
                example.command,
                expected.join("\n"),
                actual.join("\n")
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_changed_output_fails_and_varying_values_do_not() {
    let shown: Vec<String> = [
        "4x4 with 2 walls per player: Player 1 wins in 11 plies",
        "nodes        5968",
        "seconds      0.05",
        "build time 0.00 s",
        "table memory 292.85 KiB (299880 bytes)",
        "...",
        "done in 0.2 s; results in demo",
    ]
    .map(String::from)
    .to_vec();
    let today = |first: &str, bytes: &str| -> Vec<String> {
        [
            first,
            "nodes        6012",
            "seconds      1.25",
            "build time 0.31 s",
            &format!("table memory 300.10 KiB ({bytes} bytes)"),
            "more",
            "lines",
            "done in 12.9 s; results in demo",
        ]
        .map(String::from)
        .to_vec()
    };
    let same = "4x4 with 2 walls per player: Player 1 wins in 11 plies";
    assert!(matches(&shown, &today(same, "299880")));
    let longer = "4x4 with 2 walls per player: Player 1 wins in 13 plies";
    assert!(!matches(&shown, &today(longer, "299880")));
    assert!(!matches(&shown, &today(same, "299881")));
    assert!(!matches(&shown, &today(same, "299880")[..7]));
}

#[test]
fn commands_split_as_a_shell_would() {
    let (stdin, args) =
        parse_command("printf 'hint\\nquit\\n' | cargo run --release -- play 3x3 --as 2").unwrap();
    assert_eq!(stdin.as_deref(), Some("hint\nquit\n"));
    assert_eq!(args, ["play", "3x3", "--as", "2"]);
    let (stdin, args) =
        parse_command(r#"cargo run --release -- show 5x5 --moves "1. c2 c4""#).unwrap();
    assert_eq!(stdin, None);
    assert_eq!(args, ["show", "5x5", "--moves", "1. c2 c4"]);
    assert!(parse_command("quoridor-solver solve 3x3").is_err());
}
