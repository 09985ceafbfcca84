"""Where a `collect: rollout` run of Origin's learned-alone recipe spends its time: the
parts' collection, the replay through SB3 (with the callbacks), the update, for 2 processes
and 1 (32,768 learner steps, the bots' schedule phase from the start, no evaluation during
training). Usage: python docs/benchmarks/collect-2026-12-07/phases.py (phases.txt)."""

import shutil
import sys
import tempfile
import time

from sb3_contrib import MaskablePPO

from primeval.training.ppo import collect
from primeval.training.ppo import train as T
from primeval.training.ppo.config import load_config
from primeval.training.ppo.vec_env import GamesVecEnv

SECONDS = {"collect": 0.0, "replay": 0.0, "update": 0.0}


def timed(cls, name, key):
    original = getattr(cls, name)

    def wrapper(self, *args, **kwargs):
        t = time.perf_counter()
        try:
            return original(self, *args, **kwargs)
        finally:
            SECONDS[key] += time.perf_counter() - t

    setattr(cls, name, wrapper)


def main(workers: int) -> None:
    timed(GamesVecEnv, "collect_rollout", "collect")
    timed(collect.RolloutPartsPPO, "collect_rollouts", "replay")  # collection included
    timed(MaskablePPO, "train", "update")
    config = load_config("configs/origin/scratch.yaml", **{
        "total_steps": 32768, "workers": workers, "collect": "rollout",
        "eval.every": 10**9, "eval.games": 1, "eval.final_games": 1, "select.games": 1,
        "league.schedule": [{"from_step": 0, "random": 0.1, "heuristic": 0.9,
                             "self_play": 0.0}]})
    out = tempfile.mkdtemp()
    try:
        T.train(config, out, progress=False)
    finally:
        shutil.rmtree(out)
    SECONDS["replay"] -= SECONDS["collect"]
    print(f"workers {workers}: " + ", ".join(f"{k} {v:.2f} s" for k, v in SECONDS.items()))


if __name__ == "__main__":
    if len(sys.argv) > 1:
        main(int(sys.argv[1]))
    else:  # each in a fresh process
        import subprocess

        for w in (2, 1, 2, 1):
            subprocess.run([sys.executable, __file__, str(w)], check=True)
