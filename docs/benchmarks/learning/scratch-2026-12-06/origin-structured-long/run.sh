#!/bin/bash
# Origin learned alone (no prior, no imitation) by the structured network ("A network that
# reads the map", docs/learning.md; its config, ../../../structured/origin_scratch_structured_s0),
# the twin of the 3M-step MLP run of 2026-12-05 (../../scratch-2026-12-05/origin-mlp-3m/):
# the same overrides, evaluated every 250k steps by 100 games against two heuristic bots.
# Run from the repository root with the package installed:
#   bash docs/benchmarks/learning/scratch-2026-12-06/origin-structured-long/run.sh
# It writes runs/origin-structured-long and copies its config, metrics, final table and
# summary beside this script (model.zip is not kept).
set -euo pipefail
export OMP_NUM_THREADS=1
HERE=docs/benchmarks/learning/scratch-2026-12-06/origin-structured-long
RUN=runs/origin-structured-long
primeval train --config docs/benchmarks/structured/origin_scratch_structured_s0/config.yaml \
  --set total_steps="${STEPS:-3000000}" --set vec_env=vector --set eval.every=250000 \
  --set eval.games=100 --set eval.final_games=400 --set checkpoint_every=250000 \
  --seed 0 --out "$RUN" --quiet
cp "$RUN"/{config.yaml,metrics.csv,eval.json,summary.md} "$HERE/"
