//! `serve`: the explorer of solved cells as a local web server (`explorer/`): the page,
//! the JSON API, saved tables read once at start.

use quoridor_solver::retro::saved_dir;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use quoridor_solver::configs::Tables;
use quoridor_solver::error::{Bound, Setting, clip, count, format_bytes};
use quoridor_solver::explorer::http::{Pool, serve};
use quoridor_solver::explorer::{Explorer, Limits, Saved};
use quoridor_solver::retro::saved;
use quoridor_solver::rules::cell::Cell;
use quoridor_solver::support::memory::{default_budget, parse_size};
use quoridor_solver::{Error, Result};

use super::progress::Bars;
use super::time_limit;

/// Explore solved cells in a web browser: the board, every legal move coloured by its
/// value, click to play, back and forward; and a JSON API (/api/analyze answers as
/// analyze --json). Prints `serving http://ADDR/` on stdout once it listens
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Answer from the saved tables in DIR (`solve --method retro --save DIR`, or each
    /// cell of `table --save DIR`), read whole at start: then each answer is a lookup. May
    /// be given several times
    #[arg(long, value_name = "DIR")]
    table: Vec<PathBuf>,

    /// Address to listen on. The default answers this machine only; give e.g. 0.0.0.0:8080
    /// to answer others (the server changes nothing, but solving on request costs time).
    /// Port 0 picks a free port
    #[arg(long, value_name = "IP:PORT", default_value = "127.0.0.1:8080")]
    addr: String,

    /// A cell not saved is solved for the request only if its retrograde analysis is
    /// estimated to take at most this many seconds (else the request is refused at once)
    #[arg(
        long,
        value_name = "S",
        default_value = "1",
        allow_negative_numbers = true
    )]
    max_seconds: f64,

    /// A cell not saved is solved for the request only if its analysis is estimated to
    /// need at most this much memory, e.g. 512M or 2G; the cells solved are kept within it
    /// (the least recently used dropped first). Saved tables are read whatever their size:
    /// they are the server's to hold
    #[arg(long, value_name = "SIZE", default_value = "1G")]
    memory: String,

    /// Requests answered at the same time (a request that would solve waits for none: one
    /// solves at a time, the others are told the server is busy)
    #[arg(long, value_name = "N", default_value_t = 4)]
    workers: usize,

    /// Threads of a solve on request and of reading the saved tables (default: one per
    /// core)
    #[arg(long, value_name = "T")]
    threads: Option<usize>,

    /// Print nothing on stderr but errors (not what was loaded)
    #[arg(short, long)]
    pub quiet: bool,
}

/// Requests that may wait for a worker, per worker, before more are refused with 503.
const QUEUE_PER_WORKER: usize = 4;

/// A checked `serve` request.
pub struct Serve {
    tables: Vec<PathBuf>,
    addr: SocketAddr,
    limits: Limits,
    pool: Pool,
    threads: Option<usize>,
}

impl ServeArgs {
    pub fn validate(&self) -> Result<Serve> {
        let addr: SocketAddr = self.addr.trim().parse().map_err(|_| {
            Error::Argument(format!(
                "--addr {}: not an address: write IP:PORT, e.g. 127.0.0.1:8080",
                clip(&self.addr)
            ))
        })?;
        let seconds = time_limit(self.max_seconds)?.as_secs_f64();
        let memory = parse_size(&self.memory)?;
        let range = Bound::FromTo(1, 256);
        if !(1..=256).contains(&self.workers) {
            return Err(Error::limit(Setting::Workers, self.workers as i64, range));
        }
        if let Some(t) = self.threads.filter(|t| !(1..=256).contains(t)) {
            return Err(Error::limit(Setting::Threads, t as i64, range));
        }
        Ok(Serve {
            tables: self.table.clone(),
            addr,
            limits: Limits { seconds, memory },
            pool: Pool {
                workers: self.workers,
                queue: self.workers * QUEUE_PER_WORKER,
            },
            threads: self.threads,
        })
    }
}

pub fn run(s: Serve, bars: &Bars, out: &mut dyn Write) -> Result<ExitCode> {
    let started = Instant::now();
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = s.threads {
        pool = pool.num_threads(t);
    }
    pool.build_global().map_err(|e| Error::ThreadPool {
        threads: "the threads".into(),
        why: e.to_string(),
    })?;
    let mut found: Vec<(PathBuf, Cell)> = Vec::new();
    for dir in &s.tables {
        for (path, cell) in saved_dir::tables_in(dir)? {
            if let Some((other, _)) = found.iter().find(|(_, c)| *c == cell) {
                return Err(Error::Argument(format!(
                    "{cell} is saved twice: in {} and in {}; give one",
                    other.display(),
                    path.display()
                )));
            }
            found.push((path, cell));
        }
    }
    // The configuration tables of every saved cell, built once and kept: a query is then
    // a lookup (building them is most of `analyze --table`'s 0.45 s on 5x5 with 4 walls).
    let mut tables = Vec::new();
    let mut built = Vec::new();
    for (_, c) in &found {
        let t = Instant::now();
        tables.push(Tables::build(c.board, c.walls, default_budget(), bars)?);
        built.push(t.elapsed().as_secs_f64());
    }
    let mut kept = Vec::new();
    for (((dir, cell), tables), built) in found.iter().zip(&tables).zip(built) {
        let t = Instant::now();
        let solved = saved::load(tables, dir, 0..tables.layers())?;
        bars.line(&format!(
            "{cell}: {} read from {} (tables built in {built:.2} s, values read in {:.2} s)",
            format_bytes(solved.bytes() + tables.bytes()),
            dir.display(),
            t.elapsed().as_secs_f64()
        ));
        kept.push(Saved {
            solved,
            dir: dir.clone(),
        });
    }
    let explorer = Explorer::new(kept, s.limits);
    let listener = std::net::TcpListener::bind(s.addr).map_err(|e| Error::Listen {
        addr: s.addr.to_string(),
        source: e.into(),
    })?;
    let addr = listener.local_addr()?;
    bars.line(&format!(
        "{} solved on request (each within {} s and {}); ready in {:.2} s",
        count(explorer.solvable_count(), "cell"),
        s.limits.seconds,
        format_bytes(s.limits.memory),
        started.elapsed().as_secs_f64()
    ));
    if !addr.ip().is_loopback() {
        bars.line(&format!(
            "listening on {addr}: other machines can reach this server"
        ));
    }
    // The first line of stdout, flushed: a script (or the tests) reads the port from it.
    writeln!(out, "serving http://{addr}/")?;
    out.flush()?;
    serve(&listener, &explorer, s.pool);
    Ok(ExitCode::SUCCESS)
}
