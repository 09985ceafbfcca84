"""Primordial Soup's default at new training seeds against its earlier runs and against the
variants measured on the same held-out games (seeds 2075120440-2077120440, 1,200 games a
run), from the saved files: this folder's ``seed*`` (the default) and ``parts-seed*`` (in
parts), ``../collect-2026-12-07`` (``step-seed*``: the default; ``seed*``: in parts) and
``../entropy-2026-12-07`` (``seed*``, ``half-seed*``: another entropy bonus). Prints the
three reads of this folder's README: the new default runs against the earlier eight, then
every default run against every run in parts and against every entropy run, each by its
runs' mean and SD, a two-sided Mann-Whitney test of the runs and the pooled rate; and how
often that test would find the gap now measured between the default and the runs in parts,
by runs a way (simulated at the two groups' means and SDs, as ``collect-2026-12-07/power.py``
did at the eight pairs').

    python docs/benchmarks/learning/draw-2026-12-07/compare.py
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np
from scipy import stats

from primeval.training.evaluate import AgentResult

HERE = Path(__file__).resolve().parent
COLLECT = HERE.parent / "collect-2026-12-07"
ENTROPY = HERE.parent / "entropy-2026-12-07"

#: Each group: (folder, the file names' pattern) pairs; a folder's run is ``NAME/heldout.json``
#: (or ``NAME`` itself, a held-out report, for the two earliest default runs).
GROUPS = {
    "earlier default": [(COLLECT, r"step-seed(\d+)(-agent\.json)?")],
    "new default": [(HERE, r"seed(\d+)")],
    "in parts": [(COLLECT, r"seed(\d+)"), (HERE, r"parts-seed(\d+)")],
    "entropy": [(ENTROPY, r"seed(\d+)"), (ENTROPY, r"half-seed(\d+)")],
}


def group(name: str) -> list[dict]:
    """The agent rows of the group's held-out reports, in folder and seed order."""
    rows = []
    for folder, pattern in GROUPS[name]:
        found = {}
        for path in folder.iterdir():
            match = re.fullmatch(pattern, path.name)
            report = path / "heldout.json" if path.is_dir() else path
            if match and report.is_file():
                found[int(match.group(1))] = json.loads(report.read_text())["agents"][0]
        rows += [found[s] for s in sorted(found)]
    return rows


def pooled(agents: list[dict]) -> str:
    both = AgentResult.pooled(agents)
    lo, hi = both.win_interval()
    return f"{both.win_rate:.3f} [{lo:.3f}, {hi:.3f}]"


def spread(agents: list[dict]) -> str:
    rates = np.array([a["win_rate"] for a in agents])
    return f"{len(rates)} runs, mean {rates.mean():.3f}, SD {rates.std(ddof=1):.3f}"


def rank_p(a: list[dict], b: list[dict]) -> float:
    return float(stats.mannwhitneyu([x["win_rate"] for x in a], [x["win_rate"] for x in b],
                                    alternative="two-sided").pvalue)


#: Runs a way at which :func:`power` is simulated, and its trials and seed.
POWER_RUNS, TRIALS, POWER_SEED = (12, 16, 24, 32), 2000, 0


def power(a: tuple[float, float], b: tuple[float, float], runs: int, trials: int,
          rng: np.random.Generator) -> float:
    """The share of ``trials`` simulated experiments of ``runs`` runs a way, each run's rate
    drawn from a normal of its group's (mean, SD), in which the rank test gives p < 0.05."""
    found = 0
    for _ in range(trials):
        found += stats.mannwhitneyu(rng.normal(*a, runs), rng.normal(*b, runs),
                                    alternative="two-sided").pvalue < 0.05
    return found / trials


def compare() -> dict:
    """The figures :func:`main` prints."""
    runs = {name: group(name) for name in GROUPS}
    default = runs["earlier default"] + runs["new default"]
    out = {"rates": {name: [a["win_rate"] for a in rows] for name, rows in runs.items()},
           "spread": {name: spread(rows) for name, rows in runs.items() if len(rows) > 1},
           "pooled": {name: pooled(rows) for name, rows in runs.items() if rows},
           "every default": {"spread": spread(default), "pooled": pooled(default)},
           "p": {}}
    if len(runs["new default"]) > 1:
        out["p"]["new against earlier default"] = rank_p(runs["new default"],
                                                         runs["earlier default"])
    for other in ("in parts", "entropy"):
        out["p"][f"every default against {other}"] = rank_p(default, runs[other])
    moments = [(float(np.mean(r)), float(np.std(r, ddof=1)))
               for r in ([a["win_rate"] for a in default],
                         [a["win_rate"] for a in runs["in parts"]])]
    rng = np.random.default_rng(POWER_SEED)
    out["power"] = {n: power(*moments, n, TRIALS, rng) for n in POWER_RUNS}
    return out


def main() -> int:
    result = compare()
    for name, rates in result["rates"].items():
        print(f"{name}: {', '.join(f'{r:.3f}' for r in rates)}")
        if name in result["spread"]:
            print(f"    {result['spread'][name]}; pooled {result['pooled'][name]}")
    every = result["every default"]
    print(f"every default run: {every['spread']}; pooled {every['pooled']}")
    for what, p in result["p"].items():
        print(f"{what} (Mann-Whitney U, two-sided): p = {p:.3f}")
    print("the rank test finds the default's gap to the runs in parts, simulated: "
          + ", ".join(f"{share:.2f} at {n} runs a way" for n, share in result["power"].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
