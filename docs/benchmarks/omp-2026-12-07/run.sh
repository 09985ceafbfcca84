#!/usr/bin/env bash
# Issue 23: two torch threads for the PPO update with OpenMP's threads sleeping at a barrier
# (OMP_WAIT_POLICY=PASSIVE) instead of spinning, beside one thread and two spinning threads
# (the default policy), settings in turns in fresh processes, idle (idle.txt) and with one
# core kept busy by a spinning process (BUSY=1 NAME=busy: busy.txt). Two spinning threads
# gained 1.13x-1.18x on an idle box and lost (0.44x-0.83x) with a core busy
# (../threads-2026-12-06/); the question is whether passive threads keep the gain and not
# the loss. Usage: bash docs/benchmarks/omp-2026-12-07/run.sh; BUSY=1 NAME=busy bash ...
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=docs/benchmarks/omp-2026-12-07 NAME=${NAME:-idle} \
  VEC="vector vector+torch_threads=2 vector+torch_threads=2+env:OMP_WAIT_POLICY=PASSIVE" \
  exec bash docs/benchmarks/threads-2026-12-06/run.sh
