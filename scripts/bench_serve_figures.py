#!/usr/bin/env python3
"""The figures docs/SERVE.md owes, measured against a running `serve` (PID, at URL) that has
a saved table of TABLE_CELL and may solve CELL on request (scripts/bench_serve_figures.sh
starts it). Standard library only. Each figure's answers are checked:

- queries of the saved table (random walks from the start, a new connection per query, as
  bench_serve.py): median, 99th percentile and slowest; every one 200, three equal to
  `analyze --json --table` (but for `seconds`);
- a click on CELL, solved on request: the first (the solve), then CLICKS clicks of a
  random walk (walls included) answered from the cell kept: `/api/cells` counts one solve,
  and the first and last answers equal `analyze --json`'s fresh solve;
- the server's memory (VmRSS, VmHWM and threads, /proc/PID/status) after loading, after
  keeping CELL, and with the idle connections held;
- normal requests (saved-table positions already asked) while bursts of BURST requests
  are in flight (another process sends BURST at once, reads every answer, again, until the
  measure ends), then while IDLE connections that send nothing are held open: each normal
  request's time to its answer; one answered 503 is asked again 50 ms later until 200 (its
  time counts from its first asking); every 200 equals the first answer to that position.

    bench_serve_figures.py URL PID BIN TABLE_DIR TABLE_BOARD TABLE_WALLS CELL_BOARD CELL_WALLS
        [--queries 1000] [--clicks 100] [--burst 500] [--idle 1000] [--seconds 4]
"""
import argparse
import http.client
import json
import multiprocessing
import random
import selectors
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse


def fail(message):
    sys.exit(f"bench_serve_figures: {message}")


def address(host):
    """HOST:PORT as socket.create_connection takes it."""
    ip, port = host.rsplit(":", 1)
    return ip, int(port)


def get(host, target, timeout=300):
    """The status, body and seconds of GET target, on a new connection."""
    started = time.perf_counter()
    c = http.client.HTTPConnection(host, timeout=timeout)
    c.request("GET", target)
    r = c.getresponse()
    body = r.read()
    c.close()
    return r.status, body, time.perf_counter() - started


def analyze_target(board, walls, moves):
    q = urllib.parse.urlencode({"board": board, "walls": walls, "moves": " ".join(moves)})
    return "/api/analyze?" + q


def timeless(body):
    """An answer without `seconds`, the one field that differs from run to run."""
    a = json.loads(body)
    a.pop("seconds", None)
    return a


def reference(binary, board, walls, moves, table=None):
    """`analyze --json` of the position (a fresh solve, or from the saved table)."""
    args = [binary, "analyze", board, "--walls", walls, "--json", "-q"]
    if moves:
        args += ["--moves", " ".join(moves)]
    if table:
        args += ["--table", table]
    out = subprocess.run(args, capture_output=True, text=True, check=True)
    return timeless(out.stdout)


def walk(host, board, walls, count, rng, seen=None):
    """COUNT queries of a random walk from the start (a new game at its end or after 60
    plies): the seconds of each and the lines asked with their answers."""
    times, asked, line = [], [], []
    while len(times) < count:
        status, body, seconds = get(host, analyze_target(board, walls, line))
        if status != 200:
            fail(f"{status} for {board} moves {' '.join(line)!r}: {body.decode()}")
        times.append(seconds)
        answer = timeless(body)
        asked.append((list(line), answer))
        if seen is not None:
            seen.setdefault(" ".join(line), answer)
        if not answer["moves"] or len(line) >= 60:
            line = []
        else:
            line.append(rng.choice(answer["moves"])["move"])
    return times, asked


