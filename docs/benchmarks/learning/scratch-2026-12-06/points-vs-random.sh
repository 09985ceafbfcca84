#!/bin/bash
# Points by source against two random players: the heuristic and the shaped MLP learned
# alone (origin-mlp-shaping/), 400 seat-rotated games each at the strength ladder's seed,
# recorded, then points.py --opponent random --objectives; writes points-vs-random.json
# beside this script.
# Run from the repository root:
#   bash docs/benchmarks/learning/scratch-2026-12-06/points-vs-random.sh
set -euo pipefail
export OMP_NUM_THREADS=1
HERE=docs/benchmarks/learning/scratch-2026-12-06
OUT=${OUT:-/tmp/primeval-points-vs-random}
mkdir -p "$OUT"
row() {
  primeval evaluate --game origin --agents "$2" random random --games 400 \
    --seed 2026120340 --json "$OUT/$1.json" --record "$OUT/$1.jsonl" --quiet
}
row heuristic heuristic
row mlp-shaping-3m "ppo:$HERE/origin-mlp-shaping/origin-3p-mlp-shaping.zip"
python "$HERE/points.py" "$OUT"/{heuristic,mlp-shaping-3m}.jsonl --opponent random --objectives \
  --json "$HERE/points-vs-random.json"
