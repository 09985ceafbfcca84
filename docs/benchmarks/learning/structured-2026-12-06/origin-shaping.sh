#!/bin/bash
# Origin learned alone by the structured network with the shaping that helped the MLP: the
# 3M-step structured run (../scratch-2026-12-06/origin-structured-long/) with shaping=0.25 for
# 0.05, as the shaped MLP (../scratch-2026-12-06/origin-mlp-shaping/) is the 3M-step MLP with
# it. The same seed, steps and evaluations (100 games against two heuristic bots every 250k).
# From the repository root with the package installed:
#   bash docs/benchmarks/learning/structured-2026-12-06/origin-shaping.sh
set -euo pipefail
export OMP_NUM_THREADS=1
HERE=docs/benchmarks/learning/structured-2026-12-06/origin-structured-shaping
RUN=runs/origin-structured-shaping
primeval train --config docs/benchmarks/structured/origin_scratch_structured_s0/config.yaml \
  --set total_steps="${STEPS:-3000000}" --set vec_env=vector --set eval.every=250000 \
  --set eval.games=100 --set eval.final_games=400 --set checkpoint_every=250000 \
  --set shaping=0.25 --seed 0 --out "$RUN" --quiet
mkdir -p "$HERE"
cp "$RUN"/{config.yaml,metrics.csv,eval.json,summary.md} "$HERE/"
