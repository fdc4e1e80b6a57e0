//! The explorer over HTTP/1.1, on the standard library's sockets: one request per
//! connection, answered and closed. Every resource a client can hold is bounded:
//!
//! - at most `MAX_CONNECTIONS` connections open; one more closes the oldest that has sent
//!   no head for a second (`reading.rs`), else it is answered 503 at once;
//! - each has `HEAD_SECONDS` to send its head (`head.rs`: sizes capped too), then 408;
//! - a head read goes to a fixed pool of workers through a bounded queue; a request that
//!   finds the queue full is answered 503 at once rather than kept waiting.
//!
//! A worker that panics (a bug, never bad input: that is a `Refusal`) answers 500 and goes
//! on. tiny_http was used before: it reads a body whose length the client states into
//! one allocation (a `Content-Length` of 99999999999 aborted the process), bounds no
//! header, no idle time and no number of threads, so the reading is done here instead.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::head::{self, Head, Unread};
use super::reading::{Listed, close_oldest_idle};
use super::{Explorer, Refusal, Reply};

/// The most connections open at once (each a thread reading its head, with a small
/// stack): a few hundred slow clients are refused, not given every thread and byte.
pub const MAX_CONNECTIONS: usize = 512;
/// The time a client has, from connecting, to send its request's head (and small body).
pub const HEAD_SECONDS: u64 = 5;
/// The time an answer may take to be written to a client that does not read it.
const WRITE_SECONDS: u64 = 10;
/// A thread that only reads a head needs little stack (its buffers are on the heap).
const READER_STACK: usize = 128 * 1024;
/// After refusing a request before reading all of it, how long and how much of the rest
/// is read and dropped so that the refusal is not lost to a reset (a close with unread
/// bytes resets the connection, and the client may lose what it was sent).
const LINGER: Duration = Duration::from_millis(500);
const LINGER_BYTES: usize = 256 * 1024;

/// How many workers answer and how many requests may wait for one.
#[derive(Clone, Copy, Debug)]
pub struct Pool {
    pub workers: usize,
    pub queue: usize,
}

/// A request read, on its way to a worker; the connection counts as open until dropped.
struct Job {
    head: Head,
    stream: TcpStream,
    _open: Open,
}

/// Connections open now, in this process (one server per process).
static OPEN: AtomicUsize = AtomicUsize::new(0);
/// Connections over `MAX_CONNECTIONS` being refused now (each on a short-lived thread, so
/// that its 503 is not lost to a reset): past `MAX_REFUSING`, closed without a word.
static REFUSING: AtomicUsize = AtomicUsize::new(0);
const MAX_REFUSING: usize = 64;

