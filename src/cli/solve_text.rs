//! `solve`'s text: the result as text or `--json`, what became of the search's checkpoint,
//! and what Ctrl-C says of it (the plan, `--plan`, is `plan_text.rs`'s).

use std::io::Write;
use std::path::Path;

use quoridor_solver::Result;
use quoridor_solver::cell::solve::CheckpointNote;
use quoridor_solver::cell::solver::{CellResult, MethodUsed, Outcome, SolveOptions};
use quoridor_solver::error::{count, format_bytes};
use quoridor_solver::rules::geometry::{Board, Player};
use quoridor_solver::rules::notation::{action_name, format_moves};
use quoridor_solver::search::NoWin;
use quoridor_solver::support::progress::Progress;
use serde::Serialize;

use super::progress::Bars;

/// What Ctrl-C says of the checkpoint `path` under `options`: (when the file exists, when
/// it does not).
pub fn checkpoint_hints(path: &Path, options: &SolveOptions) -> (String, String) {
    // Without a checkpoint, an analysis through a scratch directory still goes on from
    // its layers; only a search alone starts over.
    let (layers, unsaved) = match &options.save {
        Some(to) if to.resume => (
            format!(
                " (the analysis goes on from the layers in {})",
                to.dir.display()
            ),
            "go on",
        ),
        _ => (String::new(), "start over"),
    };
    let file = path.display();
    (
        format!(
            "interrupted: {file} holds the checkpoint last saved{layers}; run the same \
             command again to go on"
        ),
        format!(
            "interrupted: {file} does not exist: no checkpoint was saved{layers}; run the \
             same command again to {unsaved}"
        ),
    )
}

/// `solve --json`: the result with its line in notation (docs/FORMATS.md).
#[derive(Serialize)]
struct Json<'a> {
    #[serde(flatten)]
    result: &'a CellResult,
    pv: Vec<String>,
}

/// The result as one JSON object (`Json`).
pub fn write_json(board: Board, result: &CellResult, out: &mut dyn Write) -> Result<()> {
    let json = Json {
        result,
        pv: result.line.iter().map(|&a| action_name(board, a)).collect(),
    };
    writeln!(
        out,
        "{}",
        serde_json::to_string(&json).expect("serializable")
    )?;
    Ok(())
}

/// Where the work of an undecided search went, and how to go on; or, whatever the
/// verbosity, that it was not saved.
pub fn write_checkpoint_note(path: &Path, note: &CheckpointNote, bars: &Bars) {
    match note {
        CheckpointNote::GoOn {
            no_win: NoWin([one, two]),
            deeper,
        } => bars.line(&format!(
            "the search's table is saved in {} (no win for Player 1 within {}, for Player 2 \
             within {}); to go on, run the same command again{}: {}",
            path.display(),
            count(*one, "ply"),
            count(*two, "ply"),
            match deeper {
                true => " with a larger --max-depth",
                false => "",
            },
            this_command()
        )),
        CheckpointNote::NotSaved(e) => bars.warn(&format!(
            "the checkpoint {} could not be saved at the end ({e}): the work since its last \
             save is lost",
            path.display()
        )),
    }
}

