"""How often a rank test of the runs (Mann-Whitney U, two-sided, p < 0.05) finds a gap
between the two ways of collecting, by runs a way, simulated at the spread and gap the eight
pairs measured (step by step 0.704, SD 0.09; in parts 0.622, SD 0.05; each run's held-out
rate drawn from a normal with its way's mean and SD). docs/learning.md quotes it ("Does a
run collected in parts learn as well?").

    python docs/benchmarks/learning/collect-2026-12-07/power.py [TRIALS]
"""

from __future__ import annotations

import sys

import numpy as np
from scipy import stats

STEP, PARTS = (0.704, 0.09), (0.622, 0.05)
RUNS = (8, 12, 16)


def power(runs: int, trials: int, rng: np.random.Generator) -> float:
    """The share of ``trials`` simulated experiments of ``runs`` runs a way with p < 0.05."""
    found = 0
    for _ in range(trials):
        step = rng.normal(*STEP, runs)
        parts = rng.normal(*PARTS, runs)
        found += stats.mannwhitneyu(step, parts, alternative="two-sided").pvalue < 0.05
    return found / trials


def main(argv: list[str]) -> int:
    trials = int(argv[0]) if argv else 2000
    rng = np.random.default_rng(0)
    for runs in RUNS:
        print(f"{runs} runs a way: the rank test finds the gap in {power(runs, trials, rng):.2f} "
              f"of {trials} simulated experiments")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