/// One connection counted in `counter` until dropped.
struct Open(&'static AtomicUsize);

impl Open {
    /// Counts one more in `counter`, unless it already holds `max`.
    fn take(counter: &'static AtomicUsize, max: usize) -> Option<Open> {
        counter
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                (n < max).then_some(n + 1)
            })
            .ok()
            .map(|_| Open(counter))
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Answers the connections `listener` accepts with `explorer`, until accepting fails for
/// good.
pub fn serve(listener: &TcpListener, explorer: &Explorer, pool: Pool) {
    let (send, receive) = sync_channel::<Job>(pool.queue);
    let receive = Mutex::new(receive);
    std::thread::scope(|s| {
        for _ in 0..pool.workers {
            s.spawn(|| work(&receive, explorer));
        }
        let mut failures = 0;
        loop {
            let stream = match listener.accept() {
                Ok((stream, _)) => stream,
                // Out of file descriptors or a connection reset before it was taken: try
                // again a little later; give up only when accepting never works.
                Err(_) => {
                    failures += 1;
                    if failures > 1000 {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                }
            };
            failures = 0;
            let Some(open) = Open::take(&OPEN, MAX_CONNECTIONS).or_else(make_room) else {
                if let Some(refusing) = Open::take(&REFUSING, MAX_REFUSING) {
                    let _ = std::thread::Builder::new()
                        .stack_size(READER_STACK)
                        .spawn(move || refuse_full(stream, refusing));
                }
                continue;
            };
            let send = send.clone();
            let spawned = std::thread::Builder::new()
                .stack_size(READER_STACK)
                .spawn(move || take(stream, open, &send, pool));
            // No thread to be had: the connection (moved into the closure) is closed.
            drop(spawned);
        }
        // Dropping the sender ends the workers once the queue is empty.
        drop(send);
    });
}

/// Every place taken: closes the oldest connection idle long enough, if any, and takes its
/// place once its reader has given it up (within a moment: it only has to see the end of
/// its stream).
fn make_room() -> Option<Open> {
    if !close_oldest_idle() {
        return None;
    }
    let until = Instant::now() + Duration::from_millis(200);
    while Instant::now() < until {
        if let Some(open) = Open::take(&OPEN, MAX_CONNECTIONS) {
            return Some(open);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    None
}

/// Answers a connection past `MAX_CONNECTIONS` with 503.
fn refuse_full(stream: TcpStream, _refusing: Open) {
    let busy = Refusal::Busy(format!(
        "busy: {MAX_CONNECTIONS} connections are open; try again in a moment"
    ));
    write_reply(&stream, "GET", Reply::refused(&busy));
    linger(&stream);
}

/// One connection's reader: reads its head in time and hands it to a worker, or answers
/// at once (a refused head, or every worker and the queue taken).
fn take(mut stream: TcpStream, open: Open, send: &SyncSender<Job>, pool: Pool) {
    let deadline = Instant::now() + Duration::from_secs(HEAD_SECONDS);
    let listed = Listed::new(&stream);
    let head = head::read(&mut stream, deadline);
    drop(listed);
    let head = match head {
        Ok(head) => head,
        Err(Unread::Gone) => return,
        Err(Unread::Refused(r)) => {
            write_reply(&stream, "GET", Reply::refused(&r));
            linger(&stream);
            return;
        }
    };
    let job = Job {
        head,
        stream,
        _open: open,
    };
    match send.try_send(job) {
        Ok(()) => {}
        Err(TrySendError::Full(job) | TrySendError::Disconnected(job)) => {
            let busy = Refusal::Busy(format!(
                "busy: {} requests are being answered or waiting; try again in a moment",
                pool.workers + pool.queue
            ));
            write_reply(&job.stream, &job.head.method, Reply::refused(&busy));
        }
    }
}

/// One worker: takes requests off the queue until it is closed.
fn work(queue: &Mutex<Receiver<Job>>, explorer: &Explorer) {
    loop {
        // The lock is held only to take one request: the answer is made without it.
        let next = queue.lock().unwrap_or_else(PoisonError::into_inner).recv();
        let Ok(job) = next else {
            return;
        };
        let answer = catch_unwind(AssertUnwindSafe(|| {
            explorer.respond(&job.head.method, &job.head.target)
        }))
        .unwrap_or_else(|_| Reply {
            status: 500,
            content_type: "text/plain; charset=utf-8",
            body: "internal error: the request failed (a bug; the server goes on)\n".into(),
        });
        write_reply(&job.stream, &job.head.method, answer);
    }
}

/// Sends `answer` (its head alone to a HEAD) and ends the connection; a client that went
/// away is no concern of the server's.
fn write_reply(mut stream: &TcpStream, method: &str, answer: Reply) {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n",
        answer.status,
        reason(answer.status),
        answer.content_type,
        answer.body.len()
    );
    match answer.status {
        405 => head.push_str("Allow: GET, HEAD\r\n"),
        503 => head.push_str("Retry-After: 1\r\n"),
        _ => {}
    }
    head.push_str("\r\n");
    let _ = stream.set_write_timeout(Some(Duration::from_secs(WRITE_SECONDS)));
    let mut bytes = head.into_bytes();
    // HEAD is GET without the body: the same head, Content-Length included (RFC 9110 9.3.2).
    if method != "HEAD" {
        bytes.extend_from_slice(answer.body.as_bytes());
    }
    let _ = stream.write_all(&bytes);
    let _ = stream.shutdown(Shutdown::Write);
}

/// Reads and drops what the client still sends, a little while, after a refusal.
fn linger(mut stream: &TcpStream) {
    let until = Instant::now() + LINGER;
    let mut dropped = 0;
    let mut chunk = [0u8; 4096];
    while dropped < LINGER_BYTES {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            return;
        }
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => return,
            Ok(n) => dropped += n,
        }
    }
}

/// The reason phrase of each status the explorer answers with.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        413 => "Content Too Large",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "",
    }
}
