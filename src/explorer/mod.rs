//! `serve`'s explorer of solved cells: one page and a JSON API, answered from saved tables
//! kept in memory (a lookup per question) or, for cells small enough, by solving the cell
//! for the request within the server's limits. Routing, parameters and refusals live here,
//! free of any socket, so they are tested as plain calls; `http.rs` carries them over HTTP.
//!
//! Routes (GET): `/` the page (`assets/`), `/map` every cell as a table of links
//! (`map.rs`), `/api/cells` what can be answered and the cells kept,
//! `/api/analyze` the JSON of `analyze --json` (one function makes both,
//! `report::analyze`), `/api/picture` the position as SVG with a target per legal move.
//!
//! A request never writes to disk, and at most one cell is solved at a time (the others
//! that would solve are told the server is busy, never queued behind a long analysis);
//! the cells solved are kept within the memory allowed, the least recently used dropped
//! first (`kept.rs`, `shelf.rs`), even for a client that gave up.
//!
//! Depends on `analysis`, `report`, `picture`, `retro`, `tables`; prints nothing.

mod head;
pub mod http;
mod kept;
mod map;
mod query;
mod reading;
mod shelf;

use std::path::PathBuf;
use std::time::Instant;

use crate::cell::analysis::Analyst;
use crate::cell::estimate::CellEstimate;
use crate::error::{Error, format_bytes};
use crate::retro::{self, Keep, Solved};
use crate::rules::cell::Cell;
use crate::rules::geometry::Board;
use crate::rules::notation::{parse_moves, parse_record};
use crate::rules::position::{Position, parse_walls_per_player};
use crate::support::progress::Silent;
use kept::Kept;
use query::Query;
use serde::Serialize;

/// The page and what it loads, embedded in the binary: no build step, nothing to install.
const PAGE: &str = include_str!("../../assets/explorer.html");
/// The files the page loads (its scripts share one scope, in the order the page lists
/// them): path, content type and text.
const ASSETS: [(&str, &str, &str); 5] = [
    (
        "/explorer.css",
        CSS,
        include_str!("../../assets/explorer.css"),
    ),
    ("/board.js", JS, include_str!("../../assets/board.js")),
    ("/story.js", JS, include_str!("../../assets/story.js")),
    ("/play.js", JS, include_str!("../../assets/play.js")),
    ("/explorer.js", JS, include_str!("../../assets/explorer.js")),
];
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";

/// The longest request target (path and query) answered: far beyond any real position's
/// (a record of 8x8 with every wall is under 300 characters, a long line of moves a few
/// thousand), short enough that no request makes the server hold much.
pub const MAX_TARGET: usize = 16 * 1024;

/// What a request may cost when it solves its cell (`serve --max-seconds`, `--memory`).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The longest estimated time of a cell's retrograde analysis, tables included.
    pub seconds: f64,
    /// The most bytes the cell's tables and analysis may take.
    pub memory: u64,
}

/// A saved table read whole at start (every layer), and where it came from.
pub struct Saved<'t> {
    pub solved: Solved<'t>,
    pub dir: PathBuf,
}

impl Saved<'_> {
    fn cell(&self) -> Cell {
        let configs = self.solved.configs();
        Cell {
            board: configs.board(),
            walls: configs.walls_per_player(),
        }
    }
}

/// Why a request is not answered, each with its HTTP status and a one-line message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// 400: a malformed board, record, move or query; the message is the command line's.
    Bad(String),
    /// 404: no such page.
    NotFound(String),
    /// 405: anything but GET or HEAD.
    Method(String),
    /// 408: the request's head did not come in time.
    TimedOut(String),
    /// 413: a body, over the few bytes read and dropped (no route takes one).
    BodyTooLarge(String),
    /// 422: a cell neither saved nor small enough to solve within the limits.
    TooLarge(String),
    /// 431: a request's head over its limits (`head.rs`).
    HeadTooLarge(String),
    /// 503: another request is solving its cell, or the server's connections or workers
    /// are all taken.
    Busy(String),
    /// 505: an HTTP version other than 1.0 and 1.1.
    Version(String),
}

