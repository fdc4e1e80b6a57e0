//! Joining the ranks' shares of a layer (each rank's own files) into the layer's split
//! files, byte for byte those one process writes, on rank 0.

use super::codec::Codec;
use super::hashed::Hashed;
use super::record::Written;
use super::saved::{self, SplitFile};
use super::spill::Spill;
use crate::error::{Error, Result};
use crate::retro::engine::value::RetroStats;
use crate::support::progress::Progress;
use rayon::prelude::*;

impl Spill {
    /// Joins the shares of layer `k` (`shares[r]`: rank `r`'s files, by split, as
    /// `LayerWriter::finish` gave them) into the layer's split files, in rank order, and
    /// records the layer with its counts. The segments are copied, not inflated: the files
    /// are those a single process writes. With `write` false (a rank other than the first)
    /// only records the layer here, as the first rank writes it, for the next layer's
    /// stream.
    pub fn join_shares(
        &mut self,
        k: usize,
        shares: &[Vec<SplitFile>],
        (stats, write): (RetroStats, bool),
        progress: &dyn Progress,
    ) -> Result<()> {
        let started = std::time::Instant::now();
        let splits = shares.first().map_or(0, Vec::len);
        let written = (0..splits)
            .into_par_iter()
            .map(|j| {
                let pieces: Vec<&SplitFile> = shares.iter().map(|s| &s[j]).collect();
                let codec = pieces.first().map_or(Codec::NEW, |p| Codec::of(&p.file));
                let name = saved::split_file_name(k, j, codec);
                let entry = SplitFile {
                    file: name.clone(),
                    bytes: pieces.iter().map(|p| p.bytes).sum(),
                    file_bytes: pieces.iter().map(|p| p.file_bytes).sum(),
                    segments: pieces.iter().flat_map(|p| p.segments.clone()).collect(),
                };
                let sha = match write {
                    true => self.join_files(&name, &pieces)?,
                    false => String::new(),
                };
                Ok((entry, sha))
            })
            .collect::<Result<Vec<_>>>()?;
        match write {
            true => self.record_layer(k, written, stats, started, progress),
            false => {
                let (files, sha256) = written.into_iter().unzip();
                self.progress.layers[k] = Some(Written::new(files, sha256, stats));
                Ok(())
            }
        }
    }

    /// Copies the files `pieces` one after another into `name`, synced; removes them;
    /// returns the SHA-256 of the whole.
    fn join_files(&self, name: &str, pieces: &[&SplitFile]) -> Result<String> {
        let path = self.dir.join(name);
        let fail = |e: std::io::Error| saved::io(&path, "write", e);
        let file = std::fs::File::create(&path).map_err(fail)?;
        let mut out = Hashed::new(std::io::BufWriter::with_capacity(1 << 20, file));
        for piece in pieces {
            let from = self.dir.join(&piece.file);
            let mut input = std::fs::File::open(&from).map_err(|e| saved::io(&from, "read", e))?;
            let copied = std::io::copy(&mut input, &mut out).map_err(fail)?;
            if copied != piece.file_bytes {
                return Err(Error::Damaged(format!(
                    "{} has {copied} bytes, its rank wrote {}",
                    from.display(),
                    piece.file_bytes
                )));
            }
        }
        let (file, sha, _) = out.finish();
        let file = file.into_inner().map_err(|e| fail(e.into_error()))?;
        file.sync_all().map_err(fail)?;
        for piece in pieces {
            let from = self.dir.join(&piece.file);
            std::fs::remove_file(&from).map_err(|e| saved::io(&from, "remove", e))?;
        }
        Ok(sha)
    }
}
