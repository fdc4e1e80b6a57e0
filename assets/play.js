// Playing: the computer takes a side (`play` in the browser) and answers each move of the
// person's with its best (the fastest win, else a draw, else the slowest loss: the first of
// the analysis's moves, as `play` picks it); the values can be hidden meanwhile. And a box
// that opens a pasted record, a `--moves` line or a command line that names both.
"use strict";

// The player the computer plays (1 or 2), or 0 while nobody plays against it.
let computer = 0;
// Whether the next position drawn may be answered by the computer: after a move of the
// person's or a change of sides, never after a step back or forward through the line.
let answerNext = false;
// Whether the computer's move is about to be played (it waits a moment to be seen).
let thinking = false;
const COMPUTER_WAIT_MS = 350;

function startPlay() {
  $("versus").addEventListener("click", () => setComputer(computer ? 0 : current ? 3 - current.to_move : 2));
  $("swap").addEventListener("click", () => setComputer(3 - computer));
  $("computer-move").addEventListener("click", () => setComputer(computer));
  // A browser may bring the switch back ticked on a reload: the page follows it.
  document.body.classList.toggle("hide-values", $("hide").checked);
  $("hide").addEventListener("change", () => {
    document.body.classList.toggle("hide-values", $("hide").checked);
    // Redrawn with the values shown or hidden; a move the computer was about to make is
    // made after the redraw.
    answerNext = thinking;
    show(false);
  });
  $("open").addEventListener("submit", (e) => {
    e.preventDefault();
    openGame($("open-text").value);
  });
}

// The computer plays `player` (0: nobody); if it is its turn, it moves now.
function setComputer(player) {
  computer = player;
  $("versus").setAttribute("aria-pressed", String(computer !== 0));
  $("swap").hidden = computer === 0;
  if (current) {
    answerNext = true;
    computerTurn(current, shown);
  } else {
    playStatus(null);
  }
}

// Called with each position's analysis: the computer plays its best move when it is its
// turn and the position came from a move of the person's (or a change of sides).
function computerTurn(a, ticket) {
  const answer = answerNext;
  answerNext = false;
  thinking = false;
  if (!computer || a.to_move !== computer || !a.moves.length) return playStatus(a);
  if (!answer) return playStatus(a, "waits");
  thinking = true;
  playStatus(a, "thinking");
  // Nothing of the board may be played for the computer meanwhile.
  $("board").classList.add("busy");
  $("moves").classList.add("busy");
  setTimeout(() => {
    if (ticket !== shown || !thinking) return;
    thinking = false;
    play(a.moves[0].move, "computer");
  }, COMPUTER_WAIT_MS);
}

// Says who plays what: the person's turn, the computer thinking, or the computer's turn
// reached by stepping through the line (`waits`: a button lets it move).
function playStatus(a, how) {
  $("moves").classList.remove("busy");
  $("play-status").hidden = computer === 0;
  $("computer-move").hidden = how !== "waits";
  if (!computer) return;
  const you = `You play Player ${3 - computer}; the computer plays Player ${computer}`;
  const said = !a ? you + "." : !a.moves.length ? `${you}. The game is over.`
    : how === "thinking" ? "The computer is choosing its move…"
    : how === "waits" ? `${you}. It is the computer's turn:`
    : `${you}. Your move.`;
  $("play-status-text").textContent = said;
}

// Opens the game in `text`: a record (`b2 / a1c3 / c2 c4 / 2 3 / 1`), a line of moves from
// the start (`1. c2 c4 2. b2h`), a command line with --position, --moves and --walls (and
// its board, e.g. `analyze 4x4 --walls 2 --moves "c2 c3"`), or a link to this page. The
// server reads it first: a text it refuses is said under the box, the game shown stays.
async function openGame(text) {
  $("open-error").hidden = true;
  let s;
  try {
    s = gameOf(text.trim());
    await analysisOf(s, s.line);
  } catch (e) {
    $("open-error").textContent = e.message;
    $("open-error").hidden = false;
    return;
  }
  state = s;
  answerNext = false;
  show(true);
}

function gameOf(text) {
  if (!text) throw new Error("Paste a record, a line of moves or a command line first.");
  if (/[?&]board=/.test(text)) {
    const s = stateFrom(text.slice(text.indexOf("?")));
    if (s) return s;
  }
  let [board, walls, position, moves] = [state.board, state.walls, null, ""];
  if (/(^|\s)--(moves|position|walls)\b/.test(text)) {
    const option = (name) => {
      const m = new RegExp(`--${name}(?:=|\\s+)(?:"([^"]*)"|'([^']*)'|(\\S+))`).exec(text);
      return m ? m[1] ?? m[2] ?? m[3] : null;
    };
    const named = /(?:^|\s)(\d+x\d+)(?=\s|$)/.exec(text);
    if (named) board = named[1];
    walls = option("walls") ?? walls;
    position = option("position");
    moves = option("moves") || "";
  } else if (text.includes("/")) {
    position = text;
  } else {
    moves = text;
  }
  const line = movesOf(moves);
  return { board, walls, position, line, at: line.length };
}
