#!/usr/bin/env bash
# Issue 23, item 5: a worker process on 2 cores. Stepping 8 of the learned-alone Origin
# recipe's games with random actions (no learner), a second worker process left the wall
# time per step where it was (0.92x to 1.01x) though each process's CPU time fell, and
# polling the pipes instead of sleeping on them gave 0.89x to 1.24x (three rounds), which
# suggested that the sleeping and waking at every step cost about what the worker saves
# (stamps.py found otherwise: the slower half of the games sets each step's pace). So: one
# worker, two workers sleeping on their pipes, two polling them for up to 10 ms first (worker_spin),
# in training, settings in turns in fresh processes (bench_vec), Primordial Soup's default
# config and Origin's learned-alone recipe (Origin's default has self-play opponents,
# which worker processes cannot play). Usage: bash docs/benchmarks/spin-2026-12-07/run.sh
# from a checkout of 190746e, the commit that has `worker_spin` (idle.txt); it gained 1.03x
# to 1.04x and was reverted after it (docs/benchmarks/history.md, "a worker process on two
# cores").
set -euo pipefail
cd "$(dirname "$0")/../../.."
PY=${PY:-.venv/bin/python}
OUT=docs/benchmarks/spin-2026-12-07
read -r -a VEC <<< "${VEC:-vector vector:2 vector:2+worker_spin=0.01}"
{
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1 /proc/loadavg)"
  "$PY" -m primeval.training.ppo.bench_vec --game primordial_soup --steps 16384 \
    --rounds "${ROUNDS:-3}" --vec "${VEC[@]}"
  echo
  echo "Origin learned alone (configs/origin/alone.yaml's settings over the default config's):"
  "$PY" -m primeval.training.ppo.bench_vec --game origin --steps 16384 --rounds "${ROUNDS:-3}" \
    --vec "${VEC[@]}" --set prior.agent=none --set shaping=0.25 \
    --set opponents.self_play=0 --set opponents.heuristic=0.9 --set opponents.random=0.1 \
    --set ppo.learning_rate=0.0003 --set ppo.ent_coef=0.01
} | tee "$OUT/${NAME:-idle}.txt"
