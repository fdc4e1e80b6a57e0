//! The connections still sending their request's head, oldest first, so that a newcomer
//! finding every place taken can close the oldest one that has sent nothing useful for a
//! while. Without it, a thousand clients that connect and say nothing held all 512 places
//! until their 5 s were up, and every real request meanwhile was refused (measured: a
//! normal request answered after 4.3 s, docs/SERVE.md).

use std::collections::VecDeque;
use std::net::{Shutdown, TcpStream};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long a connection may go without its head before a newcomer may close it when the
/// server is full. Far above what a client that means to ask takes on a local server, far
/// below the 5 s every connection has: bursts of real requests (all younger) are answered
/// 503 as before, idle holders make room.
pub const IDLE_BEFORE_CLOSED: Duration = Duration::from_secs(1);

struct Entry {
    id: u64,
    since: Instant,
    /// A second handle on the connection, to shut it down from the accepting thread.
    stream: TcpStream,
}

/// Every connection whose head is being read, in the order they came.
static READING: Mutex<VecDeque<Entry>> = Mutex::new(VecDeque::new());
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

fn reading() -> std::sync::MutexGuard<'static, VecDeque<Entry>> {
    READING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A connection listed while its head is read; it leaves the list when dropped.
pub struct Listed(u64);

impl Listed {
    /// Lists `stream` from now (`None` if the system gives no second handle on it: it is
    /// then never closed early, only at its deadline).
    pub fn new(stream: &TcpStream) -> Option<Listed> {
        let stream = stream.try_clone().ok()?;
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        let since = Instant::now();
        reading().push_back(Entry { id, since, stream });
        Some(Listed(id))
    }
}

impl Drop for Listed {
    fn drop(&mut self) {
        reading().retain(|e| e.id != self.0);
    }
}

/// Closes the oldest connection still without its head if it has waited at least
/// `IDLE_BEFORE_CLOSED`: its reader then sees the end of the stream and gives its place
/// up. Whether one was closed.
pub fn close_oldest_idle() -> bool {
    let mut list = reading();
    match list.front() {
        Some(e) if e.since.elapsed() >= IDLE_BEFORE_CLOSED => {
            let e = list.pop_front().expect("a front entry");
            let _ = e.stream.shutdown(Shutdown::Both);
            true
        }
        _ => false,
    }
}
