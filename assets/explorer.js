// The explorer page: asks the server for the picture of the position (a target on every
// legal move) and for its analysis (the JSON of `analyze --json`), colours each target by
// what it leads to, and plays a move on a click. The state is the cell, the position the
// line starts from, the line and how far along it we are; it lives in the URL, so a link
// reopens the same position and the browser's own back button steps back.
//
// The page's scripts, loaded in this order, share one global scope: board.js (the walls'
// overlay, the last move's mark, touch and keyboard picks), story.js (the chart of the
// game, its marks and the best line), play.js (the computer's side, hidden values, opening
// a pasted record) and this one, which starts the page.
"use strict";

const $ = (id) => document.getElementById(id);
let state = null;
// Only the latest request's answer is drawn: a quick second click wins over a slow first.
let shown = 0;
// The analysis of the position on the board, once it has arrived (null until then).
let current = null;

// The state of a URL's query: board, walls, position (a record, else the start), moves
// (separated by spaces) and at (how many of them are played).
function stateFrom(search) {
  const q = new URLSearchParams(search);
  if (!q.get("board")) return null;
  const line = movesOf(q.get("moves") || "");
  const at = q.has("at") ? Math.max(0, Math.min(line.length, parseInt(q.get("at"), 10) || 0)) : line.length;
  return { board: q.get("board"), walls: q.get("walls") || "0", position: q.get("position"), line, at };
}

// The moves of a line as the notation writes it ("1. c2 c4 2. b2h"), move numbers dropped.
function movesOf(text) {
  return text.split(/\s+/).filter((m) => m && !/^\d+\.+$/.test(m));
}

function query(s, moves) {
  const q = new URLSearchParams({ board: s.board, walls: s.walls });
  if (s.position) q.set("position", s.position);
  if (moves.length) q.set("moves", moves.join(" "));
  return q;
}