impl Refusal {
    pub fn status(&self) -> u16 {
        match self {
            Refusal::Bad(_) => 400,
            Refusal::NotFound(_) => 404,
            Refusal::Method(_) => 405,
            Refusal::TimedOut(_) => 408,
            Refusal::BodyTooLarge(_) => 413,
            Refusal::TooLarge(_) => 422,
            Refusal::HeadTooLarge(_) => 431,
            Refusal::Busy(_) => 503,
            Refusal::Version(_) => 505,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            Refusal::Bad(m)
            | Refusal::NotFound(m)
            | Refusal::Method(m)
            | Refusal::TimedOut(m)
            | Refusal::BodyTooLarge(m)
            | Refusal::TooLarge(m)
            | Refusal::HeadTooLarge(m)
            | Refusal::Busy(m)
            | Refusal::Version(m) => m,
        }
    }
}

impl From<Error> for Refusal {
    /// The library's refusals of input are bad requests; running out of the memory
    /// allowed is the cell being too large.
    fn from(e: Error) -> Refusal {
        match e {
            // The explorer speaks `serve`'s flags in its refusals (see `check_solvable`),
            // so the budget's is named here as the command line names it.
            Error::Memory { .. } => Refusal::TooLarge(format!("{e} (raise it with --memory)")),
            _ => Refusal::Bad(e.to_string()),
        }
    }
}

/// A response: status, content type, body.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: String,
}

impl Reply {
    fn ok(content_type: &'static str, body: String) -> Reply {
        Reply {
            status: 200,
            content_type,
            body,
        }
    }

    /// The refusal's one line, as plain text with a newline.
    pub fn refused(r: &Refusal) -> Reply {
        Reply {
            status: r.status(),
            content_type: "text/plain; charset=utf-8",
            body: format!("{}\n", r.message()),
        }
    }
}

/// The parameters of the routes that take a position.
const POSITION_PARAMETERS: [&str; 4] = ["board", "walls", "position", "moves"];

/// Answers the requests of the explorer (see the module doc).
pub struct Explorer<'t> {
    saved: Vec<Saved<'t>>,
    /// The cells a request may solve, smallest first (`solvable_cells`).
    on_request: Vec<Cell>,
    limits: Limits,
    /// The cells solved on request, kept each by a thread of its own.
    kept: Kept,
}

