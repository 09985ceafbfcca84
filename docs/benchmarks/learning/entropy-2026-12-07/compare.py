"""Other entropy bonuses against the default, over the saved runs: each training seed's
held-out win rate with the bonus (``seed*/heldout.json`` here: ``ent_coef`` 0.02;
``half-seed*/``: 0.005) and the default's at the same seed
(``../collect-2026-12-07/step-seed*/heldout.json``: 0.01), the pairs' differences, the pooled
rates over the same seeds with Wilson intervals, and PPO's entropy and value loss by tenths of
the run where both runs kept their statistics (``train.csv``).

    python docs/benchmarks/learning/entropy-2026-12-07/compare.py
"""

from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path

import numpy as np

from primeval.training.evaluate import AgentResult

HERE = Path(__file__).resolve().parent
DEFAULT = HERE.parent / "collect-2026-12-07"
#: The folders' prefix -> the bonus their runs trained with.
WAYS = {"seed": 0.02, "half-seed": 0.005}
TENTHS = (0, 2, 4, 9)
SCALARS = ("train/entropy_loss", "train/value_loss")


def held_out(folder: Path) -> dict:
    return json.loads((folder / "heldout.json").read_text())["agents"][0]


def pooled(agents: list[dict]) -> str:
    both = AgentResult.pooled(agents)
    lo, hi = both.win_interval()
    return f"{both.win_rate:.3f} [{lo:.3f}, {hi:.3f}] over {both.games:,} games"


def tenths(path: Path) -> dict[str, list[float]]:
    """Each scalar's mean over the first, third, fifth and last tenth of the rollouts
    (as ``collect-2026-12-07/stats.py`` reads them)."""
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    n = len(rows)
    return {tag: [float(np.mean([float(r[tag]) for r in rows[n * k // 10:n * (k + 1) // 10]]))
                  for k in TENTHS] for tag in SCALARS}


def compare(prefix: str) -> dict:
    """For the runs ``PREFIX<seed>``: per training seed the rate with the bonus, the
    default's and their difference; both pooled; the statistics by tenths."""
    seeds = sorted(int(m.group(1)) for p in HERE.iterdir()
                   if (m := re.fullmatch(re.escape(prefix) + r"(\d+)", p.name))
                   and (p / "heldout.json").exists())
    bonus = {s: held_out(HERE / f"{prefix}{s}") for s in seeds}
    default = {s: held_out(DEFAULT / f"step-seed{s}") for s in seeds}
    stats = {}
    for s in seeds:
        mine = HERE / f"{prefix}{s}" / "train.csv"
        theirs = DEFAULT / f"step-seed{s}" / "train.csv"
        if mine.exists() and theirs.exists():
            stats[s] = {"bonus": tenths(mine), "default": tenths(theirs)}
    return {
        "rates": {s: (bonus[s]["win_rate"], default[s]["win_rate"]) for s in seeds},
        "pairs": {s: bonus[s]["win_rate"] - default[s]["win_rate"] for s in seeds},
        "pooled": {"bonus": pooled(list(bonus.values())) if bonus else None,
                   "default": pooled(list(default.values())) if default else None},
        "stats": stats,
    }


def main() -> int:
    for prefix, coef in WAYS.items():
        result = compare(prefix)
        if not result["rates"]:
            continue
        print(f"ent_coef {coef} ({prefix}*) against the default's 0.01:")
        for s, (mine, theirs) in result["rates"].items():
            print(f"  seed {s}: {mine:.3f} against {theirs:.3f}, {result['pairs'][s]:+.3f}")
        diffs = list(result["pairs"].values())
        print(f"  mean difference {sum(diffs) / len(diffs):+.3f} over {len(diffs)} pairs")
        print(f"  pooled: {result['pooled']['bonus']} against {result['pooled']['default']}")
        for s, ways in result["stats"].items():
            for way, by_tag in ways.items():
                for tag, values in by_tag.items():
                    print(f"  seed {s} {way:8s} {tag:20s} "
                          + "  ".join(f"{v:8.4f}" for v in values))
    return 0


if __name__ == "__main__":
    sys.exit(main())
