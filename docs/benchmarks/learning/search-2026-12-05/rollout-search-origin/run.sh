#!/bin/bash
# Origin: the rollout search (rollouts:net=PATH, paired heuristic rollouts over the residual
# agent's likeliest moves) against two heuristic bots (docs/search.md, "Origin: the rollout
# search, measured"). Run from the repository root with the package installed:
#   bash docs/benchmarks/learning/search-2026-12-05/rollout-search-origin/run.sh [probes|heldout|confirm|second|pairing|horizon|switches]
# One evaluation per line; each writes its JSON here. Single-threaded torch (OMP_NUM_THREADS=1)
# as measured. Probes: 50 games at seed 2026120360 (z chosen there) and at 2026120410 (a
# second look at the default, choosing nothing); held out: seeds 2026120440 + 2027120440,
# 200 games each (with n=16,depth=80 the first 100), the seeds of the residual agent's and the tree
# searches' held-out rows (search-2026-12-04/rollouts-origin). n=32,depth=20 were the spec's
# defaults when these rows were played (they were written as rollouts:net=ZIP, and the files'
# agent names spelt out when n=16,depth=80 became the defaults; the games are the same).
set -euo pipefail
export OMP_NUM_THREADS=1
HERE=docs/benchmarks/learning/search-2026-12-05/rollout-search-origin
ZIP=training/benchmark/zoo_files/origin-3p-ppo.zip
row() {  # row NAME SPEC ARGS...
  local name=$1 spec=$2; shift 2
  primeval evaluate --game origin --agents "$spec" heuristic heuristic --quiet \
    --json "$HERE/$name.json" "$@"
}
probes() {
  row probe-residual-s2026120360 zoo:origin-3p/ppo --games 50 --seed 2026120360
  row probe-rollouts-z0-s2026120360 "rollouts:net=$ZIP,n=32,depth=20,z=0" --games 50 --seed 2026120360
  row probe-rollouts-s2026120360 "rollouts:net=$ZIP,n=32,depth=20" --games 50 --seed 2026120360
  row probe-rollouts-z2-s2026120360 "rollouts:net=$ZIP,n=32,depth=20,z=2" --games 50 --seed 2026120360
  row probe-residual-s2026120410 zoo:origin-3p/ppo --games 50 --seed 2026120410
  row probe-rollouts-s2026120410 "rollouts:net=$ZIP,n=32,depth=20" --games 50 --seed 2026120410
}
heldout() {
  for seed in 2026120440 2027120440; do
    row heldout-rollouts-s$seed "rollouts:net=$ZIP,n=32,depth=20" --games 200 --seed $seed
    row heldout-rollouts-n16-d80-s$seed "rollouts:net=$ZIP,n=16,depth=80" --games 100 --seed $seed
  done
}
confirm() {  # the rest of 400 held-out games at two more seeds (chose nothing), 100 each
  row confirm-residual-s2028120440 zoo:origin-3p/ppo --games 100 --seed 2028120440
  row confirm-rollouts-n16-d80-s2028120440 "rollouts:net=$ZIP,n=16,depth=80" --games 100 --seed 2028120440
  row confirm-residual-s2029120440 zoo:origin-3p/ppo --games 100 --seed 2029120440
  row confirm-rollouts-n16-d80-s2029120440 "rollouts:net=$ZIP,n=16,depth=80" --games 100 --seed 2029120440
}
second() {  # confirm=64: the second look at a switch, on the first 200 held-out games above (chose nothing)
  for seed in ${SEEDS:-2026120440 2027120440}; do
    row second-rollouts-confirm64-s$seed "rollouts:net=$ZIP,confirm=64" --games 100 --seed $seed
  done
}
pairing() {  # the spread of paired against unpaired comparisons (pairing.py's docstring)
  python "$HERE/pairing.py" --positions 60 --seed 2026120500 --out "$HERE/pairing.json"
}
horizon() {  # a cut rollout's margin's verdict on a move against the game's end (horizon.py)
  python "$HERE/horizon.py" --positions 60 --pairs 32 --depths 20,40,80 --seed 2026120501 \
    --out "$HERE/horizon.json"
}
switches() {  # where the search leaves its network's move (switches.py)
  python "$HERE/switches.py" --games 6 --seed 2026120502 --out "$HERE/switches.json"
}
"${1:-probes}"
