#!/bin/bash
# One-knob ablations of the shaped MLP run (origin-mlp-shaping/run.sh): its config, seed,
# length and evaluations, with the overrides given here on top. Run from the repository
# root with the package installed, e.g.
#   bash docs/benchmarks/learning/scratch-2026-12-06/ablate.sh entropy ppo.ent_coef=0.001
#   bash docs/benchmarks/learning/scratch-2026-12-06/ablate.sh win env.reward_mode=win
# It writes runs/origin-mlp-shaping-NAME and copies its config, metrics, final table and
# summary into origin-mlp-shaping-NAME/ beside this script.
set -euo pipefail
export OMP_NUM_THREADS=1
NAME=$1; shift
SETS=()
for kv in "$@"; do SETS+=(--set "$kv"); done
HERE=docs/benchmarks/learning/scratch-2026-12-06/origin-mlp-shaping-$NAME
RUN=runs/origin-mlp-shaping-$NAME
primeval train --config docs/benchmarks/learning/scratch-2026-12-06/origin-mlp-shaping/config.yaml \
  --set total_steps="${STEPS:-3000000}" "${SETS[@]}" --seed "${SEED:-0}" --out "$RUN" --quiet
mkdir -p "$HERE"
cp "$RUN"/{config.yaml,metrics.csv,eval.json,summary.md} "$HERE/"
