#!/usr/bin/env bash
# Issue 23, item 5: more games a worker. stamps.py found a second worker losing to the slower
# half of the games at every step (4 games' step spreads from 0.4 to 5.5 ms); with 16 games
# (8 a process) the halves' sums should even out. The rollout is kept at 2,048 steps
# (ppo.n_steps 128 for 256), which changes what PPO learns from (each game's stretch of a
# rollout is half as long), so this measures speed only. One process with 8 and 16 games,
# two with 16, settings in turns in fresh processes (bench_vec), Primordial Soup's default
# config and Origin's learned-alone recipe. Usage: bash docs/benchmarks/spin-2026-12-07/games.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
PY=${PY:-.venv/bin/python}
OUT=docs/benchmarks/spin-2026-12-07
VEC=(vector vector+n_envs=16+ppo.n_steps=128 vector:2+n_envs=16+ppo.n_steps=128)
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
} | tee "$OUT/games.txt"
