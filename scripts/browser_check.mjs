// Drives the explorer page in headless Chromium (playwright-core, Debian's chromium): loads
// it, plays moves by clicking the board and the move list, steps back and forward, reopens
// the page's own link, then drives each of its features (the overlay of every wall, keys,
// taps, the chart and the best line, pasted games, the computer's side, hidden values, the
// map) and takes a screenshot at each step. Exits 1 when the page does not
// do what a person would expect. Run by scripts/browser_check.sh, which says what it needs.
//
// node browser_check.mjs URL OUTDIR
import { chromium } from "playwright-core";

const [url, out] = process.argv.slice(2);
const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
  ],
});
const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
const errors = [];
page.on("pageerror", (e) => errors.push(e.message));
page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });

// Runs `action` (a click, a key) and waits until the page has drawn the position it leads
// to: the page counts what it has drawn in <body data-drawn>.
async function act(action) {
  const before = await page.evaluate(() => Number(document.body.dataset.drawn || 0));
  await action();
  await page.waitForFunction((n) => Number(document.body.dataset.drawn || 0) > n, before, { timeout: 10000 });
}
async function coloured() {
  return page.$$eval("#board .move", (gs) => gs.every((t) => /\b(win|draw|loss|unknown)\b/.test(t.getAttribute("class"))));
}
const record = () => page.textContent("#record");
const verdict = () => page.textContent("#verdict");
const shot = (name) => page.screenshot({ path: `${out}/${name}.png` });

await act(() => page.goto(url));
check(await coloured(), "every target on the board is coloured");
const cells = await page.$$eval("#cell option", (os) => os.length);
check(cells > 1, `the cell list offers ${cells} cells`);
const start = await record();
check(/\/ 1$/.test(start.trim()), `the start is shown with Player 1 to move: ${start}`);
const discs = await page.$$eval("#board .pawn-move", (gs) => gs.length);
check(discs >= 2, `the pawn moves are marked on the board (${discs})`);
const moves = await page.$$eval("#moves li", (ls) => ls.length);
const targets = await page.$$eval("#board .move", (gs) => gs.length);
check(moves === targets && moves > discs, `every legal move is listed and on the board (${moves})`);
await shot("1-start");

// Click the best pawn move on the board.
const best = await page.$eval("#board .pawn-move.best", (g) => g.dataset.move);
await act(() => page.click(`#board .pawn-move[data-move="${best}"]`));
check((await page.textContent("#line")).includes(best), `clicking ${best} on the board plays it`);
check((await record()) !== start, "the record changed");
check((await page.$$eval("#board .last-move", (rs) => rs.length)) === 2,
  "the pawn's move is marked on the board: the square it reached and, dashed, the one it left");
await shot("2-after-pawn-move");

// Point at a groove: the wall under the pointer shows; click places it.
const wall = await page.$eval("#board .wall-move", (g) => g.dataset.move);
const hit = await page.$(`#board .wall-move[data-move="${wall}"] .hit`);
await hit.hover();
const opacity = await page.$eval(`#board .wall-move[data-move="${wall}"] .preview`, (r) => getComputedStyle(r).opacity);
check(Number(opacity) > 0.5, `pointing at the groove of ${wall} shows the wall (opacity ${opacity})`);
await shot("3-wall-hover");
await act(() => hit.click());
const afterWall = await record();
check(!afterWall.startsWith("- / - /"), `clicking the groove placed ${wall}: ${afterWall}`);
await shot("4-after-wall");

// A move from the list.
const listed = await page.$eval("#moves li", (li) => li.textContent.split(" ")[0]);
await act(() => page.click("#moves li >> nth=0"));
const three = await record();
check((await page.$$eval("#line li", (ls) => ls.length)) === 3, `the list's best move ${listed} is the third of the line`);

// Back twice, forward once.
await act(() => page.click("#back"));
check((await record()) === afterWall, "back returns to the position before");
await act(() => page.click("#back"));
await act(() => page.click("#forward"));
check((await record()) === afterWall, "forward replays the move");
await act(() => page.keyboard.press("End"));
check((await record()) === three, "End goes to the last move played");
await shot("5-line");

