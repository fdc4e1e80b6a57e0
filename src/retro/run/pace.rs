//! The analysis's pace and its one error of depth, shared by the runners in memory, in
//! parts and across ranks.

use crate::error::{Error, count};
use crate::retro::engine::code;
use crate::rules::geometry::Board;
use crate::support::progress::Progress;

/// The analysis's pace, told after each layer (`-v`): how much of it is done, and the time
/// left at the rate so far. The work is counted in stored slots, which it follows, with
/// each part's pass over the layer above at its cost (`sizing::layer_seconds`).
pub(in crate::retro) struct Pace {
    started: std::time::Instant,
    total: f64,
    done: f64,
    /// Stored slots solved, for the rate told.
    slots: u64,
}

impl Pace {
    pub(in crate::retro) fn new(total: f64) -> Pace {
        Pace {
            started: std::time::Instant::now(),
            total,
            done: 0.0,
            slots: 0,
        }
    }

    /// Part `i` of `parts` of layer `k` done: `slots` stored positions, `work` with its pass.
    pub(in crate::retro) fn part_done(
        &mut self,
        k: usize,
        (i, parts): (usize, usize),
        (slots, work): (usize, f64),
        progress: &dyn Progress,
    ) {
        self.done += work;
        self.slots += slots as u64;
        if parts == 1 {
            return; // `layer_done` tells it
        }
        let seconds = self.started.elapsed().as_secs_f64();
        progress.message(&format!(
            "layer {k}, part {i} of {parts}: {:.1} % of the analysis in {seconds:.0} s, \
             {:.1} M stored positions/s, about {:.0} s left",
            100.0 * self.share(),
            self.slots as f64 / seconds.max(1e-9) / 1e6,
            self.left(seconds)
        ));
    }

    /// `work` counted in `total` that an earlier run did, or that is read, not solved.
    pub(in crate::retro) fn skip(&mut self, work: f64) {
        self.total = (self.total - work).max(0.0);
    }

    /// Layer `k` done, with the `slots` not told by `part_done` yet.
    pub(in crate::retro) fn layer_done(&mut self, k: usize, slots: usize, progress: &dyn Progress) {
        self.done += slots as f64;
        self.slots += slots as u64;
        let seconds = self.started.elapsed().as_secs_f64();
        progress.message(&format!(
            "layer {k} solved: {:.1} % of the analysis in {seconds:.0} s, about {:.0} s left",
            100.0 * self.share(),
            self.left(seconds)
        ));
    }

    /// The share of the work done, not capped at 1: past 100 % it shows work counted
    /// wrong (a run going on from recorded parts counted them out twice and told 100 %
    /// layers before its end, fixed in a80baf8), and a test reads it at the end.
    fn share(&self) -> f64 {
        match self.total > 0.0 {
            true => self.done / self.total,
            false => 1.0,
        }
    }

    /// The seconds left at the rate of the first `seconds`.
    fn left(&self, seconds: f64) -> f64 {
        let share = self.share().min(1.0);
        seconds * (1.0 - share) / share.max(1e-9)
    }
}

pub(in crate::retro) fn too_deep(board: Board, n: u8) -> Error {
    Error::Argument(format!(
        "retrograde analysis of {board} with {}: a position's remoteness exceeds {} plies, \
         more than the one-byte store holds",
        count(n, "wall"),
        code::MAX_REMOTENESS
    ))
}
