#!/bin/bash
# The default config's MLP (configs/primordial_soup/default.yaml, what `make train` runs) at a
# third training seed, the twin of soup.sh's structured run of the same seed: the two networks
# of 2026-12-05/06 had two seeds each (0 and 1; the MLP's are the 2M `make train` runs in
# ../heldout-2026-12-05-2m/). From the repository root with the package installed:
#   SEED=2 bash docs/benchmarks/learning/structured-2026-12-06/soup-mlp.sh
set -euo pipefail
SEED=${SEED:-2}
export OMP_NUM_THREADS=1
primeval train --config configs/primordial_soup/default.yaml --seed "$SEED" \
  --out "runs/soup-mlp-s$SEED"
mkdir -p docs/benchmarks/learning/structured-2026-12-06/soup-mlp-s$SEED
cp "runs/soup-mlp-s$SEED"/{config.yaml,metrics.csv,eval.json,summary.md,selection.json} \
  "docs/benchmarks/learning/structured-2026-12-06/soup-mlp-s$SEED/"
