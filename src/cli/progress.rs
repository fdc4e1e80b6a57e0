//! Progress on stderr: indicatif bars (drawn only when stderr is a terminal): an optional
//! overall bar and one bar for the current stage; message lines are always written.

use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use quoridor_solver::progress::Progress;
use std::sync::Mutex;

pub struct Bars {
    multi: MultiProgress,
    stage: Mutex<Option<ProgressBar>>,
}

impl Bars {
    pub fn new() -> Bars {
        Bars {
            multi: MultiProgress::new(),
            stage: Mutex::new(None),
        }
    }

    /// An overall bar of `total` units above the stage bars.
    pub fn overall(&self, what: &str, total: u64) -> ProgressBar {
        let bar = self.multi.add(ProgressBar::new(total));
        bar.set_style(style("{msg:32} [{bar:30}] {pos}/{len} cells {elapsed}"));
        bar.set_message(what.to_string());
        bar
    }

    /// A line above the bars (or plain on stderr when no bars are drawn).
    pub fn line(&self, text: &str) {
        if self.multi.is_hidden() {
            eprintln!("{text}");
        } else {
            self.multi.suspend(|| eprintln!("{text}"));
        }
    }
}

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .expect("a valid template")
        .progress_chars("=> ")
}

impl Progress for Bars {
    fn begin(&self, stage: &str, total: u64) {
        let bar = self.multi.add(ProgressBar::new(total));
        bar.set_style(style("{msg:32} [{bar:30}] {pos}/{len} {elapsed}"));
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

    fn message(&self, text: &str) {
        self.line(text);
    }

    fn finish(&self) {
        if let Some(bar) = self.stage.lock().expect("progress lock").take() {
            bar.finish_and_clear();
            self.multi.remove(&bar);
        }
    }
}
