#!/usr/bin/env bash
# Issue 23: one torch thread or two for the PPO update (the rollout keeps one either way:
# training/ppo/torch_runtime.py), the default configs and Origin's learned-alone recipe,
# settings in turns in fresh processes. Usage: bash docs/benchmarks/threads-2026-12-06/run.sh
# (threads.txt); BUSY=1 NAME=busy bash ... keeps one core busy with a spinning process
# throughout (busy.txt), as another job on a shared machine would. OUT=DIR and VEC="SETTINGS"
# measure other settings into another folder (../omp-2026-12-07/run.sh, ../bf16-2026-12-07/).
set -euo pipefail
cd "$(dirname "$0")/../../.."
. docs/benchmarks/busy.sh
PY=${PY:-.venv/bin/python}
OUT=${OUT:-docs/benchmarks/threads-2026-12-06}
read -r -a VEC <<< "${VEC:-vector vector+torch_threads=2}"
ROUNDS=${ROUNDS:-3}
{
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1 /proc/loadavg), OMP_WAIT_POLICY ${OMP_WAIT_POLICY:-unset} outside the settings"
  "$PY" -m primeval.training.ppo.bench_vec --game primordial_soup origin --steps 16384 \
    --rounds "$ROUNDS" --vec "${VEC[@]}"
  echo
  echo "Origin learned alone (the shaped MLP of docs/learning.md: no prior, 0.9 heuristic + 0.1 random opponents, shaping 0.25, lr 3e-4, entropy 0.01):"
  "$PY" -m primeval.training.ppo.bench_vec --game origin --steps 16384 --rounds "$ROUNDS" \
    --vec "${VEC[@]}" --set prior.agent=none --set shaping=0.25 \
    --set opponents.self_play=0 --set opponents.heuristic=0.9 --set opponents.random=0.1 \
    --set ppo.learning_rate=0.0003 --set ppo.ent_coef=0.01
} | tee "$OUT/${NAME:-threads}.txt"
