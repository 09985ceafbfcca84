#!/bin/bash
# The runs of run.sh, held out: each run's policy in float16 (the zoo's compact form, in
# OUT), then 800 seat-rotated games against two heuristic bots at seeds never used before
# (2041120440 and 2042120440; heldout.json), and 400 recorded games at the ladder's seed
# (ladder-seed.json; the records for points.py). NAME "base" is the shaped MLP with the
# "flat" encoder (scratch-2026-12-06/origin-mlp-shaping, its shipped agent) on the same games.
# Run from the repository root after the runs (their models in runs/):
#   bash docs/benchmarks/learning/objectives-2026-12-06/heldout.sh base s0 s1
# then the points by source of all of them:
#   python docs/benchmarks/learning/scratch-2026-12-06/points.py \
#     /tmp/primeval-objectives/{base,s0,s1}.jsonl --objectives \
#     --json docs/benchmarks/learning/objectives-2026-12-06/points.json
set -euo pipefail
export OMP_NUM_THREADS=1
HERE=docs/benchmarks/learning/objectives-2026-12-06
OUT=${OUT:-/tmp/primeval-objectives}
mkdir -p "$OUT" "$HERE/base"
for name in "$@"; do
  if [ "$name" = base ]; then
    dir="$HERE/base"
    agent=docs/benchmarks/learning/scratch-2026-12-06/origin-mlp-shaping/origin-3p-mlp-shaping.zip
  else
    dir="$HERE/origin-mlp-objectives-$name"
    agent="$OUT/origin-3p-mlp-objectives-$name.zip"
    python -c "import sys; from primeval.training.benchmark.curate import compact_checkpoint as c; c(*sys.argv[1:])" \
      "runs/origin-mlp-objectives-$name/model.zip" "$agent"
  fi
  primeval evaluate --game origin --agents "ppo:$agent" heuristic heuristic --games 400 \
    --seed 2041120440 --seeds 2 --json "$dir/heldout.json" --quiet
  primeval evaluate --game origin --agents "ppo:$agent" heuristic heuristic --games 400 \
    --seed 2026120340 --json "$dir/ladder-seed.json" --record "$OUT/$name.jsonl" --quiet
done
