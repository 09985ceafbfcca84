#!/bin/bash
# origin-shaping.sh's run held out: its policy in float16 (the zoo's compact form, in OUT),
# then 800 seat-rotated games against two heuristic bots at the held-out seeds of the other
# 3M-step runs learned alone (2037120440 and 2038120440; ../scratch-2026-12-06/), so that it
# sits in their table on the same games. From the repository root, after the run:
#   bash docs/benchmarks/learning/structured-2026-12-06/origin-shaping-heldout.sh
set -euo pipefail
export OMP_NUM_THREADS=1
HERE=docs/benchmarks/learning/structured-2026-12-06/origin-structured-shaping
OUT=${OUT:-/tmp/primeval-structured}
mkdir -p "$OUT" "$HERE"
agent="$OUT/origin-3p-structured-shaping.zip"
python -c "import sys; from primeval.training.benchmark.curate import compact_checkpoint as c; c(*sys.argv[1:])" \
  runs/origin-structured-shaping/model.zip "$agent"
primeval evaluate --game origin --agents "ppo:$agent" heuristic heuristic --games 400 \
  --seed 2037120440 --seeds 2 --json "$HERE/heldout.json" --quiet