/// This process's command line, quoted for a POSIX shell where needed.
fn this_command() -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_./=:,+-@%".contains(c);
    std::env::args()
        .map(|a| {
            if !a.is_empty() && a.chars().all(safe) {
                a
            } else {
                format!("'{}'", a.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn write_text(
    board: Board,
    r: &CellResult,
    guessed: Option<Player>,
    out: &mut dyn Write,
) -> Result<()> {
    let cell = format!("{board} with {} per player", count(r.walls, "wall"));
    match (r.outcome, r.plies) {
        (Outcome::Player1 | Outcome::Player2, Some(plies)) => writeln!(
            out,
            "{cell}: Player {} wins in {}",
            r.outcome.code(),
            count(plies, "ply")
        )?,
        (Outcome::Player1 | Outcome::Player2, None) => writeln!(
            out,
            "{cell}: Player {} wins (the length was not found: see the warning above)",
            r.outcome.code()
        )?,
        (Outcome::Draw, _) => writeln!(out, "{cell}: draw")?,
        // Only the guessed winner's iterations ran: say how far, and that the other's did not.
        _ if guessed.is_some() && r.method == MethodUsed::Search => {
            let p = guessed.expect("a guess");
            writeln!(
                out,
                "{cell}: unknown (Player {} does not win within {}; Player {}'s wins were \
                 not searched)",
                p.number(),
                count(r.no_win[p.index()], "ply"),
                p.other().number()
            )?
        }
        _ => writeln!(
            out,
            "{cell}: unknown (neither player wins within {})",
            count(r.depth_reached, "ply")
        )?,
    }
    match r.pruned_by {
        Some(by) => writeln!(out, "method       {} ({by})", r.method)?,
        None => writeln!(out, "method       {}", r.method)?,
    }
    if r.line.is_empty() && r.plies.is_some() {
        writeln!(
            out,
            "line         not kept (the retrograde analysis streamed its layers to fit the \
             memory budget; --method search finds a line)"
        )?;
    }
    if !r.line.is_empty() {
        let line = format_moves(board, Player::One, &r.line);
        match r.cycle_start {
            Some(0) => writeln!(
                out,
                "line         {line} (back at the start: both players repeat this for ever)"
            )?,
            Some(i) => writeln!(
                out,
                "line         {line} (from ply {} on both players repeat for ever)",
                i + 1
            )?,
            // A win's line read only in part: the searches that read the rest filled the
            // configuration store even when emptied (the length stands; it was proven).
            None => match r.plies.filter(|&p| (r.line.len() as u32) < p) {
                Some(plies) => writeln!(
                    out,
                    "line         {line} (the first {} of {}: reading on filled the configuration \
                     store, emptied or not)",
                    count(r.line.len() as u32, "ply"),
                    plies
                )?,
                None => writeln!(out, "line         {line}")?,
            },
        }
    }
    if let Some(st) = &r.stats {
        writeln!(
            out,
            "positions    {} (Player 1 wins {}, Player 2 wins {}, draws {})",
            st.positions, st.p1_wins, st.p2_wins, st.draws
        )?;
        if let Some(left_out) = r.left_out {
            writeln!(
                out,
                "left out     {left_out} placements with a pawn cut off from its goal \
                 (unreachable; with them {} in all)",
                st.positions + left_out
            )?;
        }
    }
    // A search that went on from its checkpoint counts the earlier runs' work too.
    writeln!(
        out,
        "nodes        {}{}",
        r.nodes,
        r.in_earlier_runs(r.earlier.nodes.to_string())
    )?;
    writeln!(
        out,
        "seconds      {:.2}{}",
        r.seconds,
        r.in_earlier_runs(format!("{:.2}", r.earlier.seconds))
    )?;
    writeln!(out, "peak memory  {}", format_bytes(r.peak_bytes))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use quoridor_solver::rules::position::Position;

    /// A win whose line was read only in part says how much of it there is.
    #[test]
    fn a_line_read_in_part_says_so() {
        let board = Board::new(3, 3).unwrap();
        let start = Position::start(board, 0).unwrap();
        let first = start.legal_actions(board)[0];
        let text = |line: Vec<_>| {
            let r = CellResult {
                outcome: Outcome::Player1,
                plies: Some(5),
                method: MethodUsed::Search,
                line,
                ..CellResult::undecided(board, 0)
            };
            let mut out = Vec::new();
            write_text(board, &r, None, &mut out).unwrap();
            String::from_utf8(out).unwrap()
        };
        let cut = text(vec![first]);
        assert!(
            cut.contains("(the first 1 ply of 5: reading on filled"),
            "{cut}"
        );
        assert!(!text(Vec::new()).contains("the first"));
    }

    /// Ctrl-C before any checkpoint was saved: an analysis through a scratch directory goes
    /// on from its layers all the same; a search alone starts over.
    #[test]
    fn an_unsaved_checkpoint_says_whether_the_next_run_goes_on() {
        let path = Path::new("cell.checkpoint");
        let (_, search) = checkpoint_hints(path, &SolveOptions::default());
        assert!(
            search.ends_with("run the same command again to start over"),
            "{search}"
        );
        let scratch = SolveOptions {
            save: Some(quoridor_solver::retro::saved_dir::Target {
                dir: "layers".into(),
                replace: false,
                resume: true,
                ranks: None,
                bound_only: false,
            }),
            ..SolveOptions::default()
        };
        let (saved, unsaved) = checkpoint_hints(path, &scratch);
        for hint in [saved, unsaved] {
            assert!(hint.contains("goes on from the layers in layers"), "{hint}");
            assert!(
                hint.ends_with("run the same command again to go on"),
                "{hint}"
            );
        }
    }
}
