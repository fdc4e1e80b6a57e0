// The explorer page: asks the server for the picture of the position (a target on every
// legal move) and for its analysis (the JSON of `analyze --json`), colours each target by
// what it leads to, and plays a move on a click. The state is the cell, the position the
// line starts from, the line and how far along it we are; it lives in the URL, so a link
// reopens the same position and the browser's own back button steps back.
"use strict";

const $ = (id) => document.getElementById(id);
let state = null;
// Only the latest request's answer is drawn: a quick second click wins over a slow first.
let shown = 0;

// The state of a URL's query: board, walls, position (a record, else the start), moves
// (separated by spaces) and at (how many of them are played).
function stateFrom(search) {
  const q = new URLSearchParams(search);
  if (!q.get("board")) return null;
  const line = (q.get("moves") || "").split(/\s+/).filter((m) => m && !/^\d+\.+$/.test(m));
  const at = q.has("at") ? Math.max(0, Math.min(line.length, parseInt(q.get("at"), 10) || 0)) : line.length;
  return { board: q.get("board"), walls: q.get("walls") || "0", position: q.get("position"), line, at };
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
// 8 s, unless `stale()` says the answer is no longer wanted.
async function fetchOk(url, stale = () => false) {
  for (let wait = 500; ; wait *= 2) {
    const r = await fetch(url);
    const body = await r.text();
    if (r.ok) return body;
    if (r.status !== 503 || wait > 8000 || stale()) throw new Error(body.trim() || r.statusText);
    $("error").textContent = body.trim() + " (asking again)";
    $("error").hidden = false;
    await sleep(wait);
    if (stale()) throw new Error("no longer asked");
  }
}

function kind(verdict) {
  return verdict.kind;
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

async function show(push) {
  const s = state;
  const ticket = ++shown;
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
  const analysis = fetchOk("/api/analyze?" + q, stale).then(JSON.parse);
  // Handled below, or dropped with a stale request: never an unhandled rejection.
  analysis.catch(() => {});
  let svg;
  try {
    svg = await picture;
  } catch (e) {
    if (ticket === shown) {
      fail(e.message);
      $("verdict").textContent = "";
      $("board").classList.remove("waiting");
    }
    return;
  }
  if (ticket !== shown) return;
  // Only a cell the server drew joins the list: a bad board in the URL adds no entry.
  selectCell(s);
  $("board").innerHTML = svg;
  $("board").classList.remove("waiting");
  $("board").querySelectorAll(".move").forEach((g) => {
    g.addEventListener("click", () => play(g.dataset.move));
  });
  try {
    const a = await analysis;
    if (ticket !== shown) return;
    colour(a);
    $("error").hidden = true;
    document.body.dataset.drawn = String(ticket);
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
  $("record").textContent = "";
  $("board").classList.add("waiting");
  const walls = s.walls === "1" ? "1 wall" : `${s.walls} walls`;
  const after = s.at ? `, after ${s.line.slice(0, s.at).join(" ")}` : "";
  document.title = `${s.board}, ${walls} each${after} — Quoridor explorer`;
}

function fail(message) {
  $("error").textContent = message;
  $("error").hidden = false;
}

// Colours the picture's targets and fills the move list from the analysis `a`.
function colour(a) {
  const over = a.moves.length === 0;
  const who = "Player " + a.to_move + " to move: ";
  $("verdict").textContent = over ? a.text.replace(/ in 0 plies$/, " (game over)").replace(/wins/, "has won") : who + a.text;
  $("verdict").className = over ? "" : kind(a.verdict);
  $("record").textContent = a.position;
  const best = a.moves.length ? JSON.stringify(a.moves[0].verdict) : null;
  const list = $("moves");
  list.innerHTML = "";
  for (const m of a.moves) {
    const isBest = JSON.stringify(m.verdict) === best;
    const target = $("board").querySelector(`.move[data-move="${m.move}"]`);
    if (target) {
      target.classList.add(kind(m.verdict));
      if (isBest) target.classList.add("best");
      const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
      title.textContent = `${m.move}: ${m.text}`;
      target.appendChild(title);
      const text = target.querySelector("text.plies");
      if (text) text.textContent = label(m.verdict);
    }
    const li = document.createElement("li");
    li.className = `chip ${kind(m.verdict)}${isBest ? " best" : ""}`;
    li.textContent = `${m.move} ${label(m.verdict)}`;
    li.title = m.text;
    li.addEventListener("click", () => play(m.move));
    if (target) {
      li.addEventListener("mouseenter", () => target.classList.add("lit"));
      li.addEventListener("mouseleave", () => target.classList.remove("lit"));
    }
    list.appendChild(li);
  }
}

function drawLine(s) {
  const ol = $("line");
  ol.innerHTML = "";
  // Move numbers as the notation writes them: N. before Player 1's move, N... before a
  // line that starts with Player 2's.
  const firstMover = s.position ? s.position.trim().split("/").pop().trim() : "1";
  s.line.forEach((m, i) => {
    const li = document.createElement("li");
    const ply = i + (firstMover === "2" ? 1 : 0);
    if (ply % 2 === 0 || i === 0) {
      const n = document.createElement("span");
      n.className = "number";
      n.textContent = Math.floor(ply / 2) + 1 + (ply % 2 === 0 ? "." : "...");
      li.appendChild(n);
    }
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

// Plays `move` from the current position: the line after it is kept if it starts with the
// same move (as forward would), else replaced.
function play(move) {
  const s = state;
  if (s.line[s.at] !== move) s.line = s.line.slice(0, s.at).concat([move]);
  s.at += 1;
  show(true);
}

function go(at) {
  state.at = Math.max(0, Math.min(state.line.length, at));
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
  select.addEventListener("change", () => {
    const [board, walls] = select.value.split("/");
    state = { board, walls, position: null, line: [], at: 0 };
    show(true);
  });
  $("restart").addEventListener("click", () => {
    state = { board: state.board, walls: state.walls, position: null, line: [], at: 0 };
    show(true);
  });
  $("first").addEventListener("click", () => go(0));
  $("back").addEventListener("click", () => go(state.at - 1));
  $("forward").addEventListener("click", () => go(state.at + 1));
  $("last").addEventListener("click", () => go(state.line.length));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "SELECT") return;
    const to = { ArrowLeft: state.at - 1, ArrowRight: state.at + 1, Home: 0, End: state.line.length }[e.key];
    if (to !== undefined) { e.preventDefault(); go(to); }
  });
  window.addEventListener("popstate", () => {
    state = stateFrom(location.search) || state;
    show(false);
  });
  const first = cells.find((c) => c.source === "saved") || cells.find((c) => c.board === "5x5") || cells[0];
  state = stateFrom(location.search) ||
    { board: first ? first.board : "3x3", walls: String(first ? first.walls : 1), position: null, line: [], at: 0 };
  show(false);
}

start();
