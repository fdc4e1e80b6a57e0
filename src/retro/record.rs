//! The record of a run through a directory (`progress.json`): for each layer written, its
//! files, their SHA-256 and the layer's counts, sealed; the layer an earlier run stopped
//! inside, as far as its parts are written.

use super::saved::{self, SplitFile};
use super::{Precision, RetroStats};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// What `progress.json` says it is, first.
pub(super) const FORMAT: &str = "quoridor-solver analysis in progress 1";

/// One layer written: its splits' files, each file's SHA-256, and the layer's counts.
#[derive(Clone, Serialize, Deserialize)]
pub(super) struct Written {
    pub(super) files: Vec<SplitFile>,
    pub(super) sha256: Vec<String>,
    pub(super) stats: RetroStats,
    /// The SHA-256 of the record above (`Written::computed_seal`): counts edited by hand,
    /// or a record altered on disk, are found when a run takes the layer up rather than
    /// sealed into the finished table's header. Records written before it was kept have
    /// none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) seal: Option<String>,
}

impl Written {
    pub(super) fn new(files: Vec<SplitFile>, sha256: Vec<String>, stats: RetroStats) -> Written {
        let mut w = Written {
            files,
            sha256,
            stats,
            seal: None,
        };
        w.seal = Some(w.computed_seal());
        w
    }

    /// The SHA-256 of the record's files, their SHA-256 and its counts, as JSON.
    pub(super) fn computed_seal(&self) -> String {
        let json =
            serde_json::to_vec(&(&self.files, &self.sha256, &self.stats)).expect("serializable");
        saved::sha256_hex(&json)
    }

    /// Whether the record is as this program wrote it (a record without a seal, from a
    /// version before it, is taken as written).
    pub(super) fn sealed(&self) -> Result<()> {
        match &self.seal {
            Some(seal) if *seal != self.computed_seal() => Err(Error::Damaged(
                "its record in progress.json was altered (its counts or files do not match \
                 their seal)"
                    .into(),
            )),
            _ => Ok(()),
        }
    }
}

/// A layer solved in parts, as far as a part that ended at a segment's end: its stored
/// configurations `0..done` are in its files (each at a member's end), with the counts of
/// their positions. A run that stops inside the layer goes on from there.
#[derive(Clone, Serialize, Deserialize)]
pub(super) struct Partial {
    pub(super) layer: usize,
    pub(super) done: usize,
    pub(super) written: Written,
}

#[derive(Serialize, Deserialize)]
pub(super) struct ProgressFile {
    pub(super) format: String,
    pub(super) layout_version: u32,
    pub(super) width: usize,
    pub(super) height: usize,
    pub(super) walls: u8,
    /// "exact" or "compact" (`saved::precision_name`); runs before it was written were
    /// exact.
    #[serde(default = "exact")]
    pub(super) precision: String,
    /// By layer (walls on the board); `None` for a layer not written yet.
    pub(super) layers: Vec<Option<Written>>,
    /// The layer below the layers written, as far as its parts are written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) partial: Option<Partial>,
}

pub(super) fn exact() -> String {
    saved::precision_name(Precision::Exact).into()
}
