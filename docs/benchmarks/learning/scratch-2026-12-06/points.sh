#!/bin/bash
# Where the Origin agents' points come from: each agent against two heuristic bots, 400
# seat-rotated games at the strength ladder's seed (the ladder's rows, played again with
# --record), then points.py replays the records and writes points.json beside this script.
# Run from the repository root after the two runs of this folder (their models in runs/):
#   bash docs/benchmarks/learning/scratch-2026-12-06/points.sh
set -euo pipefail
export OMP_NUM_THREADS=1
HERE=docs/benchmarks/learning/scratch-2026-12-06
A=docs/benchmarks/learning/ladder-2026-12-03/agents
OUT=${OUT:-/tmp/primeval-points}
mkdir -p "$OUT"
row() {
  primeval evaluate --game origin --agents "$2" heuristic heuristic --games 400 \
    --seed 2026120340 --json "$OUT/$1.json" --record "$OUT/$1.jsonl" --quiet
}
row heuristic heuristic
row residual zoo:origin-3p/ppo
row mlp150k "ppo:$A/origin-3p-mlp-scratch.zip"
row structured150k "ppo:$A/origin-3p-structured-scratch.zip"
row mlp-shaping-3m ppo:runs/origin-mlp-shaping/model.zip
row structured-3m ppo:runs/origin-structured-long/model.zip
python "$HERE/points.py" "$OUT"/{heuristic,residual,mlp150k,structured150k,mlp-shaping-3m,structured-3m}.jsonl \
  --json "$HERE/points.json"
