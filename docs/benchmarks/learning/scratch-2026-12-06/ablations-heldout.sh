#!/bin/bash
# The ablations of ablate.sh, held out: each run's policy in float16 (the zoo's compact
# form, in OUT: the ablations' agents are not kept), then 800 seat-rotated games against two heuristic bots at fresh
# seeds (2039120440 and 2040120440; heldout-2039.json) and 400 recorded games at the ladder's
# seed (ladder-seed.json; the records for points.py). NAME "base" is the shaped MLP they
# ablate (its shipped agent), on the same games (its ladder-seed.json is the float32 model's
# of the first session, the same figure). Run from the repository root after the runs (their models in runs/):
#   bash docs/benchmarks/learning/scratch-2026-12-06/ablations-heldout.sh base entropy win
# then the points by source of all of them:
#   python docs/benchmarks/learning/scratch-2026-12-06/points.py \
#     /tmp/primeval-ablations/{base,entropy,win,tiles,own,prospects}.jsonl --objectives \
#     --json docs/benchmarks/learning/scratch-2026-12-06/ablations-points.json
# HELDOUT=S plays the 800 games at seeds S and S + 1000000 instead (heldout-SSSS.json, its first
# four digits); the later ablations (selfplay, batch) and their base at 2045120440:
#   HELDOUT=2045120440 OUT=/tmp/primeval-ablations-2045 bash .../ablations-heldout.sh base selfplay batch
# and their points by source:
#   python docs/benchmarks/learning/scratch-2026-12-06/points.py \
#     /tmp/primeval-ablations-2045/{base,batch,selfplay}.jsonl --objectives --territories \
#     --json docs/benchmarks/learning/scratch-2026-12-06/later-ablations-points.json
set -euo pipefail
export OMP_NUM_THREADS=1
HERE=docs/benchmarks/learning/scratch-2026-12-06
OUT=${OUT:-/tmp/primeval-ablations}
HELDOUT=${HELDOUT:-2039120440}
mkdir -p "$OUT"
for name in "$@"; do
  if [ "$name" = base ]; then
    dir="$HERE/origin-mlp-shaping"
    agent="$dir/origin-3p-mlp-shaping.zip"
    ladder="$OUT/base.json"
  else
    dir="$HERE/origin-mlp-shaping-$name"
    agent="$OUT/origin-3p-mlp-shaping-$name.zip"
    ladder="$dir/ladder-seed.json"
    python -c "import sys; from primeval.training.benchmark.curate import compact_checkpoint as c; c(*sys.argv[1:])" \
      "runs/origin-mlp-shaping-$name/model.zip" "$agent"
  fi
  primeval evaluate --game origin --agents "ppo:$agent" heuristic heuristic --games 400 \
    --seed "$HELDOUT" --seeds 2 --json "$dir/heldout-${HELDOUT:0:4}.json" --quiet
  primeval evaluate --game origin --agents "ppo:$agent" heuristic heuristic --games 400 \
    --seed 2026120340 --json "$ladder" --record "$OUT/$name.jsonl" --quiet
done
