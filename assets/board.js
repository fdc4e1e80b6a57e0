// The board's extras over the server's picture: the overlay of every legal wall (each drawn
// short around the grooves' crossing it is centred on, coloured by its value, clickable),
// the last move's mark, a wall picked by a tap before it is placed (a touch screen has no
// hover to show a wall first), and the keyboard's walk through the legal moves.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
// How the last pointer that went down was held: "touch" makes a wall's first tap pick it.
let lastPointer = "mouse";
// The wall picked by a tap, shown whole, which a second tap (or Place) plays.
let picked = null;

function svgElement(name, attributes) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
  return e;
}

function startBoard() {
  document.addEventListener("pointerdown", (e) => (lastPointer = e.pointerType || "mouse"), true);
  $("all-walls").addEventListener("click", () => {
    const on = $("board").classList.toggle("all-walls");
    $("all-walls").setAttribute("aria-pressed", String(on));
    localStorage.setItem("explorer-all-walls", on ? "1" : "");
  });
  if (localStorage.getItem("explorer-all-walls")) $("all-walls").click();
  $("place").addEventListener("click", () => picked && play(picked));
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && picked) unpick();
  });
}

const isWall = (move) => /[hv]$/.test(move);

// A click (or tap) on a move's target: a pawn move is played; a wall too, but for a first
// tap on a touch screen, which picks it (shown whole, its value said) for a second tap.
function clicked(move) {
  if (lastPointer === "touch" && isWall(move) && picked !== move) pickWall(move);
  else play(move);
}

function pickWall(move) {
  unpick();
  picked = move;
  light(move, true);
  tell(move, true);
}

function unpick() {
  if (picked) light(picked, false);
  picked = null;
  tell(null);
}

// Shows `move`'s target on the board as when the pointer is over it (or no longer).
function light(move, on) {
  const target = $("board").querySelector(`.move[data-move="${move}"]`);
  if (target) target.classList.toggle("lit", on || picked === move);
}

// Says what `move` leads to under the board (nothing for null); `placing` offers Place.
function tell(move, placing = false) {
  const m = move && current && current.moves.find((x) => x.move === move);
  $("pick-text").textContent = !m ? "" : valuesHidden() ? m.move : `${m.move}: ${m.text}`;
  $("pick").className = m && !valuesHidden() ? m.verdict.kind : "";
  $("place").hidden = !(m && placing);
  if (m && placing) $("place").textContent = `Place ${m.move}`;
}

// The picture just drawn for `s`: its targets made clickable, the walls' overlay added and
// the last move marked.
function decorateBoard(s) {
  picked = null;
  tell(null);
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  svg.querySelectorAll(".move").forEach((g) => {
    g.addEventListener("click", () => clicked(g.dataset.move));
  });
  const overlay = svgElement("g", { class: "wall-marks" });
  for (const g of svg.querySelectorAll(".wall-move")) overlay.appendChild(wallMark(g));
  svg.appendChild(overlay);
  markLast(s);
}

// A wall's mark in the overlay: two short arms along its groove, either side of the
// crossing at its middle (the gap between them keeps a horizontal wall's mark apart from
// the vertical one's at the same crossing), from the wall's full outline in the picture.
function wallMark(g) {
  const r = g.querySelector(".preview");
  const [x, y, w, h] = ["x", "y", "width", "height"].map((a) => Number(r.getAttribute(a)));
  const [cx, cy, across] = [x + w / 2, y + h / 2, w > h];
  const cell = (Math.max(w, h) + 6) / 2;
  const [gap, arm, thick] = [cell * 0.12, cell * 0.34, cell * 0.21];
  const move = g.dataset.move;
  const mark = svgElement("g", { class: "mark", "data-move": move });
  for (const side of [-1, 1]) {
    const along = side < 0 ? -gap - arm : gap;
    mark.appendChild(svgElement("rect", across
      ? { x: cx + along, y: cy - thick / 2, width: arm, height: thick, rx: 2 }
      : { x: cx - thick / 2, y: cy + along, width: thick, height: arm, rx: 2 }));
  }
  mark.addEventListener("click", () => clicked(move));
  mark.addEventListener("mouseenter", () => { light(move, true); tell(move); });
  mark.addEventListener("mouseleave", () => { light(move, false); if (!picked) tell(null); });
  return mark;
}

// Marks the move that led to `s`'s position: the square the pawn moved to (and, when the
// position before is known, the one it left, dashed), or the wall placed.
function markLast(s) {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  svg.querySelectorAll(".last-move").forEach((e) => e.remove());
  if (!s.at) return;
  const move = s.line[s.at - 1];
  const square = squareOf(svg, s, move);
  if (!square) return;
  const [x, y, c] = square;
  const before = svg.querySelector("g.moves");
  const add = (attributes) => svg.insertBefore(svgElement("rect", { class: "last-move", ...attributes }), before);
  if (!isWall(move)) {
    add({ x: x + 2, y: y + 2, width: c - 4, height: c - 4 });
    const a = knownAnalysis(s, s.line.slice(0, s.at - 1));
    if (a) {
      const fields = a.position.split("/").map((f) => f.trim());
      const from = squareOf(svg, s, fields[2].split(/\s+/)[a.to_move - 1]);
      if (from) add({ x: from[0] + 4, y: from[1] + 4, width: c - 8, height: c - 8, class: "last-move from" });
    }
  } else if (move.endsWith("h")) {
    add({ x: x + 1, y: y - 6, width: 2 * c - 2, height: 12 });
  } else {
    add({ x: x + c - 6, y: y - c + 1, width: 12, height: 2 * c - 2 });
  }
}

// The picture's square named by `name` (a cell, or a wall's anchor): x, y and side.
function squareOf(svg, s, name) {
  const m = /^([a-z])(\d+)/.exec(name || "");
  if (!m) return null;
  const width = Number(s.board.split("x")[0]);
  const [col, row] = [m[1].charCodeAt(0) - 97, Number(m[2]) - 1];
  const r = svg.querySelectorAll("rect[fill='#f3e9d2']")[row * width + col];
  return r && ["x", "y", "width"].map((a) => Number(r.getAttribute(a)));
}

// Moves the keyboard's focus `by` chips along the list of legal moves (Down the next,
// Up the one before), which lights the move on the board; Enter plays it.
function stepMove(by) {
  const chips = [...$("moves").querySelectorAll("li")];
  if (!chips.length) return;
  const at = chips.indexOf(document.activeElement);
  const next = at < 0 ? (by > 0 ? 0 : chips.length - 1) : (at + by + chips.length) % chips.length;
  chips[next].focus();
}
