"""Primordial Soup's default collected step by step against the default collected in parts,
every training seed 0-11 each way, on the same held-out games (seeds
2075120440-2077120440, 1,200 games a run), from the saved files: the default's twelve runs
(``../collect-2026-12-07/step-seed*``, ``../draw-2026-12-07/seed*``) and the twelve in parts
(``../collect-2026-12-07/seed*``, ``../draw-2026-12-07/parts-seed*``, this folder's
``parts-seed*``). Prints this folder's README's two reads: each group's runs, mean, SD and
pooled rate with a two-sided Mann-Whitney test of the runs, and a two-sided Wilcoxon
signed-rank test of the twelve pairs by training seed; then how often the rank test would
find the gap now measured, by runs a way (as ``../draw-2026-12-07/compare.py`` simulates it).

    python docs/benchmarks/learning/parts-2026-12-08/compare.py
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import numpy as np
from scipy import stats

HERE = Path(__file__).resolve().parent
COLLECT = HERE.parent / "collect-2026-12-07"
DRAW_DIR = HERE.parent / "draw-2026-12-07"


def _draw_compare():
    """The draw read's script, whose pooling, spread, rank test and power this one reuses."""
    spec = importlib.util.spec_from_file_location("draw_compare", DRAW_DIR / "compare.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


draw = _draw_compare()

#: Each way: (folder, the run names' pattern) pairs; a run is ``NAME/heldout.json`` (or
#: ``NAME`` itself, a held-out report, for the two earliest default runs).
WAYS = {
    "step by step": [(COLLECT, r"step-seed(\d+)(-agent\.json)?"), (DRAW_DIR, r"seed(\d+)")],
    "in parts": [(COLLECT, r"seed(\d+)"), (DRAW_DIR, r"parts-seed(\d+)"),
                 (HERE, r"parts-seed(\d+)")],
}


def runs(way: str) -> dict[int, dict]:
    """The agent row of each training seed's held-out report, one way."""
    found: dict[int, dict] = {}
    for folder, pattern in WAYS[way]:
        for path in folder.iterdir():
            match = re.fullmatch(pattern, path.name)
            report = path / "heldout.json" if path.is_dir() else path
            if match and report.is_file():
                seed = int(match.group(1))
                if seed in found:
                    raise ValueError(f"{way}: two runs at training seed {seed}")
                found[seed] = json.loads(report.read_text())["agents"][0]
    return dict(sorted(found.items()))


def compare() -> dict:
    """The figures :func:`main` prints."""
    ways = {way: runs(way) for way in WAYS}
    step, parts = (list(ways[w].values()) for w in WAYS)
    paired = sorted(set(ways["step by step"]) & set(ways["in parts"]))
    differences = [ways["in parts"][s]["win_rate"] - ways["step by step"][s]["win_rate"]
                   for s in paired]
    moments = [(float(np.mean(r)), float(np.std(r, ddof=1)))
               for r in ([a["win_rate"] for a in step], [a["win_rate"] for a in parts])]
    rng = np.random.default_rng(draw.POWER_SEED)
    return {
        "seeds": {way: list(rows) for way, rows in ways.items()},
        "rates": {way: [a["win_rate"] for a in rows.values()] for way, rows in ways.items()},
        "spread": {way: draw.spread(list(rows.values())) for way, rows in ways.items()},
        "pooled": {way: draw.pooled(list(rows.values())) for way, rows in ways.items()},
        "rank p": draw.rank_p(step, parts),
        "pairs": paired,
        "differences": differences,
        "signed-rank p": float(stats.wilcoxon(differences, alternative="two-sided").pvalue),
        "power": {n: draw.power(*moments, n, draw.TRIALS, rng) for n in draw.POWER_RUNS},
    }


def main() -> int:
    result = compare()
    for way, rates in result["rates"].items():
        seeds = result["seeds"][way]
        print(f"{way} (training seeds {seeds[0]}-{seeds[-1]}): "
              + ", ".join(f"{r:.3f}" for r in rates))
        print(f"    {result['spread'][way]}; pooled {result['pooled'][way]}")
    print(f"step by step against in parts (Mann-Whitney U, two-sided): "
          f"p = {result['rank p']:.3f}")
    print(f"in parts minus step by step, {len(result['pairs'])} pairs by training seed: "
          + ", ".join(f"{d:+.3f}" for d in result["differences"]))
    print(f"    mean {np.mean(result['differences']):+.3f}; Wilcoxon signed-rank, two-sided: "
          f"p = {result['signed-rank p']:.3f}")
    print("the rank test finds the gap now measured, simulated: "
          + ", ".join(f"{share:.2f} at {n} runs a way" for n, share in result["power"].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
