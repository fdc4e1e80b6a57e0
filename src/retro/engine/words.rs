//! Atomic operations on an aligned word of eight bytes of a store whose bytes other threads
//! update one at a time (`AtomicU8`): the pushes that lower many exits at once
//! (`push_rows`, `push_outcomes`) lower a word a compare-and-swap. By `asm!`, since Rust's
//! memory model has no atomic operations of eight bytes over memory that others update a
//! byte at a time; x86 gives `lock cmpxchg` over any aligned word, and each byte a plain
//! load of it reads is one that some store wrote.

/// The word at `word`, while other threads may update its bytes. A stale byte only costs
/// a compare-and-swap that finds otherwise (`lower`).
///
/// # Safety
/// `word` is aligned and readable as eight bytes.
#[inline(always)]
pub(super) unsafe fn load(word: *const u64) -> u64 {
    let seen: u64;
    // SAFETY: the caller's.
    unsafe {
        std::arch::asm!(
            "mov {seen}, qword ptr [{word}]",
            word = in(reg) word,
            seen = out(reg) seen,
            options(nostack, readonly, preserves_flags),
        );
    }
    seen
}

/// Sets the word at `word` to `lowered` of what it holds, atomically, from a guess of it
/// (`seen`, from `load`), which a compare-and-swap that finds otherwise corrects: the way
/// of a word another thread lowered after it was read. `lowered` only lowers (each of its
/// fields to at most what it was) and lowers a word no more once applied, and no field of
/// the guess is below the word's (exits only go down): so a guess that `lowered` leaves as
/// it is means a word it leaves as it is.
///
/// # Safety
/// `word` is aligned, readable and writable as eight bytes.
#[inline(always)]
pub(super) unsafe fn lower(word: *mut u64, mut seen: u64, lowered: impl Fn(u64) -> u64) {
    loop {
        let new = lowered(seen);
        if new == seen {
            return;
        }
        let before: u64;
        // SAFETY: the caller's.
        unsafe {
            std::arch::asm!(
                "lock cmpxchg qword ptr [{word}], {new}",
                word = in(reg) word,
                new = in(reg) new,
                inout("rax") seen => before,
                options(nostack),
            );
        }
        if before == seen {
            return;
        }
        seen = before;
    }
}