// While a position's analysis is on its way (held back here, as a cell solved on request
// takes seconds), nothing of the last position can be read or played as this one's: the
// move list is empty, the panel says it is solving, the title names the new position.
let release;
const held = new Promise((done) => (release = done));
await page.route("**/api/analyze*", async (route) => { await held; await route.continue(); });
const drawnBefore = await page.evaluate(() => Number(document.body.dataset.drawn || 0));
// The list's last move: not on the best line, whose positions the page asks for ahead.
const chip = await page.$eval("#moves li:last-child", (li) => li.dataset.move);
await page.click("#moves li >> nth=-1");
await page.waitForFunction(() => !document.querySelector("#board.waiting"), null, { timeout: 10000 });
check((await page.$$eval("#moves li", (ls) => ls.length)) === 0, `after ${chip}, while its answer is on its way, no move of the last position is listed`);
check((await verdict()).startsWith("Solving"), `the panel says it is solving: ${await verdict()}`);
check((await page.title()).includes(chip), `the title names the position: ${await page.title()}`);
await shot("5b-solving");
release();
await page.waitForFunction((n) => Number(document.body.dataset.drawn || 0) > n, drawnBefore, { timeout: 10000 });
await page.unroute("**/api/analyze*");
check(await coloured(), "then its targets are coloured");
await act(() => page.click("#back"));
check((await record()) === three, "back returns to the last move played");

// The page's link reopens the same position in a fresh page.
const link = await page.$eval("#link", (a) => a.href);
const again = await browser.newPage({ viewport: { width: 1100, height: 760 } });
await again.goto(link);
await again.waitForFunction(() => document.body.dataset.drawn, null, { timeout: 10000 });
check((await again.textContent("#record")) === three, `the link reopens the position: ${link}`);
check((await again.textContent("#verdict")) === (await verdict()), "with the same verdict");
await again.close();

// ---- Issue 50 items 7 and 8: every wall at once, touch, keys, the story, paste, play ----
const root = url.replace(/\/?$/, "/");
const api = async (q) => (await fetch(root + "api/analyze?" + q)).json();
// Opens the page at `query` and waits until the position and its story are drawn.
async function load(query = "", p = page) {
  await p.goto(root + query);
  await storyDone(p);
}
async function storyDone(p = page) {
  await p.waitForFunction(() => document.body.dataset.story && document.body.dataset.story === document.body.dataset.drawn,
    null, { timeout: 20000 });
}
const lineMoves = (p = page) => p.$$eval("#line li", (ls) => ls.map((l) => l.childNodes[l.childNodes.length - 1].textContent)
  .map((t, i) => ls[i].querySelector(".mark") ? ls[i].childNodes[ls[i].childNodes.length - 2].textContent : t));
const saved = (await (await fetch(root + "api/cells")).json()).cells.find((c) => c.source === "saved");
const cellQuery = `board=${saved.board}&walls=${saved.walls}`;

// Every legal wall at once (W or the toggle), coloured by its value, and one played by a
// click on its mark; the last move is marked on the board.
await load();
await page.click("#all-walls");
const legalWalls = await page.$$eval("#board .wall-move", (gs) => gs.map((g) => g.dataset.move));
const marks = await page.$$eval("#board .wall-marks .mark", (ms) => ms
  .filter((m) => m.getBoundingClientRect().width > 0 && /\b(win|draw|loss)\b/.test(m.getAttribute("class")))
  .map((m) => m.dataset.move));
check(legalWalls.length > 0 && marks.length === legalWalls.length && legalWalls.every((w) => marks.includes(w)),
  `the toggle draws every legal wall, coloured (${marks.length} of ${legalWalls.length})`);
check(await page.$$eval("#board .mark", (ms) => ms.every((m) => /plies|draw/.test(m.querySelector("title").textContent))),
  "each wall's mark says its value in its title");
