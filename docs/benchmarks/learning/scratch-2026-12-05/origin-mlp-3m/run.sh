#!/bin/bash
# Origin learned alone for 3M steps (no prior, no imitation): the MLP twin of "A network
# that reads the map" (docs/learning.md; its config, ../../../structured/origin_scratch_mlp_s0)
# twenty times longer, evaluated every 250k steps (100 games against two heuristic bots).
# Run from the repository root with the package installed:
#   bash docs/benchmarks/learning/scratch-2026-12-05/origin-mlp-3m/run.sh
# It writes runs/origin-scratch-long (about 50 minutes of one core here) and copies its
# config, metrics, final table and summary beside this script (model.zip, 12 MB, is not kept).
set -euo pipefail
export OMP_NUM_THREADS=1
HERE=docs/benchmarks/learning/scratch-2026-12-05/origin-mlp-3m
RUN=runs/origin-scratch-long
train() {
  primeval train --config docs/benchmarks/structured/origin_scratch_mlp_s0/config.yaml \
    --set total_steps=3000000 --set vec_env=vector --set eval.every=250000 \
    --set eval.games=100 --set eval.final_games=400 --set checkpoint_every=250000 \
    --seed 0 --out "$RUN" --quiet
  cp "$RUN"/{config.yaml,metrics.csv,eval.json,summary.md} "$HERE/"
}
train
