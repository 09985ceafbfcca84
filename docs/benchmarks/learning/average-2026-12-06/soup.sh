#!/bin/bash
# Does select.average pay on a default config? Primordial Soup's default (make train's config,
# seed 0) trained with one override, select.average=3: at its end the mean of the weights of
# the final policy and the two newest snapshots before it is one more candidate beside the
# final policy and those two snapshots (select.snapshots=2), all on the run's 400 selection
# games each. Written before the run ended; the design:
# * the run: primeval train --config configs/primordial_soup/default.yaml --seed 0 \
#     --out runs/soup-avg-s0 --set select.average=3
# * reported, each on the same 1,600 games at seeds never used before (2063120440 to
#   2066120440, 400 a seed) against three heuristic bots: the final policy
#   (checkpoints/latest.zip), the mean (average.zip) and model.zip (what select shipped);
#   the mean against the final policy is the comparison that says whether averaging paid.
# Run from the repository root after the run:
#   bash docs/benchmarks/learning/average-2026-12-06/soup.sh
set -euo pipefail
export OMP_NUM_THREADS=1
HERE=docs/benchmarks/learning/average-2026-12-06
RUN=${RUN:-runs/soup-avg-s0}
mkdir -p "$HERE/soup-s0"
cp "$RUN"/{config.yaml,selection.json,eval.json,summary.md,metrics.csv} "$HERE/soup-s0/"
# model.zip is played only when select shipped another policy than the final one (the same
# weights play the same games).
names="final average"
# (the top-level "file": the final policy's candidate row has "file": null whatever won)
python -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["file"] is not None)' \
  "$RUN/selection.json" || names="$names model"
for name in $names; do
  case $name in
    final) file="$RUN/checkpoints/latest.zip" ;;
    average) file="$RUN/average.zip" ;;
    model) file="$RUN/model.zip" ;;
  esac
  primeval evaluate --game primordial_soup --agents "ppo:$file" heuristic heuristic heuristic \
    --games 400 --seed 2063120440 --seeds 4 --json "$HERE/soup-s0/$name-report.json" --quiet
done
