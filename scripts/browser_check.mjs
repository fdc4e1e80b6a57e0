// Drives the explorer page in headless Chromium (playwright-core, Debian's chromium): loads
// it, plays moves by clicking the board and the move list, steps back and forward, reopens
// the page's own link, and takes a screenshot at each step. Exits 1 when the page does not
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
const chip = await page.$eval("#moves li", (li) => li.textContent.split(" ")[0]);
await page.click("#moves li >> nth=0");
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
const root = url.replace(/\/?$/, "/");
const saved = (await (await fetch(root + "api/cells")).json()).cells.find((c) => c.source === "saved");
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
