//! The query string of a request (`board=5x5&walls=4&moves=c2+c4`): percent-decoded,
//! checked against the parameters a route takes, every fault a one-line `Refusal`.

use super::Refusal;
use crate::error::clip;

/// The decoded parameters of one request, in the order given.
#[derive(Debug)]
pub struct Query {
    pairs: Vec<(String, String)>,
}

impl Query {
    /// Reads `text` (what follows `?`, without it) as `name=value` pairs joined by `&`,
    /// each percent-decoded with `+` as a space (HTML forms' encoding). A name not among
    /// `known`, or given twice, is refused: a misspelt parameter silently ignored would
    /// answer a question that was not asked.
    pub fn parse(text: &str, known: &[&str]) -> Result<Query, Refusal> {
        let mut pairs: Vec<(String, String)> = Vec::new();
        for part in text.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = part.split_once('=').unwrap_or((part, ""));
            let (name, value) = (decode(name)?, decode(value)?);
            if !known.contains(&name.as_str()) {
                return Err(Refusal::Bad(format!(
                    "unknown parameter '{}': this request takes {}",
                    clip(&name),
                    known.join(", ")
                )));
            }
            if pairs.iter().any(|(n, _)| *n == name) {
                return Err(Refusal::Bad(format!("{name} is given twice")));
            }
            pairs.push((name, value));
        }
        Ok(Query { pairs })
    }

    /// The value of `name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The value of `name`, which must be given; `example` shows one in the refusal.
    pub fn require(&self, name: &str, example: &str) -> Result<&str, Refusal> {
        self.get(name).ok_or_else(|| {
            Refusal::Bad(format!(
                "{name} is missing: give it in the query, e.g. {name}={example}"
            ))
        })
    }
}

/// `text` with `+` read as a space and each `%XX` as the byte XX; the bytes must be UTF-8.
fn decode(text: &str) -> Result<String, Refusal> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let byte = bytes
                    .get(i + 1..i + 3)
                    .and_then(|hex| std::str::from_utf8(hex).ok())
                    .and_then(|hex| u8::from_str_radix(hex, 16).ok())
                    .ok_or_else(|| {
                        let bad = String::from_utf8_lossy(&bytes[i..(i + 3).min(bytes.len())]);
                        Refusal::Bad(format!(
                            "malformed query: '{}' is not a percent-encoded byte (%XX, two \
                             hexadecimal digits)",
                            clip(&bad)
                        ))
                    })?;
                out.push(byte);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out)
        .map_err(|_| Refusal::Bad("malformed query: the decoded text is not UTF-8".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bad(r: Result<Query, Refusal>) -> String {
        match r {
            Err(Refusal::Bad(m)) => m,
            other => panic!("not refused as bad: {other:?}"),
        }
    }

    #[test]
    fn decodes_plus_and_percent_escapes() {
        let q = Query::parse("board=5x5&moves=1.+c2%20c4&position=%2F", &KNOWN).unwrap();
        assert_eq!(q.get("board"), Some("5x5"));
        assert_eq!(q.get("moves"), Some("1. c2 c4"));
        assert_eq!(q.get("position"), Some("/"));
        assert_eq!(q.get("walls"), None);
        let q = Query::parse("walls&board=%C3%A9", &KNOWN).unwrap();
        assert_eq!(q.get("walls"), Some(""));
        assert_eq!(q.get("board"), Some("é"));
    }

    const KNOWN: [&str; 4] = ["board", "walls", "position", "moves"];

    #[test]
    fn every_malformed_query_is_one_line_refused() {
        for (text, want) in [
            ("board=%zz", "'%zz' is not a percent-encoded byte"),
            ("board=5x5%", "'%' is not a percent-encoded byte"),
            ("board=%4", "'%4' is not a percent-encoded byte"),
            ("board=%ff", "not UTF-8"),
            ("colour=red", "unknown parameter 'colour'"),
            ("board=5x5&board=3x3", "board is given twice"),
        ] {
            let m = bad(Query::parse(text, &KNOWN));
            assert!(m.contains(want), "{text}: {m}");
            assert_eq!(m.lines().count(), 1);
        }
        let long = format!("{}=1", "x".repeat(100_000));
        let m = bad(Query::parse(&long, &KNOWN));
        assert!(m.len() < 200, "{m}");
    }

    #[test]
    fn a_missing_parameter_is_named() {
        let q = Query::parse("walls=1", &KNOWN).unwrap();
        match q.require("board", "5x5") {
            Err(Refusal::Bad(m)) => {
                assert_eq!(m, "board is missing: give it in the query, e.g. board=5x5")
            }
            other => panic!("{other:?}"),
        }
    }
}