def proc_status(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for row in f:
            key, _, value = row.partition(":")
            fields[key] = value.strip()
    return fields


def memory_text(pid):
    s = proc_status(pid)
    mib = lambda k: f"{int(s[k].split()[0]) / 1024:.1f} MiB"
    return f"VmRSS {mib('VmRSS')}, VmHWM {mib('VmHWM')}, {s['Threads']} threads"


def cells(host):
    status, body, _ = get(host, "/api/cells")
    if status != 200:
        fail(f"/api/cells: {status}")
    return json.loads(body)


def ms(seconds):
    return f"{seconds * 1000:.2f} ms"


def spread(times):
    """Median, 99th percentile and slowest."""
    t = sorted(times)
    if not t:
        return "none answered"
    return (f"median {ms(statistics.median(t))}, p99 {ms(t[min(len(t) - 1, int(len(t) * 0.99))])}, "
            f"slowest {ms(t[-1])} ({len(t)})")


def burst(host, size, targets, stop, result):
    """Sends SIZE requests at once (each its own connection), reads every answer, again,
    until STOP; puts the count of each status in RESULT (0: closed without an answer)."""
    counts = {}
    rng = random.Random(5)
    while not stop.is_set():
        sel = selectors.DefaultSelector()
        socks = []
        for _ in range(size):
            socks.append(socket.create_connection(address(host)))
        for s in socks:
            target = rng.choice(targets)
            s.sendall(f"GET {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
            s.setblocking(False)
            sel.register(s, selectors.EVENT_READ, bytearray())
        left = len(socks)
        while left:
            for key, _ in sel.select(timeout=30):
                try:
                    chunk = key.fileobj.recv(65536)
                except BlockingIOError:
                    continue
                except ConnectionResetError:
                    chunk = b""
                if chunk:
                    key.data.extend(chunk)
                    continue
                head = bytes(key.data[:12])
                status = int(head[9:12]) if head.startswith(b"HTTP/1.1 ") else 0
                counts[status] = counts.get(status, 0) + 1
                sel.unregister(key.fileobj)
                key.fileobj.close()
                left -= 1
        sel.close()
    result.put(counts)


def normal_requests(host, seen, rng, until):
    """Normal requests until UNTIL (time.perf_counter): positions already answered, each
    asked again 50 ms after a 503 until 200. Their times to a 200, and how many were
    answered 503 at least once."""
    lines = list(seen)
    times, refused = [], 0
    while time.perf_counter() < until:
        line = rng.choice(lines)
        board, walls, _ = seen[line]["board_walls"]
        target = analyze_target(board, walls, line.split() if line else [])
        started = time.perf_counter()
        was_refused = False
        while True:
            try:
                status, body, _ = get(host, target, timeout=60)
            except (ConnectionResetError, ConnectionRefusedError, http.client.RemoteDisconnected):
                status, body = 0, b""
            if status == 200:
                break
            if status not in (0, 503):
                fail(f"{status} for a normal request {target}: {body.decode()}")
            was_refused = True
            time.sleep(0.05)
        times.append(time.perf_counter() - started)
        refused += was_refused
        answer = timeless(body)
        if answer != seen[line]["answer"]:
            fail(f"{target}: answered otherwise than before")
    return times, refused


def main():
    p = argparse.ArgumentParser()
    for name in ["url", "pid", "binary", "table", "table_board", "table_walls", "board", "walls"]:
        p.add_argument(name)
    p.add_argument("--queries", type=int, default=1000)
    p.add_argument("--clicks", type=int, default=100)
    p.add_argument("--burst", type=int, default=500)
    p.add_argument("--idle", type=int, default=1000)
    p.add_argument("--seconds", type=float, default=4)
    a = p.parse_args()
    host = urllib.parse.urlparse(a.url).netloc
    rng = random.Random(29)
    rows = []

    loaded = memory_text(a.pid)
    rows.append(("memory after loading", loaded))

    # Queries of the saved table.
    seen = {}
    times, asked = walk(host, a.table_board, a.table_walls, a.queries, rng, seen)
    for line, answer in rng.sample(asked, 3):
        if answer != reference(a.binary, a.table_board, a.table_walls, line, a.table):
            fail(f"{a.table_board} moves {' '.join(line)!r}: not analyze --table's answer")
    rows.append((f"{a.table_board} w{a.table_walls} saved: {a.queries} queries", spread(times)))
    seen = {k: {"answer": v, "board_walls": (a.table_board, a.table_walls, None)}
            for k, v in seen.items()}

    # A cell solved on request: the first click solves it, the next ones are lookups.
    before = cells(host)["solves"]
    status, body, first = get(host, analyze_target(a.board, a.walls, []))
    if status != 200:
        fail(f"{a.board} with {a.walls} walls: {status} {body.decode()}")
    if timeless(body) != reference(a.binary, a.board, a.walls, []):
        fail(f"{a.board} with {a.walls} walls: the start is not analyze --json's answer")
    rows.append((f"{a.board} w{a.walls} on request: first click (its solve)", f"{first:.3f} s"))
    times, asked = walk(host, a.board, a.walls, a.clicks, rng)
    line, answer = asked[-1]
    if answer != reference(a.binary, a.board, a.walls, line):
        fail(f"{a.board} moves {' '.join(line)!r}: not analyze --json's answer")
    listed = cells(host)
    if listed["solves"] != before + 1:
        fail(f"{a.board}: {listed['solves'] - before} solves for {a.clicks + 1} clicks, not one")
    walls_placed = sum(1 for line, _ in asked if line and len(line[-1]) == 3)
    rows.append((f"{a.board} w{a.walls} on request: next {a.clicks} clicks (kept)",
                 f"{spread(times)}; 1 solve, {walls_placed} of them walls"))
    kept = sum(k["bytes"] for k in listed["kept"])
    rows.append(("memory after keeping", f"{memory_text(a.pid)}; kept {kept / 2**20:.1f} MiB"))

    # Normal requests, alone, then while bursts are in flight, then with idle connections.
    times, refused = normal_requests(host, seen, rng, time.perf_counter() + a.seconds)
    rows.append(("normal requests, quiet", f"{spread(times)}; {refused} refused first"))
    stop = multiprocessing.Event()
    result = multiprocessing.Queue()
    targets = [analyze_target(a.table_board, a.table_walls, k.split() if k else []) for k in seen]
    sender = multiprocessing.Process(target=burst, args=(host, a.burst, targets, stop, result))
    sender.start()
    time.sleep(0.5)
    times, refused = normal_requests(host, seen, rng, time.perf_counter() + a.seconds)
    stop.set()
    counts = result.get(timeout=120)
    sender.join()
    answered = ", ".join(f"{n} {s or 'closed'}" for s, n in sorted(counts.items()))
    rows.append((f"normal requests, bursts of {a.burst} in flight",
                 f"{spread(times)}; {refused} refused first; the bursts: {answered}"))
    idle = []
    for _ in range(a.idle):
        idle.append(socket.create_connection(address(host)))
    opened = time.perf_counter()
    time.sleep(0.2)
    held = memory_text(a.pid)
    times, refused = normal_requests(host, seen, rng, opened + a.seconds)
    for s in idle:
        s.close()
    rows.append((f"normal requests, {a.idle} idle connections held",
                 f"{spread(times)}; {refused} refused first; server {held}"))

    width = max(len(r[0]) for r in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")


if __name__ == "__main__":
    main()
