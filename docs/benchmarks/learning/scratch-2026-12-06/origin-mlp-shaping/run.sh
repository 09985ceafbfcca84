#!/bin/bash
# An ablation of the 3M-step MLP run of 2026-12-05 (../../scratch-2026-12-05/origin-mlp-3m/):
# the same config, seed and evaluations, with five times the reward shaping on the score lead
# (shaping=0.25 for 0.05). Does a denser reward lift the MLP's plateau against the heuristic?
# Run from the repository root with the package installed:
#   bash docs/benchmarks/learning/scratch-2026-12-06/origin-mlp-shaping/run.sh
#   SEED=1 bash docs/benchmarks/learning/scratch-2026-12-06/origin-mlp-shaping/run.sh
# It writes runs/origin-mlp-shaping[-s1] and copies its config, metrics, final table and
# summary into this folder (seed 0) or origin-mlp-shaping-s1/ beside it (seed 1).
set -euo pipefail
export OMP_NUM_THREADS=1
SEED=${SEED:-0}
SUFFIX=$([ "$SEED" = 0 ] || echo "-s$SEED")  # seed 0 in origin-mlp-shaping/, seed N in -sN/
HERE=docs/benchmarks/learning/scratch-2026-12-06/origin-mlp-shaping$SUFFIX
RUN=runs/origin-mlp-shaping$SUFFIX
primeval train --config docs/benchmarks/structured/origin_scratch_mlp_s0/config.yaml \
  --set total_steps="${STEPS:-3000000}" --set vec_env=vector --set eval.every=250000 \
  --set eval.games=100 --set eval.final_games=400 --set checkpoint_every=250000 \
  --set shaping=0.25 --seed "$SEED" --out "$RUN" --quiet
mkdir -p "$HERE"
cp "$RUN"/{config.yaml,metrics.csv,eval.json,summary.md} "$HERE/"
