"""Twice the entropy bonus against the default, over the saved runs: each training seed's
held-out win rate both ways (``seed*/heldout.json`` here, the default's
``../collect-2026-12-07/step-seed*/heldout.json``), the pairs' differences, both ways' pooled
rates over the same seeds with Wilson intervals, and PPO's entropy and value loss by tenths
of the run for the seeds whose default run kept its statistics (``train.csv``).

    python docs/benchmarks/learning/entropy-2026-12-07/compare.py
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import numpy as np

from primeval.training.evaluate import AgentResult

HERE = Path(__file__).resolve().parent
DEFAULT = HERE.parent / "collect-2026-12-07"
TENTHS = (0, 2, 4, 9)
SCALARS = ("train/entropy_loss", "train/value_loss")


def held_out(folder: Path) -> dict:
    return json.loads((folder / "heldout.json").read_text())["agents"][0]


def pooled(agents: list[dict]) -> str:
    both = AgentResult("pooled", games=sum(a["games"] for a in agents),
                       wins=sum(a["win_rate"] * a["games"] for a in agents))
    lo, hi = both.win_interval()
    return f"{both.win_rate:.3f} [{lo:.3f}, {hi:.3f}] over {both.games:,} games"


def tenths(path: Path) -> dict[str, list[float]]:
    """Each scalar's mean over the first, third, fifth and last tenth of the rollouts
    (as ``collect-2026-12-07/stats.py`` reads them)."""
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    n = len(rows)
    return {tag: [float(np.mean([float(r[tag]) for r in rows[n * k // 10:n * (k + 1) // 10]]))
                  for k in TENTHS] for tag in SCALARS}


def compare() -> dict:
    """Per training seed run both ways: the two rates and their difference; the pooled rates;
    the statistics by tenths where both runs kept them."""
    seeds = sorted(int(p.name[4:]) for p in HERE.glob("seed*") if (p / "heldout.json").exists())
    bonus = {s: held_out(HERE / f"seed{s}") for s in seeds}
    default = {s: held_out(DEFAULT / f"step-seed{s}") for s in seeds}
    stats = {}
    for s in seeds:
        mine, theirs = HERE / f"seed{s}" / "train.csv", DEFAULT / f"step-seed{s}" / "train.csv"
        if mine.exists() and theirs.exists():
            stats[s] = {"ent_coef 0.02": tenths(mine), "default": tenths(theirs)}
    return {
        "rates": {s: (bonus[s]["win_rate"], default[s]["win_rate"]) for s in seeds},
        "pairs": {s: bonus[s]["win_rate"] - default[s]["win_rate"] for s in seeds},
        "pooled": {"ent_coef 0.02": pooled(list(bonus.values())),
                   "default": pooled(list(default.values()))},
        "stats": stats,
    }


def main() -> int:
    result = compare()
    for s, (mine, theirs) in result["rates"].items():
        print(f"seed {s}: ent_coef 0.02 {mine:.3f}, default {theirs:.3f}, "
              f"difference {result['pairs'][s]:+.3f}")
    diffs = list(result["pairs"].values())
    if diffs:
        print(f"mean difference {sum(diffs) / len(diffs):+.3f} over {len(diffs)} pairs")
    for way, text in result["pooled"].items():
        print(f"pooled, {way}: {text}")
    for s, ways in result["stats"].items():
        for way, by_tag in ways.items():
            for tag, values in by_tag.items():
                print(f"seed {s} {way:14s} {tag:20s} "
                      + "  ".join(f"{v:8.4f}" for v in values))
    return 0


if __name__ == "__main__":
    sys.exit(main())
