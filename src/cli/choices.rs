//! The values clap lists for `--method`, `--precision` and `--store` (`solve`, `table`) and
//! for `--method` of `analyze` and `play`, each into the library's own enum.

use quoridor_solver::cell::evaluate::AnalystMethod;
use quoridor_solver::cell::solver::{Method, Store};
use quoridor_solver::retro::Precision;

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum StoreArg {
    Full,
    OnDemand,
    Auto,
}

impl From<StoreArg> for Store {
    fn from(s: StoreArg) -> Store {
        match s {
            StoreArg::Full => Store::Full,
            StoreArg::OnDemand => Store::OnDemand,
            StoreArg::Auto => Store::Auto,
        }
    }
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum MethodArg {
    Search,
    Retro,
    Auto,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum PrecisionArg {
    Exact,
    Compact,
}

impl From<PrecisionArg> for Precision {
    fn from(p: PrecisionArg) -> Precision {
        match p {
            PrecisionArg::Exact => Precision::Exact,
            PrecisionArg::Compact => Precision::Compact,
        }
    }
}

impl From<MethodArg> for Method {
    fn from(m: MethodArg) -> Method {
        match m {
            MethodArg::Search => Method::Search,
            MethodArg::Retro => Method::Retro,
            MethodArg::Auto => Method::Auto,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AnalystMethodArg {
    Retro,
    Search,
    Auto,
}

impl From<AnalystMethodArg> for AnalystMethod {
    fn from(m: AnalystMethodArg) -> AnalystMethod {
        match m {
            AnalystMethodArg::Retro => AnalystMethod::Retro,
            AnalystMethodArg::Search => AnalystMethod::Search,
            AnalystMethodArg::Auto => AnalystMethod::Auto,
        }
    }
}