const bestWall = await page.$$eval("#moves li", (ls) => ls.map((l) => l.dataset.move).find((m) => /[hv]$/.test(m)));
const armOf = (move) => `#board .mark[data-move="${move}"] rect >> nth=0`;
await page.hover(armOf(bestWall));
const shownWhole = await page.$eval(`#board .wall-move[data-move="${bestWall}"] .preview`, (r) => Number(getComputedStyle(r).opacity));
const said = await page.textContent("#pick-text");
check(shownWhole > 0.5 && said.startsWith(bestWall + ": "), `pointing at ${bestWall}'s mark shows the wall and says ${said}`);
await shot("9-walls");
await act(() => page.click(armOf(bestWall)));
check((await lineMoves()).join(" ") === bestWall, `clicking ${bestWall}'s mark plays it`);
const lastMark = await page.$eval("#board .last-move", (r) => ({ w: Number(r.getAttribute("width")), h: Number(r.getAttribute("height")) }))
  .catch(() => null);
check(lastMark !== null && (bestWall.endsWith("h") ? lastMark.w > lastMark.h : lastMark.h > lastMark.w),
  `the wall just placed is marked on the board (${JSON.stringify(lastMark)})`);
check(await page.$eval("#board", (b) => b.classList.contains("all-walls")), "the overlay stays on for the next position");
await page.keyboard.press("w");
check(!(await page.$eval("#board", (b) => b.classList.contains("all-walls"))), "W turns the overlay off");

// Keys: Down and Up walk the legal moves (lit on the board), Enter plays the one chosen.
await load();
check((await page.$$("#board .last-move")).length === 0, "no last move is marked at the start");
await page.keyboard.press("ArrowDown");
await page.keyboard.press("ArrowDown");
await page.keyboard.press("ArrowDown");
await page.keyboard.press("ArrowUp");
const chosen = await page.evaluate(() => document.activeElement.dataset.move);
const second = await page.$eval("#moves li:nth-child(2)", (l) => l.dataset.move);
const lit = await page.$$eval("#board .move.lit", (gs) => gs.map((g) => g.dataset.move));
check(chosen === second && lit.join() === second, `Down, Down, Down, Up chooses the second move, ${chosen}, lit on the board (${lit})`);
await act(() => page.keyboard.press("Enter"));
check((await lineMoves()).join(" ") === second, `Enter plays it: ${await lineMoves()}`);
await act(() => page.keyboard.press("b"));
check((await lineMoves()).length === 2, "B plays the best move");

// A wall placed by touch: a first tap on its groove picks it (shown whole, its value said,
// nothing played), a second places it; on the overlay, a tap on a mark and then Place.
const phone = await browser.newContext({ viewport: { width: 430, height: 900 }, hasTouch: true, isMobile: true });
const touch = await phone.newPage();
touch.on("pageerror", (e) => errors.push(e.message));
await load("?" + cellQuery, touch);
const tapWall = await touch.$eval("#board .wall-move", (g) => g.dataset.move);
const tapHit = `#board .wall-move[data-move="${tapWall}"] .hit >> nth=0`;
await touch.tap(tapHit);
await touch.waitForSelector("#place:not([hidden])", { timeout: 5000 });
const pickedWhole = await touch.$eval(`#board .wall-move[data-move="${tapWall}"] .preview`, (r) => Number(getComputedStyle(r).opacity));
check((await lineMoves(touch)).length === 0 && pickedWhole > 0.5 && (await touch.textContent("#pick-text")).startsWith(tapWall),
  `a first tap on ${tapWall}'s groove shows it and its value, and plays nothing: ${await touch.textContent("#pick-text")}`);
