#!/bin/bash
# The shaped MLP's run, resumed a second time: from the 12,500,992-step checkpoint in run/ to
# 20M steps, every new snapshot held out on the snapshots' games, then the mean of its
# snapshots chosen on those games and reported on games at seeds never used before.
# Written and committed before any policy of this stretch was played; the design:
#
# * Resume: cp -r docs/benchmarks/learning/long-2026-12-06/run runs/origin-mlp-shaping-long
#   primeval train --resume runs/origin-mlp-shaping-long --total-steps 20000000
#   (snapshots every 500k steps from 12,500,992; if a session's time runs out first, the run
#   is stopped and "the last policy" below is its last snapshot).
# * Every snapshot held out as before (heldout.sh: 800 games, seeds 2049120440 + 2050120440).
# * Candidates, fixed now: the last policy; the mean of the last five snapshots (the last 2M
#   steps); the mean of the last twelve (the last 5.5M); the mean of every policy of this
#   stretch (the checkpoint it resumed from and every snapshot after it).
# * Chosen: the highest win rate on the snapshots' 800 games (seeds 2049120440 + 2050120440).
# * Reported: every candidate, and zoo:origin-3p/ppo-alone (the mean of 7.0M-12.5M), on 1,600
#   games at seeds 2059120440 to 2062120440 (never used before), 400 a seed.
# * The zoo's ppo-alone is replaced by the chosen mean only if it reads higher than the
#   member on the choosing games (the member's 0.384 there: average/all12-select.json).
#
# (Each evaluation already saved is kept; delete its JSON to play it again.)
# Run from the repository root after the resumption (its snapshots in
# runs/origin-mlp-shaping-long/snapshots/):
#   bash docs/benchmarks/learning/long-2026-12-06/continue.sh
set -euo pipefail
export OMP_NUM_THREADS=1
HERE=docs/benchmarks/learning/long-2026-12-06
SNAPS=runs/origin-mlp-shaping-long/snapshots
OUT=${OUT:-/tmp/avg20}
mkdir -p "$HERE/continue" "$OUT"
bash "$HERE/heldout.sh"
# This stretch: the checkpoint it resumed from (run/ as commit dbed78c shipped it), then every
# snapshot past it, in order.
git show "dbed78c:$HERE/run/checkpoints/latest.zip" > "$OUT/step_12500992.zip"
ordered=$(ls $SNAPS/step_*.zip | sort -t_ -k4 -n | awk -F'step_' '{split($NF, a, "."); if (a[1] > 12500992) print}')
python "$HERE/average.py" "$OUT/last5.zip" $(echo "$ordered" | tail -n 5)
python "$HERE/average.py" "$OUT/last12.zip" $(echo "$ordered" | tail -n 12)
python "$HERE/average.py" "$OUT/all.zip" "$OUT/step_12500992.zip" $ordered
cp "$(echo "$ordered" | tail -n 1)" "$OUT/final.zip"
for name in last5 last12 all; do
  [ -f "$HERE/continue/$name-select.json" ] && continue
  primeval evaluate --game origin --agents "ppo:$OUT/$name.zip" heuristic heuristic \
    --games 400 --seed 2049120440 --seeds 2 --json "$HERE/continue/$name-select.json" --quiet
done
for name in final last5 last12 all; do
  [ -f "$HERE/continue/$name-report.json" ] && continue
  primeval evaluate --game origin --agents "ppo:$OUT/$name.zip" heuristic heuristic \
    --games 400 --seed 2059120440 --seeds 4 --json "$HERE/continue/$name-report.json" --quiet
done
[ -f "$HERE/continue/zoo-report.json" ] || primeval evaluate --game origin \
  --agents zoo:origin-3p/ppo-alone heuristic heuristic --games 400 --seed 2059120440 --seeds 4 --json "$HERE/continue/zoo-report.json" --quiet
