#!/bin/bash
# Where the points go, after heldout.sh (its records in OUT) and ablations-heldout.sh
# hunting (its records in /tmp/primeval-ablations): the objectives run against two random
# players (400 recorded games at the ladder's seed), then points.py with --objectives and
# --territories on the games against the heuristic bots at the ladder's seed (the shaped MLP,
# the objectives run, the hunting-token ablation; points.json) and against random players
# (points-vs-random.json). Run from the repository root:
#   bash docs/benchmarks/learning/objectives-2026-12-06/points.sh
set -euo pipefail
export OMP_NUM_THREADS=1
HERE=docs/benchmarks/learning/objectives-2026-12-06
POINTS=docs/benchmarks/learning/scratch-2026-12-06/points.py
OUT=${OUT:-/tmp/primeval-objectives}
primeval evaluate --game origin --agents "ppo:$OUT/origin-3p-mlp-objectives-s0.zip" random random \
  --games 400 --seed 2026120340 --json "$OUT/s0-vs-random.json" \
  --record "$OUT/s0-vs-random.jsonl" --quiet
cp /tmp/primeval-ablations/hunting.jsonl "$OUT/hunting.jsonl"
python "$POINTS" "$OUT"/{base,s0,hunting}.jsonl --objectives --territories --json "$HERE/points.json"
python "$POINTS" "$OUT/s0-vs-random.jsonl" --opponent random --objectives --territories \
  --json "$HERE/points-vs-random.json"
