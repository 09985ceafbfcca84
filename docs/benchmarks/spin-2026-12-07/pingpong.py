"""A pipe's round trip between two processes (multiprocessing's forkserver Pipe, as the
worker processes use): the main process sends N bytes, the other sends them back, with the
receiving side sleeping on the pipe or polling it first, and the main process busy for
0 or 2 ms between round trips (a worker waits for the main process's own games).

    python docs/benchmarks/spin-2026-12-07/pingpong.py
"""

from __future__ import annotations

import multiprocessing as mp
import os
import time


def _echo(conn, poll: bool) -> None:
    while True:
        if poll:
            while not conn.poll(0):
                pass
        message = conn.recv_bytes()
        if not message:
            return
        conn.send_bytes(message)


def _busy(ms: float) -> None:
    t = time.perf_counter()
    while time.perf_counter() - t < ms / 1e3:
        pass


def main(trips: int = 300) -> None:
    ctx = mp.get_context("forkserver")
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.2f}; µs a round trip, the median of 3 runs of {trips}")
    print("| bytes | waiting | main busy between trips | round trip µs |")
    print("|---|---|---|---|")
    for size in (16, 24_000):
        for poll in (False, True):
            here, there = ctx.Pipe()
            child = ctx.Process(target=_echo, args=(there, poll))
            child.start()
            payload = bytes(size)
            for gap in (0.0, 2.0):
                runs = []
                for _ in range(3):
                    t = time.perf_counter()
                    for _ in range(trips):
                        here.send_bytes(payload)
                        if poll:
                            while not here.poll(0):
                                pass
                        here.recv_bytes()
                        _busy(gap)
                    runs.append((time.perf_counter() - t) / trips * 1e6 - gap * 1e3)
                runs.sort()
                print(f"| {size:,} | {'polling' if poll else 'sleeping'} | {gap:.0f} ms | "
                      f"{runs[1]:.0f} |", flush=True)
            here.send_bytes(b"")
            child.join()


if __name__ == "__main__":
    main()
