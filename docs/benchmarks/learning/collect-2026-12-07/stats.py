"""PPO's own training statistics of the runs of this folder, the two ways side by side.

    python stats.py export RUN_DIR OUT_CSV   # a run's TensorBoard scalars -> its train.csv
    python stats.py [FOLDER]                 # the runs' train.csv, read by tenths of the run

``export`` keeps, for every rollout, the scalars SB3 logs for it (``rollout/ep_rew_mean``,
``train/entropy_loss``, ``train/value_loss``, ``train/approx_kl``, ``train/clip_fraction``,
``train/explained_variance``); the runs' TensorBoard folders themselves are not kept. The
summary is each scalar's mean over the first, third, fifth and last tenth of the run's
rollouts, for every run folder with a ``train.csv`` (``seed*`` collected in parts,
``step-seed*`` step by step).
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import numpy as np

SCALARS = ("rollout/ep_rew_mean", "train/entropy_loss", "train/value_loss", "train/approx_kl",
           "train/clip_fraction", "train/explained_variance")
TENTHS = (0, 2, 4, 9)


def export(run_dir: Path, out: Path) -> None:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    found = sorted(run_dir.glob("tb/**/events.out.tfevents.*"))
    if len(found) != 1:  # a resumed run writes one file a session: which to read is not clear
        raise SystemExit(f"{run_dir}/tb: expected one TensorBoard events file, found "
                         f"{len(found)}{': ' + ', '.join(map(str, found)) if found else ''}")
    (events,) = found
    acc = EventAccumulator(str(events), size_guidance={"scalars": 0})
    acc.Reload()
    columns = {tag: {e.step: e.value for e in acc.Scalars(tag)} for tag in SCALARS}
    steps = sorted(set.intersection(*(set(c) for c in columns.values())))
    with out.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["step", *SCALARS])
        for step in steps:
            writer.writerow([step, *(f"{columns[tag][step]:.6g}" for tag in SCALARS)])


def tenths(path: Path) -> dict[str, list[float]]:
    """Each scalar's mean over the tenths :data:`TENTHS` of the run's rollouts."""
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    n = len(rows)
    return {tag: [float(np.mean([float(r[tag]) for r in rows[n * k // 10:n * (k + 1) // 10]]))
                  for k in TENTHS] for tag in SCALARS}


def summary(folder: Path) -> dict[str, dict[str, list[float]]]:
    return {path.parent.name: tenths(path) for path in sorted(folder.glob("*seed*/train.csv"))}


def main(argv: list[str]) -> None:
    if argv[:1] == ["export"]:
        export(Path(argv[1]), Path(argv[2]))
        return
    folder = Path(argv[0]) if argv else Path(__file__).resolve().parent
    for run, stats in summary(folder).items():
        print(run)
        for tag, values in stats.items():
            print(f"  {tag:28s} " + "  ".join(f"{v:8.4f}" for v in values))


if __name__ == "__main__":
    main(sys.argv[1:])
