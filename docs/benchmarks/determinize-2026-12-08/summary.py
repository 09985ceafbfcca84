"""Medians of the two runs of ``run.sh`` here (six rounds each tree), and the range of the
per-round ratios: ``python docs/benchmarks/determinize-2026-12-08/summary.py``."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

HERE = Path(__file__).resolve().parent
TREES = ("filed", "chance", "new")


def rounds(bench: str) -> dict[tuple[str, str], list[float]]:
    rows: dict[tuple[str, str], list[float]] = {}
    for run in (1, 2):
        for line in (HERE / f"{bench}-run{run}.txt").read_text().splitlines():
            tree, data = line.split(" ", 1)
            for game, row in json.loads(data).items():
                rows.setdefault((tree, game), []).append(row["sims_per_cpu_second"])
    return rows


def main() -> None:
    for bench, label in (("mcts", "first 15 decisions"), ("mcts-whole", "whole games")):
        rows = rounds(bench)
        for game in ("primordial_soup", "origin"):
            med = {t: statistics.median(rows[(t, game)]) for t in TREES}
            ratio = [n / f for n, f in zip(rows[("new", game)], rows[("filed", game)],
                                           strict=True)]
            print(f"{label}, {game}: " + ", ".join(f"{t} {med[t]:,.0f}" for t in TREES)
                  + f"; new/chance {med['new'] / med['chance']:.2f}x, new/filed "
                  f"{med['new'] / med['filed']:.2f}x (rounds {min(ratio):.2f}x to "
                  f"{max(ratio):.2f}x)")


if __name__ == "__main__":
    main()
