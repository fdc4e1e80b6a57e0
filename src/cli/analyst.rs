//! The flags shared by `analyze` and `play`: how positions are valued and with what
//! resources, into the library's `AnalystConfig` (`cell::evaluate`, which chooses where
//! the answers come from and builds the `Analyst`).

use std::path::PathBuf;

use clap::Args;
use quoridor_solver::Result;
use quoridor_solver::cell::evaluate::{AnalystConfig, AnalystMethod};
use quoridor_solver::cell::solver::DEFAULT_TT_BYTES;
use quoridor_solver::error::{NoSearch, Setting};
use quoridor_solver::support::memory::parse_size;

use super::choices::AnalystMethodArg;
use super::resources::ResourceArgs;
use super::{max_depth, refuse_search_flags, time_limit};

#[derive(Args, Debug)]
pub struct AnalystArgs {
    /// How positions are valued: `retro` (the exact retrograde analysis of the cell from
    /// the position's wall count up, keeping the values the questions need: then each
    /// answer is a lookup, draws included), `search` (proof search per position, one
    /// transposition table for all: wins and their lengths; no draws, which come out
    /// "unknown"), or `auto` (retro when it fits the memory budget, else search)
    #[arg(long, value_enum, default_value_t = AnalystMethodArg::Auto)]
    method: AnalystMethodArg,

    /// Deepest search iteration in plies per position; a position neither player wins by
    /// then is "unknown" (never a guess) [default: 120]. Not where the analysis answers
    /// (--method retro, or auto where it fits)
    #[arg(long, value_name = "D")]
    max_depth: Option<u8>,

    /// Transposition table size of the search, e.g. 256M or 2G [default: 1G]. Not where
    /// the analysis answers (--method retro, or auto where it fits)
    #[arg(long, value_name = "SIZE")]
    tt: Option<String>,

    /// Answer from the saved table in DIR (`solve --method retro --save DIR`) instead of
    /// solving: every file is checked against its manifest first
    #[arg(long, value_name = "DIR", conflicts_with_all = ["method", "max_depth", "tt"])]
    table: Option<PathBuf>,

    #[command(flatten)]
    resources: ResourceArgs,
}

impl AnalystArgs {
    /// `max_seconds`: the command's `--max-seconds`, if it has one.
    pub fn validate(&self, max_seconds: Option<f64>) -> Result<AnalystConfig> {
        let search_flags = [
            (Setting::TtSize, self.tt.is_some()),
            (Setting::MaxDepth, self.max_depth.is_some()),
            (Setting::MaxSeconds, max_seconds.is_some()),
        ];
        let method = AnalystMethod::from(self.method);
        refuse_search_flags(
            method != AnalystMethod::Retro,
            NoSearch::RetroAsked,
            &search_flags,
        )?;
        let resources = self.resources.validate()?;
        Ok(AnalystConfig {
            method,
            max_depth: max_depth(self.max_depth)?,
            tt_bytes: self
                .tt
                .as_deref()
                .map(parse_size)
                .transpose()?
                .unwrap_or(DEFAULT_TT_BYTES),
            time_limit: max_seconds.map(time_limit).transpose()?,
            table: self.table.clone(),
            threads: resources.threads,
            memory_budget: resources.memory_budget,
            search_flags,
        })
    }
}