impl<'t> Explorer<'t> {
    /// An explorer of the `saved` tables (at most one per cell: the caller checks) and of
    /// the cells that fit `limits`.
    pub fn new(saved: Vec<Saved<'t>>, limits: Limits) -> Explorer<'t> {
        Explorer {
            saved,
            on_request: solvable_cells(limits),
            limits,
            kept: Kept::start(limits),
        }
    }

    /// How many cells a request may solve (saved or not).
    pub fn solvable_count(&self) -> usize {
        self.on_request.len()
    }

    /// The reply to a request of `method` for `target` (path and query).
    pub fn respond(&self, method: &str, target: &str) -> Reply {
        match self.route(method, target) {
            Ok(reply) => reply,
            Err(r) => Reply::refused(&r),
        }
    }

    fn route(&self, method: &str, target: &str) -> Result<Reply, Refusal> {
        if method != "GET" && method != "HEAD" {
            return Err(Refusal::Method(format!(
                "{}: this server only answers GET and HEAD (it changes nothing)",
                crate::error::clip(method)
            )));
        }
        if target.len() > MAX_TARGET {
            return Err(Refusal::Bad(format!(
                "the request is {} characters long; at most {MAX_TARGET} are read",
                target.len()
            )));
        }
        let (path, query) = target.split_once('?').unwrap_or((target, ""));
        if let Some(&(_, kind, text)) = ASSETS.iter().find(|(p, ..)| *p == path) {
            return Ok(Reply::ok(kind, text.into()));
        }
        match path {
            "/" | "/index.html" => Ok(Reply::ok("text/html; charset=utf-8", PAGE.into())),
            "/map" => {
                Query::parse(query, &[])?;
                Ok(Reply::ok("text/html; charset=utf-8", self.map()))
            }
            "/api/cells" => {
                Query::parse(query, &[])?;
                Ok(Reply::ok("application/json", self.cells_json()))
            }
            "/api/analyze" => self.analyze(&Query::parse(query, &POSITION_PARAMETERS)?),
            "/api/picture" => self.picture(&Query::parse(query, &POSITION_PARAMETERS)?),
            _ => Err(Refusal::NotFound(format!(
                "no page {}: the explorer is at /, its map at /map, its API at /api/cells, /api/analyze and \
                 /api/picture",
                crate::error::clip(path)
            ))),
        }
    }

    /// `/api/cells`: every cell answered, saved ones first, the limits, and the cells
    /// solved on request kept now (the most recently used first) with the solves so far.
    fn cells_json(&self) -> String {
        #[derive(Serialize)]
        struct Listed {
            board: String,
            walls: u8,
            /// `saved` or `on request`.
            source: &'static str,
        }
        #[derive(Serialize)]
        struct KeptCell {
            board: String,
            walls: u8,
            /// The walls on the board of the positions it answers: from, to.
            layers: [usize; 2],
            bytes: u64,
        }
        #[derive(Serialize)]
        struct Cells {
            cells: Vec<Listed>,
            max_seconds: f64,
            memory: u64,
            kept: Vec<KeptCell>,
            solves: u64,
        }
        let (kept, solves) = self.kept.listed();
        let kept = kept
            .into_iter()
            .map(|k| KeptCell {
                board: k.cell.board.to_string(),
                walls: k.cell.walls,
                layers: [k.layers.0, k.layers.1],
                bytes: k.bytes,
            })
            .collect();
        let listed = |c: Cell, source| Listed {
            board: c.board.to_string(),
            walls: c.walls,
            source,
        };
        let saved = self.saved.iter().map(|s| listed(s.cell(), "saved"));
        let on_request = self
            .on_request
            .iter()
            .filter(|c| self.saved_cell(**c).is_none())
            .map(|&c| listed(c, "on request"));
        serde_json::to_string(&Cells {
            cells: saved.chain(on_request).collect(),
            max_seconds: self.limits.seconds,
            memory: self.limits.memory,
            kept,
            solves,
        })
        .expect("serializable")
    }

    /// `/map`: every cell listed, a saved one with its start's verdict (a lookup in its
    /// table; nothing is solved).
    fn map(&self) -> String {
        let saved = self.saved.iter().map(|s| {
            let cell = s.cell();
            let start = Position::start(cell.board, cell.walls).expect("a saved cell starts");
            let verdict = Analyst::shared(&s.solved).verdict(&start, &Silent);
            (cell, map::Known::Saved(verdict))
        });
        let on_request = self
            .on_request
            .iter()
            .filter(|c| self.saved_cell(**c).is_none())
            .map(|&c| (c, map::Known::OnRequest));
        map::page(&saved.chain(on_request).collect::<Vec<_>>())
    }

    /// `/api/analyze`: the JSON of `analyze --json` for the position asked.
    fn analyze(&self, q: &Query) -> Result<Reply, Refusal> {
        let started = Instant::now();
        let (cell, position) = position_of(q)?;
        let json = |analyst: &mut Analyst| {
            let answer = crate::output::report::analyze::answer(analyst, &position, None, &Silent);
            let seconds = started.elapsed().as_secs_f64();
            crate::output::report::analyze::json(
                cell.board, cell.walls, &position, &answer, seconds,
            )
        };
        if let Some(saved) = self.saved_cell(cell) {
            return Ok(Reply::ok(
                "application/json",
                json(&mut Analyst::shared(&saved.solved)),
            ));
        }
        self.check_solvable(cell)?;
        let json = self.kept.analyze(cell, position, started)?;
        Ok(Reply::ok("application/json", json))
    }

    /// `/api/picture`: the position as SVG, a target on each legal move (no solving: the
    /// page colours them from `/api/analyze`).
    fn picture(&self, q: &Query) -> Result<Reply, Refusal> {
        let (cell, position) = position_of(q)?;
        let actions = position.legal_actions(cell.board);
        Ok(Reply::ok(
            "image/svg+xml",
            crate::output::picture::render_with_targets(cell.board, &position, &actions),
        ))
    }

    fn saved_cell(&self, cell: Cell) -> Option<&Saved<'t>> {
        self.saved.iter().find(|s| s.cell() == cell)
    }

