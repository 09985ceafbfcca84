#!/bin/bash
# The mean of the resumed run's policies (average.py), chosen on one set of seeds and reported
# on another. Run from the repository root after run.sh and its resumption to 12.5M steps (its
# snapshots in runs/origin-mlp-shaping-long/snapshots/; the 7,024,640-step checkpoint it
# resumed from is run/checkpoints/latest.zip as commit d6233b8 shipped it):
#   bash docs/benchmarks/learning/long-2026-12-06/average.sh
# The candidates, fixed before any was played: the last policy (12,500,992 steps); the mean
# of the last five (10,524,640 to 12,500,992: the last 2M steps); the mean of all twelve of the
# resumption (7,024,640 to 12,500,992). Chosen by the win rate on the snapshots' held-out
# games (seeds 2049120440 + 2050120440, 800 games; the last policy's is heldout/step_12500992.json),
# reported on 1,600 games at seeds never used before (2055120440 to 2058120440).
# (On 2026-12-06 the averages were written to /tmp/avg/ and the last policy copied to
# /tmp/snaps/: the JSONs name those paths.)
set -euo pipefail
export OMP_NUM_THREADS=1
HERE=docs/benchmarks/learning/long-2026-12-06
SNAPS=runs/origin-mlp-shaping-long/snapshots
mkdir -p "$HERE/average" /tmp/avg
ordered=$(ls $SNAPS/step_*.zip | sort -t_ -k4 -n)
python "$HERE/average.py" /tmp/avg/last5.zip $(echo "$ordered" | tail -n 5)
git show "d6233b8:$HERE/run/checkpoints/latest.zip" > /tmp/avg/step_7024640.zip
python "$HERE/average.py" /tmp/avg/all12.zip /tmp/avg/step_7024640.zip $ordered
for name in last5 all12; do
  primeval evaluate --game origin --agents "ppo:/tmp/avg/$name.zip" heuristic heuristic \
    --games 400 --seed 2049120440 --seeds 2 --json "$HERE/average/$name-select.json" --quiet
done
for name in last5 all12; do
  primeval evaluate --game origin --agents "ppo:/tmp/avg/$name.zip" heuristic heuristic \
    --games 400 --seed 2055120440 --seeds 4 --json "$HERE/average/$name-report.json" --quiet
done
primeval evaluate --game origin --agents "ppo:$(echo "$ordered" | tail -n 1)" heuristic heuristic \
  --games 400 --seed 2055120440 --seeds 4 --json "$HERE/average/final-report.json" --quiet
# The chosen mean, stored in the zoo (float16: python -m primeval.training.benchmark.curate add
# origin-3p ppo-alone, the manifest has the command), on the same 1,600 games.
primeval evaluate --game origin --agents zoo:origin-3p/ppo-alone heuristic heuristic \
  --games 400 --seed 2055120440 --seeds 4 --json "$HERE/average/zoo-float16-report.json" --quiet
