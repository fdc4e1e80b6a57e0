//! A small, seeded source of random numbers for the tests (xorshift64): the same numbers
//! every run, so that a failing test fails again.

/// The numbers after `seed` (not 0), one a call.
pub fn numbers(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// Runs `each(t, next)` for `t` in `0..threads` on threads of their own, started together
/// (a barrier: so that they run side by side), each with numbers seeded by its `t`, and
/// adds up what they return: for the tests of stores that threads lower at the same time.
pub fn side_by_side(
    threads: usize,
    each: impl Fn(usize, &mut dyn FnMut() -> u64) -> usize + Sync,
) -> usize {
    let start = std::sync::Barrier::new(threads);
    std::thread::scope(|scope| {
        let runs: Vec<_> = (0..threads)
            .map(|t| {
                let (start, each) = (&start, &each);
                scope.spawn(move || {
                    start.wait();
                    let mut next = numbers(0x9E37_79B9_7F4A_7C15u64.wrapping_mul(t as u64 + 1));
                    each(t, &mut next)
                })
            })
            .collect();
        runs.into_iter()
            .map(|r| r.join().expect("a thread of the test"))
            .sum()
    })
}
