#!/bin/bash
# Issue 23's table, old against new on one machine in one run: OLD is the tree the issue was
# filed against (d45d2da, 2026-12-02), NEW this checkout. Run from the repository root with
# the package installed (make install); writes the outputs beside this script:
#   bash docs/benchmarks/throughput-2026-12-05/run.sh
# Every row interleaves the two trees in fresh processes (old, new, old, new ...):
#   train.txt   bench_vec --baseline: each tree's default config, env steps/s and the main
#               process's CPU µs per env step (short runs, the last schedule phase's opponents);
#   rules.txt   bench_rules --baseline --cpu: legal_mask + apply (rules), and the planner's step;
#   bots.txt    heuristics.bench: this tree's fast bots against the plain reference;
#   bots-old-new.txt  bots.py: each tree's bots playing the same 6 seeded games, CPU µs per
#               decision with a choice (the old tree had one class per game, the reference's);
#   mcts.txt    mcts_sims.py: mcts:sims=100 deciding the first 15 decisions of 2 seeded games,
#               simulations per CPU second, and a hash of the actions (the same search);
#   mcts-whole.txt  mcts_whole.py: the same search at every 10th decision with a choice of 2
#               whole seeded games of bots (the first 15 are mostly Primordial Soup's setup).
set -euo pipefail
HERE=docs/benchmarks/throughput-2026-12-05
OLD=${OLD:-/tmp/primeval-d45d2da}
if [ ! -d "$OLD" ]; then
  mkdir -p "$OLD" && git archive d45d2da | tar -x -C "$OLD"
fi
export OMP_NUM_THREADS=1
SHIM=$(mktemp -d)
python -c "import sys; from primeval.envs.testing.bench_rules import package_shim as p; p(*sys.argv[1:])" "$OLD" "$SHIM"
uptime
python -m primeval.training.ppo.bench_vec --game primordial_soup origin --steps 8192 --rounds 3 \
  --baseline "$OLD" | tee "$HERE/train.txt"
: > "$HERE/rules.txt"
for case in "primordial_soup 4" "origin 3"; do
  set -- $case
  python -m primeval.envs.testing.bench_rules --baseline "$OLD" --cpu --mode rules \
    --mode planner --game "$1" --players "$2" --repeats 5 | tee -a "$HERE/rules.txt"
done
python -m primeval.training.agents.heuristics.bench --rounds 9 | tee "$HERE/bots.txt"
interleave() {  # interleave SCRIPT OUT: three rounds of the old tree, then this one
  : > "$2"
  for round in 1 2 3; do
    for tree in old new; do
      if [ $tree = old ]; then path=$SHIM; else path=; fi
      echo "$tree $(cd /tmp && PYTHONPATH=$path python "$OLDPWD/$HERE/$1")" | tee -a "$2"
    done
  done
}
interleave mcts_sims.py "$HERE/mcts.txt"
interleave mcts_whole.py "$HERE/mcts-whole.txt"
interleave bots.py "$HERE/bots-old-new.txt"
uptime
