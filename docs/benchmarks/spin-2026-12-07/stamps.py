"""Where a step of two processes goes: the 8 games of Origin's learned-alone recipe stepped
with random legal actions, no learner, 4 in the main process and 4 in a worker process;
every step's times on one clock (``time.perf_counter``, the same monotonic clock in both
processes), the worker's taken in a patched ``_handle``. Prints percentiles (10/50/75/90/99)
over the last 300 of 600 steps, in ms.

    python docs/benchmarks/spin-2026-12-07/stamps.py
"""

from __future__ import annotations

import os
import tempfile
import time

import numpy as np
from _recipe import random_actions, recipe_config, steady_league

from primeval.training.ppo import vec_env as V

STEPS, KEPT = 600, 300
_LOG = "PRIMEVAL_STAMPS_FILE"  # the environment variable naming the worker's file

if __name__ == "__mp_main__":  # the worker process: time its steps
    _plain_handle = V._handle
    _worker_times: list[tuple[float, float]] = []

    def _timed_handle(vec, sync, command, args):
        start = time.perf_counter()
        reply = _plain_handle(vec, sync, command, args)
        if command == "step":
            _worker_times.append((start, time.perf_counter()))
            if len(_worker_times) == STEPS:
                np.save(os.environ[_LOG], np.array(_worker_times))
        return reply

    V._handle = _timed_handle


def main() -> None:
    from primeval.training.ppo.train import make_vec_env

    config = recipe_config(workers=2)
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        os.environ[_LOG] = os.path.join(tmp, "worker.npy")  # before the worker starts
        vec = make_vec_env(config, steady_league(config, tmp))
        vec.reset()
        plain_local = vec.local.step_arrays
        local: dict[str, float] = {}

        def timed_local(actions):
            local["start"] = time.perf_counter()
            try:
                return plain_local(actions)
            finally:
                local["end"] = time.perf_counter()

        vec.local.step_arrays = timed_local
        rng = np.random.default_rng(0)
        for _ in range(STEPS):
            vec.step_async(random_actions(vec.action_masks(), rng))
            sent = time.perf_counter()
            vec.step_wait()
            times.append((sent, local["start"], local["end"], time.perf_counter()))
        time.sleep(0.5)
        vec.close()
        worker = np.load(os.environ[_LOG])[-KEPT:]
    main_t = np.array(times)[-KEPT:]
    sent, local_start, local_end, done = main_t.T
    w_start, w_end = worker.T

    def row(label: str, ms: np.ndarray) -> None:
        pct = " / ".join(f"{x:.2f}" for x in np.percentile(1e3 * ms, [10, 50, 75, 90, 99]))
        print(f"| {label} | {pct} | {1e3 * ms.mean():.2f} |")

    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.2f}; ms, last {KEPT} of {STEPS} steps")
    print("| | percentiles 10 / 50 / 75 / 90 / 99 | mean |")
    print("|---|---|---|")
    row("the main process's 4 games", local_end - local_start)
    row("the worker's 4 games", w_end - w_start)
    row("the worker's start after the command is sent", w_start - sent)
    row("the worker's end less the main process's", w_end - local_end)
    row("the reply's arrival after the later of the two ends", done - np.maximum(local_end, w_end))
    row("the step (command sent to reply in hand)", done - sent)


if __name__ == "__main__":
    main()
