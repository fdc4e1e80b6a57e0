//! `verify`: checks a saved table (`cell::verify`: every file against the manifest, every
//! length against the cell's layout, then the values themselves, position by position), or
//! a `table --save` directory cell by cell, and prints what the check found.
//!
//! Exit codes, one rule: 0 every check passed, 1 a table is damaged (whatever the damage:
//! manifest, header, a value file, a value), 2 the command is wrong (the path, the flags,
//! nothing saved there) or the check could not run (the memory budget).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use quoridor_solver::Result;
use quoridor_solver::cell::verify::{Checked, Verified, verify};
use quoridor_solver::error::count;

use super::progress::Bars;
use super::resources::{ResourceArgs, Resources};

/// Check a saved table (solve --save DIR), or each cell of a table --save DIR: its files
/// against their manifest, then that each value checked is its best move's.
///
/// Exit status: 0 every check passed; 1 a table is damaged (a file missing or altered, a
/// manifest or header that cannot be read, a value that is not its best move's; with
/// table --save, any cell); 2 the command is wrong (no such directory, not a directory,
/// nothing saved there, bad flags) or the check cannot run (memory budget)
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The saved table's directory, or a `table --save` directory (one WxH-wN per cell)
    #[arg(value_name = "DIR")]
    dir: PathBuf,

    #[command(flatten)]
    resources: ResourceArgs,

    /// Print nothing on stderr but errors: no progress bar
    #[arg(short, long)]
    pub quiet: bool,
}

pub struct Verify {
    dir: PathBuf,
    resources: Resources,
}

impl VerifyArgs {
    pub fn validate(&self) -> Result<Verify> {
        Ok(Verify {
            dir: self.dir.clone(),
            resources: self.resources.validate()?,
        })
    }
}

pub fn run(v: Verify, bars: &Bars, out: &mut dyn Write) -> Result<ExitCode> {
    let budget = v.resources.memory_budget;
    let verified = verify(&v.dir, budget, bars, &mut |name, checked| {
        write_cell(name, checked, out)
    })?;
    let whole = match verified {
        Verified::Table(Ok(w)) => {
            writeln!(
                out,
                "{}: {}, {} and the header match the manifest",
                v.dir.display(),
                w.cell,
                count(w.files, "value file")
            )?;
            writeln!(
                out,
                "values consistent on {} ({})",
                count(w.positions, "position"),
                w.which
            )?;
            true
        }
        Verified::Table(Err(damage)) => {
            writeln!(out, "verification failed: {damage}")?;
            false
        }
        Verified::Cells { checked, damaged } => {
            writeln!(
                out,
                "{}: {} checked, {} whole, {} damaged{}",
                v.dir.display(),
                count(checked, "cell"),
                checked - damaged.len(),
                damaged.len(),
                match damaged.is_empty() {
                    true => String::new(),
                    false => format!(" ({})", damaged.join(", ")),
                }
            )?;
            damaged.is_empty()
        }
    };
    Ok(match whole {
        true => ExitCode::SUCCESS,
        false => ExitCode::from(1),
    })
}

/// The line of one cell of a `table --save` directory, as soon as it is checked.
fn write_cell(name: &str, checked: &Checked, out: &mut dyn Write) -> Result<()> {
    match checked {
        Ok(w) => writeln!(
            out,
            "{name}: whole: {} and the header match the manifest, values consistent on {} \
             ({})",
            count(w.files, "value file"),
            count(w.positions, "position"),
            w.which
        )?,
        Err(damage) => writeln!(out, "{name}: DAMAGED: {damage}")?,
    }
    Ok(())
}
