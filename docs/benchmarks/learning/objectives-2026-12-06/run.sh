#!/bin/bash
# The shaped MLP learned alone (scratch-2026-12-06/origin-mlp-shaping: its config, length and
# evaluations) with one change: the "flat_objectives" encoder, the "flat" observation plus
# what the objectives in hand ask of the board. Run from the repository root with the
# package installed:
#   SEED=0 bash docs/benchmarks/learning/objectives-2026-12-06/run.sh
# It writes runs/origin-mlp-objectives-sSEED and copies its config, metrics, final table and
# summary into origin-mlp-objectives-sSEED/ beside this script.
set -euo pipefail
export OMP_NUM_THREADS=1
SEED=${SEED:-0}
HERE=docs/benchmarks/learning/objectives-2026-12-06
RUN=runs/origin-mlp-objectives-s$SEED
primeval train --config "$HERE/config.yaml" --set total_steps="${STEPS:-3000000}" \
  --seed "$SEED" --out "$RUN" --quiet
mkdir -p "$HERE/origin-mlp-objectives-s$SEED"
cp "$RUN"/{config.yaml,metrics.csv,eval.json,summary.md} "$HERE/origin-mlp-objectives-s$SEED/"
