//! The memory budget: parsing sizes, the machine's available memory, and this process's peak.
//! Every large allocation is estimated first and refused when it exceeds the budget, so a
//! board the tool accepts never ends in the out-of-memory killer.

use crate::error::{Error, Result, clip};

/// Parses `512M`, `4G`, `4GiB`, `1.5g`, `1000000` (bytes) into bytes; units are binary.
pub fn parse_size(text: &str) -> Result<u64> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let bad = || {
        Error::Argument(format!(
            "'{}' is not a memory size: write e.g. 512M, 4G or 4GiB",
            clip(text)
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

/// The machine's physical memory in bytes (every page of RAM, used or not), if the system
/// says: no budget above it can be met, whatever else is running.
pub fn physical_bytes() -> Option<u64> {
    // SAFETY: sysconf only reads system configuration values.
    let (pages, page_size) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    match (u64::try_from(pages), u64::try_from(page_size)) {
        (Ok(p), Ok(s)) if p > 0 && s > 0 => p.checked_mul(s),
        _ => None,
    }
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

/// Makes every allocation of a MiB or more a mapping of its own, given back to the system
/// when it is freed. Left to itself, glibc raises that threshold to the largest block freed
/// (up to 32 MiB) and keeps the freed blocks below it in its arenas: the analysis in parts,
/// which allocates and frees its parts and the stream's pieces over and over, then held
/// up to 43 % over its budget (5x5 with 4 walls in parts: 182 MiB at `--memory 128M`, 114
/// at 96M; 112 and 81 with this, 2026-11-29). Call it first, before any thread starts.
pub fn return_freed_buffers() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt sets one of the allocator's tunables; no allocation is in flight on
    // another thread, since none has started yet.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

/// Starts loading the cache line holding `value`, so that a read of it a little later does
/// not wait for memory.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch is only a hint; it never faults and changes no memory.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(value as *const T as *const i8) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// Starts loading every cache line of `values`.
#[inline(always)]
pub fn prefetch_all<T>(values: &[T]) {
    const LINE: usize = 64;
    let step = (LINE / std::mem::size_of::<T>().max(1)).max(1);
    values.iter().step_by(step).for_each(prefetch);
}

/// Size of a huge page on x86-64 and most Linux systems.
const HUGE_PAGE: usize = 2 << 20;

/// A vector of `len` copies of `value` whose memory the kernel is asked to back with 2 MiB
/// pages (transparent huge pages, granted on request where the system is set to `madvise`).
/// For the tables that the search reads at random: with 4 KiB pages nearly every such read
/// also misses the TLB. The advice is given before the first write, when it takes effect;
/// refused advice costs speed only.
///
/// Filled by every thread of the pool: the first write to each page faults it in, and the
/// kernel zeroes it first, which on this machine's virtual machine runs at about a GB a
/// second per thread (20 % of the samples of 4x7 with 4 walls when one thread filled).
pub fn huge_vec<T: Clone + Send + Sync>(len: usize, value: T) -> Vec<T> {
    use rayon::prelude::*;
    let mut v = Vec::with_capacity(len);
    advise_huge_pages(&mut v);
    v.par_extend(rayon::iter::repeat_n(value, len));
    v
}

/// `huge_vec` for values made one by one (types that are not `Clone`, like atomics).
pub fn huge_slice_with<T>(len: usize, make: impl FnMut() -> T) -> Box<[T]> {
    let mut v = Vec::with_capacity(len);
    advise_huge_pages(&mut v);
    v.extend(std::iter::repeat_with(make).take(len));
    v.into_boxed_slice()
}

/// Gives the advice of `huge_vec` for the whole huge pages inside `v`'s allocation.
pub fn advise_huge_pages<T>(v: &mut Vec<T>) {
    advise_huge_range(
        v.as_mut_ptr() as usize,
        v.capacity() * std::mem::size_of::<T>(),
    );
}

/// Gives the advice of `huge_vec` for the whole huge pages inside the `bytes` bytes from
/// address `start`, which must be one allocation of the caller's.
pub fn advise_huge_range(start: usize, bytes: usize) {
    let end = start + bytes;
    let (lo, hi) = (
        start.next_multiple_of(HUGE_PAGE),
        end / HUGE_PAGE * HUGE_PAGE,
    );
    #[cfg(target_os = "linux")]
    if hi > lo {
        // SAFETY: the range lies inside the caller's allocation, and MADV_HUGEPAGE changes
        // how it is paged, never what it holds.
        unsafe {
            libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_HUGEPAGE);
        }
    }
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
        let physical = physical_bytes().expect("Linux reports its memory");
        assert!(physical >= available_bytes().unwrap_or(0), "{physical}");
    }
}
