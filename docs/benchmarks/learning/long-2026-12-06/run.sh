#!/bin/bash
# The shaped MLP (../scratch-2026-12-06/origin-mlp-shaping/: Origin learned alone, 3M steps,
# 0.179 held out) trained on, for as long as a session allowed: the same config and seed, so
# its first 3M steps are that run's (the evaluations at 500k, 1M and 1.5M read the same), with
# evaluations and snapshots every 500k steps. Run from the repository root with the package
# installed:
#   bash docs/benchmarks/learning/long-2026-12-06/run.sh
# It asks for 9M steps; on 2026-12-06 it was stopped after its 7M snapshot, at step 7,024,640
# (docs/learning.md, "Longer, and search over it"), then resumed from that checkpoint to
# 12.5M steps (its snapshots from then on 500k apart from 7,024,640):
#   primeval train --resume runs/origin-mlp-shaping-long --total-steps 12500000 --quiet
# Its last checkpoint ships in run/ beside this script; to go on from it:
#   cp -r docs/benchmarks/learning/long-2026-12-06/run runs/origin-mlp-shaping-long
#   primeval train --resume runs/origin-mlp-shaping-long --total-steps N
# Copies the run folder, but for its snapshots and TensorBoard logs, into run/ beside this script
# (config.yaml, metrics.csv, league.json, ratings.csv, checkpoints/).
set -euo pipefail
export OMP_NUM_THREADS=1
HERE=docs/benchmarks/learning/long-2026-12-06
RUN=runs/origin-mlp-shaping-long
primeval train --config docs/benchmarks/structured/origin_scratch_mlp_s0/config.yaml \
  --set total_steps="${STEPS:-9000000}" --set vec_env=vector --set eval.every=500000 \
  --set eval.games=100 --set eval.final_games=400 --set checkpoint_every=500000 \
  --set shaping=0.25 --seed 0 --out "$RUN" --quiet
mkdir -p "$HERE/run/checkpoints"
cp "$RUN"/{config.yaml,metrics.csv,league.json,ratings.csv} "$HERE/run/"
cp "$RUN"/checkpoints/{latest.zip,progress.json} "$HERE/run/checkpoints/"
