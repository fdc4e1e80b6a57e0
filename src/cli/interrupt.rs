//! Ctrl-C (SIGINT) or SIGTERM during a long run. While a proof search that keeps a
//! checkpoint runs (`solve --checkpoint`, a campaign's or `table --scratch`'s searches), the
//! first signal asks it to stop as at its deadline (`search::request_stop`) so that it
//! saves its table, and the command then ends by itself (a table run says what is kept and
//! exits 130); a second signal ends the process at once. Otherwise there is nothing to
//! save (a table writes its results after every cell, an analysis in parts its layers and
//! parts as they are solved): the handler writes the hint, if any, and ends the process at
//! once with the conventional status 130 (128 + SIGINT), as the default action would.

use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

use quoridor_solver::search;

static HINT: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
static HINT_LEN: AtomicUsize = AtomicUsize::new(0);

/// From now on, Ctrl-C or SIGTERM stops a search that keeps a checkpoint first (see the
/// module), or writes `hint` (if any) on stderr and ends the process.
pub fn on_interrupt(hint: Option<&str>) {
    if let Some(hint) = hint {
        // Leaked on purpose: the handler may read it at any moment until the process ends.
        let text: &'static mut [u8] = format!("\n{hint}\n").into_bytes().leak();
        HINT_LEN.store(text.len(), Ordering::SeqCst);
        HINT.store(text.as_mut_ptr(), Ordering::SeqCst);
    }
    let handler = on_signal as extern "C" fn(libc::c_int);
    // SAFETY: the handler only reads and stores atomics and calls write and _exit, which
    // are async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, handler as libc::sighandler_t);
        libc::signal(libc::SIGTERM, handler as libc::sighandler_t);
    }
}

extern "C" fn on_signal(_: libc::c_int) {
    if search::checkpointed_search_running() && !search::request_stop() {
        let text = b"\nstopping: the search saves its checkpoint first (again to quit at once)\n";
        // SAFETY: a write of a static buffer.
        unsafe { libc::write(2, text.as_ptr().cast(), text.len()) };
        return;
    }
    let text = HINT.load(Ordering::SeqCst);
    if !text.is_null() {
        // SAFETY: `text` points at `HINT_LEN` leaked bytes that are never freed.
        unsafe { libc::write(2, text.cast(), HINT_LEN.load(Ordering::SeqCst)) };
    }
    // SAFETY: _exit ends the process at once, without running anything else.
    unsafe { libc::_exit(130) };
}
