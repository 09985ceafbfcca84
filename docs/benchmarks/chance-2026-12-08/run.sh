#!/bin/bash
# MCTS simulations a CPU second, three trees interleaved in fresh processes on one machine in
# one run: FILED, the tree issue 23 was filed against (d45d2da, 2026-12-02); BEFORE, main
# before a chance transition was sampled in one run (b1de0c6); and this checkout. Run from the
# repository root with the venv's python first on PATH (make install); writes beside this
# script:
#   PATH=.venv/bin:$PATH bash docs/benchmarks/chance-2026-12-08/run.sh
#   mcts.txt        ../throughput-2026-12-05/mcts_sims.py: mcts:sims=100 deciding the first 15
#                   decisions of 2 seeded games (mostly Primordial Soup's setup);
#   mcts-whole.txt  ../throughput-2026-12-05/mcts_whole.py: the same search at every 10th
#                   decision with a choice of 2 whole seeded games of bots.
# Each line carries a hash of the actions chosen: the same on every tree, the same searches.
set -euo pipefail
HERE=docs/benchmarks/chance-2026-12-08
SCRIPTS=docs/benchmarks/throughput-2026-12-05
export OMP_NUM_THREADS=1
declare -A SHIMS
for rev in d45d2da b1de0c6; do
  tree=/tmp/primeval-$rev
  if [ ! -d "$tree" ]; then
    mkdir -p "$tree" && git archive $rev | tar -x -C "$tree"
  fi
  SHIMS[$rev]=$(mktemp -d)
  python -c "import sys; from primeval.envs.testing.bench_rules import package_shim as p; p(*sys.argv[1:])" "$tree" "${SHIMS[$rev]}"
done
uptime
interleave() {  # interleave SCRIPT OUT: three rounds of filed, before, this checkout
  : > "$2"
  for round in 1 2 3; do
    for tree in filed before new; do
      case $tree in
        filed) path=${SHIMS[d45d2da]} ;;
        before) path=${SHIMS[b1de0c6]} ;;
        new) path= ;;
      esac
      echo "$tree $(cd /tmp && PYTHONPATH=$path python "$OLDPWD/$SCRIPTS/$1")" | tee -a "$2"
    done
  done
}
interleave mcts_sims.py "$HERE/mcts.txt"
interleave mcts_whole.py "$HERE/mcts-whole.txt"
uptime
