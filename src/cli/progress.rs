//! Progress on stderr: an indicatif bar for each stage (drawn only when stderr is a
//! terminal) and one line per message (always written).

use indicatif::{ProgressBar, ProgressStyle};
use quoridor_solver::progress::Progress;
use std::sync::Mutex;

pub struct Bars {
    bar: Mutex<Option<ProgressBar>>,
}

impl Bars {
    pub fn new() -> Bars {
        Bars {
            bar: Mutex::new(None),
        }
    }
}

impl Progress for Bars {
    fn begin(&self, stage: &str, total: u64) {
        let bar = ProgressBar::new(total);
        let style = ProgressStyle::with_template("{msg:32} [{bar:30}] {pos}/{len} {elapsed}")
            .expect("a valid template")
            .progress_chars("=> ");
        bar.set_style(style);
        bar.set_message(stage.to_string());
        if let Some(old) = self.bar.lock().expect("progress lock").replace(bar) {
            old.finish_and_clear();
        }
    }

    fn advance(&self, units: u64) {
        if let Some(bar) = &*self.bar.lock().expect("progress lock") {
            bar.inc(units);
        }
    }

    fn message(&self, text: &str) {
        match &*self.bar.lock().expect("progress lock") {
            Some(bar) if !bar.is_hidden() => bar.println(text),
            _ => eprintln!("{text}"),
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.bar.lock().expect("progress lock").take() {
            bar.finish_and_clear();
        }
    }
}
