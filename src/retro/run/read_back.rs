//! The end of an analysis through a directory (in parts, or across ranks): the layers the
//! start's value needs read back from the directory once every layer is written.

use super::estimate::RetroEstimate;
use super::sizing;
use crate::error::Result;
use crate::retro::engine::layout::Layout;
use crate::retro::engine::solved::{Solved, Splits};
use crate::retro::engine::source::ConfigSource;
use crate::retro::engine::store::{Packing, Precision};
use crate::retro::engine::value::RetroStats;
use crate::retro::format::spill;

/// The layers read back after an analysis through the disk, once its parts are gone: as
/// many from layer 0 up as fit `room` beside the indices, at least two (the start's value
/// and an exact line need no more; each one more makes a better oracle: for the compact
/// one's length search, and for a search bounded by the exact one, `solve --fewer-walls`).
/// The indices are every layer's where `layers_held` is false (across ranks), else those
/// of the layers read back and every layer's stored lists (in parts, `Layout::holding`:
/// 3.2 GiB where every layer's were 15.8 for 7x5 w6, which at 22G left room for two
/// layers, not seven).
pub(super) fn kept_after_parts(
    e: &RetroEstimate,
    precision: Precision,
    (room, layers_held): (u64, bool),
) -> usize {
    let indices = |kept: usize| match layers_held {
        true => e.held_index_up_to(kept),
        false => e.index,
    };
    let layer_bytes = |k: usize| e.layer_bytes(precision, k);
    let mut kept = e.layers.min(2);
    let mut values: u128 = (0..kept).map(layer_bytes).sum();
    let room_for_layers = room.saturating_sub(sizing::SLACK_BYTES) as u128;
    while kept < e.layers && indices(kept + 1) + values + layer_bytes(kept) <= room_for_layers {
        values += layer_bytes(kept);
        kept += 1;
    }
    kept
}

/// The analysis of the cell once every layer is in `spill`: layers `0..kept` read back
/// (packed by `P`), with the cell's counts `stats`; its peak is the larger of the layers
/// read and `working` (what solving the layers held at most), with the layout's indices.
pub(super) fn read_back<'t, P: Packing>(
    configs: &'t dyn ConfigSource,
    layout: Layout,
    spill: &spill::Spill,
    (precision, kept): (Precision, usize),
    stats: RetroStats,
    working: u64,
) -> Result<Solved<'t>> {
    // Layers an earlier run deleted once used (`Target::bound_only`) cannot be read back.
    let kept = spill.readable(kept);
    let mut values: Vec<Splits> = vec![Vec::new(); layout.layers()];
    let mut low = 0;
    for (k, layer) in values.iter_mut().enumerate().take(kept) {
        *layer = spill.read_layer::<P>(k, &layout)?;
        low += layer.iter().flatten().map(Vec::len).sum::<usize>();
    }
    // The parts, the pieces and the files read back are freed; the allocator's threads
    // keep some of it (below its mmap threshold): give it back, so that what comes next
    // (the length's search) has the budget's room.
    // SAFETY: `malloc_trim` only returns free memory to the system.
    unsafe { libc::malloc_trim(0) };
    Ok(Solved {
        configs,
        peak_bytes: working.max(low as u64) + layout.bytes(),
        layout,
        precision,
        values,
        stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::configs::TableEstimate;
    use crate::rules::geometry::Board;

    /// An analysis in parts holds the indices of the layers it reads back and every
    /// layer's stored lists, not every layer's indices: 7x5 w6's compact analysis at 22G
    /// (two thirds of it for the layers, the rest for the length's search) reads back
    /// seven layers, where counting every layer's indices (15.8 GiB) left room for two.
    #[test]
    fn the_layers_read_back_fit_beside_the_indices_held() {
        let board = Board::new(7, 5).unwrap();
        let by_walls = TableEstimate::new(board, 6).by_walls;
        let e = crate::retro::estimate(board, 6, &by_walls);
        let room = (22u64 << 30) / 3 * 2;
        assert_eq!(kept_after_parts(&e, Precision::Compact, (room, false)), 2);
        let held = kept_after_parts(&e, Precision::Compact, (room, true));
        assert_eq!(held, 7);
        let bytes = e.held_index_up_to(held)
            + (0..held)
                .map(|k| e.layer_bytes(Precision::Compact, k))
                .sum::<u128>();
        assert!(bytes <= room as u128, "{bytes}");
        // Every layer read back: the indices are every layer's.
        assert_eq!(e.held_index_up_to(e.layers), e.index);
    }
}
