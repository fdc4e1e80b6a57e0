#!/usr/bin/env python3
"""Times serve's API: QUERIES queries of random reachable positions of one cell, each a
random walk from the start (a query per step; a new game at the end of one or after 60
plies), one connection per query as a browser's fetch may. Prints the median, the 99th
percentile and the slowest, in milliseconds. Checks its answers: every reply is 200 and
its position is the one asked for (the walk plays the moves it was given).

    bench_serve.py URL BOARD WALLS [QUERIES]
"""
import http.client
import json
import random
import sys
import time
import urllib.parse

url, board, walls = sys.argv[1], sys.argv[2], sys.argv[3]
queries = int(sys.argv[4]) if len(sys.argv) > 4 else 1000
host = urllib.parse.urlparse(url).netloc
rng = random.Random(29)

times = []
line = []
while len(times) < queries:
    q = urllib.parse.urlencode({"board": board, "walls": walls, "moves": " ".join(line)})
    started = time.perf_counter()
    c = http.client.HTTPConnection(host)
    c.request("GET", "/api/analyze?" + q)
    r = c.getresponse()
    body = r.read()
    times.append(time.perf_counter() - started)
    c.close()
    if r.status != 200:
        sys.exit(f"bench_serve: {r.status} for moves {' '.join(line)!r}: {body.decode()}")
    a = json.loads(body)
    if not a["moves"] or len(line) >= 60:
        line = []
    else:
        line.append(rng.choice(a["moves"])["move"])

times.sort()
ms = lambda s: f"{s * 1000:.2f} ms"
print(f"{queries} queries of {board} with {walls} walls: median {ms(times[len(times) // 2])}, "
      f"99th percentile {ms(times[int(len(times) * 0.99)])}, slowest {ms(times[-1])}")
