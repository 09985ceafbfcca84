#!/bin/bash
# The Primordial Soup runs of soup.sh held out, beside the MLP default's two shipped agents on
# the same games: each structured run's policy in float16 (the zoo's compact form, shipped in
# its folder), then 800 seat-rotated games against three heuristic bots at seeds never used
# before (2043120440 and 2044120440; heldout.json). (Seed 0's row of the strength ladder is
# `soup_row ppo-structured` of ../ladder-2026-12-03/run.sh.) NAME: s0, s1 (the structured runs, their models in runs/),
# mlp-s0, mlp-s1 (the 2M default's agents of 2026-12-05, heldout-2026-12-05-2m/); s2 and
# mlp-s2, the third seed of each (soup.sh with SEED=2, NET=structured and NET=mlp; the MLP's model in
# runs/soup-mlp-s2, shipped in float16 as the structured ones are).
# From the repository root, after the runs:
#   bash docs/benchmarks/learning/structured-2026-12-06/soup-heldout.sh s0 s1 mlp-s0 mlp-s1
#   bash docs/benchmarks/learning/structured-2026-12-06/soup-heldout.sh s2 mlp-s2
set -euo pipefail
export OMP_NUM_THREADS=1
HERE=docs/benchmarks/learning/structured-2026-12-06
for name in "$@"; do
  case "$name" in
    mlp-s0|mlp-s1)  # the 2M `make train` agents, shipped already
      seed=${name#mlp-s}
      dir="$HERE/soup-mlp-s$seed"
      agent="docs/benchmarks/learning/heldout-2026-12-05-2m/primordial_soup_seed$seed/soup-4p-ppo-2m-seed$seed.zip"
      ;;
    s*|mlp-s*)  # a run of soup.sh: its model compacted to float16 beside its files
      if [[ $name == mlp-* ]]; then run=soup-$name; else run=soup-structured-$name; fi
      dir="$HERE/$run"
      agent="$dir/${run/soup-/soup-4p-}.zip"
      mkdir -p "$dir"
      python -c "import sys; from primeval.training.benchmark.curate import compact_checkpoint as c; c(*sys.argv[1:])" \
        "runs/$run/model.zip" "$agent"
      ;;
    *) echo "unknown run $name" >&2; exit 2 ;;
  esac
  mkdir -p "$dir"
  primeval evaluate --agents "ppo:$agent" heuristic heuristic heuristic --games 400 \
    --seed 2043120440 --seeds 2 --json "$dir/heldout.json" --quiet
done