await touch.screenshot({ path: `${out}/10-touch.png` });
let drawnNow = await touch.evaluate(() => Number(document.body.dataset.drawn));
await touch.tap(tapHit);
await touch.waitForFunction((n) => Number(document.body.dataset.drawn) > n, drawnNow);
check((await lineMoves(touch)).join(" ") === tapWall, `a second tap places ${tapWall}`);
await storyDone(touch);
await touch.tap("#all-walls");
const tapMark = await touch.$eval("#board .wall-marks .mark", (m) => m.dataset.move);
await touch.tap(`#board .mark[data-move="${tapMark}"] rect >> nth=0`);
await touch.waitForSelector("#place:not([hidden])", { timeout: 5000 });
check((await lineMoves(touch)).length === 1, `a tap on ${tapMark}'s mark picks it without playing`);
drawnNow = await touch.evaluate(() => Number(document.body.dataset.drawn));
await touch.tap("#place");
await touch.waitForFunction((n) => Number(document.body.dataset.drawn) > n, drawnNow);
check((await lineMoves(touch)).join(" ") === `${tapWall} ${tapMark}`, `Place plays it: ${await lineMoves(touch)}`);
await phone.close();

// The story: a line pasted as a --moves line (the best moves but one, the worst, of the
// side that wins from the start: its second move), its chart (a point per position), its
// marks and the best line from its end.
const spoilt = (await api(cellQuery)).verdict.kind === "win" ? 2 : 3;
const story = [];
for (let k = 0; k < 5; k++) {
  const a = await api(cellQuery + (story.length ? "&moves=" + encodeURIComponent(story.join(" ")) : ""));
  if (!a.moves.length) break;
  story.push(a.moves[k === spoilt ? a.moves.length - 1 : 0].move);
}
const numberedLine = story.map((m, i) => (i % 2 ? m : `${i / 2 + 1}. ${m}`)).join(" ");
await load();
await page.fill("#open-text", `--moves "${numberedLine}"`);
await act(() => page.click("#open button[type=submit]"));
await storyDone();
const end = await api(cellQuery + "&moves=" + encodeURIComponent(story.join(" ")));
check((await lineMoves()).join(" ") === story.join(" ") && (await record()) === end.position,
  `pasting --moves "${numberedLine}" opens its position: ${await record()}`);
const points = await page.$$eval("#chart .point", (ps) => ps.map((p) => ({ ply: Number(p.dataset.ply), cls: p.getAttribute("class") })));
check(points.length === story.length + 1 && points.every((p, i) => p.ply === i),
  `the chart has a point per position of the line, the start's included (${points.length} for ${story.length} plies)`);
check(/current/.test(points[points.length - 1].cls), "the last one, the position shown, is ringed");
const beforeWorst = await api(cellQuery + "&moves=" + encodeURIComponent(story.slice(0, spoilt).join(" ")));
const gaveAway = JSON.stringify(beforeWorst.moves[0].verdict) !== JSON.stringify(beforeWorst.moves[beforeWorst.moves.length - 1].verdict);
const marked = await page.$$eval("#line li", (ls) => ls.map((l) => (l.querySelector(".mark") || {}).textContent || ""));
check(!gaveAway || /\?/.test(marked[spoilt]), `the worst move, ${story[spoilt]}, is marked when it gives something away (${marked.join(",")})`);
const bestLine = await page.$$eval("#best-line li", (ls) => ls.length);
const wantLine = end.verdict.kind === "draw" ? 12 : end.verdict.plies;
check(bestLine === wantLine, `the best line from here has ${bestLine} moves (${end.text})`);
await page.evaluate(() => window.scrollTo(0, 0));
await shot("11-story");
await act(() => page.click("#chart .point[data-ply='1']"));
check((await record()) === (await api(cellQuery + "&moves=" + story[0])).position, "a click on the chart's second point goes to the position after the first move");
await storyDone();
await act(() => page.click("#best-line li:last-child"));
check(/has won|game over/.test(await verdict()) || end.verdict.kind === "draw", `the best line's last move ends the game: ${await verdict()}`);

