#!/bin/bash
# Search guided by the shaped MLP alone (no heuristic anywhere in the search: PUCT with the
# network's policy as priors and each seat's value from its value head, max-n), against two
# heuristic bots, on the same games as the network alone: 400 games at seeds 2047120440 and
# 2048120440 (100 simulations: one run per seed; 200 simulations: the first seed's 200).
# Run from the repository root:
#   bash docs/benchmarks/learning/long-2026-12-06/search.sh
set -euo pipefail
export OMP_NUM_THREADS=1
HERE=docs/benchmarks/learning/long-2026-12-06
NET=docs/benchmarks/learning/scratch-2026-12-06/origin-mlp-shaping/origin-3p-mlp-shaping.zip
mkdir -p "$HERE/search"
primeval evaluate --game origin --agents "ppo:$NET" heuristic heuristic --games 200 \
  --seed 2047120440 --seeds 2 --json "$HERE/search/raw.json" --quiet
primeval evaluate --game origin --agents "mcts:sims=25,net=$NET,batch=8" heuristic heuristic \
  --games 200 --seed 2047120440 --seeds 2 --json "$HERE/search/mcts-25.json" --quiet
primeval evaluate --game origin --agents "mcts:sims=25,temp=3,net=$NET,batch=8" heuristic \
  heuristic --games 200 --seed 2047120440 --seeds 2 --json "$HERE/search/mcts-25-temp3.json" --quiet
for seed in 2047120440 2048120440; do
  primeval evaluate --game origin --agents "mcts:sims=100,net=$NET,batch=8" heuristic heuristic \
    --games 200 --seed $seed --json "$HERE/search/mcts-100-${seed:0:4}.json" --quiet
done
primeval evaluate --game origin --agents "mcts:sims=200,net=$NET,batch=8" heuristic heuristic \
  --games 200 --seed 2047120440 --json "$HERE/search/mcts-200.json" --quiet
# The same over the 7M network (origin-3p-mlp-shaping-7m.zip, float16, beside this script):
# the network alone and PUCT with 100 simulations on the same 200 games, at two fresh seeds.
NET7=$HERE/origin-3p-mlp-shaping-7m.zip
for seed in 2051120440 2054120440; do
  primeval evaluate --game origin --agents "ppo:$NET7" heuristic heuristic --games 200 \
    --seed $seed --json "$HERE/search/raw-7m-${seed:0:4}.json" --quiet
  primeval evaluate --game origin --agents "mcts:sims=100,net=$NET7,batch=8" heuristic heuristic \
    --games 200 --seed $seed --json "$HERE/search/mcts-100-7m-${seed:0:4}.json" --quiet
done
