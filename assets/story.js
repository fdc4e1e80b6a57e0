// The game's story: a chart of every position of the line (x the plies played, y the
// plies to the end with best play, coloured by who wins), the line's inexact moves marked
// as `analyze --game` marks them, and the best line from the position shown (each side's
// best move in turn: the fastest win, the slowest loss). Built from the positions'
// analyses, asked one at a time (each position's once: analysisOf keeps them).
"use strict";

// The longest best line shown: a draw's goes on for ever, a long win's is cut.
const BEST_LINE_DRAW = 12;
const BEST_LINE_MOST = 80;

function clearStory() {
  $("chart").innerHTML = "";
  $("best-line").innerHTML = "";
  $("best-line-said").textContent = "";
}

// Who wins from a position with best play: 1, 2, "draw" or "unknown".
function winner(a) {
  switch (a.verdict.kind) {
    case "win": return a.to_move;
    case "loss": return 3 - a.to_move;
    case "draw": return "draw";
    default: return "unknown";
  }
}

// Fills the chart, the line's marks and the best line for `s`, whose position's analysis
// is `a`; gives up as soon as another position is shown. <body data-story> counts them.
async function tellStory(s, a, ticket) {
  const stale = () => ticket !== shown;
  try {
    await Promise.all([chartOf(s, stale), bestLine(s, a, stale)]);
  } catch (e) {
    if (!stale()) $("best-line-said").textContent = "Not all of the story could be read: " + e.message;
  }
  if (!stale()) document.body.dataset.story = String(ticket);
}

async function chartOf(s, stale) {
  const points = [];
  for (let i = 0; i <= s.line.length; i++) {
    points.push(await analysisOf(s, s.line.slice(0, i), stale));
    if (stale()) return;
  }
  drawChart(s, points);
  markLine(s, points);
  markLast(s);
}

// The chart, an inline SVG: a point per position of the line (the start's included), the
// current one ringed, those after it faint; a click on a point goes there.
function drawChart(s, points) {
  const [width, height, left, right, top, bottom] = [320, 150, 34, 10, 24, 28];
  const plies = (a) => (a.verdict.kind === "win" || a.verdict.kind === "loss" ? a.verdict.plies : null);
  const most = Math.max(4, ...points.map(plies).filter((p) => p !== null));
  const span = Math.max(points.length - 1, 10);
  const x = (i) => left + (i * (width - left - right)) / span;
  const y = (a) => (plies(a) === null ? top - 10 : top + ((most - plies(a)) * (height - top - bottom)) / most);
  const svg = svgElement("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": "value history" });
  const axis = (x1, y1, x2, y2) => svg.appendChild(svgElement("line", { x1, y1, x2, y2, class: "axis" }));
  const text = (tx, ty, said, anchor = "end") => {
    const t = svgElement("text", { x: tx, y: ty, "text-anchor": anchor });
    t.textContent = said;
    svg.appendChild(t);
  };
  const base = height - bottom;
  axis(left, top, left, base);
  axis(left, base, width - right, base);
  text(left - 4, top + 4, String(most));
  text(left - 4, base + 4, "0");
  if (points.some((a) => plies(a) === null)) text(left - 4, top - 6, "draw");
  text(left, base + 16, "0", "middle");
  text(x(span), base + 16, String(span), "middle");
  text((left + width - right) / 2, base + 16, "plies played", "middle");
  svg.appendChild(svgElement("polyline", {
    class: "path", points: points.map((a, i) => `${x(i)},${y(a)}`).join(" "),
  }));
  points.forEach((a, i) => {
    const who = winner(a);
    const cls = typeof who === "number" ? `p${who}` : who;
    const dot = svgElement("circle", {
      cx: x(i), cy: y(a), r: i === s.at ? 6 : 4,
      class: `point ${cls}${i === s.at ? " current" : ""}${i > s.at ? " future" : ""}`,
      "data-ply": i,
    });
    const title = svgElement("title", {});
    const after = i ? `after ${i} ${i === 1 ? "ply" : "plies"} (${moveNumber(s, i - 1)} ${s.line[i - 1]})` : "the start";
    title.textContent = `${after}: ${a.text}`;
    dot.appendChild(title);
    dot.addEventListener("click", () => go(i));
    svg.appendChild(dot);
  });
  $("chart").innerHTML = "";
  $("chart").appendChild(svg);
}

// Marks each move of the line that gives something away, as `analyze --game` does:
// ?? throws away the win or the draw, ?! a slower win or a faster loss than the best.
function markLine(s, points) {
  if (valuesHidden()) return;
  const items = $("line").querySelectorAll("li");
  s.line.forEach((move, i) => {
    const before = points[i];
    const made = before.moves.find((m) => m.move === move);
    const li = items[i];
    if (!made || !li || !before.moves.length) return;
    const [best, got] = [before.moves[0].verdict, made.verdict];
    let mark = null;
    if (best.kind === "win" && got.kind !== "win") mark = ["??", "throws away the win"];
    else if (best.kind === "draw" && got.kind === "loss") mark = ["??", "throws away the draw"];
    else if (best.kind === "win" && got.plies > best.plies) mark = ["?!", "slower win"];
    else if (best.kind === "loss" && got.kind === "loss" && got.plies < best.plies) mark = ["?!", "faster loss"];
    if (!mark) return;
    const span = document.createElement("span");
    span.className = "mark";
    span.textContent = mark[0];
    li.appendChild(span);
    li.title = `${move}: ${mark[1]} (${made.text}; best ${before.moves[0].move}: ${before.moves[0].text})`;
  });
}

// The best line from `s`'s position: each side's best move in turn, listed as they arrive;
// a click on one of them plays the line up to it.
async function bestLine(s, a, stale) {
  const here = s.line.slice(0, s.at);
  const most = a.verdict.kind === "draw" ? BEST_LINE_DRAW : BEST_LINE_MOST;
  const line = [];
  const ol = $("best-line");
  ol.innerHTML = "";
  $("best-line-said").textContent = a.moves.length ? "" : "(the game is over)";
  let b = a;
  while (b.moves.length && line.length < most) {
    const move = b.moves[0].move;
    line.push(move);
    const li = document.createElement("li");
    numbered(li, s, s.at + line.length - 1, line.length === 1);
    li.appendChild(document.createTextNode(move));
    li.title = `${move}: ${b.moves[0].text}`;
    const upTo = line.slice();
    li.addEventListener("click", () => play(upTo));
    ol.appendChild(li);
    b = await analysisOf(s, here.concat(line), stale);
    if (stale()) return;
  }
  if (b.moves.length) $("best-line-said").textContent = a.verdict.kind === "draw" ? "… a draw: the line goes on" : "…";
  else if (line.length) $("best-line-said").textContent = `(${b.text.replace(/ in 0 plies$/, "").replace(/wins/, "has won")})`;
}

// Plays the best move of the position shown (the key B), unless the values are hidden.
function playBest() {
  if (!valuesHidden() && current && current.moves.length) play(current.moves[0].move);
}
