#!/bin/bash
# Origin: one step of expert iteration with the rollout search as the expert and the shipped
# residual agent as the apprentice (docs/search.md, "Origin: expert iteration with the rollout
# search as the expert"). Run from the repository root with the package installed:
#   bash docs/benchmarks/learning/exit-2026-12-05/rollout-exit-origin/run.sh [label|finetune|probes|heldout|repeat]
#   ... run.sh [confirm_label|confirm_finetune|confirm_probes|confirm_heldout|confirm_summary|plain]
# label: the search (rollouts:net=ZIP, its defaults k=3,n=16,depth=80) plays 150 games at each
# of two seeds against two heuristic bots, its decisions kept as labels (label.py; the .npz
# files, about 2.3 MB each, stay in $LABELS, not committed). finetune: the apprentice fitted to them at
# three learning rates (finetune.py: the epoch of least held-out loss), each written in the
# zoo's compact form to agents/. Evaluations against two heuristic bots: probes at seed
# 2026140000 (where the learning rate is chosen), held out at seeds 2030120440 +
# 2031120440 (chose nothing), the apprentice beside its start on the same games.
# Single-threaded torch (OMP_NUM_THREADS=1) as measured.
set -euo pipefail
export OMP_NUM_THREADS=1
HERE=docs/benchmarks/learning/exit-2026-12-05/rollout-exit-origin
ZIP=training/benchmark/zoo_files/origin-3p-ppo.zip
LABELS=${LABELS:-runs/exit-rollouts-origin}
row() {  # row NAME SPEC ARGS...
  local name=$1 spec=$2; shift 2
  primeval evaluate --game origin --agents "$spec" heuristic heuristic --quiet \
    --json "$HERE/$name.json" "$@"
}
label() {  # one process a seed (about 21 s of CPU a game)
  mkdir -p "$LABELS"
  for seed in 2026130000 2026131000; do
    python "$HERE/label.py" --games 150 --seed $seed --net $ZIP --out "$LABELS/labels-s$seed.npz" &
  done
  wait
}
fit() {  # fit NAME ARGS...: one apprentice, compacted into agents/
  local name=$1; shift
  python "$HERE/finetune.py" "$LABELS"/labels-s*.npz --net $ZIP --epochs 8 "$@" \
    --out "$LABELS/apprentice-$name.zip" --json "$HERE/finetune-$name.json"
  python -c "import sys; from primeval.training.benchmark.curate import compact_checkpoint as c; c(*sys.argv[1:])" \
    "$LABELS/apprentice-$name.zip" "$HERE/agents/origin-3p-exit-rollouts-$name.zip"
}
finetune() {  # the same labels give the same weights (seeded); only lr1e-3's is committed
  fit lr1e-4 --lr 1e-4
  fit lr3e-4 --lr 3e-4
  fit lr1e-3 --lr 1e-3
  # after the held-out rows: the switches relabelled, kept only above z standard errors
  fit lr1e-3-z2 --lr 1e-3 --z 2
  fit lr1e-3-z3 --lr 1e-3 --z 3
}
probes() {
  row probe-start-s2026140000 "ppo:$ZIP" --games 400 --seed 2026140000
  row probe-apprentice-lr1e-4-s2026140000 "ppo:$HERE/agents/origin-3p-exit-rollouts-lr1e-4.zip" --games 400 --seed 2026140000
  row probe-apprentice-lr3e-4-s2026140000 "ppo:$HERE/agents/origin-3p-exit-rollouts-lr3e-4.zip" --games 400 --seed 2026140000
  row probe-apprentice-lr1e-3-s2026140000 "ppo:$HERE/agents/origin-3p-exit-rollouts-lr1e-3.zip" --games 400 --seed 2026140000
  row probe-apprentice-lr1e-3-z2-s2026140000 "ppo:$HERE/agents/origin-3p-exit-rollouts-lr1e-3-z2.zip" --games 400 --seed 2026140000
  row probe-apprentice-lr1e-3-z3-s2026140000 "ppo:$HERE/agents/origin-3p-exit-rollouts-lr1e-3-z3.zip" --games 400 --seed 2026140000
}
heldout() {  # the best of the first three probes: lr1e-3
  row heldout-start-s2030120440 "ppo:$ZIP" --games 200 --seed 2030120440
  row heldout-apprentice-s2030120440 "ppo:$HERE/agents/origin-3p-exit-rollouts-lr1e-3.zip" --games 200 --seed 2030120440
  row heldout-start-s2031120440 "ppo:$ZIP" --games 200 --seed 2031120440
  row heldout-apprentice-s2031120440 "ppo:$HERE/agents/origin-3p-exit-rollouts-lr1e-3.zip" --games 200 --seed 2031120440
}
# The same step with confirmed labels (the second half of docs/search.md's section): where
# the search leaves the apprentice's move, a second search of 64 pairs judges the same
# candidates again and its choice is played and learnt (label.py --confirm 64). 120 games at
# each of two new seeds (about 28 s of CPU a game); the learning rate chosen at probe seed
# 2026170000; held out at seeds 2034120440 + 2035120440 (400 games each). Only the chosen
# apprentice (confirmed-lr1e-3) is committed.
CONFIRMED=${CONFIRMED:-runs/exit-confirm-origin}
confirm_label() {
  mkdir -p "$CONFIRMED"
  for seed in 2026160000 2026161000; do
    python "$HERE/label.py" --games 120 --seed $seed --confirm 64 --net $ZIP \
      --out "$CONFIRMED/labels-s$seed.npz" &
  done
  wait
}
confirm_finetune() {
  LABELS=$CONFIRMED fit confirmed-lr3e-4 --lr 3e-4
  LABELS=$CONFIRMED fit confirmed-lr1e-3 --lr 1e-3
}
confirm_probes() {
  row probe-start-s2026170000 "ppo:$ZIP" --games 400 --seed 2026170000
  row probe-confirmed-lr3e-4-s2026170000 "ppo:$HERE/agents/origin-3p-exit-rollouts-confirmed-lr3e-4.zip" --games 400 --seed 2026170000
  row probe-confirmed-lr1e-3-s2026170000 "ppo:$HERE/agents/origin-3p-exit-rollouts-confirmed-lr1e-3.zip" --games 400 --seed 2026170000
}
confirm_heldout() {  # the best probe: confirmed-lr1e-3; beside it its start and the first apprentice
  for seed in 2034120440 2035120440; do
    row heldout-start-s$seed "ppo:$ZIP" --games 400 --seed $seed
    row heldout-apprentice-s$seed "ppo:$HERE/agents/origin-3p-exit-rollouts-lr1e-3.zip" --games 400 --seed $seed
    row heldout-confirmed-s$seed "ppo:$HERE/agents/origin-3p-exit-rollouts-confirmed-lr1e-3.zip" --games 400 --seed $seed
  done
}
confirm_summary() {  # the labelling games, in a file small enough to commit (summary.py)
  python "$HERE/summary.py" "$CONFIRMED"/labels-s*.npz --out "$HERE/labels-confirmed-summary.json"
}
plain() {  # the plain search (no second look) at the labelling seeds, their first 40 games
  for seed in 2026160000 2026161000; do
    row plain-search-s$seed "rollouts:net=$ZIP" --games 40 --seed $seed &
  done
  wait
}
repeat() {  # do two searches make the same switches? (repeat.py)
  python "$HERE/repeat.py" --games 6 --seed 2026150000 --out "$HERE/repeat.json"
  python "$HERE/repeat.py" --games 3 --seed 2026150000 --search n=64 --out "$HERE/repeat-n64.json"
}
"${1:-probes}"
