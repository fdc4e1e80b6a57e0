//! `serve` end to end: the binary started on a free port, queried over TCP with a
//! hand-written GET. Its answers must be `analyze --json`'s (but for `seconds`), bad
//! requests a 400 with the command line's one line, an oversize cell refused at once.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use quoridor_solver::analysis::reachable;
use quoridor_solver::geometry::Board;
use quoridor_solver::notation::format_record;
use quoridor_solver::tables::Tables;

const BIN: &str = env!("CARGO_BIN_EXE_quoridor-solver");

/// A running server, killed when dropped (a failing test leaves none behind).
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut child = Command::new(BIN)
            .args(["serve", "--addr", "127.0.0.1:0", "-q"])
            .args(args)
            .stdout(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("serving http://")
            .and_then(|a| a.strip_suffix('/'))
            .unwrap_or_else(|| panic!("not the serving line: {line:?}"))
            .to_string();
        Server { child, addr }
    }

    /// The status and body of `GET target`.
    fn get(&self, target: &str) -> (u16, String) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        write!(
            s,
            "GET {target} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.addr
        )
        .unwrap();
        let mut response = String::new();
        s.read_to_string(&mut response).unwrap();
        let (head, body) = response.split_once("\r\n\r\n").expect("a head and a body");
        let status = head.split(' ').nth(1).unwrap().parse().unwrap();
        (status, body.to_string())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `value` without its `seconds`, the one field that differs from run to run.
fn timeless(json: &str) -> serde_json::Value {
    let mut v: serde_json::Value =
        serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
    v.as_object_mut().unwrap().remove("seconds");
    v
}

fn analyze(args: &[&str]) -> serde_json::Value {
    let out = Command::new(BIN)
        .args(["analyze", "--json", "-q"])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}");
    timeless(&String::from_utf8(out.stdout).unwrap())
}

