#!/bin/bash
# Issue 24 §1 in Primordial Soup: the structured policy (configs/primordial_soup/structured.yaml:
# the `graph` observation, message passing over the soup's spaces, place_amoeba scored from its
# space) learned from scratch with everything else the default's, seed 0 as the default's own
# 2M-step run (its twin, runs/soup-2m-default, was trained by `make train` on 2026-12-05).
# From the repository root with the package installed:
#   SEED=0 bash docs/benchmarks/learning/structured-2026-12-06/soup.sh
set -euo pipefail
SEED=${SEED:-0}
export OMP_NUM_THREADS=1
primeval train --config configs/primordial_soup/structured.yaml --seed "$SEED" \
  --out "runs/soup-structured-s$SEED"
mkdir -p docs/benchmarks/learning/structured-2026-12-06/soup-structured-s$SEED
cp "runs/soup-structured-s$SEED"/{config.yaml,metrics.csv,eval.json,summary.md,selection.json} \
  "docs/benchmarks/learning/structured-2026-12-06/soup-structured-s$SEED/"
