"""The measuring scripts of docs/benchmarks/throughput-2026-12-05 run at this code and print
what history.md reads from them (their figures are timings: nothing here asserts a speed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "docs" / "benchmarks" / "throughput-2026-12-05"


def _run(script: str, *args: str) -> dict:
    out = subprocess.run([sys.executable, str(HERE / script), *args], cwd=ROOT, check=True,
                         capture_output=True, text=True, env={**os.environ, "OMP_NUM_THREADS": "1"})
    return json.loads(out.stdout)


def test_bots_py_times_the_same_games_twice_alike():
    first, second = _run("bots.py", "--games", "1"), _run("bots.py", "--games", "1")
    for game in ("primordial_soup", "origin"):
        assert first[game]["decisions"] > 50 and first[game]["us_per_decision"] > 0
        # the same seeded games: the same decisions and actions, whatever the timing
        assert (first[game]["decisions"], first[game]["actions"]) == (
            second[game]["decisions"], second[game]["actions"])


def test_mcts_sims_py_counts_the_simulations_of_its_decisions():
    result = _run("mcts_sims.py")
    for game in ("primordial_soup", "origin"):
        assert result[game]["simulations"] % 100 == 0 and result[game]["simulations"] > 0
        assert result[game]["sims_per_cpu_second"] > 0 and len(result[game]["actions"]) == 10


def test_run_sh_writes_every_file_history_md_links():
    script = (HERE / "run.sh").read_text(encoding="utf-8")
    history = (ROOT / "docs" / "benchmarks" / "history.md").read_text(encoding="utf-8")
    for name in ("train.txt", "rules.txt", "bots.txt", "bots-old-new.txt", "mcts.txt"):
        assert f'"$HERE/{name}"' in script and (HERE / name).is_file(), name
        assert f"(throughput-2026-12-05/{name})" in history, name
