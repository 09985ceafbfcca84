#!/bin/bash
# Issue 24 §1 in Primordial Soup: the structured policy (configs/primordial_soup/structured.yaml:
# the `graph` observation, message passing over the soup's spaces, place_amoeba scored from its
# space) learned from scratch with everything else the default's, seed 0 as the default's own
# 2M-step run (its twin, runs/soup-2m-default, was trained by `make train` on 2026-12-05).
# NET=mlp trains the default config itself (the MLP `make train` runs) at the same seed: the
# third seed of each network was NET=structured and NET=mlp with SEED=2 (the MLP's seeds 0
# and 1 are the 2M `make train` runs in ../heldout-2026-12-05-2m/).
# From the repository root with the package installed:
#   SEED=0 bash docs/benchmarks/learning/structured-2026-12-06/soup.sh
#   SEED=2 NET=mlp bash docs/benchmarks/learning/structured-2026-12-06/soup.sh
set -euo pipefail
SEED=${SEED:-0}
NET=${NET:-structured}
case "$NET" in
  structured) CONFIG=configs/primordial_soup/structured.yaml ;;
  mlp) CONFIG=configs/primordial_soup/default.yaml ;;
  *) echo "NET is structured or mlp, not $NET" >&2; exit 2 ;;
esac
export OMP_NUM_THREADS=1
RUN=runs/soup-$NET-s$SEED
HERE=docs/benchmarks/learning/structured-2026-12-06/soup-$NET-s$SEED
primeval train --config "$CONFIG" --seed "$SEED" --out "$RUN"
mkdir -p "$HERE"
cp "$RUN"/{config.yaml,metrics.csv,eval.json,summary.md,selection.json} "$HERE/"