// Pasting a record opens it with no line; a command line names its board; a text the
// server refuses is said under the box and the position shown stays.
await page.fill("#open-text", end.position);
await act(() => page.click("#open button[type=submit]"));
check((await record()) === end.position && (await page.textContent("#line")) === "(no moves yet)", `pasting the record ${end.position} opens it`);
await page.fill("#open-text", `quoridor-solver analyze ${saved.board} --walls ${saved.walls} --moves '${story.slice(0, 2).join(" ")}'`);
await act(() => page.click("#open button[type=submit]"));
check((await lineMoves()).join(" ") === story.slice(0, 2).join(" "), `a command line opens its moves: ${await lineMoves()}`);
const kept = await record();
await page.fill("#open-text", "1. z9 b2");
await page.click("#open button[type=submit]");
await page.waitForSelector("#open-error:not([hidden])", { timeout: 5000 });
check((await record()) === kept, `a refused text is said (${await page.textContent("#open-error")}) and the position stays`);
await storyDone();
await shot("12-open");
errors.splice(0, errors.length, ...errors.filter((e) => !/status of 400/.test(e)));

// The computer plays the other side: it answers each of the person's moves with its best
// (the first of the analysis's moves); with the values hidden nothing says who wins.
await load();
await page.click("#versus");
const status = await page.textContent("#play-status-text");
check(/You play Player 1/.test(status), `the computer takes Player 2: ${status}`);
for (let round = 0; round < 3; round++) {
  const n = (await lineMoves()).length;
  const mine = await page.$eval("#moves li:nth-child(2)", (l) => l.dataset.move).catch(() => null);
  if (!mine) break;
  await page.click(`#moves li[data-move="${mine}"]`);
  await page.waitForFunction((want) => document.querySelectorAll("#line li").length === want || /has won/.test(document.querySelector("#verdict").textContent),
    n + 2, { timeout: 20000 });
  await storyDone();
  const line = await lineMoves();
  if (line.length < n + 2) break;
  const answer = await api(cellQuery + "&moves=" + encodeURIComponent(line.slice(0, n + 1).join(" ")));
  check(line[n] === mine && line[n + 1] === answer.moves[0].move,
    `round ${round + 1}: I play ${mine}, the computer answers ${line[n + 1]}, its best (${answer.moves[0].text})`);
  if (round === 1) {
    await page.keyboard.press("v");
    await storyDone();
    const chips = await page.$$eval("#moves li", (ls) => ls.map((l) => l.textContent + " " + l.className));
    const hiddenAll = chips.every((c) => !/\b[WLD]\d*\b|win|loss|draw/.test(c));
    const storyShown = await page.$eval("#story", (e) => e.getBoundingClientRect().height > 0);
    check(hiddenAll && !storyShown && !/wins|loses/.test(await verdict()) && !(await coloured()),
      `V hides the values: ${await verdict()}; chips ${chips.slice(0, 2).join(", ")}...; the story hidden`);
    await shot("13-play");
  }
}
await page.keyboard.press("v");
await storyDone();
check(await coloured(), "V shows them again");
// A step back does not make the computer move; it moves when asked.
const whole = await lineMoves();
await act(() => page.keyboard.press("ArrowLeft"));
await page.waitForTimeout(800);
check((await lineMoves()).join(" ") === whole.join(" ") && !(await page.$eval("#computer-move", (b) => b.hidden)),
  "after a step back to its turn the computer waits, offering to move");
await act(() => page.click("#computer-move"));
await storyDone();
check(await page.$eval("#forward", (b) => b.disabled), "asked, it plays its best move again");
await page.click("#versus");

// A cell solved on request tells its story too (its positions' analyses asked one by one
// once the cell is solved), and the computer answers there as well.
await load("?board=3x3&walls=2");
const small = await api("board=3x3&walls=2");
const smallLine = await page.$$eval("#best-line li", (ls) => ls.length);
check((await page.$$("#chart .point")).length === 1 && smallLine === small.verdict.plies,
  `3x3 with 2 walls, solved on request: a point on the chart, a best line of ${smallLine} (${small.text})`);
