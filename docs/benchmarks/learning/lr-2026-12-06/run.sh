#!/bin/bash
# Issue 24: does a learning rate that falls linearly to 0 (ppo.lr_schedule: linear, new) make
# the shaped MLP learned alone (Origin, no prior, no imitation) stronger at the end of a
# short run? Its snapshots wander about their trend by up to 0.08 at a constant step size,
# and the mean of their weights beat the last policy by 0.06 to 0.10 on the plateau
# (docs/learning.md); a step size falling to 0 is the other standard way to end a run in
# the middle of that band, without pulling back to older policies.
# Written and committed before either run ended; the design:
#
# * Two runs of the shaped MLP's config and seed (ablate.sh: 0.25 shaping, seed 0, its
#   evaluations), ppo.lr_schedule=linear from its 3e-4, one knob:
#     lr3m:  3M steps (the length of the shaped MLP's own run);
#     lr15m: 1.5M steps (about what `make train`'s 30 minutes give a learned-alone run here).
# * Each final policy (model.zip: the config ships the final policy) in float16, then
#   - 800 games against two heuristic bots at seeds 2049120440 + 2050120440, the games every
#     snapshot of the long run was played on (its 1.5M snapshot 0.149 [0.126, 0.176], its
#     3M snapshot 0.189 [0.164, 0.218]: the same recipe at the same steps, constant step size);
#   - 800 games at seeds never used before, 2067120440 + 2068120440, beside the shaped MLP's
#     own 3M agent (origin-3p-mlp-shaping.zip) on the same games.
# * Nothing is chosen from these figures; they are reported as they come.
#
# Run from the repository root with the package installed (both runs at once, one core each):
#   bash docs/benchmarks/learning/lr-2026-12-06/run.sh train lr15m 1500000 &
#   bash docs/benchmarks/learning/lr-2026-12-06/run.sh train lr3m 3000000 &
#   bash docs/benchmarks/learning/lr-2026-12-06/run.sh heldout lr15m   # and lr3m, base
set -euo pipefail
export OMP_NUM_THREADS=1
HERE=docs/benchmarks/learning/lr-2026-12-06
SCRATCH=docs/benchmarks/learning/scratch-2026-12-06
OUT=${OUT:-/tmp/primeval-lr}
mkdir -p "$OUT"
case "$1" in
  train)
    NAME=$2 STEPS=$3
    STEPS=$STEPS bash "$SCRATCH/ablate.sh" "$NAME" ppo.lr_schedule=linear
    mkdir -p "$HERE/$NAME"
    mv "$SCRATCH/origin-mlp-shaping-$NAME"/* "$HERE/$NAME/"
    rmdir "$SCRATCH/origin-mlp-shaping-$NAME"
    ;;
  heldout)
    NAME=$2
    if [ "$NAME" = base ]; then
      agent="$SCRATCH/origin-mlp-shaping/origin-3p-mlp-shaping.zip"
      mkdir -p "$HERE/base"
    else
      agent="$OUT/$NAME.zip"
      python -c "import sys; from primeval.training.benchmark.curate import compact_checkpoint as c; c(*sys.argv[1:])" \
        "runs/origin-mlp-shaping-$NAME/model.zip" "$agent"
      primeval evaluate --game origin --agents "ppo:$agent" heuristic heuristic --games 400 \
        --seed 2049120440 --seeds 2 --json "$HERE/$NAME/snapshot-seeds.json" --quiet
    fi
    primeval evaluate --game origin --agents "ppo:$agent" heuristic heuristic --games 400 \
      --seed 2067120440 --seeds 2 --json "$HERE/$NAME/heldout-2067.json" --quiet
    ;;
  *) echo "usage: run.sh train NAME STEPS | run.sh heldout NAME" >&2; exit 2 ;;
esac
