#!/usr/bin/env bash
# The strength ladder of docs/learning.md: every row 400 seat-rotated games of one agent
# against the heuristic bots (3 in Primordial Soup, 2 in Origin) at evaluation seed
# 2026120340, a seed no default was chosen on; then one OpenSkill round robin per game.
# Run from the repository's root after `make install`: bash docs/benchmarks/learning/ladder-2026-12-03/run.sh [soup|origin|rr]
set -euo pipefail
L=docs/benchmarks/learning/ladder-2026-12-03
A=$L/agents
P=.venv/bin/primeval
SEED=2026120340
export OMP_NUM_THREADS=1
SOUP_PPO=training/benchmark/zoo_files/soup-4p-ppo.zip  # zoo:soup-4p/ppo's file
ORIGIN_PPO=training/benchmark/zoo_files/origin-3p-ppo.zip  # zoo:origin-3p/ppo's (residual)
EXIT=$A/soup-4p-exit.json
DISTILLED=$A/soup-4p-distilled.json  # primeval train --config primordial_soup/distill
EXIT_DISTILLED=$A/soup-4p-exit-distilled.json  # primeval train --config primordial_soup/exit-distilled
EXIT_SHARP=$A/soup-4p-exit-sharp.json  # primeval train --config primordial_soup/exit-sharp
ORIGIN_NET=$A/origin-3p-structured-scratch.zip
# zoo:origin-3p/ppo-alone's file: Origin learned alone, 18M steps, the mean of its last
# twelve policies (docs/learning.md, "Resumed again"; before 2026-12-06 21:42 UTC the 12.5M mean)
ORIGIN_ALONE=training/benchmark/zoo_files/origin-3p-ppo-alone.zip
LONGER=docs/benchmarks/learning/longer-2026-12-04
SOUP_2M=$LONGER/soup-2m/soup-4p-ppo-2m.zip  # the default config for 2M steps, seed 0
SOUP_2M_S1=$LONGER/soup-2m-s1/soup-4p-ppo-2m-s1.zip  # the same, training seed 1
# the 2M default's make train run (seed 0) on another CPU (docs/learning.md, "The default since 2026-12-05")
SOUP_DEFAULT=docs/benchmarks/learning/heldout-2026-12-05-2m/primordial_soup_seed0/soup-4p-ppo-2m-seed0.zip
# the structured policy with the default's recipe, seed 0 (docs/learning.md, "A network that reads the map")
SOUP_STRUCTURED=docs/benchmarks/learning/structured-2026-12-06/soup-structured-s0/soup-4p-structured-s0.zip

soup_row() {  # NAME SPEC
  $P evaluate --game primordial_soup --agents "$2" heuristic heuristic heuristic \
    --games 400 --seed $SEED --json $L/soup/$1.json --quiet
}
origin_row() {
  $P evaluate --game origin --agents "$2" heuristic heuristic \
    --games 400 --seed $SEED --json $L/origin/$1.json --quiet
}

soup() {
  soup_row random random
  soup_row heuristic heuristic
  soup_row ppo-mlp zoo:soup-4p/ppo
  soup_row exit-raw net:$EXIT
  soup_row mcts-25 mcts:sims=25
  soup_row mcts-100 mcts:sims=100
  soup_row net-mcts-25 "mcts:sims=25,net=$SOUP_PPO,batch=8"
  soup_row exit-mcts-100 "mcts:sims=100,net=$EXIT,batch=8"
  soup_row net-mcts-100 "mcts:sims=100,net=$SOUP_PPO,batch=8"
  # the heuristic as the opponent model, the priors flattened (docs/search.md)
  soup_row net-mcts-model-25 "mcts:sims=25,temp=3,net=$SOUP_PPO,batch=8,model=heuristic"
  # the PPO agent distilled into the policy-value network (expert iteration's warm start)
  soup_row distilled-raw net:$DISTILLED
  soup_row distilled-mcts-25 "mcts:sims=25,net=$DISTILLED,batch=8"
  soup_row distilled-mcts-100 "mcts:sims=100,net=$DISTILLED,batch=8"
  soup_row distilled-mcts-200 "mcts:sims=200,net=$DISTILLED,batch=8"
  soup_row distilled-mcts-model-25 "mcts:sims=25,net=$DISTILLED,batch=8,model=heuristic"
  # expert iteration from the distilled network (8 iterations of 320 games, docs/search.md)
  soup_row exit-distilled-raw net:$EXIT_DISTILLED
  # the same from the distilled network against the heuristic bots alone, sharpened targets
  # (10 iterations of 320 games, docs/search.md)
  soup_row exit-sharp-raw net:$EXIT_SHARP
  soup_row exit-sharp-mcts-25 "mcts:sims=25,net=$EXIT_SHARP,batch=8"
  # the default PPO config trained for 2M steps (docs/learning.md, "Longer runs")
  soup_row ppo-2m ppo:$SOUP_2M
  soup_row ppo-2m-s1 ppo:$SOUP_2M_S1
  soup_row ppo-2m-s1-mcts-25 "mcts:sims=25,net=$SOUP_2M_S1,batch=8"
  soup_row ppo-2m-default ppo:$SOUP_DEFAULT
  soup_row ppo-2m-default-mcts-25 "mcts:sims=25,net=$SOUP_DEFAULT,batch=8"
  soup_row ppo-structured ppo:$SOUP_STRUCTURED
}

origin() {
  origin_row random random
  origin_row heuristic heuristic
  origin_row ppo-mlp-scratch ppo:$A/origin-3p-mlp-scratch.zip
  origin_row ppo-structured-scratch ppo:$ORIGIN_NET
  origin_row ppo-residual zoo:origin-3p/ppo
  origin_row mcts-25 mcts:sims=25
  origin_row mcts-100 mcts:sims=100
  origin_row net-mcts-25 "mcts:sims=25,net=$ORIGIN_NET,batch=8"
  origin_row net-mcts-100 "mcts:sims=100,net=$ORIGIN_NET,batch=8"
  origin_row net-mcts-model-25 "mcts:sims=25,temp=3,net=$ORIGIN_PPO,batch=8,model=heuristic"
  origin_row ppo-alone zoo:origin-3p/ppo-alone
  origin_row ppo-alone-mcts-100 "mcts:sims=100,net=$ORIGIN_ALONE,batch=8"
}

rr() { rr_soup; rr_origin; }

rr_soup() {  # one round robin a game: 240 games, every lineup of distinct agents in turn, seats rotated
  $P league --game primordial_soup --games 240 --seed $SEED --json $L/soup/round_robin.json \
    --markdown $L/soup/round_robin.md --quiet \
    random heuristic mcts:sims=25 zoo:soup-4p/ppo net:$EXIT "mcts:sims=25,net=$SOUP_PPO,batch=8"
}

rr_origin() {
  # checkpoints of different encoders share one round robin (each reads the state through
  # its own encoder): the flat residual agent, the graph ones beside it
  $P league --game origin --games 240 --seed $SEED --json $L/origin/round_robin.json \
    --markdown $L/origin/round_robin.md --quiet \
    random heuristic mcts:sims=25 zoo:origin-3p/ppo ppo:$ORIGIN_NET \
    net:docs/benchmarks/learning/search-2026-12-04/distill-structured-origin/origin-3p-distilled-structured.json
}

case "${1:-all}" in
  soup) soup ;;
  origin) origin ;;
  rr) rr ;;
  rr_origin) rr_origin ;;
  all) soup; origin; rr ;;
  *) echo "usage: $0 [soup|origin|rr|rr_origin|all]" >&2; exit 2 ;;
esac
