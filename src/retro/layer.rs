//! One layer (all configurations with `k` walls), solved in parallel: one task per
//! configuration, which builds the configuration's pawn graph once and solves its blocks
//! (one per split of walls left) in split order. Tasks write disjoint slices and only read
//! the layer below, so the values do not depend on the number of threads.

use super::RetroStats;
use super::block::{self, Block, Scratch, TooDeep};
use super::code::Code;
use super::layout::Layout;
use super::pawn_graph::PawnGraph;
use crate::configs::ConfigId;
use crate::tables::Tables;
use rayon::prelude::*;

/// Solves layer `k` into `values` (all `UNDECIDED` on entry), reading the solved layer
/// `k + 1` from `below`.
pub fn solve_layer(
    tables: &Tables,
    layout: &Layout,
    k: usize,
    values: &mut [Code],
    below: Option<&[Code]>,
) -> Result<RetroStats, TooDeep> {
    let per_config = layout.splits(k) * layout.block_len();
    if per_config == 0 {
        return Ok(RetroStats::default());
    }
    let first = layout.first_config(k);
    values
        .par_chunks_mut(per_config)
        .enumerate()
        .map_init(
            || (PawnGraph::new(tables.board()), Scratch::new(layout)),
            |(graph, scratch), (i, config_values)| {
                let config = first + i as ConfigId;
                graph.build(tables, config);
                let mut stats = RetroStats::default();
                for (j, block_values) in config_values.chunks_mut(layout.block_len()).enumerate() {
                    let block = Block {
                        tables,
                        layout,
                        layer: k,
                        config,
                        left: layout.split_left(k, j),
                        graph,
                        below,
                    };
                    stats = stats + block::solve(&block, scratch, block_values)?;
                }
                Ok(stats)
            },
        )
        .try_reduce(RetroStats::default, |a, b| Ok(a + b))
}
