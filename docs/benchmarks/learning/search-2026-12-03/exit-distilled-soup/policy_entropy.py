"""Mean entropy and top action's probability of networks' masked policies on the decisions
with a choice of 12 games of four heuristic bots (``demonstrations``, seed 5000), and how
often each network's most likely action is the first one's.

    python docs/benchmarks/learning/search-2026-12-03/exit-distilled-soup/policy_entropy.py \
        START.json LATER.json ...
"""

from __future__ import annotations

import sys

import numpy as np

from primeval.training.expert.network import load_network
from primeval.training.ppo.imitation import demonstrations


def main() -> None:
    nets = {p: load_network(p) for p in sys.argv[1:]}
    data = demonstrations("primordial_soup", 4, 12, seed=5000)
    obs, masks = data.observations, data.masks.astype(bool)
    print(len(obs), "positions")
    base = None
    for path, net in nets.items():
        probs, _ = net.forward(obs, masks)
        probs = np.where(masks, probs, 0)
        probs /= probs.sum(1, keepdims=True)
        logs = np.log(np.maximum(probs, 1e-12))
        entropy = -(np.where(probs > 0, probs * logs, 0)).sum(1)
        top = probs.argmax(1)
        agree = "" if base is None else f" agrees with the first {np.mean(top == base):.3f}"
        if base is None:
            base = top
        print(f"{path}: entropy {entropy.mean():.3f}, top-1 prob {probs.max(1).mean():.3f}{agree}")


if __name__ == "__main__":
    main()