    /// Refuses a cell that may not be solved for a request, saying why and what to do.
    fn check_solvable(&self, cell: Cell) -> Result<(), Refusal> {
        let fit = match self.on_request.iter().any(|c| c.board == cell.board) {
            // A board listed is small: its estimate takes microseconds.
            true => fits(cell, self.limits),
            // A board not listed fits with no walls at all, nor with more (see
            // `solvable_cells`): refused without an estimate, which takes long on the
            // largest boards.
            false => Fit::Unlisted,
        };
        let why = match fit {
            Fit::Unlisted | Fit::NotRetro if !retro::handles(cell.board) => {
                // Neither solved here nor savable: `solve --method retro` refuses it too.
                return Err(Refusal::TooLarge(format!(
                    "{cell} cannot be explored: the retrograde analysis, which the explorer \
                     answers from, handles boards of at most {} cells, so it can be neither \
                     solved on request nor saved ({} has {})",
                    retro::MAX_SQUARES,
                    cell.board,
                    cell.board.squares()
                )));
            }
            Fit::Unlisted | Fit::NotRetro => format!(
                "solving it would exceed this server's limits even with no walls (--max-seconds \
                 {} s, --memory {})",
                self.limits.seconds,
                format_bytes(self.limits.memory)
            ),
            Fit::Seconds(s) => format!(
                "solving it would take an estimated {}, over this server's limit of {} s \
                 (--max-seconds)",
                duration_text(s),
                self.limits.seconds
            ),
            Fit::Bytes(b) => format!(
                "solving it would take an estimated {}, over this server's limit of {} \
                 (--memory)",
                format_bytes(b),
                format_bytes(self.limits.memory)
            ),
            Fit::Yes => return Ok(()),
        };
        Err(Refusal::TooLarge(format!(
            "{cell} is not saved here and {why}: save it with `solve {} --walls {} --method \
             retro --save DIR` and start the server with --table DIR",
            cell.board, cell.walls
        )))
    }
}

/// An estimated time in words: seconds, hours or years as fits (estimates of the largest
/// cells run to millions of years, which no one reads in seconds).
fn duration_text(seconds: f64) -> String {
    const HOUR: f64 = 3600.0;
    const YEAR: f64 = 365.0 * 24.0 * HOUR;
    match seconds {
        s if s < HOUR => format!("{s:.1} s"),
        s if s < YEAR => format!("{:.1} hours", s / HOUR),
        s => format!("{:.0e} years", s / YEAR),
    }
}

/// The cell and position a request names: `board` and `walls`, then the start or
/// `position` (a record), then `moves` played from it. The messages are the command
/// line's (`analyze`), but that the API takes `position` and `moves` together.
fn position_of(q: &Query) -> Result<(Cell, Position), Refusal> {
    let board = Board::parse(q.require("board", "5x5")?)?;
    let walls = parse_walls_per_player("walls", q.require("walls", "4")?)?;
    let start = match q.get("position") {
        Some(record) => parse_record(board, record, Some(walls))?,
        None => Position::start(board, walls)?,
    };
    let position = match q.get("moves") {
        Some(moves) => parse_moves(board, start, moves)?.1,
        None => start,
    };
    Ok((Cell { board, walls }, position))
}

/// Whether a cell may be solved within `limits`, or what it exceeds.
#[derive(Debug, PartialEq)]
enum Fit {
    Yes,
    /// Not estimated: its board is not among those listed.
    Unlisted,
    NotRetro,
    Seconds(f64),
    Bytes(u64),
}

/// Whether the exact retrograde analysis of `cell`, from the start's layer up (the most
/// any request asks), fits `limits` by its estimates.
fn fits(cell: Cell, limits: Limits) -> Fit {
    if !retro::handles(cell.board) {
        return Fit::NotRetro;
    }
    let e = CellEstimate::new(cell.board, cell.walls);
    let bytes = e
        .tables
        .bytes
        .saturating_add(e.retro.exact_peak(&Keep::Two));
    if e.retro_seconds() > limits.seconds {
        Fit::Seconds(e.retro_seconds())
    } else if !e.retro.exact_fits(e.tables.bytes, limits.memory, Keep::Two) {
        Fit::Bytes(bytes)
    } else {
        Fit::Yes
    }
}

/// The most walls per player a listed cell has: the results table's columns (0 to 10, the
/// standard game's count). A request may still ask for more.
pub const LISTED_WALLS: u8 = 10;

