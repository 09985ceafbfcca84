#!/usr/bin/env bash
# Issue 23 (item 5): Origin's default config (self-play opponents and the residual prior)
# with its rollouts collected in parts on both cores (`workers: 2, collect: rollout`: the
# worker's copy of the policy plays its games' self-play seats), against one process, settings
# in turns in fresh processes (bench_vec; its runs draw the opponents of the config's last
# schedule phase from the first step, before any snapshot: self-play seats are the policy
# itself). Usage:
#   bash docs/benchmarks/selfplay-parts-2026-12-07/run.sh                  (idle.txt)
#   BUSY=1 NAME=busy bash docs/benchmarks/selfplay-parts-2026-12-07/run.sh (busy.txt: one
#     core kept busy by a spinning process throughout)
set -euo pipefail
cd "$(dirname "$0")/../../.."
. docs/benchmarks/busy.sh
PY=${PY:-.venv/bin/python}
OUT=docs/benchmarks/selfplay-parts-2026-12-07
{
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1 /proc/loadavg)"
  "$PY" -m primeval.training.ppo.bench_vec --game origin --steps 16384 \
    --rounds "${ROUNDS:-3}" --vec vector vector+collect=rollout vector:2+collect=rollout
} | tee "$OUT/${NAME:-idle}.txt"
