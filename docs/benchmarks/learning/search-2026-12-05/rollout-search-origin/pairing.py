"""How much pairing buys: the spread of a paired comparison against an unpaired one.

    python docs/benchmarks/learning/search-2026-12-05/rollout-search-origin/pairing.py \\
        [--positions 60] [--seed 2026120500] [--out pairing.json]

Positions from seeded games of the heuristic bots (every decision the reference heuristic's
or, three times in ten, a random legal move: the heuristics bench's positions, every
``--every``-th with at least three legal moves); at each, the shipped residual Origin agent's
three likeliest moves played out 32 times with the rollout search's paired rollouts
(``RolloutSearchAgent.paired_values``: the same deal and seed for every candidate). Per
position and alternative move, the variance of the paired difference ``v_alt - v_first``
against the variance the same difference would have from independent rollouts,
``var(v_alt) + var(v_first)``; their ratio is how many times more rollouts an unpaired
comparison needs for the same standard error. Prints the median and quartiles of the ratio,
and how often the pairs could not tell the moves apart at all (the same value in every pair).
"""

from __future__ import annotations

import argparse

import numpy as np
from common import report, search_positions

from primeval.training.agents.rollouts import RolloutSearchAgent

ZIP = "training/benchmark/zoo_files/origin-3p-ppo.zip"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--every", type=int, default=7)
    parser.add_argument("--seed", type=int, default=2026120500)
    parser.add_argument("--out")
    args = parser.parse_args()
    agent = RolloutSearchAgent("origin", f"rollouts:net={ZIP}", seed=args.seed)
    ratios, ties, kept = [], 0, 0
    for rules, state, seat, _legal, candidates in search_positions(agent, args.positions,
                                                                   args.every, args.seed):
        values = agent.paired_values(rules, state, seat, candidates)
        for alt in range(1, values.shape[1]):
            paired = np.var(values[:, alt] - values[:, 0], ddof=1)
            unpaired = np.var(values[:, alt], ddof=1) + np.var(values[:, 0], ddof=1)
            if paired == 0:
                ties += 1
            elif unpaired > 0:
                ratios.append(unpaired / paired)
        kept += 1
    q = np.percentile(ratios, [25, 50, 75]).round(2).tolist()
    result = {"positions": kept, "comparisons": len(ratios) + ties, "ties": ties,
              "ratio_quartiles": q, "seed": args.seed}
    report(result, args.out)


if __name__ == "__main__":
    main()
