//! The head of a request (its request line and header fields), read from the socket within
//! fixed limits of size and time: no byte a client sends, and no number it writes in a
//! header, sizes what the server holds. The explorer takes no body; a small one is read and
//! dropped, a larger one refused.
//!
//! ```text
//!   GET /api/analyze?board=5x5&walls=4 HTTP/1.1 CRLF   request line: at most MAX_LINE
//!   Host: 127.0.0.1:8080 CRLF                          fields: at most MAX_FIELDS,
//!   ...                                                the whole head at most MAX_HEAD
//!   CRLF                                               (a bare LF ends a line too)
//! ```

use std::io::{ErrorKind, Read};
use std::net::TcpStream;
use std::time::Instant;

use super::{MAX_TARGET, Refusal};

/// The longest request line read: the longest target answered and room for the method
/// and version. A longer one is refused (400) once this much has come without a line end.
pub const MAX_LINE: usize = MAX_TARGET + 64;
/// The longest head read, request line included (a browser's is under 2 KiB).
pub const MAX_HEAD: usize = MAX_LINE + 16 * 1024;
/// The most header fields read (a browser sends about 15).
pub const MAX_FIELDS: usize = 100;
/// The longest body read (and dropped) on a GET: no route takes one.
pub const MAX_BODY: u64 = 4 * 1024;

/// A request's head, checked.
#[derive(Debug)]
pub struct Head {
    /// `GET` or `HEAD`: any other is refused while reading.
    pub method: String,
    /// The path and query.
    pub target: String,
}

/// Why no request was read.
#[derive(Debug)]
pub enum Unread {
    /// The client closed, or the socket failed, before a whole head: nothing to answer.
    Gone,
    /// A head the server refuses, answered with the refusal's status.
    Refused(Refusal),
}

impl From<Refusal> for Unread {
    fn from(r: Refusal) -> Unread {
        Unread::Refused(r)
    }
}

/// Reads one request's head from `stream`, and its body if small, by `deadline`.
pub fn read(stream: &mut TcpStream, deadline: Instant) -> Result<Head, Unread> {
    let mut buf = Vec::with_capacity(1024);
    let end = loop {
        if let Some(end) = head_end(&buf) {
            break end;
        }
        if !buf.contains(&b'\n') && buf.len() > MAX_LINE {
            return Err(Refusal::Bad(format!(
                "the request line is over {MAX_LINE} bytes; at most {MAX_TARGET} characters of \
                 path and query are read"
            ))
            .into());
        }
        if buf.len() > MAX_HEAD {
            return Err(Refusal::HeadTooLarge(format!(
                "the request's head is over {MAX_HEAD} bytes: at most {MAX_HEAD} are read"
            ))
            .into());
        }
        let mut chunk = [0u8; 4096];
        // Never past the limit by more than one chunk.
        let n = read_by(stream, &mut chunk, deadline)?;
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = parse(&buf[..end])?;
    // What came after the head is the start of a body.
    let body_read = buf.len() - end;
    drop_body(stream, head.1, body_read as u64, deadline)?;
    Ok(head.0)
}

/// One read of at most `buf.len()` bytes, waiting no later than `deadline`.
fn read_by(stream: &mut TcpStream, buf: &mut [u8], deadline: Instant) -> Result<usize, Unread> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(timed_out());
    }
    stream
        .set_read_timeout(Some(left))
        .map_err(|_| Unread::Gone)?;
    match stream.read(buf) {
        Ok(0) => Err(Unread::Gone),
        Ok(n) => Ok(n),
        Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
            Err(timed_out())
        }
        Err(_) => Err(Unread::Gone),
    }
}

fn timed_out() -> Unread {
    Unread::Refused(Refusal::TimedOut(
        "the request did not come in time; the connection is closed".into(),
    ))
}

/// Where the head ends (past its empty line), if it has: `\r\n\r\n` or `\n\n` (a line's
/// `\r` is optional).
fn head_end(buf: &[u8]) -> Option<usize> {
    // Empty lines before the request line are skipped (RFC 9112 2.2), not an end.
    let start = buf.iter().position(|&b| b != b'\r' && b != b'\n')?;
    let mut line_start = start;
    for (i, &b) in buf.iter().enumerate().skip(start) {
        if b == b'\n' {
            let line = &buf[line_start..i];
            if line.is_empty() || line == b"\r" {
                return Some(i + 1);
            }
            line_start = i + 1;
        }
    }
    None
}