await page.click("#versus");
const smallMine = await page.$eval("#moves li", (l) => l.dataset.move);
await page.click("#moves li >> nth=0");
await page.waitForFunction(() => document.querySelectorAll("#line li").length === 2, null, { timeout: 20000 });
await storyDone();
const smallAnswer = await api("board=3x3&walls=2&moves=" + smallMine);
const smallMoves = await lineMoves();
check(smallMoves[0] === smallMine && smallMoves[1] === smallAnswer.moves[0].move && (await page.$$("#chart .point")).length === 3,
  `there the computer answers my ${smallMine} with ${smallMoves[1]}, its best (${smallAnswer.moves[0].text})`);
await page.click("#versus");

// A refusal is shown as the server's one line, not a broken page (the browser logs the
// refused request itself: that is not an error of the page).
const before = errors.length;
await page.goto(url.replace(/\/?$/, "/") + "?board=8x8&walls=31");
await page.waitForSelector("#error:not([hidden])", { timeout: 10000 });
const refusal = await page.textContent("#error");
check(/not saved here/.test(refusal), `an oversize cell shows the server's refusal: ${refusal.slice(0, 90)}...`);
await shot("6-refused");
errors.splice(before, errors.length - before, ...errors.slice(before).filter((e) => !/status of 422/.test(e)));

// Boards of every shape fit the window, and a wide one is not drawn tiny.
for (const [board, least] of [["26x2", 26], ["2x32", 16], ["5x5", 60]]) {
  await page.goto(url.replace(/\/?$/, "/") + `?board=${board}&walls=0`);
  await page.waitForSelector("#board svg", { timeout: 10000 });
  const box = await page.$eval("#board svg", (svg) => {
    const r = svg.getBoundingClientRect();
    const cells = svg.querySelectorAll("rect[fill='#f3e9d2']");
    const c = cells.length ? cells[0].getBoundingClientRect() : { width: 0 };
    return { bottom: r.bottom, right: r.right, cell: c.width, h: innerHeight, w: innerWidth };
  });
  check(box.bottom <= box.h && box.right <= box.w && box.cell >= least,
    `${board} fits the window (to ${Math.round(box.right)}x${Math.round(box.bottom)} of ${box.w}x${box.h}), a square ${box.cell.toFixed(0)} px`);
  await shot(`7-fit-${board}`);
}
errors.splice(0, errors.length, ...errors.filter((e) => !/status of 4\d\d/.test(e)));

// The map: the saved cell (the first /api/cells lists) is a link coloured by its winner,
// which /api/analyze gives for its start; clicking it opens that cell in the explorer.
const startVerdict = (await (await fetch(root + `api/analyze?board=${saved.board}&walls=${saved.walls}`)).json()).verdict;
const want = { win: "p1", loss: "p2", draw: "draw" }[startVerdict.kind];
await page.goto(root);
await page.waitForSelector("header a#to-map");
await page.click("header a#to-map");
await page.waitForSelector("#map");
const href = `/?board=${saved.board}&walls=${saved.walls}`;
const square = await page.$eval(`#map a[href="${href}"]`, (a) => ({ cls: a.parentElement.className, text: a.textContent }))
  .catch(() => null);
check(square !== null && square.cls === want,
  `the map links ${saved.board} with ${saved.walls} walls, coloured ${square && square.cls} (${square && square.text}), its winner ${want}`);
const grey = await page.$$eval("#map td.on-request a", (as) => as.length);
check(grey > 0, `the cells not saved are on the map, grey (${grey})`);
await shot("8-map");
await act(() => page.click(`#map a[href="${href}"]`));
const opened = await page.$eval("#cell", (s) => s.value).catch(() => "");
check((await page.$("#record")) !== null && opened === `${saved.board}/${saved.walls}`,
  `clicking it opens the explorer on that cell (${page.url()}, the list at ${opened})`);

check(errors.length === 0, `no script errors (${errors.join("; ")})`);
await browser.close();
if (failures.length) {
  console.log(`${failures.length} check(s) failed`);
  process.exit(1);
}
console.log(`all checks passed; screenshots in ${out}`);
