#!/bin/bash
# Issue 24: more learning from each step for Origin's learned-alone recipe, in the steps
# `make train`'s 30 minutes give it (about 1.5M here). The shaped MLP climbs about 0.016 a
# million steps; a step size falling to 0 did not help a short run (../lr-2026-12-06/). Two
# one-knob runs of the shaped MLP's config and seed (ablate.sh), 1.5M steps each:
#     lr1e3:    ppo.learning_rate=0.001 (for 3e-4): larger steps;
#     epochs10: ppo.n_epochs=10 (for 4): each rollout's samples used for 2.5 times the
#               gradient steps (and about 1.4 times the CPU a step, so fewer steps in 30 min).
# Written and committed before either run ended; each final policy (model.zip) in float16,
# then 800 games against two heuristic bots at the long run's snapshot seeds (2049120440 +
# 2050120440, where its 1.5M snapshot at the constant 3e-4 read 0.149 [0.126, 0.176]) and 800
# at seeds never used before (2069120440 + 2070120440). Nothing is chosen from these figures.
#
# Run from the repository root with the package installed (both runs at once, one core each):
#   bash docs/benchmarks/learning/sample-2026-12-07/run.sh train lr1e3 ppo.learning_rate=0.001 &
#   bash docs/benchmarks/learning/sample-2026-12-07/run.sh train epochs10 ppo.n_epochs=10 &
#   bash docs/benchmarks/learning/sample-2026-12-07/run.sh heldout lr1e3   # and epochs10
#
# HERE=DIR FRESH=SEED run the same steps for another set of one-knob runs (../knobs-2026-12-07/).
set -euo pipefail
export OMP_NUM_THREADS=1
HERE=${HERE:-docs/benchmarks/learning/sample-2026-12-07}
FRESH=${FRESH:-2069120440}
SCRATCH=docs/benchmarks/learning/scratch-2026-12-06
OUT=${OUT:-/tmp/primeval-sample}
mkdir -p "$OUT"
case "$1" in
  train)
    NAME=$2; shift 2
    STEPS=1500000 bash "$SCRATCH/ablate.sh" "$NAME" "$@"
    mkdir -p "$HERE/$NAME"
    mv "$SCRATCH/origin-mlp-shaping-$NAME"/* "$HERE/$NAME/"
    rmdir "$SCRATCH/origin-mlp-shaping-$NAME"
    ;;
  heldout)
    NAME=$2
    agent="$OUT/$NAME.zip"
    python -c "import sys; from primeval.training.benchmark.curate import compact_checkpoint as c; c(*sys.argv[1:])" \
      "runs/origin-mlp-shaping-$NAME/model.zip" "$agent"
    primeval evaluate --game origin --agents "ppo:$agent" heuristic heuristic --games 400 \
      --seed 2049120440 --seeds 2 --json "$HERE/$NAME/snapshot-seeds.json" --quiet
    primeval evaluate --game origin --agents "ppo:$agent" heuristic heuristic --games 400 \
      --seed "$FRESH" --seeds 2 --json "$HERE/$NAME/heldout-${FRESH:0:4}.json" --quiet
    ;;
  *) echo "usage: run.sh train NAME KEY=VALUE... | run.sh heldout NAME" >&2; exit 2 ;;
esac
