#!/bin/bash
# Issue 24: the Origin agent learned from scratch in `make train`'s 30 minutes on 2 cores
# (configs/origin/scratch.yaml: `make train GAME=origin CONFIG=scratch`, seed 0, into
# runs/origin-scratch), its final policy against two heuristic bots: 800 games at the long
# run's snapshot seeds (2049120440 + 2050120440, where the recipe's one-core run read 0.149
# at 1.5M steps and 0.153 at 2M) and 800 at seeds never used before (2073120440 +
# 2074120440). The run's config, metrics, final table and summary are copied into run/,
# the two evaluations' JSON beside them.
# Run from the repository root with the package installed (the two evaluations at once):
#   bash docs/benchmarks/learning/scratch-2026-12-07/heldout.sh
# The second training seed (added after the first run's figures, before its own run ended):
#   primeval train --config configs/origin/scratch.yaml --seed 1 --out runs/origin-scratch-s1
#   RUN=runs/origin-scratch-s1 NAME=run-s1 bash docs/benchmarks/learning/scratch-2026-12-07/heldout.sh
set -euo pipefail
HERE=docs/benchmarks/learning/scratch-2026-12-07/${NAME:-run}
RUN=${RUN:-runs/origin-scratch}
PY=${PY:-.venv/bin/python}
mkdir -p "$HERE"
cp "$RUN"/{config.yaml,metrics.csv,eval.json,summary.md} "$HERE/"
"$PY" -m primeval.training.cli evaluate --game origin --agents "ppo:$RUN/model.zip" heuristic heuristic \
  --games 400 --seed 2049120440 --seeds 2 --json "$HERE/snapshot-seeds.json" --quiet &
"$PY" -m primeval.training.cli evaluate --game origin --agents "ppo:$RUN/model.zip" heuristic heuristic \
  --games 400 --seed 2073120440 --seeds 2 --json "$HERE/heldout-2073.json" --quiet
wait
