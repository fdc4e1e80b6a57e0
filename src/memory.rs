//! The memory budget: parsing sizes, the machine's available memory, and this process's peak.
//! Every large allocation is estimated first and refused when it exceeds the budget, so a
//! board the tool accepts never ends in the out-of-memory killer.

use crate::error::{Error, Result};

/// Parses `512M`, `4G`, `4GiB`, `1.5g`, `1000000` (bytes) into bytes; units are binary.
pub fn parse_size(text: &str) -> Result<u64> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let bad = || {
        Error::Argument(format!(
            "'{text}' is not a memory size: write e.g. 512M, 4G or 4GiB"
        ))
    };
    let value: f64 = num.parse().map_err(|_| bad())?;
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        _ => return Err(bad()),
    };
    let bytes = value * scale as f64;
    if !bytes.is_finite() || bytes < 1.0 {
        return Err(bad());
    }
    Ok(bytes as u64)
}

fn meminfo_kib(field: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    kib_field(&text, field)
}

fn kib_field(text: &str, field: &str) -> Option<u64> {
    text.lines()
        .find(|l| l.starts_with(field))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// The memory the system says is available now (MemAvailable), in bytes.
pub fn available_bytes() -> Option<u64> {
    meminfo_kib("MemAvailable:").map(|k| k * 1024)
}

/// The default budget: 80% of the available memory (4 GiB if it cannot be read).
pub fn default_budget() -> u64 {
    available_bytes().map_or(4 << 30, |b| b / 10 * 8)
}

/// This process's peak resident memory so far (VmHWM), in bytes; 0 if unknown.
pub fn peak_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|t| kib_field(&t, "VmHWM:"))
        .map_or(0, |k| k * 1024)
}

/// Starts a new peak: after this, `peak_bytes` reports the peak from now on (Linux resets
/// VmHWM when 5 is written to clear_refs). Without it the figure is the process's peak.
pub fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// Refuses `needed` bytes for `what` when they exceed `budget`.
pub fn check(what: &str, needed: u64, budget: u64) -> Result<()> {
    if needed > budget {
        return Err(Error::Memory {
            what: what.to_string(),
            needed,
            budget,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("512M").unwrap(), 512 << 20);
        assert_eq!(parse_size("4GiB").unwrap(), 4 << 30);
        assert_eq!(parse_size("1.5g").unwrap(), 3 << 29);
        assert_eq!(parse_size("1000").unwrap(), 1000);
        for bad in ["", "G", "4X", "-1G", "0"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        assert!(peak_bytes() > 0);
    }
}
