//! Ctrl-C during a long run. `table`: everything it finished is already on disk (results
//! are written after every cell), so the handler only writes a hint on how to go on and
//! ends the process, as the default action would, with the conventional status 130 (128 +
//! SIGINT). `solve --checkpoint`: the first Ctrl-C (or SIGTERM) asks the search to stop
//! as at its deadline (`search::request_stop`), so that it saves its table; a second one
//! ends the process at once.

use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

static HINT: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
static HINT_LEN: AtomicUsize = AtomicUsize::new(0);

/// From now on, Ctrl-C (SIGINT) writes `hint` on stderr and ends the process.
pub fn hint_on_interrupt(hint: &str) {
    // Leaked on purpose: the handler may read it at any moment until the process ends.
    let text: &'static mut [u8] = format!("\n{hint}\n").into_bytes().leak();
    HINT_LEN.store(text.len(), Ordering::SeqCst);
    HINT.store(text.as_mut_ptr(), Ordering::SeqCst);
    let handler = on_interrupt as extern "C" fn(libc::c_int);
    // SAFETY: the handler calls only async-signal-safe functions (write, _exit).
    unsafe { libc::signal(libc::SIGINT, handler as libc::sighandler_t) };
}

extern "C" fn on_interrupt(_: libc::c_int) {
    let text = HINT.load(Ordering::SeqCst);
    if !text.is_null() {
        // SAFETY: `text` points at `HINT_LEN` leaked bytes that are never freed.
        unsafe { libc::write(2, text.cast(), HINT_LEN.load(Ordering::SeqCst)) };
    }
    // SAFETY: _exit ends the process at once, without running anything else.
    unsafe { libc::_exit(130) };
}

/// From now on, Ctrl-C or SIGTERM asks the proof search to stop and save its checkpoint;
/// a second one ends the process at once.
pub fn stop_search_on_interrupt() {
    let handler = on_stop as extern "C" fn(libc::c_int);
    // SAFETY: the handler only stores an atomic, writes and calls _exit (async-signal-safe).
    unsafe {
        libc::signal(libc::SIGINT, handler as libc::sighandler_t);
        libc::signal(libc::SIGTERM, handler as libc::sighandler_t);
    }
}

extern "C" fn on_stop(_: libc::c_int) {
    if quoridor_solver::search::request_stop() {
        // SAFETY: _exit ends the process at once, without running anything else.
        unsafe { libc::_exit(130) };
    }
    let text = b"\nstopping: the search saves its checkpoint first (again to quit at once)\n";
    // SAFETY: a write of a static buffer.
    unsafe { libc::write(2, text.as_ptr().cast(), text.len()) };
}
