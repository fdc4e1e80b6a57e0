//! The record of a run through a directory (`progress.json`): for each layer written, its
//! files, their SHA-256 and the layer's counts, sealed; the layer an earlier run stopped
//! inside, as far as its parts are written.

use super::saved::{self, SplitFile};
use crate::error::{Error, Result};
use crate::retro::engine::store::Precision;
use crate::retro::engine::value::RetroStats;
use serde::{Deserialize, Serialize};

/// What `progress.json` says it is, first. Version 2 (2026-11-30): its files compressed as
/// their names say (`codec.rs`), so that a binary of version 1 refuses to go on with them.
pub(in crate::retro) const FORMAT: &str = "quoridor-solver analysis in progress 2";
/// Version 1: every file gzip. A run of version 1 is taken up, its layers read as they are.
pub(in crate::retro) const FORMAT_GZIP: &str = "quoridor-solver analysis in progress 1";

/// One layer written: its splits' files, each file's SHA-256, and the layer's counts.
#[derive(Clone, Serialize, Deserialize)]
pub(in crate::retro) struct Written {
    pub(in crate::retro) files: Vec<SplitFile>,
    pub(in crate::retro) sha256: Vec<String>,
    pub(in crate::retro) stats: RetroStats,
    /// The SHA-256 of the record above (`Written::computed_seal`): counts edited by hand,
    /// or a record altered on disk, are found when a run takes the layer up rather than
    /// sealed into the finished table's header. Records written before it was kept have
    /// none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(in crate::retro) seal: Option<String>,
    /// Its files were deleted once the layer below was written (`Spill::keep_only`): its
    /// counts stay, its values are gone.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(in crate::retro) discarded: bool,
}

impl Written {
    pub(in crate::retro) fn new(
        files: Vec<SplitFile>,
        sha256: Vec<String>,
        stats: RetroStats,
    ) -> Written {
        let mut w = Written {
            files,
            sha256,
            stats,
            seal: None,
            discarded: false,
        };
        w.seal = Some(w.computed_seal());
        w
    }

    /// The record of this layer once its files are deleted, sealed again.
    pub(in crate::retro) fn discard(&mut self) {
        self.discarded = true;
        self.seal = Some(self.computed_seal());
    }

    /// The SHA-256 of the record's files, their SHA-256 and its counts, as JSON (and the
    /// mark of a discarded layer, only where it is set: the seals of the records written
    /// before it stay valid).
    pub(in crate::retro) fn computed_seal(&self) -> String {
        let json = match self.discarded {
            false => serde_json::to_vec(&(&self.files, &self.sha256, &self.stats)),
            true => serde_json::to_vec(&(&self.files, &self.sha256, &self.stats, true)),
        };
        saved::sha256_hex(&json.expect("serializable"))
    }

    /// Whether the record is as this program wrote it (a record without a seal, from a
    /// version before it, is taken as written).
    pub(in crate::retro) fn sealed(&self) -> Result<()> {
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
/// configurations `0..done` are in its files (each at a segment's end), with the counts of
/// their positions. A run that stops inside the layer goes on from there.
#[derive(Clone, Serialize, Deserialize)]
pub(in crate::retro) struct Partial {
    pub(in crate::retro) layer: usize,
    pub(in crate::retro) done: usize,
    pub(in crate::retro) written: Written,
}

#[derive(Serialize, Deserialize)]
pub(in crate::retro) struct ProgressFile {
    pub(in crate::retro) format: String,
    pub(in crate::retro) layout_version: u32,
    pub(in crate::retro) width: usize,
    pub(in crate::retro) height: usize,
    pub(in crate::retro) walls: u8,
    /// "exact" or "compact" (`saved::precision_name`); runs before it was written were
    /// exact.
    #[serde(default = "exact")]
    pub(in crate::retro) precision: String,
    /// By layer (walls on the board); `None` for a layer not written yet.
    pub(in crate::retro) layers: Vec<Option<Written>>,
    /// The layer below the layers written, as far as its parts are written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(in crate::retro) partial: Option<Partial>,
}

pub(in crate::retro) fn exact() -> String {
    saved::precision_name(Precision::Exact).into()
}
