//! `solve --plan`'s text: the planner's decision and its memory against the budget, then
//! what each way to solve the cell would take (`cell::plan::Costs`), and across ranks when
//! asked (`AcrossCosts`), in the flags' words.

use std::io::Write;

use quoridor_solver::Result;
use quoridor_solver::cell::fewer;
use quoridor_solver::cell::plan::{AcrossCosts, Costs, on_demand_split};
use quoridor_solver::cell::solve::{PlanReport, plan_report};
use quoridor_solver::cell::solver::{Method, SolveOptions};
use quoridor_solver::error::{count, format_bytes};
use quoridor_solver::retro::{self, Above, LayerCost};
use quoridor_solver::rules::cell::Cell;

/// `solve --plan`: the planner's decision and its memory against the budget, then what each
/// way to solve the cell would take (and across ranks, when asked).
/// With `verbose`, the analysis in parts also layer by layer.
pub fn write_plan(
    report: &PlanReport,
    options: &SolveOptions,
    verbose: bool,
    out: &mut dyn Write,
) -> Result<()> {
    writeln!(out, "{}", report.decision.why)?;
    let budget = format_bytes(options.memory_budget);
    let need = format_bytes(report.decision.need.bytes);
    match report.fits {
        true => writeln!(out, "memory: needs at least {need} of {budget}")?,
        false => writeln!(
            out,
            "memory: needs at least {need}, over the budget of {budget}"
        )?,
    }
    // A search on demand starts with the whole budget, shared as the solver will share it.
    if report.decision.need.on_demand && report.decision.search.is_some() {
        let (table, store) = on_demand_split(options.memory_budget, options.tt_bytes);
        writeln!(
            out,
            "proof search: a transposition table of up to {}, a configuration store of {} \
             (emptied and the iteration tried again whenever it fills)",
            format_bytes(table),
            format_bytes(store)
        )?;
    }
    for line in costs_lines(&report.costs) {
        writeln!(out, "{line}")?;
    }
    if verbose {
        for line in layer_lines(&report.costs) {
            writeln!(out, "{line}")?;
        }
    }
    for line in report.across.iter().flat_map(across_lines) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// `solve --method search --fewer-walls M --plan`: the plan of the analysis of `fewer`
/// walls, which runs first within half of the budget (`fewer::half`; through --scratch, at
/// its precision, if given), then what is known of the search of `cell` it bounds, which
/// has the other half: its nodes are not estimated. With `ranks`, the bound's analysis
/// across them too.
pub fn write_bounded_plan(
    (cell, fewer): (Cell, u8),
    options: &SolveOptions,
    ranks: Option<u16>,
    verbose: bool,
    out: &mut dyn Write,
) -> Result<()> {
    fewer::check(cell.board, cell.walls, fewer)?;
    let half = fewer::half(options);
    let bound = SolveOptions {
        method: Method::Retro,
        memory_budget: half,
        fewer_walls: None,
        checkpoint: None,
        ..options.clone()
    };
    writeln!(
        out,
        "first the bound: the analysis of {} with {} per player, within half of the budget:",
        cell.board,
        count(fewer, "wall")
    )?;
    write_plan(
        &plan_report(Cell::new(cell.board, fewer), &bound, ranks),
        &bound,
        verbose,
        out,
    )?;
    if options.save.is_some() {
        writeln!(
            out,
            "where that analysis is whole in the directory already, it is read back, not \
             solved again (scripts/bounded_search.sh solves it ahead at the whole budget: \
             plan that with `solve {} --walls {fewer} --method retro --precision exact \
             --scratch DIR`)",
            cell.board
        )?;
    }
    if options.save.as_ref().is_some_and(|to| to.bound_only) {
        writeln!(
            out,
            "with --bound-layers-only the disk holds the two layers being solved and those \
             kept, not every layer"
        )?;
    }
    writeln!(
        out,
        "then the proof search of {} with {} per player, pruned by it, within the other half: \
         its nodes are not estimated (6x5 with 6 walls bounded by 5: 4.3e9 nodes, 15 min on \
         this project's 2 cores; results/beyond/README.md)",
        cell.board,
        count(cell.walls, "wall")
    )?;
    Ok(())
}

/// The costs of one cell as lines of text.
fn costs_lines(c: &Costs) -> Vec<String> {
    let b = format_bytes;
    let mut lines = vec![
        format!("positions: {:.3e} (every placement)", c.positions as f64),
        format!(
            "configurations: full tables {}, ranked numbering {}",
            b(c.tables_bytes),
            b(c.ranked_bytes)
        ),
    ];
    if !c.retro_board {
        lines.push(format!(
            "retrograde analysis: none (boards of at most {} cells)",
            retro::MAX_SQUARES
        ));
        return lines;
    }
    lines.extend([
        format!(
            "analysis in memory, besides the configurations: exact {} (every layer) or {} \
             (two), compact {} (two)",
            b(c.exact_every),
            b(c.exact_two),
            b(c.compact_two)
        ),
        format!(
            "analysis in parts through --scratch DIR: at least {} exact, {} compact, \
             besides the configurations",
            b(c.parts_exact),
            b(c.parts_compact)
        ),
        format!(
            "values written there before compression: {} exact, {} compact (measured: \
             about 7 to 9 times less on disk)",
            b(c.values_exact),
            b(c.values_compact)
        ),
        format!(
            "time: about {} in memory over the tables, {} over the ranked numbering; in \
             parts at this budget {} exact, {} compact (2 cores)",
            hours(c.seconds),
            hours(c.ranked_seconds),
            c.parts_seconds[0].map_or("does not fit".into(), hours),
            c.parts_seconds[1].map_or("does not fit".into(), hours)
        ),
    ]);
    lines
}

/// The analysis in parts at the budget layer by layer, exact and compact, as lines of
/// text: what a run through the disk prints as it goes can be read against it.
fn layer_lines(c: &Costs) -> Vec<String> {
    let [Some(exact), Some(compact)] = &c.parts_layers else {
        return vec![];
    };
    let side = |l: &LayerCost| {
        let above = match l.above {
            Above::Nothing => "nothing above",
            Above::Pulled(_) => "the layer above held",
            Above::Pushed(_) => "the layer above read by each part",
        };
        format!("{}, {above}, {}", count(l.parts, "part"), hours(l.seconds))
    };
    let mut lines = vec![
        "in parts at this budget, layer by layer (walls placed; the analysis skips the \
         placements of a pawn cut off from its goal):"
            .into(),
    ];
    lines.extend(exact.iter().zip(compact).map(|(e, c)| {
        format!(
            "  layer {}: {:.3e} placements, about {:.3e} solved; exact {}; compact {}",
            e.layer,
            e.positions,
            e.solved,
            side(e),
            side(c)
        )
    }));
    lines
}

/// The costs across ranks as lines of text.
fn across_lines(c: &AcrossCosts) -> Vec<String> {
    let b = format_bytes;
    let [exact, compact] = c.per_rank;
    vec![
        format!(
            "across {} (--distributed): each rank about {} exact or {} compact",
            count(c.ranks, "rank"),
            b(exact),
            b(compact),
        ),
        format!(
            "  of which every rank holds whole the ranked numbering {} and the layout's \
             indices {} ({} while it builds them, the mirror images beside them); the rest \
             is its share of the largest layer and the pieces exchanged",
            b(c.numbering),
            b(c.index),
            b(c.setup)
        ),
        format!(
            "  the directory every rank reaches: about {} exact or {} compact on disk",
            b(c.disk[0]),
            b(c.disk[1])
        ),
        format!(
            "  sent between ranks: at most {} exact or {} compact for one layer",
            b(c.sent_most[0]),
            b(c.sent_most[1])
        ),
        format!(
            "  time: about {} with 2 cores a rank, the exchanges not included",
            hours(c.seconds)
        ),
    ]
}

/// Seconds as seconds, minutes or hours.
fn hours(seconds: f64) -> String {
    match seconds {
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7200.0 => format!("{:.0} min", s / 60.0),
        s => format!("{:.1} h", s / 3600.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quoridor_solver::rules::cell::Cell;
    use quoridor_solver::rules::geometry::Board;

    #[test]
    fn the_costs_are_six_lines_or_none_for_the_analysis() {
        let c = Costs::of(Cell::new(Board::new(5, 5).unwrap(), 4), 1 << 30);
        assert_eq!(costs_lines(&c).len(), 6);
        // A line per layer (walls placed 8 down to 0) under a heading, the most walls first.
        let layers = layer_lines(&c);
        assert_eq!(layers.len(), 10);
        assert!(layers[1].starts_with("  layer 8: ") && layers[9].starts_with("  layer 0: "));
        assert!(layers[1].contains("nothing above") && layers[2].contains("the layer above"));
        let big = Costs::of(Cell::new(Board::new(9, 9).unwrap(), 3), 1 << 30);
        assert!(costs_lines(&big).last().unwrap().contains("none"));
        let across = AcrossCosts::of(Cell::new(Board::new(5, 5).unwrap(), 4), 4);
        assert!(across_lines(&across)[0].starts_with("across 4 ranks (--distributed)"));
    }
}
