#!/usr/bin/env bash
# Issue 23: the PPO update's network passes in bfloat16 (ppo.update_dtype: bfloat16, CPU
# autocast) against float32, both default configs and Origin's learned-alone recipe, settings
# in turns in fresh processes, the box idle (idle.txt). A 512 minibatch's forward and backward
# pass of the 256x256 MLP at Origin's sizes took 20.7 ms in bfloat16 against 37.7 in float32
# on this CPU (AVX-512 BF16); the update is about a fifth of a learner step.
# Usage: bash docs/benchmarks/bf16-2026-12-07/run.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=docs/benchmarks/bf16-2026-12-07 NAME=${NAME:-idle} \
  VEC="vector vector+ppo.update_dtype=bfloat16" \
  exec bash docs/benchmarks/threads-2026-12-06/run.sh