function pageQuery(s) {
  const q = query(s, s.line);
  if (s.at !== s.line.length) q.set("at", String(s.at));
  return "?" + q.toString();
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// The body of `url`, or an error with the server's one line. A "busy" answer (503: another
// cell is being solved, or every worker is taken) is asked again after 0.5, 1, 2, 4 and
// 8 s, unless `stale()` says the answer is no longer wanted (an error marked `abandoned`).
async function fetchOk(url, stale = () => false) {
  const abandoned = () => Object.assign(new Error("no longer asked"), { abandoned: true });
  for (let wait = 500; ; wait *= 2) {
    const r = await fetch(url);
    const body = await r.text();
    if (r.ok) return body;
    if (r.status === 503 && stale()) throw abandoned();
    if (r.status !== 503 || wait > 8000) throw new Error(body.trim() || r.statusText);
    $("error").textContent = body.trim() + " (asking again)";
    $("error").hidden = false;
    await sleep(wait);
    if (stale()) throw abandoned();
  }
}

// The analyses asked for, by query: each position's is asked once (the chart, the best line
// and the board share them). A request given up by one asker is asked again by the next.
const analyses = new Map();
const MAX_KEPT = 2000;

async function analysisOf(s, moves, stale = () => false) {
  const key = query(s, moves).toString();
  for (;;) {
    let entry = analyses.get(key);
    if (!entry) {
      if (analyses.size >= MAX_KEPT) analyses.delete(analyses.keys().next().value);
      entry = { promise: fetchOk("/api/analyze?" + key, stale).then(JSON.parse) };
      const asked = entry;
      // A failed request is forgotten (unless a newer one for the same position replaced it).
      asked.promise.then((a) => (asked.value = a), () => analyses.get(key) === asked && analyses.delete(key));
      analyses.set(key, entry);
    }
    try {
      return await entry.promise;
    } catch (e) {
      if (!e.abandoned || stale()) throw e;
    }
  }
}

// The analysis of `moves` from `s`'s start if it has already arrived, else undefined.
function knownAnalysis(s, moves) {
  const entry = analyses.get(query(s, moves).toString());
  return entry && entry.value;
}

// Short label for a target: W7 (wins in 7 plies), L12, D, ?.
function label(verdict) {
  switch (verdict.kind) {
    case "win": return "W" + verdict.plies;
    case "loss": return "L" + verdict.plies;
    case "draw": return "D";
    default: return "?";
  }
}

const valuesHidden = () => document.body.classList.contains("hide-values");

async function show(push) {
  const s = state;
  const ticket = ++shown;
  current = null;
  const q = query(s, s.line.slice(0, s.at)).toString();
  if (push) history.pushState(null, "", pageQuery(s));
  else history.replaceState(null, "", pageQuery(s));
  $("link").href = pageQuery(s);
  drawLine(s);
  // Until this position's answers arrive nothing of the last one stays to be read or
  // clicked as this one's (a move chip of Player 1's was played as Player 2's move while a
  // cell was solved on request): the panel says it is solving, the old board waits.
  waiting(s);
  const stale = () => ticket !== shown;
  const picture = fetchOk("/api/picture?" + q, stale);
  const analysis = analysisOf(s, s.line.slice(0, s.at), stale);
  // Handled below, or dropped with a stale request: never an unhandled rejection.
  analysis.catch(() => {});
  let svg;
  try {
    svg = await picture;
  } catch (e) {
    if (ticket === shown) {
      fail(e.message);
      $("verdict").textContent = "";
      $("board").classList.remove("waiting", "busy");
    }
    return;
  }
  if (ticket !== shown) return;
  // Only a cell the server drew joins the list: a bad board in the URL adds no entry.
  selectCell(s);
  $("board").innerHTML = svg;
  $("board").classList.remove("waiting", "busy");
  decorateBoard(s);
  try {
    const a = await analysis;
    if (ticket !== shown) return;
    current = a;
    colour(a);
    $("error").hidden = true;
    document.body.dataset.drawn = String(ticket);
    afterAnalysis(s, a, ticket);
  } catch (e) {
    if (ticket !== shown) return;
    fail("No values for this position: " + e.message);
    const said = [...$("board").querySelectorAll("text")].map((t) => t.textContent).find((t) => t.startsWith("Record: "));
    $("record").textContent = said ? said.slice("Record: ".length) : "";
    $("verdict").textContent = "";
    $("moves").innerHTML = "";
    document.body.dataset.drawn = String(ticket);
  }
}

// The panel while `s`'s answers are on their way, and the page's title for it.
function waiting(s) {
  $("verdict").textContent = "Solving…";
  $("verdict").className = "solving";
  $("moves").innerHTML = "";
  $("moves").classList.remove("busy");
  $("record").textContent = "";
  $("board").classList.add("waiting");
  clearStory();
  const walls = s.walls === "1" ? "1 wall" : `${s.walls} walls`;
  const after = s.at ? `, after ${s.line.slice(0, s.at).join(" ")}` : "";
  document.title = `${s.board}, ${walls} each${after} — Quoridor explorer`;
}

function fail(message) {
  $("error").textContent = message;
  $("error").hidden = false;
}

// Colours the picture's targets (and the walls' overlay) and fills the move list from the
// analysis `a`. With the values hidden, every move is drawn alike and listed by name.
function colour(a) {
  const hidden = valuesHidden();
  const over = a.moves.length === 0;
  const who = "Player " + a.to_move + " to move";
  if (over) $("verdict").textContent = a.text.replace(/ in 0 plies$/, " (game over)").replace(/wins/, "has won");
  else $("verdict").textContent = hidden ? who : who + ": " + a.text;
  $("verdict").className = over || hidden ? "" : a.verdict.kind;
  $("record").textContent = a.position;
  $("moves-title").textContent = hidden ? "Moves" : "Moves, best first";
  const best = a.moves.length ? JSON.stringify(a.moves[0].verdict) : null;
  const moves = hidden ? [...a.moves].sort(byName) : a.moves;
  const list = $("moves");
  list.innerHTML = "";
  for (const m of moves) {
    const isBest = !hidden && JSON.stringify(m.verdict) === best;
    const k = hidden ? "hidden" : m.verdict.kind;
    const said = hidden ? m.move : `${m.move}: ${m.text}`;
    for (const target of $("board").querySelectorAll(`[data-move="${m.move}"]`)) {
      target.classList.add(k);
      if (isBest) target.classList.add("best");
      const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
      title.textContent = said;
      target.appendChild(title);
      const text = target.querySelector("text.plies");
      if (text) text.textContent = hidden ? "" : label(m.verdict);
    }
    const li = document.createElement("li");
    li.className = `chip ${k}${isBest ? " best" : ""}`;
    li.textContent = hidden ? m.move : `${m.move} ${label(m.verdict)}`;
    li.title = hidden ? "" : m.text;
    li.dataset.move = m.move;
    li.tabIndex = 0;
    li.setAttribute("role", "button");
    li.setAttribute("aria-label", `play ${said}`);
    li.addEventListener("click", () => play(m.move));
    li.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); play(m.move); }
    });
    li.addEventListener("mouseenter", () => light(m.move, true));
    li.addEventListener("mouseleave", () => light(m.move, false));
    li.addEventListener("focus", () => { light(m.move, true); tell(m.move); });
    li.addEventListener("blur", () => light(m.move, false));
    list.appendChild(li);
  }
}

// What follows the drawing of a position: the computer's answer, if it is to play, and the
// game's story (chart, marks, best line).
function afterAnalysis(s, a, ticket) {
  computerTurn(a, ticket);
  tellStory(s, a, ticket);
}

// Pawn moves first, then walls, each in the notation's order (for a list that gives no hint).
function byName(a, b) {
  const wall = (m) => /[hv]$/.test(m.move);
  return wall(a) - wall(b) || a.move.localeCompare(b.move, "en", { numeric: true });
}

// The first mover of `s`'s line: the record's last field, or Player 1 from the start.
function firstMover(s) {
  return s.position ? Number(s.position.trim().split("/").pop().trim()) || 1 : 1;
}

