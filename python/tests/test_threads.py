"""Long calls release the GIL, and Ctrl-C (SIGINT) stops them with KeyboardInterrupt,
after which the next call runs."""

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest
import quoridor_solver as qs


def test_other_threads_run_while_a_cell_is_solved():
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    try:
        started = time.perf_counter()
        r = qs.solve("5x5", walls=2, method="search", threads=1)
        took = time.perf_counter() - started
    finally:
        done.set()
        counter.join()
    assert r.outcome == 2
    during = [t for t in ticks if started <= t <= started + took]
    # Held GIL: no tick at all during the solve. Released: about one a millisecond.
    assert len(during) > took * 1000 / 10, (len(during), took)


INTERRUPTED = textwrap.dedent(
    """
    import signal, sys, time
    import quoridor_solver as qs
    # Python's own handler, even when this process was started with SIGINT ignored (as a
    # shell without job control starts a command run with `&`, and its children inherit).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    print("ready", flush=True)
    started = time.perf_counter()
    try:
        qs.solve("5x5", walls=4, method=sys.argv[1], memory="4G")
        print("finished", flush=True)
    except KeyboardInterrupt:
        print(f"interrupted after {time.perf_counter() - started:.2f} s", flush=True)
    print(qs.solve("3x3", walls=1).text, flush=True)
    """
)


@pytest.mark.parametrize("method", ["search", "retro"])
def test_ctrl_c_stops_a_long_solve(method):
    child = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED, method],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout.readline().strip() == "ready"
    time.sleep(2)  # the tables are built and the work is under way (both take > 30 s)
    sent = time.perf_counter()
    os.kill(child.pid, signal.SIGINT)
    out, err = child.communicate(timeout=60)
    stopped = time.perf_counter() - sent
    lines = out.splitlines()
    assert lines[0].startswith("interrupted after"), (out, err)
    assert stopped < 10, stopped
    # The stop is forgotten: the next call solves.
    assert lines[1] == "3x3 with 1 wall per player: Player 2 wins in 8 plies"
    assert child.returncode == 0, err
