//! Comparing results with the published table.

use super::CellRecord;
use super::published::PublishedCell;
use crate::cell::solver::Outcome;

/// How a set of results compares with the published table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CheckSummary {
    /// Decided cells whose outcome equals the published one.
    pub matching: usize,
    /// Decided cells that contradict the published outcome: (ours, published outcome).
    pub differing: Vec<(CellRecord, Outcome)>,
    /// Decided cells the published table marks `?` or does not list: new results.
    pub new: Vec<CellRecord>,
    /// Cells left undecided (`unknown`).
    pub unknown: Vec<CellRecord>,
}

impl CheckSummary {
    pub fn passed(&self) -> bool {
        self.differing.is_empty()
    }

    /// One line: how many match, differ, are new, are undecided.
    pub fn line(&self) -> String {
        format!(
            "check against the published table: {} match, {} differ, {} new, {} undecided",
            self.matching,
            self.differing.len(),
            self.new.len(),
            self.unknown.len()
        )
    }
}

pub fn check(records: &[CellRecord], published: &[PublishedCell]) -> CheckSummary {
    let mut summary = CheckSummary::default();
    for r in records {
        if !r.is_decided() {
            summary.unknown.push(r.clone());
            continue;
        }
        let known = published
            .iter()
            .find(|p| (p.width, p.height, p.walls) == r.cell())
            .filter(|p| p.outcome != Outcome::Unknown);
        match known {
            Some(p) if p.outcome == r.outcome => summary.matching += 1,
            Some(p) => summary.differing.push((r.clone(), p.outcome)),
            None => summary.new.push(r.clone()),
        }
    }
    summary
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(w: usize, h: usize, n: u8, outcome: &str) -> CellRecord {
        CellRecord {
            width: w,
            height: h,
            walls: n,
            outcome: Outcome::try_from(outcome.to_string()).unwrap(),
            plies: None,
            method: crate::cell::solver::MethodUsed::Search,
            nodes: 0,
            seconds: 0.0,
            peak_bytes: 0,
            version: String::new(),
            depth_reached: 0,
            line: String::new(),
        }
    }

    #[test]
    fn classifies_every_record() {
        let published = crate::output::report::published::cells();
        let records = [
            rec(3, 3, 0, "2"),
            rec(2, 3, 0, "1"),
            rec(4, 7, 9, "1"),
            rec(7, 5, 1, "2"),
            rec(8, 3, 3, "unknown"),
        ];
        let s = check(&records, &published);
        assert_eq!(s.matching, 1);
        assert_eq!(s.differing.len(), 1);
        assert_eq!(s.differing[0].1, Outcome::Player2);
        assert_eq!(s.new.len(), 2);
        assert_eq!(s.unknown.len(), 1);
        assert!(!s.passed());
    }
}
