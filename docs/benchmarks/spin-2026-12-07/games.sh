#!/usr/bin/env bash
# Issue 23, item 5: more games a worker. stamps.py found a second worker losing to the slower
# half of the games at every step (4 games' step spreads from 0.4 to 5.5 ms); with 16 games
# (8 a process) the halves' sums should even out. The rollout is kept at 2,048 steps
# (ppo.n_steps 128 for 256), which changes what PPO learns from (each game's stretch of a
# rollout is half as long), so this measures speed only. One process with 8 and 16 games,
# two with 16, settings in turns in fresh processes (bench_vec), Primordial Soup's default
# config and Origin's learned-alone recipe: run.sh's commands with these settings (games.txt).
# Usage: bash docs/benchmarks/spin-2026-12-07/games.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
NAME=games VEC="vector vector+n_envs=16+ppo.n_steps=128 vector:2+n_envs=16+ppo.n_steps=128" \
  exec bash docs/benchmarks/spin-2026-12-07/run.sh
