"""What ``label.py``'s files say of the games that made them, as a small JSON to commit.

    python docs/benchmarks/learning/exit-2026-12-05/rollout-exit-origin/summary.py \\
        labels-s*.npz --out labels-summary.json

Per file: the seed, the games and, per game, whether the labelling search finished first
(ties included, seats rotated against two heuristic bots), the decisions with a choice, how
often the (first) search left the apprentice's move and, with ``--confirm``, how often the
second search kept the switch. The ``.npz`` files themselves are too large to commit.
"""

from __future__ import annotations

import argparse

import numpy as np

from primeval.training.evaluate import write_json


def summary(path: str) -> dict:
    data = np.load(path, allow_pickle=False)
    switched = data["actions"] != data["candidates"][:, 0]
    confirmed = data["confirmed"] if "confirmed" in data else np.zeros(len(switched), bool)
    first = confirmed | switched  # where the first search left the move (all re-judged, if any)
    return {"seed": int(data["games"].min()), "games": int(len(data["top"])),
            "first": [int(x) for x in data["top"]], "decisions": int(len(switched)),
            "first_switches": int(first.sum()), "switches_kept": int(switched.sum())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("labels", nargs="+")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    write_json(args.out, {"files": [summary(p) for p in args.labels]})


if __name__ == "__main__":
    main()
