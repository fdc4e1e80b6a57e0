//! Ctrl-C (SIGINT) or SIGTERM during a long run. While a proof search that keeps a
//! checkpoint runs (`solve --checkpoint`, a campaign's or `table --scratch`'s searches), the
//! first signal asks it to stop as at its deadline (`search::request_stop`) so that it
//! saves its table, and the command then ends by itself (a table run says what is kept and
//! exits 130); a second signal ends the process at once, removing the part file of a save
//! it cuts short. Otherwise there is nothing to save (a table writes its results after
//! every cell, an analysis in parts its layers and parts as they are solved): the handler
//! writes the hint, if any, and ends the process at once with the conventional status 130
//! (128 + SIGINT), as the default action would.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

use quoridor_solver::search;

/// What the handler says when it ends the process.
pub enum Hint<'a> {
    /// The same words whatever the files hold.
    Fixed(&'a str),
    /// Words that depend on whether the checkpoint `file` exists when the process ends:
    /// `saved` if it does (a whole checkpoint, from before the run or saved since: a save
    /// renames its part onto it when whole), `missing` if it does not.
    Checkpoint {
        file: &'a Path,
        saved: &'a str,
        missing: &'a str,
    },
}

/// A text the handler may write: leaked bytes and their length (see `leak`).
struct Text {
    ptr: AtomicPtr<u8>,
    len: AtomicUsize,
}

impl Text {
    const fn none() -> Text {
        Text {
            ptr: AtomicPtr::new(std::ptr::null_mut()),
            len: AtomicUsize::new(0),
        }
    }

    /// Keeps `bytes` for the handler. Leaked on purpose: it may read them at any moment
    /// until the process ends.
    fn leak(&self, bytes: Vec<u8>) {
        let bytes: &'static mut [u8] = bytes.leak();
        self.len.store(bytes.len(), Ordering::SeqCst);
        self.ptr.store(bytes.as_mut_ptr(), Ordering::SeqCst);
    }

    /// Writes the text, if any, on stderr (async-signal-safe).
    fn write(&self) {
        let ptr = self.ptr.load(Ordering::SeqCst);
        if !ptr.is_null() {
            // SAFETY: `ptr` points at `len` leaked bytes that are never freed.
            say(unsafe { std::slice::from_raw_parts(ptr, self.len.load(Ordering::SeqCst)) });
        }
    }
}

/// The hint, or with a checkpoint the hint when its file exists.
static HINT: Text = Text::none();
/// With a checkpoint, the hint when its file does not exist.
static MISSING: Text = Text::none();
/// With a checkpoint, its file as a C string (leaked, as the texts are); null without.
static FILE: AtomicPtr<libc::c_char> = AtomicPtr::new(std::ptr::null_mut());

/// From now on, Ctrl-C or SIGTERM stops a search that keeps a checkpoint first (see the
/// module), or writes `hint` (if any) on stderr and ends the process.
pub fn on_interrupt(hint: Option<Hint>) {
    let line = |text: &str| format!("\n{text}\n").into_bytes();
    match hint {
        Some(Hint::Fixed(text)) => HINT.leak(line(text)),
        Some(Hint::Checkpoint {
            file,
            saved,
            missing,
        }) => {
            HINT.leak(line(saved));
            MISSING.leak(line(missing));
            // A path with a NUL byte names no file: the handler then says `saved`.
            if let Ok(file) = CString::new(file.as_os_str().as_bytes()) {
                FILE.store(file.into_raw(), Ordering::SeqCst);
            }
        }
        None => {}
    }
    let handler = on_signal as extern "C" fn(libc::c_int);
    // SAFETY: the handler only reads and stores atomics and calls write, unlink, access and
    // _exit, which are async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, handler as libc::sighandler_t);
        libc::signal(libc::SIGTERM, handler as libc::sighandler_t);
    }
}

/// Writes `bytes` on stderr (async-signal-safe; a short write is not retried).
fn say(bytes: &[u8]) {
    // SAFETY: a write of a valid buffer.
    unsafe { libc::write(2, bytes.as_ptr().cast(), bytes.len()) };
}

extern "C" fn on_signal(_: libc::c_int) {
    if search::checkpointed_search_running() && !search::request_stop() {
        say(b"\nstopping: the search saves its checkpoint first (again to quit at once)\n");
        return;
    }
    // A save cut short is only its part file: removed, not left to take room for nothing.
    if let Some(part) = search::remove_part_being_written() {
        say(b"\nthe checkpoint's save was cut short: ");
        say(part.to_bytes());
        say(b" removed");
    }
    let file = FILE.load(Ordering::SeqCst);
    // SAFETY: `file` is a leaked NUL-terminated path, never freed.
    if !file.is_null() && unsafe { libc::access(file, libc::F_OK) } != 0 {
        MISSING.write();
    } else {
        HINT.write();
    }
    // SAFETY: _exit ends the process at once, without running anything else.
    unsafe { libc::_exit(130) };
}
