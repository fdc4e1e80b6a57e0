//! Progress on stderr: indicatif bars (drawn only when stderr is a terminal): an optional
//! overall bar and one bar for the current stage, and lines above them, as loud as the
//! user asked (`Verbosity`).

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use quoridor_solver::support::progress::Progress;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// With no bars drawn (stderr is not a terminal: a log file), the status of the current
/// stage is written as a line this often, so that a log of a run of hours says how far
/// it got between its messages (a search's iteration can last hours).
const LOGGED_STATUS_EVERY: Duration = Duration::from_secs(600);

/// How much goes to stderr besides errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verbosity {
    /// Nothing: no bars, no lines (`-q`).
    Quiet,
    /// Bars and the commands' own lines (a table's line per cell), not the solver's
    /// messages (a line per search depth).
    Normal,
    /// Everything, the solver's messages too (`-v`).
    Verbose,
}

pub struct Bars {
    multi: MultiProgress,
    stage: Mutex<Option<ProgressBar>>,
    verbosity: Verbosity,
    /// When a status was last written as a line (`LOGGED_STATUS_EVERY`); the start at first.
    status_logged: Mutex<Instant>,
}

impl Bars {
    pub fn new(verbosity: Verbosity) -> Bars {
        let multi = MultiProgress::new();
        if verbosity == Verbosity::Quiet {
            multi.set_draw_target(ProgressDrawTarget::hidden());
        }
        Bars {
            multi,
            stage: Mutex::new(None),
            verbosity,
            status_logged: Mutex::new(Instant::now()),
        }
    }

    /// An overall bar of `total` units above the stage bars.
    pub fn overall(&self, what: &str, total: u64) -> ProgressBar {
        let bar = self.multi.add(ProgressBar::new(total));
        bar.set_style(style("{msg:32} [{bar:30}] {pos}/{len} cells {elapsed}"));
        bar.set_message(what.to_string());
        bar
    }

    /// `status` (of a stage `in_stage` old) as a line for the log, when no bars are drawn,
    /// the stage has run `LOGGED_STATUS_EVERY` (a short one has its own lines) and as long
    /// has passed since the last such line, or since the start.
    fn status_line(&self, status: &str, in_stage: Duration) -> Option<String> {
        if !self.multi.is_hidden() || self.is_quiet() || in_stage < LOGGED_STATUS_EVERY {
            return None;
        }
        let mut logged = self.status_logged.lock().expect("progress lock");
        (logged.elapsed() >= LOGGED_STATUS_EVERY).then(|| {
            *logged = Instant::now();
            format!("{status} ({} in this stage)", elapsed(in_stage))
        })
    }

    /// Whether nothing but errors goes to stderr (`-q`).
    pub fn is_quiet(&self) -> bool {
        self.verbosity == Verbosity::Quiet
    }

    /// A line of the command's own above the bars (or plain on stderr when no bars are
    /// drawn); nothing when quiet.
    pub fn line(&self, text: &str) {
        if self.verbosity == Verbosity::Quiet {
        } else if self.multi.is_hidden() {
            eprintln!("{text}");
        } else {
            self.multi.suspend(|| eprintln!("{text}"));
        }
    }
}

/// `d` as hours, minutes and seconds: `1:02:03`.
fn elapsed(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .expect("a valid template")
        .progress_chars("=> ")
}

impl Progress for Bars {
    /// A stage of known size gets a bar with its rate and time left; one of unknown size
    /// (`total` 0) a spinner with what `status` last said.
    fn begin(&self, stage: &str, total: u64) {
        let bar = self.multi.add(ProgressBar::new(total));
        if total == 0 {
            bar.set_style(style("{spinner} {msg} {elapsed}"));
            bar.enable_steady_tick(Duration::from_millis(250));
        } else {
            bar.set_style(style(
                "{prefix:32} [{bar:30}] {percent:>3}% {elapsed}, about {eta} left",
            ));
        }
        bar.set_prefix(stage.to_string());
        bar.set_message(stage.to_string());
        if let Some(old) = self.stage.lock().expect("progress lock").replace(bar) {
            old.finish_and_clear();
            self.multi.remove(&old);
        }
    }

    fn advance(&self, units: u64) {
        if let Some(bar) = &*self.stage.lock().expect("progress lock") {
            bar.inc(units);
        }
    }

    fn status(&self, text: &str) {
        if let Some(bar) = &*self.stage.lock().expect("progress lock") {
            let status = format!("{}: {text}", bar.prefix());
            if let Some(line) = self.status_line(&status, bar.elapsed()) {
                eprintln!("{line}");
            }
            bar.set_message(status);
        }
    }

    /// Shown on a bar, or as a line now and then in a log; not when quiet.
    fn shows_status(&self) -> bool {
        !self.is_quiet()
    }

    fn message(&self, text: &str) {
        if self.verbosity == Verbosity::Verbose {
            self.line(text);
        }
    }

    /// Shown even with `-q`, which keeps errors: a warning says that something the user
    /// counts on (a saved checkpoint) did not happen.
    fn warn(&self, text: &str) {
        let line = format!("warning: {text}");
        if self.multi.is_hidden() {
            eprintln!("{line}");
        } else {
            self.multi.suspend(|| eprintln!("{line}"));
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.stage.lock().expect("progress lock").take() {
            bar.finish_and_clear();
            self.multi.remove(&bar);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without bars (a log), a status becomes a line once `LOGGED_STATUS_EVERY` has passed,
    /// and then not again until it passes once more; never for a young stage, nor when quiet.
    #[test]
    fn a_log_gets_the_status_every_so_often() {
        let bars = Bars::new(Verbosity::Normal);
        bars.multi.set_draw_target(ProgressDrawTarget::hidden());
        let in_stage = Duration::from_secs(3725);
        assert_eq!(bars.status_line("depth 33", in_stage), None);
        let long_ago = Instant::now() - LOGGED_STATUS_EVERY;
        *bars.status_logged.lock().unwrap() = long_ago;
        assert_eq!(
            bars.status_line("depth 33", in_stage).as_deref(),
            Some("depth 33 (1:02:05 in this stage)")
        );
        assert_eq!(bars.status_line("depth 33", in_stage), None);
        // A stage younger than the interval: its status is not a line.
        *bars.status_logged.lock().unwrap() = long_ago;
        assert_eq!(bars.status_line("depth 1", Duration::from_secs(2)), None);
        let quiet = Bars::new(Verbosity::Quiet);
        *quiet.status_logged.lock().unwrap() = long_ago;
        assert_eq!(quiet.status_line("depth 33", in_stage), None);
    }
}