/// What the head says: the request, and how long its body is.
fn parse(head: &[u8]) -> Result<(Head, Body), Refusal> {
    let bad = |what: &str| Refusal::Bad(format!("malformed request: {what}"));
    let text = std::str::from_utf8(head).map_err(|_| bad("the head is not UTF-8"))?;
    let mut lines = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .skip_while(|l| l.is_empty());
    let request_line = lines.next().unwrap_or("");
    let parts: Vec<&str> = request_line.split(' ').collect();
    let [method, target, version] = parts[..] else {
        return Err(bad("the request line is not METHOD TARGET HTTP/1.1"));
    };
    match version {
        "HTTP/1.1" | "HTTP/1.0" => {}
        v if v.starts_with("HTTP/") => {
            return Err(Refusal::Version(format!(
                "{}: this server speaks HTTP/1.1 (and 1.0)",
                crate::error::clip(v)
            )));
        }
        _ => return Err(bad("the request line is not METHOD TARGET HTTP/1.1")),
    }
    let mut body = Body::None;
    let mut fields = 0;
    for line in lines.take_while(|l| !l.is_empty()) {
        fields += 1;
        if fields > MAX_FIELDS {
            return Err(Refusal::HeadTooLarge(format!(
                "the request has over {MAX_FIELDS} header fields; at most {MAX_FIELDS} are read"
            )));
        }
        if line.starts_with([' ', '\t']) {
            return Err(bad("a header line is folded (obsolete in HTTP/1.1)"));
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(bad("a header line has no ':'"));
        };
        if name.is_empty() || name.contains([' ', '\t']) {
            return Err(bad("a header name is empty or holds a space"));
        }
        let value = value.trim_matches([' ', '\t']);
        if name.eq_ignore_ascii_case("content-length") {
            let length = (!value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()))
                .then(|| value.parse::<u64>().unwrap_or(u64::MAX))
                .ok_or_else(|| bad("Content-Length is not a number"))?;
            body = match body {
                Body::None => Body::Length(length),
                Body::Length(l) if l == length => body,
                _ => return Err(bad("Content-Length is given twice, differently")),
            };
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            body = Body::Chunked;
        }
    }
    if method != "GET" && method != "HEAD" {
        return Err(Refusal::Method(format!(
            "{}: this server only answers GET and HEAD (it changes nothing)",
            crate::error::clip(method)
        )));
    }
    Ok((
        Head {
            method: method.into(),
            target: target.into(),
        },
        body,
    ))
}

/// A request's body, by its head.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Body {
    None,
    Length(u64),
    /// `Transfer-Encoding`: a length only the body itself tells.
    Chunked,
}

/// Reads and drops a body of at most `MAX_BODY` bytes (`read` of them already came with
/// the head); refuses a longer one, or one of unknown length, before reading it.
fn drop_body(
    stream: &mut TcpStream,
    body: Body,
    read: u64,
    deadline: Instant,
) -> Result<(), Unread> {
    let length = match body {
        Body::None => return Ok(()),
        Body::Length(l) if l <= MAX_BODY => l,
        _ => {
            return Err(Refusal::BodyTooLarge(format!(
                "a body of over {MAX_BODY} bytes or of no stated length: this server takes no \
                 body (GET and HEAD only)"
            ))
            .into());
        }
    };
    let mut left = length.saturating_sub(read);
    let mut chunk = [0u8; 1024];
    while left > 0 {
        let n = read_by(stream, &mut chunk[..left.min(1024) as usize], deadline)?;
        left -= n as u64;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_head_ends_at_its_first_empty_line_with_or_without_cr() {
        assert_eq!(head_end(b"GET / HTTP/1.1\r\nA: b\r\n\r\nrest"), Some(24));
        assert_eq!(head_end(b"GET / HTTP/1.1\nA: b\n\nrest"), Some(21));
        assert_eq!(head_end(b"\r\nGET / HTTP/1.1\r\n\r\n"), Some(20));
        assert_eq!(head_end(b"GET / HTTP/1.1\r\nA: b\r\n"), None);
        assert_eq!(head_end(b"\r\n\r\n"), None);
    }

    #[test]
    fn a_head_is_parsed_or_refused_with_its_status() {
        let (head, body) =
            parse(b"GET /a?b=c HTTP/1.1\r\nHost: x\r\ncontent-length: 3\r\n\r\n").unwrap();
        assert_eq!(
            (head.method.as_str(), head.target.as_str()),
            ("GET", "/a?b=c")
        );
        assert_eq!(body, Body::Length(3));
        let huge = parse(b"GET / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n");
        assert_eq!(huge.unwrap().1, Body::Length(u64::MAX));
        for (head, status) in [
            (&b"POST / HTTP/1.1\r\n\r\n"[..], 405),
            (b"GET / HTTP/2.0\r\n\r\n", 505),
            (b"GET /\r\n\r\n", 400),
            (b"GET  / HTTP/1.1\r\n\r\n", 400),
            (b"GET / HTTP/1.1\r\nNoColon\r\n\r\n", 400),
            (b"GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400),
            (
                b"GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
                400,
            ),
        ] {
            let got = parse(head).map(|_| ()).unwrap_err();
            assert_eq!(got.status(), status, "{:?}", String::from_utf8_lossy(head));
        }
    }
}
