#!/usr/bin/env bash
# Issues 23 and 24: Origin's learned-alone recipe on both cores. A `make train` run has two
# cores for 30 minutes, and the recipe uses one (workers: 1, torch_threads: 1): a worker
# process stepping half the games, two torch threads for the update (which runs while the
# worker waits) and the update in bfloat16, alone and together, settings in turns in fresh
# processes (bench_vec), the box otherwise idle. Usage:
#   bash docs/benchmarks/cores-2026-12-07/run.sh        (idle.txt)
set -euo pipefail
cd "$(dirname "$0")/../../.."
PY=${PY:-.venv/bin/python}
OUT=docs/benchmarks/cores-2026-12-07
{
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1 /proc/loadavg)"
  echo "Origin learned alone (configs/origin/alone.yaml's settings over the default config's: no prior, 0.9 heuristic + 0.1 random opponents, shaping 0.25, lr 3e-4, entropy 0.01):"
  "$PY" -m primeval.training.ppo.bench_vec --game origin --steps 16384 --rounds "${ROUNDS:-3}" \
    --vec vector vector+ppo.update_dtype=bfloat16 vector:2+ppo.update_dtype=bfloat16 \
    vector+ppo.update_dtype=bfloat16+torch_threads=2 \
    vector:2+ppo.update_dtype=bfloat16+torch_threads=2 \
    --set prior.agent=none --set shaping=0.25 \
    --set opponents.self_play=0 --set opponents.heuristic=0.9 --set opponents.random=0.1 \
    --set ppo.learning_rate=0.0003 --set ppo.ent_coef=0.01
} | tee "$OUT/${NAME:-idle}.txt"