// The number the notation writes before the move `index` of `s`'s line (counted from its
// record, or the start): N. before Player 1's move, N... before Player 2's.
function moveNumber(s, index) {
  const ply = index + (firstMover(s) === 2 ? 1 : 0);
  return Math.floor(ply / 2) + 1 + (ply % 2 === 0 ? "." : "...");
}

// Puts the move number in `li` before Player 1's moves, and before the first of a list.
function numbered(li, s, index, first) {
  const number = moveNumber(s, index);
  if (!number.endsWith("...") || first) {
    const n = document.createElement("span");
    n.className = "number";
    n.textContent = number;
    li.appendChild(n);
  }
}

function drawLine(s) {
  const ol = $("line");
  ol.innerHTML = "";
  s.line.forEach((m, i) => {
    const li = document.createElement("li");
    numbered(li, s, i, i === 0);
    li.appendChild(document.createTextNode(m));
    if (i >= s.at) li.classList.add("future");
    if (i === s.at - 1) li.classList.add("current");
    li.title = "Go to the position after this move";
    li.addEventListener("click", () => go(i + 1));
    ol.appendChild(li);
  });
  if (!s.line.length) ol.textContent = "(no moves yet)";
  $("back").disabled = $("first").disabled = s.at === 0;
  $("forward").disabled = $("last").disabled = s.at === s.line.length;
}

// Plays `moves` from the current position: the line after them is kept if it starts with
// the same moves (as forward would), else replaced. `by` says who plays them: the person
// (whose move the computer may answer) or the computer.
function play(moves, by = "person") {
  if (thinking && by === "person") return;
  const s = state;
  moves = [].concat(moves);
  const same = moves.every((m, i) => s.line[s.at + i] === m);
  if (!same) s.line = s.line.slice(0, s.at).concat(moves);
  s.at += moves.length;
  answerNext = by === "person";
  show(true);
}

function go(at) {
  thinking = false;
  state.at = Math.max(0, Math.min(state.line.length, at));
  answerNext = false;
  show(true);
}

function selectCell(s) {
  const select = $("cell");
  const value = `${s.board}/${s.walls}`;
  if (![...select.options].some((o) => o.value === value)) {
    const o = new Option(`${s.board}, ${s.walls} walls each`, value);
    select.appendChild(o);
  }
  select.value = value;
}

// A new game of the cell `board`/`walls` from its start.
function newGame(board, walls) {
  state = { board, walls, position: null, line: [], at: 0 };
  answerNext = true;
  show(true);
}

async function start() {
  let cells = [];
  try {
    cells = JSON.parse(await fetchOk("/api/cells")).cells;
  } catch (e) {
    fail("Cannot list the cells: " + e.message);
  }
  const select = $("cell");
  const groups = {};
  for (const c of cells) {
    const name = c.source === "saved" ? "Saved tables (instant)" : "Solved on request";
    if (!groups[name]) {
      groups[name] = document.createElement("optgroup");
      groups[name].label = name;
      select.appendChild(groups[name]);
    }
    const walls = c.walls === 1 ? "1 wall" : `${c.walls} walls`;
    groups[name].appendChild(new Option(`${c.board}, ${walls} each`, `${c.board}/${c.walls}`));
  }
  select.addEventListener("change", () => newGame(...select.value.split("/")));
  $("restart").addEventListener("click", () => newGame(state.board, state.walls));
  $("first").addEventListener("click", () => go(0));
  $("back").addEventListener("click", () => go(state.at - 1));
  $("forward").addEventListener("click", () => go(state.at + 1));
  $("last").addEventListener("click", () => go(state.line.length));
  document.addEventListener("keydown", (e) => {
    // Keys typed into a field or a list are theirs (a switch's are the page's).
    const field = /^(SELECT|TEXTAREA)$/.test(e.target.tagName) || (e.target.tagName === "INPUT" && e.target.type !== "checkbox");
    if (field || e.ctrlKey || e.metaKey || e.altKey) return;
    const to = { ArrowLeft: state.at - 1, ArrowRight: state.at + 1, Home: 0, End: state.line.length }[e.key];
    if (to !== undefined) { e.preventDefault(); go(to); return; }
    const key = KEYS[e.key.length === 1 ? e.key.toLowerCase() : e.key];
    if (key) { e.preventDefault(); key(); }
  });
  window.addEventListener("popstate", () => {
    state = stateFrom(location.search) || state;
    answerNext = false;
    show(false);
  });
  startBoard();
  startPlay();
  const first = cells.find((c) => c.source === "saved") || cells.find((c) => c.board === "5x5") || cells[0];
  state = stateFrom(location.search) ||
    { board: first ? first.board : "3x3", walls: String(first ? first.walls : 1), position: null, line: [], at: 0 };
  show(false);
}

// The keys besides the arrows, Home and End (each also a button or a switch on the page).
const KEYS = {
  ArrowDown: () => stepMove(1),
  ArrowUp: () => stepMove(-1),
  w: () => $("all-walls").click(),
  c: () => $("versus").click(),
  v: () => $("hide").click(),
  b: () => playBest(),
  n: () => $("restart").click(),
};

start();
