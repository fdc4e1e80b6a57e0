//! The machine's ceilings for the roofline of docs/PERFORMANCE.md: how many bytes a second
//! its memory moves in streams (the four kernels of STREAM: copy, scale, add, triad), and how
//! many random one-byte reads a second it answers from an array far larger than its caches
//! (what the analysis does when it looks up a child's value). Each with one thread and with
//! every thread; the best of several passes, as STREAM reports. Then the first write to
//! memory just allocated (`first`), on 4 KiB pages and on 2 MiB pages (advised): what a new
//! transposition table or layer store costs before it holds anything, reported for every
//! pass (not the best: a pass that finds memory the kernel or the host has just freed is
//! faster, and a new process seldom does).
//!
//!   cargo run --release --example stream [MiB per array, default 1024]
//!
//! Run it with nothing else running. Every kernel checks its own result, so a pass the
//! compiler optimised away cannot report a speed.

use rayon::prelude::*;
use std::time::Instant;

const PASSES: usize = 5;
/// Random reads per pass and thread count: enough to take a second or so.
const GATHERS: usize = 1 << 26;

fn main() {
    let mib: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("MiB per array, a whole number"))
        .unwrap_or(1024);
    let n = mib * 1024 * 1024 / 8;
    let threads = rayon::current_num_threads();
    println!("arrays of {mib} MiB ({n} u64 each); {threads} threads; best of {PASSES} passes");
    let mut a = vec![1u64; n];
    let mut b = vec![2u64; n];
    let mut c = vec![0u64; n];
    for &t in &[1, threads] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .unwrap();
        pool.install(|| {
            // Bytes each kernel moves per element: reads plus writes.
            report("copy", t, 16 * n, best(|| copy(&mut c, &a)));
            report("scale", t, 16 * n, best(|| scale(&mut b, &c)));
            report("add", t, 24 * n, best(|| add(&mut c, &a, &b)));
            report("triad", t, 24 * n, best(|| triad(&mut a, &b, &c)));
        });
        check(&a, &b, &c);
        let bytes: Vec<u8> = (0..n * 8).map(|i| (i * 7 + i / 4096) as u8).collect();
        let seconds = pool.install(|| best(|| gather(&bytes)));
        println!(
            "{:<6} {t} thread(s): {:>8.1} M random byte reads/s ({:.1} ns each per thread)",
            "gather",
            GATHERS as f64 / seconds / 1e6,
            seconds * 1e9 / (GATHERS as f64 / t as f64)
        );
        a.fill(1);
        b.fill(2);
    }
    drop((a, b, c));
    for huge in [false, true] {
        let seconds: Vec<String> = (0..PASSES)
            .map(|_| format!("{:.2}", n as f64 * 8.0 / first_write(n, huge) / 1e9))
            .collect();
        println!(
            "first  {threads} thread(s), {} pages: {} GB/s (each pass)",
            if huge { "2 MiB" } else { "4 KiB" },
            seconds.join(", ")
        );
    }
}

/// Seconds to allocate `n` words and write each once with every thread (as
/// `TranspositionTable::new` and `memory::huge_vec` fill), on 2 MiB pages if `huge`.
fn first_write(n: usize, huge: bool) -> f64 {
    let started = Instant::now();
    let mut v: Vec<u64> = Vec::with_capacity(n);
    if huge {
        quoridor_solver::support::memory::advise_huge_pages(&mut v);
    }
    v.par_extend((0..n).into_par_iter().map(|i| i as u64));
    let seconds = started.elapsed().as_secs_f64();
    assert_eq!(v[n - 1], (n - 1) as u64, "first write");
    seconds
}

fn best(mut pass: impl FnMut()) -> f64 {
    (0..PASSES)
        .map(|_| {
            let started = Instant::now();
            pass();
            started.elapsed().as_secs_f64()
        })
        .fold(f64::MAX, f64::min)
}

fn report(kernel: &str, threads: usize, bytes: usize, seconds: f64) {
    println!(
        "{kernel:<6} {threads} thread(s): {:>8.1} GB/s",
        bytes as f64 / seconds / 1e9
    );
}

const CHUNK: usize = 1 << 16;

fn copy(c: &mut [u64], a: &[u64]) {
    c.par_chunks_mut(CHUNK)
        .zip(a.par_chunks(CHUNK))
        .for_each(|(c, a)| c.copy_from_slice(a));
}

fn scale(b: &mut [u64], c: &[u64]) {
    b.par_chunks_mut(CHUNK)
        .zip(c.par_chunks(CHUNK))
        .for_each(|(b, c)| b.iter_mut().zip(c).for_each(|(b, c)| *b = 3 * c));
}

fn add(c: &mut [u64], a: &[u64], b: &[u64]) {
    c.par_chunks_mut(CHUNK)
        .zip(a.par_chunks(CHUNK).zip(b.par_chunks(CHUNK)))
        .for_each(|(c, (a, b))| {
            c.iter_mut()
                .zip(a.iter().zip(b))
                .for_each(|(c, (a, b))| *c = a + b)
        });
}

fn triad(a: &mut [u64], b: &[u64], c: &[u64]) {
    a.par_chunks_mut(CHUNK)
        .zip(b.par_chunks(CHUNK).zip(c.par_chunks(CHUNK)))
        .for_each(|(a, (b, c))| {
            a.iter_mut()
                .zip(b.iter().zip(c))
                .for_each(|(a, (b, c))| *a = b + 3 * c)
        });
}

/// After the last pass: c = a + b with a = 1, b = 3 * c_copy = 3; then a = b + 3c = 3 + 12.
fn check(a: &[u64], b: &[u64], c: &[u64]) {
    assert!(b.iter().all(|&x| x == 3), "scale");
    assert!(c.iter().all(|&x| x == 4), "add");
    assert!(a.iter().all(|&x| x == 15), "triad");
}

/// Random reads, each address from a cheap generator independent of the data read, so the
/// reads overlap as the analysis's do (their addresses come from the position, not from the
/// last value read). The sum is returned through `black_box` so the reads stay.
fn gather(bytes: &[u8]) {
    let threads = rayon::current_num_threads();
    // The largest power of two within the array, so that a mask picks an address.
    let mask = (1usize << (usize::BITS - 1 - bytes.len().leading_zeros())) - 1;
    let total: u64 = (0..threads)
        .into_par_iter()
        .map(|t| {
            let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ t as u64;
            let mut sum = 0u64;
            for _ in 0..GATHERS / threads {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                sum += bytes[x as usize & mask] as u64;
            }
            sum
        })
        .sum();
    std::hint::black_box(total);
}
