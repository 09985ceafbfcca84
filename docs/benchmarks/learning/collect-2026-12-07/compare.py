"""The two ways of collecting compared over the saved runs of this folder (or another folder
laid out alike: ``seed*/heldout.json`` in parts, ``step-seed*/heldout.json`` or
``step-seed*-agent.json`` step by step): each run's held-out win rate, each way's pooled rate
and Wilson interval, a rank test of the runs (Mann-Whitney U) and, over the training seeds
run both ways, the signed-rank test of the pairs (Wilcoxon; exact for so few pairs).

    python docs/benchmarks/learning/collect-2026-12-07/compare.py [FOLDER]
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from scipy import stats

from primeval.training.evaluate import AgentResult


def runs(folder: Path) -> dict[str, dict[int, dict]]:
    """{"parts" | "step": {training seed: the run's agent row of its held-out report}}."""
    found: dict[str, dict[int, dict]] = {"parts": {}, "step": {}}
    for path in sorted(folder.glob("*seed*")):
        match = re.fullmatch(r"(step-)?seed(\d+)(-agent\.json)?", path.name)
        if match is None:
            continue
        report = path / "heldout.json" if path.is_dir() else path
        if not report.exists():
            continue
        way = "step" if match.group(1) else "parts"
        found[way][int(match.group(2))] = json.loads(report.read_text())["agents"][0]
    return found


def pooled(agents: list[dict]) -> str:
    both = AgentResult.pooled(agents)
    lo, hi = both.win_interval()
    return f"{both.win_rate:.3f} [{lo:.3f}, {hi:.3f}] over {both.games:,} games"


def compare(folder: Path) -> dict:
    """The figures :func:`main` prints: per way its runs' win rates by training seed and the
    pooled rate; the rank test's p; over the seeds run both ways, step minus parts per seed
    and the signed-rank test's p (``None`` with fewer than two pairs)."""
    found = runs(folder)
    parts = [a["win_rate"] for a in found["parts"].values()]
    step = [a["win_rate"] for a in found["step"].values()]
    both = sorted(set(found["parts"]) & set(found["step"]))
    diffs = [found["step"][s]["win_rate"] - found["parts"][s]["win_rate"] for s in both]
    return {
        "rates": {way: {s: a["win_rate"] for s, a in sorted(by_seed.items())}
                  for way, by_seed in found.items()},
        "pooled": {way: pooled(list(by_seed.values())) for way, by_seed in found.items()},
        "rank_p": float(stats.mannwhitneyu(parts, step, alternative="two-sided").pvalue),
        "pairs": dict(zip(both, diffs, strict=True)),
        "pairs_p": (float(stats.wilcoxon(diffs, alternative="two-sided").pvalue)
                    if len(diffs) >= 2 else None),
    }


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else Path(__file__).resolve().parent
    result = compare(folder)
    for way, by_seed in result["rates"].items():
        rates = ", ".join(f"seed {s}: {r:.3f}" for s, r in by_seed.items())
        print(f"{way}: {len(by_seed)} runs ({rates}); pooled {result['pooled'][way]}")
    print(f"rank test of the runs (Mann-Whitney U, two-sided): p = {result['rank_p']:.3f}")
    if result["pairs_p"] is not None:
        diffs = list(result["pairs"].values())
        print(f"pairs (training seeds {list(result['pairs'])}): step minus parts "
              f"{', '.join(f'{d:+.3f}' for d in diffs)}, mean {sum(diffs) / len(diffs):+.3f}; "
              f"signed-rank test (Wilcoxon, two-sided): p = {result['pairs_p']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
