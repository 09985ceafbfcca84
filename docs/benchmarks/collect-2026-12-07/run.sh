#!/usr/bin/env bash
# Issues 23 (item 5) and 24: rollouts collected in parts (`collect: rollout`, a worker process
# playing half the games for a whole rollout with its own copy of the policy) against the
# per-step workers and one process: Primordial Soup's default config and Origin's
# learned-alone recipe (configs/origin/alone.yaml's settings; Origin's default has self-play
# opponents, which neither kind of worker can play), settings in turns in fresh processes
# (bench_vec). Usage:
#   bash docs/benchmarks/collect-2026-12-07/run.sh                  (idle.txt)
#   BUSY=1 NAME=busy bash docs/benchmarks/collect-2026-12-07/run.sh (busy.txt: one core kept
#     busy by a spinning process throughout, as another job on a shared machine would)
set -euo pipefail
cd "$(dirname "$0")/../../.."
. docs/benchmarks/busy.sh
PY=${PY:-.venv/bin/python}
OUT=docs/benchmarks/collect-2026-12-07
ROUNDS=${ROUNDS:-3}
{
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1 /proc/loadavg)"
  "$PY" -m primeval.training.ppo.bench_vec --game primordial_soup --steps 16384 \
    --rounds "$ROUNDS" --vec vector vector:2 vector:2+collect=rollout \
    vector:2+collect=rollout+torch_threads=2
  echo
  echo "Origin learned alone (configs/origin/alone.yaml's settings over the default config's: no prior, 0.9 heuristic + 0.1 random opponents, shaping 0.25, lr 3e-4, entropy 0.01; configs/origin/scratch.yaml adds the update in bfloat16 on two threads):"
  "$PY" -m primeval.training.ppo.bench_vec --game origin --steps 16384 --rounds "$ROUNDS" \
    --vec vector vector:2 vector:2+collect=rollout \
    vector+ppo.update_dtype=bfloat16+torch_threads=2 \
    vector:2+collect=rollout+ppo.update_dtype=bfloat16+torch_threads=2 \
    --set prior.agent=none --set shaping=0.25 \
    --set opponents.self_play=0 --set opponents.heuristic=0.9 --set opponents.random=0.1 \
    --set ppo.learning_rate=0.0003 --set ppo.ent_coef=0.01
} | tee "$OUT/${NAME:-idle}.txt"
