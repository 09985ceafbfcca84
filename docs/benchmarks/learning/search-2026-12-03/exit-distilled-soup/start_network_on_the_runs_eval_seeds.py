"""A network's raw policy on an expert-iteration run's own evaluation seeds (iterations 2, 4,
6 and 8: the games the run's curve played), to set beside that curve.

    python docs/benchmarks/learning/search-2026-12-03/exit-distilled-soup/start_network_on_the_runs_eval_seeds.py \
        RUN NETWORK.json OUT.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from primeval.training.expert.config import load_expert_config
from primeval.training.expert.train import evaluate_network
from primeval.training.seeding import RunSeeds


def main() -> None:
    run, net, out_path = sys.argv[1:4]
    config = load_expert_config(f"{run}/config.yaml", workers=0)
    seeds = RunSeeds(config.seed)
    out = {}
    for it in (2, 4, 6, 8):
        result = evaluate_network(
            net, config, config.eval.games, seeds.child("evaluation", it), version=-it
        )
        out[it] = (result["win_rate"], result["win_rate_ci95"])
        print(it, out[it], flush=True)
    Path(out_path).write_text(json.dumps(out, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
