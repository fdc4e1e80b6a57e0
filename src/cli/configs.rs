//! `configs`: count and build the wall-configuration tables of a cell, and report their size.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use quoridor_solver::configs::Tables;
use quoridor_solver::error::{count, format_bytes};
use quoridor_solver::rules::cell::Cell;
use quoridor_solver::rules::geometry::Board;
use quoridor_solver::support::memory;
use quoridor_solver::{Error, Result};
use serde::Serialize;

use super::CellArgs;
use super::progress::Bars;
use super::resources::{ResourceArgs, Resources};

/// Build the wall-configuration tables of a board and wall count; print counts and memory
#[derive(Args, Debug)]
pub struct ConfigsArgs {
    #[command(flatten)]
    cell: CellArgs,

    /// Print one JSON object instead of the table
    #[arg(long)]
    json: bool,

    #[command(flatten)]
    resources: ResourceArgs,

    /// Print nothing on stderr but errors: no progress bar
    #[arg(short, long)]
    pub quiet: bool,
}

pub struct Configs {
    board: Board,
    walls: u8,
    json: bool,
    resources: Resources,
}

impl ConfigsArgs {
    pub fn validate(&self) -> Result<Configs> {
        let Cell { board, walls } = self.cell.validate()?;
        Ok(Configs {
            board,
            walls,
            json: self.json,
            resources: self.resources.validate()?,
        })
    }
}

#[derive(Serialize)]
struct Report {
    width: usize,
    height: usize,
    walls: u8,
    configurations: usize,
    by_walls: Vec<usize>,
    table_bytes: u64,
    seconds: f64,
    peak_bytes: u64,
}

pub fn run(c: Configs, bars: &Bars, out: &mut dyn Write) -> Result<ExitCode> {
    let started = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(c.resources.threads)
        .build()
        .map_err(|e| Error::ThreadPool {
            threads: "threads".into(),
            why: e.to_string(),
        })?;
    let tables =
        pool.install(|| Tables::build(c.board, c.walls, c.resources.memory_budget, bars))?;
    let report = Report {
        width: c.board.width(),
        height: c.board.height(),
        walls: c.walls,
        configurations: tables.len(),
        by_walls: tables.by_walls(),
        table_bytes: tables.bytes(),
        seconds: started.elapsed().as_secs_f64(),
        peak_bytes: memory::peak_bytes(),
    };
    if c.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string(&report).expect("serializable")
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "board {}, {} per player: configurations of up to {}",
        c.board,
        count(c.walls, "wall"),
        count(2 * c.walls as usize, "wall")
    )?;
    writeln!(out, "{:>6}  {:>14}", "walls", "configurations")?;
    for (k, n) in report.by_walls.iter().enumerate() {
        writeln!(out, "{k:>6}  {n:>14}")?;
    }
    writeln!(out, "{:>6}  {:>14}", "total", report.configurations)?;
    writeln!(
        out,
        "table memory {} ({} bytes)",
        format_bytes(report.table_bytes),
        report.table_bytes
    )?;
    writeln!(out, "build time {:.2} s", report.seconds)?;
    writeln!(out, "peak memory {}", format_bytes(report.peak_bytes))?;
    Ok(ExitCode::SUCCESS)
}
