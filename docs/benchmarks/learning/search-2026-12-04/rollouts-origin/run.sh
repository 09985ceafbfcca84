#!/bin/bash
# Origin: network-guided MCTS with rollout leaves against two heuristic bots (docs/search.md,
# "Origin: rollouts at the leaves"). Run from the repository root with the package installed:
#   bash docs/benchmarks/learning/search-2026-12-04/rollouts-origin/run.sh [probes|heldout]
# One evaluation per line; each writes its JSON here. Single-threaded torch (OMP_NUM_THREADS=1)
# as measured. Probes: 100 games at seed 2026120360; held out: seeds 2026120440 + 2027120440.
set -euo pipefail
export OMP_NUM_THREADS=1
HERE=docs/benchmarks/learning/search-2026-12-04/rollouts-origin
ZIP=training/benchmark/zoo_files/origin-3p-ppo.zip
NET="temp=3,net=$ZIP,batch=8,model=heuristic"
row() {  # row NAME SPEC ARGS...
  local name=$1 spec=$2; shift 2
  primeval evaluate --game origin --agents "$spec" heuristic heuristic --quiet \
    --json "$HERE/$name.json" "$@"
}
probes() {
  row probe-plain-mcts-25-rollouts "mcts:sims=25,model=heuristic,rollout=heuristic,depth=20" --games 100 --seed 2026120360
  row probe-net-mcts-25-rollouts "mcts:sims=25,$NET,mix=1,rollout=heuristic,depth=20" --games 100 --seed 2026120360
  row probe-net-mcts-25-rollouts-mix05 "mcts:sims=25,$NET,mix=0.5,rollout=heuristic,depth=20" --games 100 --seed 2026120360
  row probe-net-mcts-25-rollouts-to-end "mcts:sims=25,$NET,mix=1,rollout=heuristic,depth=end" --games 100 --seed 2026120360
  row probe-net-mcts-100-rollouts "mcts:sims=100,$NET,mix=1,rollout=heuristic,depth=20" --games 100 --seed 2026120360
}
heldout() {
  row heldout-residual zoo:origin-3p/ppo --games 200 --seed 2026120440 --seeds 2
  row heldout-net-mcts-25-rollouts "mcts:sims=25,$NET,mix=1,rollout=heuristic,depth=20" --games 200 --seed 2026120440 --seeds 2
  for seed in 2026120440 2027120440; do
    row heldout-residual-100-s$seed zoo:origin-3p/ppo --games 100 --seed $seed
    row heldout-net-mcts-100-rollouts-s$seed "mcts:sims=100,$NET,mix=1,rollout=heuristic,depth=20" --games 100 --seed $seed
  done
}
"${1:-probes}"
