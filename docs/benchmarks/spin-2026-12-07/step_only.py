"""The 8 games of Origin's learned-alone recipe stepped with random legal actions, no
learner: one process, or the main process and a worker process (4 games each), sleeping
on their pipes or polling them first. Per step of the 8 games: wall time, the main
process's CPU time, the worker's CPU time (from /proc), and the main process's time in
its own 4 games and waiting for the worker's reply.

    python docs/benchmarks/spin-2026-12-07/step_only.py [--rounds 3] [--steps 300]

Polling is patched in here (it is not in the package): the worker's loop and the main
process's wait on the worker read their pipe through a wrapper that polls before it
blocks. Linux only (/proc)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
from _recipe import random_actions, recipe_config, steady_league

from primeval.training.ppo import vec_env as V

if os.environ.get("STEP_ONLY_SPIN") == "1":  # in this process and the worker's (__mp_main__)

    class _Polling:
        def __init__(self, conn):
            self.conn = conn

        def recv(self):
            while not self.conn.poll(0):
                pass
            return self.conn.recv()

        def __getattr__(self, name):
            return getattr(self.conn, name)

    _plain_worker, _plain_receive = V._worker, V._receive

    def _polling_worker(remote, parent, payload):
        return _plain_worker(_Polling(remote), parent, payload)

    def _polling_receive(remote, k):
        return _plain_receive(_Polling(remote), k)

    V._worker, V._receive = _polling_worker, _polling_receive


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one(workers: int, steps: int) -> str:
    from primeval.training.ppo.train import make_vec_env

    config = recipe_config(workers)
    spent = {"local": 0.0, "wait": 0.0}
    receive = V._receive

    def timed_receive(remote, k):
        t = time.perf_counter()
        try:
            return receive(remote, k)
        finally:
            spent["wait"] += time.perf_counter() - t

    V._receive = timed_receive
    with tempfile.TemporaryDirectory() as tmp:
        vec = make_vec_env(config, steady_league(config, tmp))
        local_step = vec.local.step_arrays

        def timed_local(actions):
            t = time.perf_counter()
            try:
                return local_step(actions)
            finally:
                spent["local"] += time.perf_counter() - t

        vec.local.step_arrays = timed_local
        vec.reset()
        rng = np.random.default_rng(0)
        pids = [p.pid for p in vec.processes]
        for _warm_then_measure in range(2):
            spent.update(local=0.0, wait=0.0)
            t0, c0 = time.perf_counter(), time.process_time()
            w0 = [_cpu_seconds(p) for p in pids]
            for _ in range(steps):
                vec.step_async(random_actions(vec.action_masks(), rng))
                vec.step_wait()
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            worker = sum(_cpu_seconds(p) for p in pids) - sum(w0)
        vec.close()
    ms = 1e3 / steps
    return (f"{wall * ms:.2f} | {cpu * ms:.2f} | {worker * ms:.2f} | {spent['local'] * ms:.2f} "
            f"| {spent['wait'] * ms:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--one", nargs=2, help=argparse.SUPPRESS)  # WORKERS SPIN, in a child
    args = parser.parse_args()
    if args.one:
        print(one(int(args.one[0]), args.steps))
        return
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.2f}; ms per step of the 8 games")
    print("| round | processes | wall | main CPU | worker CPU | main in its games | main "
          "waiting |")
    print("|---|---|---|---|---|---|---|")
    settings = (("1", "0", "one"), ("2", "0", "two, sleeping"), ("2", "1", "two, polling"))
    for r in range(1, args.rounds + 1):
        for workers, spin, label in settings:
            out = subprocess.run(
                [sys.executable, __file__, "--one", workers, spin, "--steps", str(args.steps)],
                env={**os.environ, "STEP_ONLY_SPIN": spin}, capture_output=True, text=True,
                check=True).stdout.strip()
            print(f"| {r} | {label} | {out} |", flush=True)


if __name__ == "__main__":
    main()