/// Every cell that fits `limits` (up to `LISTED_WALLS`), by board area, then width, then walls. A cell costs
/// more with more walls (more layers and splits of the same configurations) and on a
/// taller board (more configurations and pawn placements), so each walk stops at the
/// first cell that does not fit: the list is whole, and a request for any other cell is
/// refused without estimating it again.
fn solvable_cells(limits: Limits) -> Vec<Cell> {
    let mut cells = Vec::new();
    for width in 2..=crate::rules::geometry::MAX_WIDTH {
        for height in 2.. {
            let Ok(board) = Board::new(width, height) else {
                break;
            };
            let before = cells.len();
            for walls in 0..=LISTED_WALLS {
                let cell = Cell { board, walls };
                if fits(cell, limits) != Fit::Yes {
                    break;
                }
                // Listed even once the board cannot hold both players' walls (more walls
                // then change no outcome, TECHNIQUES.md): each is still a cell one asks for.
                cells.push(cell);
            }
            if cells.len() == before {
                break;
            }
        }
    }
    cells.sort_by_key(|c| (c.board.squares(), c.board.width(), c.walls));
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            seconds: 0.05,
            memory: 256 << 20,
        }
    }

    #[test]
    fn a_cell_is_solved_on_request_exactly_when_it_fits() {
        let e = explorer();
        assert!(e.on_request.contains(&Cell {
            board: Board::new(3, 3).unwrap(),
            walls: 1
        }));
        // Every board of up to 30 cells and up to 8 walls: listed only if it fits, and
        // accepted (listed or not) if and only if it fits.
        for w in 2..=15 {
            for h in 2..=15 {
                let Ok(board) = Board::new(w, h) else {
                    continue;
                };
                if board.squares() > 30 {
                    continue;
                }
                for walls in 0..=8 {
                    let cell = Cell { board, walls };
                    let fit = fits(cell, limits()) == Fit::Yes;
                    assert!(!e.on_request.contains(&cell) || fit, "{cell}");
                    assert_eq!(e.check_solvable(cell).is_ok(), fit, "{cell}");
                }
            }
        }
    }

    fn explorer() -> Explorer<'static> {
        Explorer::new(Vec::new(), limits())
    }

    #[test]
    fn a_cell_solved_on_request_answers_as_analyze_does() {
        let reply = explorer().respond("GET", "/api/analyze?board=3x3&walls=1&moves=b2");
        assert_eq!(reply.status, 200, "{}", reply.body);
        let json: serde_json::Value = serde_json::from_str(&reply.body).unwrap();
        assert_eq!(json["position"], "- / - / b2 b3 / 1 1 / 2");
        assert_eq!(json["method"], "retrograde");
        assert!(json["moves"].as_array().unwrap().len() > 1);
    }

    #[test]
    fn refusals_carry_their_status_and_one_line() {
        let e = explorer();
        for (target, status, want) in [
            (
                "/api/analyze?board=3x&walls=1",
                400,
                "'3x' is not a board size",
            ),
            (
                "/api/analyze?board=3x3&walls=40",
                400,
                "walls 40: walls per player",
            ),
            ("/api/analyze?board=3x3", 400, "walls is missing"),
            ("/api/analyze?board=3x3&walls=1&moves=z9", 400, "z9"),
            (
                "/api/analyze?board=9x9&walls=10",
                422,
                "9x9 with 10 walls cannot be explored",
            ),
            ("/api/analyze?board=16x8&walls=1", 422, "cannot be explored"),
            ("/api/cells?x=1", 400, "unknown parameter 'x'"),
            ("/etc/passwd", 404, "no page /etc/passwd"),
        ] {
            let reply = e.respond("GET", target);
            assert_eq!(reply.status, status, "{target}: {}", reply.body);
            assert!(reply.body.contains(want), "{target}: {}", reply.body);
            assert_eq!(reply.body.lines().count(), 1, "{target}: {}", reply.body);
        }
        assert_eq!(e.respond("POST", "/api/cells").status, 405);
        let huge = format!(
            "/api/analyze?board=3x3&walls=1&moves={}",
            "b2 ".repeat(10_000)
        );
        assert_eq!(e.respond("GET", &huge).status, 400);
    }

    #[test]
    fn the_page_and_its_files_are_served() {
        let e = explorer();
        for (target, kind) in [
            ("/", "text/html"),
            ("/explorer.js", "text/javascript"),
            ("/board.js", "text/javascript"),
            ("/story.js", "text/javascript"),
            ("/play.js", "text/javascript"),
            ("/explorer.css", "text/css"),
        ] {
            let reply = e.respond("GET", target);
            assert_eq!(reply.status, 200);
            assert!(reply.content_type.starts_with(kind));
            assert!(!reply.body.is_empty());
        }
        // The page loads every file served, the scripts in the order listed (the last one
        // starts the page, the others only define what it calls).
        let page = e.respond("GET", "/").body;
        let mut at = 0;
        for (path, kind, _) in ASSETS {
            let tag = match kind {
                CSS => format!("<link rel=\"stylesheet\" href=\"{path}\">"),
                _ => format!("<script src=\"{path}\"></script>"),
            };
            let found = page
                .find(&tag)
                .unwrap_or_else(|| panic!("the page does not load {path}"));
            if kind == JS {
                assert!(found > at, "{path} is not loaded in its order");
                at = found;
            }
        }
        assert_eq!(e.respond("GET", "/nothing.js").status, 404);
    }
}