/// A record as a query value: percent-encoded where a URL needs it.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' => (b as char).to_string(),
            b' ' => "+".into(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Every `step`-th position reachable from the start of the cell, as records.
fn some_positions(width: usize, height: usize, walls: u8, step: usize) -> Vec<String> {
    let board = Board::new(width, height).unwrap();
    let tables = Tables::build(board, walls, 1 << 30, &quoridor_solver::progress::Silent).unwrap();
    reachable(&tables, 1_000_000)
        .unwrap()
        .iter()
        .step_by(step)
        .map(|p| format_record(board, p))
        .collect()
}

fn scratch(name: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("qs-serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&path);
    path
}

#[test]
fn answers_equal_analyze_json_from_a_saved_table_and_on_request() {
    let dir = scratch("t34");
    let d = dir.to_str().unwrap();
    let saved = Command::new(BIN)
        .args([
            "solve", "3x4", "--walls", "1", "--method", "retro", "--save", d, "-q",
        ])
        .output()
        .unwrap();
    assert!(saved.status.success());
    let server = Server::start(&["--table", d]);
    let (status, cells) = server.get("/api/cells");
    assert_eq!(status, 200);
    let cells: serde_json::Value = serde_json::from_str(&cells).unwrap();
    assert_eq!(
        cells["cells"][0],
        serde_json::json!({"board": "3x4", "walls": 1, "source": "saved"})
    );
    for (board, walls, step, table) in [
        ("3x4", "1", 97, Some(d)),
        ("3x3", "1", 13, None),
        ("4x4", "2", 4001, None),
    ] {
        let (w, h) = board.split_once('x').unwrap();
        let records = some_positions(
            w.parse().unwrap(),
            h.parse().unwrap(),
            walls.parse().unwrap(),
            step,
        );
        assert!(records.len() >= 5, "{board}: {}", records.len());
        for record in records {
            let (status, body) = server.get(&format!(
                "/api/analyze?board={board}&walls={walls}&position={}",
                encode(&record)
            ));
            assert_eq!(status, 200, "{board} {record}: {body}");
            let served = timeless(&body);
            let mut args = vec![board, "--walls", walls, "--position", &record];
            assert_eq!(served, analyze(&args), "{board} {record}");
            if let Some(dir) = table {
                args.extend(["--table", dir]);
                assert_eq!(served, analyze(&args), "{board} {record} --table");
            }
        }
    }
    // moves, and moves played from a record, are the same question as its record.
    let (_, by_moves) = server.get("/api/analyze?board=3x4&walls=1&moves=1.+b2+b3+2.+a1h");
    let (_, by_both) = server.get(&format!(
        "/api/analyze?board=3x4&walls=1&position={}&moves=a1h",
        encode("- / - / b2 b3 / 1 1 / 1")
    ));
    let want = analyze(&["3x4", "--walls", "1", "--moves", "1. b2 b3 2. a1h"]);
    assert_eq!(timeless(&by_moves), want);
    assert_eq!(timeless(&by_both), want);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_requests_get_400_with_the_command_lines_message() {
    let server = Server::start(&[]);
    // The same input given to `analyze` and to the API: the API's body is the CLI's line
    // without `error: `.
    for (query, args) in [
        ("board=3y3&walls=1", vec!["3y3", "--walls", "1"]),
        ("board=30x3&walls=1", vec!["30x3", "--walls", "1"]),
        (
            "board=3x3&walls=1&position=b2+%2F",
            vec!["3x3", "--walls", "1", "--position", "b2 /"],
        ),
        (
            "board=3x3&walls=1&moves=b2+c1",
            vec!["3x3", "--walls", "1", "--moves", "b2 c1"],
        ),
        (
            "board=3x3&walls=1&moves=z9",
            vec!["3x3", "--walls", "1", "--moves", "z9"],
        ),
        (
            "board=3x3&walls=1&moves=1.+b2+5.+a1h",
            vec!["3x3", "--walls", "1", "--moves", "1. b2 5. a1h"],
        ),
    ] {
        let (status, body) = server.get(&format!("/api/analyze?{query}"));
        assert_eq!(status, 400, "{query}: {body}");
        let cli = Command::new(BIN)
            .arg("analyze")
            .args(&args)
            .output()
            .unwrap();
        let line = String::from_utf8(cli.stderr).unwrap();
        assert_eq!(cli.status.code(), Some(2));
        assert_eq!(body, line.strip_prefix("error: ").unwrap(), "{query}");
    }
    for (target, status) in [
        ("/api/analyze?board=3x3&walls=32", 400),
        ("/api/analyze?board=3x3&walls=1&position=%zz", 400),
        ("/api/analyze?board=3x3&walls=1&colour=red", 400),
        ("/api/analyze?walls=1", 400),
        ("/api/picture?board=3x3&walls=1&moves=b3", 400),
        ("/nothing-here", 404),
    ] {
        let (got, body) = server.get(target);
        assert_eq!(got, status, "{target}: {body}");
        assert_eq!(body.lines().count(), 1, "{target}: {body}");
        assert!(!body.contains("panicked"), "{target}: {body}");
    }
    let huge = format!(
        "/api/analyze?board=3x3&walls=1&moves={}",
        "b2+".repeat(20_000)
    );
    let (status, body) = server.get(&huge);
    assert_eq!(status, 400);
    assert!(body.len() < 200, "{body}");
    // The server is still there, and answers.
    assert_eq!(server.get("/api/analyze?board=3x3&walls=1").0, 200);
}

#[test]
fn an_oversize_cell_is_refused_at_once_and_the_page_is_served() {
    let server = Server::start(&["--max-seconds", "0.5", "--memory", "256M"]);
    for target in [
        "/api/analyze?board=8x8&walls=31",
        "/api/analyze?board=9x9&walls=10",
        "/api/analyze?board=5x5&walls=4",
    ] {
        let started = Instant::now();
        let (status, body) = server.get(target);
        assert!(started.elapsed() < Duration::from_secs(1), "{target}");
        assert_eq!(status, 422, "{target}: {body}");
        assert!(body.contains("is not saved here"), "{body}");
        assert!(body.contains("--save DIR"), "{body}");
    }
    let (status, page) = server.get("/");
    assert_eq!(status, 200);
    assert!(page.contains("<script src=\"/explorer.js\">"));
    let (status, svg) = server.get("/api/picture?board=3x3&walls=1");
    assert_eq!(status, 200);
    assert!(svg.starts_with("<svg") && svg.contains(r#"data-move="b2""#));
}
