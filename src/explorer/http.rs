//! The explorer over HTTP (`tiny_http`): a fixed pool of workers answers requests, and a
//! bounded queue holds those waiting; a request that finds the queue full is answered at
//! once with 503 rather than kept waiting. Each answer closes nothing the explorer holds:
//! a worker that panics (a bug, never bad input: that is a `Refusal`) is reported as 500
//! and the worker goes on.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, TrySendError, sync_channel};

use super::{Explorer, Refusal, Reply};

/// How many workers answer and how many requests may wait for one.
#[derive(Clone, Copy, Debug)]
pub struct Pool {
    pub workers: usize,
    pub queue: usize,
}

/// Answers the requests `server` receives with `explorer`, until receiving fails (the
/// server was unblocked or its socket closed).
pub fn serve(server: &tiny_http::Server, explorer: &Explorer, pool: Pool) {
    let (send, receive) = sync_channel::<tiny_http::Request>(pool.queue);
    let receive = Mutex::new(receive);
    std::thread::scope(|s| {
        for _ in 0..pool.workers {
            s.spawn(|| work(&receive, explorer));
        }
        while let Ok(request) = server.recv() {
            match send.try_send(request) {
                Ok(()) => {}
                Err(TrySendError::Full(request)) => {
                    let busy = Refusal::Busy(format!(
                        "busy: {} requests are being answered or waiting; try again in a \
                         moment",
                        pool.workers + pool.queue
                    ));
                    reply(request, Reply::refused(&busy));
                }
                Err(TrySendError::Disconnected(_)) => break,
            }
        }
        // Dropping the sender ends the workers once the queue is empty.
        drop(send);
    });
}

/// One worker: takes requests off the queue until it is closed.
fn work(queue: &Mutex<Receiver<tiny_http::Request>>, explorer: &Explorer) {
    loop {
        // The lock is held only to take one request: the answer is made without it.
        let next = queue.lock().unwrap_or_else(|p| p.into_inner()).recv();
        let Ok(request) = next else {
            return;
        };
        let method = request.method().as_str().to_string();
        let answer = catch_unwind(AssertUnwindSafe(|| {
            explorer.respond(&method, request.url())
        }))
        .unwrap_or_else(|_| Reply {
            status: 500,
            content_type: "text/plain; charset=utf-8",
            body: "internal error: the request failed (a bug; the server goes on)\n".into(),
        });
        reply(request, answer);
    }
}

/// Sends `answer`; a client that went away is no concern of the server's.
fn reply(request: tiny_http::Request, answer: Reply) {
    let header = |name: &str, value: &str| {
        tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
    };
    let response = tiny_http::Response::from_string(answer.body)
        .with_status_code(answer.status)
        .with_header(header("Content-Type", answer.content_type))
        // Answers depend on the tables the server was started with: never reuse one.
        .with_header(header("Cache-Control", "no-store"))
        .with_header(header("X-Content-Type-Options", "nosniff"));
    let _ = request.respond(response);
}
