#!/bin/bash
# Every snapshot of run.sh's run, held out: 800 seat-rotated games against two heuristic bots
# at seeds never used before (2049120440 and 2050120440), the same games for every snapshot.
# These figures chose nothing (the snapshot reported is the last one the run reached).
# Run from the repository root after run.sh (its snapshots in runs/origin-mlp-shaping-long/):
#   bash docs/benchmarks/learning/long-2026-12-06/heldout.sh
# Writes heldout/step_N.json beside this script. (On 2026-12-06 each snapshot was evaluated,
# while the run went on, from a copy outside the run folder: the JSONs name that path.)
set -euo pipefail
export OMP_NUM_THREADS=1
HERE=docs/benchmarks/learning/long-2026-12-06
mkdir -p "$HERE/heldout"
for snapshot in $(ls runs/origin-mlp-shaping-long/snapshots/step_*.zip | sort -t_ -k4 -n); do
  name=$(basename "$snapshot" .zip)
  [ "$name" = step_0 ] && continue
  [ -f "$HERE/heldout/$name.json" ] && continue
  primeval evaluate --game origin --agents "ppo:$snapshot" heuristic heuristic --games 400 \
    --seed 2049120440 --seeds 2 --json "$HERE/heldout/$name.json" --quiet
done
