"""Origin learned alone: the structured network's curve beside the flat MLP's, one figure.

    python docs/benchmarks/learning/scratch-2026-12-06/plot.py

reads the runs' ``metrics.csv`` (the MLP's 3M-step run of 2026-12-05, the structured run of
2026-12-06, the MLP with five times the reward shaping, seeds 0 and 1, and the structured network
with it: the same recipe and evaluations otherwise) and writes
``docs/images/origin_scratch_structured_vs_mlp.png``: the win rate against two heuristic bots
at every evaluation (100 games; the two networks' 95% Wilson intervals shaded), chance (1/3)
dashed; and ``docs/images/origin_scratch_ablations.png``: the shaped MLP beside its one-knob
ablations (``ablate.sh``, and the objectives-as-features run of ``objectives-2026-12-06``),
the shaped MLP's interval shaded.
"""

from __future__ import annotations

import csv
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
RUNS = {
    "flat MLP 256x256, shaping 0.05 (2026-12-05)":
        HERE.parent / "scratch-2026-12-05" / "origin-mlp-3m",
    "structured: message passing, per-territory heads, shaping 0.05":
        HERE / "origin-structured-long",
    "flat MLP 256x256, shaping 0.25": HERE / "origin-mlp-shaping",
    "flat MLP 256x256, shaping 0.25, seed 1": HERE / "origin-mlp-shaping-s1",
    "structured, shaping 0.25 (2026-12-06, later)":
        HERE.parent / "structured-2026-12-06" / "origin-structured-shaping",
}
OUT = ROOT / "docs" / "images" / "origin_scratch_structured_vs_mlp.png"
ABLATIONS = {
    "flat MLP, shaping 0.25 on the score lead (the ablated run)": HERE / "origin-mlp-shaping",
    "entropy bonus 0.001 (for 0.01)": HERE / "origin-mlp-shaping-entropy",
    "reward: win or lose (for the rank)": HERE / "origin-mlp-shaping-win",
    "shaping weighs tiles twice": HERE / "origin-mlp-shaping-tiles",
    "shaping on own score (not the lead)": HERE / "origin-mlp-shaping-own",
    "shaping counts objectives in hand by progress (x0.5)": HERE / "origin-mlp-shaping-prospects",
    "shaping weighs hunting tokens three times": HERE / "origin-mlp-shaping-hunting",
    "objectives as features (encoder flat_objectives)":
        HERE.parent / "objectives-2026-12-06" / "origin-mlp-objectives-s0",
    "self-play opponents (two fifths of the seats)": HERE / "origin-mlp-shaping-selfplay",
    "bigger batches (32 envs, minibatches of 1,024)": HERE / "origin-mlp-shaping-batch",
}
ABLATIONS_OUT = ROOT / "docs" / "images" / "origin_scratch_ablations.png"


def every_250k(folder: Path) -> list[dict[str, str]]:
    """The rows of a run's ``metrics.csv`` of its evaluations during training: the first at or
    past each multiple of 250k steps (a run of 32 envs evaluates at 250,016; the final
    400-game row, later than the last of those, is left out)."""
    rows, seen = [], set()
    for row in csv.DictReader((folder / "metrics.csv").open(encoding="utf-8")):
        k = int(row["step"]) // 250_000
        if k not in seen:
            seen.add(k)
            rows.append(row)
    return rows


def curve(folder: Path) -> tuple[list[int], list[float], list[float], list[float]]:
    """Steps, win rates against the heuristic bots and their interval, from the evaluations
    during training (:func:`every_250k`)."""
    rows = every_250k(folder)
    return ([int(r["step"]) for r in rows],
            *([float(r[k]) for r in rows] for k in ("win_rate_vs_heuristic",
                                                     "win_rate_vs_heuristic_lo",
                                                     "win_rate_vs_heuristic_hi")))


def figure(runs: dict[str, Path], shaded: int, title: str, out: Path) -> None:
    """One figure of ``runs``' curves, the first ``shaded`` with their intervals."""
    fig, ax = plt.subplots(figsize=(8, 4))
    for i, (label, folder) in enumerate(runs.items()):
        steps, rate, lo, hi = curve(folder)
        ax.plot(steps, rate, marker="o", color=f"C{i}", label=label)
        if i < shaded:  # the intervals of the runs compared; the rest would hide them
            ax.fill_between(steps, lo, hi, color=f"C{i}", alpha=0.15)
    ax.axhline(1 / 3, color="grey", linestyle="--", linewidth=1, label="chance (1/3)")
    ax.set(xlabel="environment steps (learner decisions)",
           ylabel="win rate vs 2 heuristic bots", title=title, ylim=(0, 0.5))
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="upper left")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    print(out)


def main() -> None:
    figure(RUNS, 2, "Origin, 3 players, learned alone (no prior, no imitation), seed 0 unless "
           "named", OUT)
    figure(ABLATIONS, 1, "Origin, learned alone: one knob of the shaped MLP at a time, seed 0",
           ABLATIONS_OUT)


if __name__ == "__main__":
    main()
