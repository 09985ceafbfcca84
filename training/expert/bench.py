"""Simulations per second of the search, plain and guided by a network (batch sizes side by
side, one process): ``python -m primeval.training.expert.bench [--game G] [--positions K]
[--sims N] [--net PATH]``. Without ``--net`` a fresh network of the default architecture
(untrained weights cost what trained ones do) is used."""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from primeval.envs.games import GAMES, make_raw_env
from primeval.training.agents.checkpoint import env_spec
from primeval.training.agents.mcts import MCTSAgent


def positions(game: str, players: int, count: int, seed: int = 0) -> tuple:
    """``count`` seeded positions with a choice to make, from random play."""
    env = make_raw_env(game, players)
    env.reset(seed=seed)
    rules, rng = env.rules, np.random.default_rng(seed)
    state, out = env.game_state, []
    while len(out) < count:
        if rules.is_terminal(state):
            env.reset(seed=seed + len(out) + 1)
            state = env.game_state
        mask = rules.legal_mask(state)
        if mask.sum() > 2 and rng.random() < 0.2:
            out.append(state)
        legal = np.flatnonzero(mask)
        state = rules.apply(state, int(legal[rng.integers(legal.size)]), rng)
    return rules, out


def measure(spec: str, game: str, rules, states, evaluator=None) -> float:
    agent = MCTSAgent(game, spec, rules=rules, seed=0, evaluator=evaluator)
    t0 = time.perf_counter()
    for state in states:
        agent.search(rules, state, rules.current_player(state))
    return agent.simulations / (time.perf_counter() - t0)


def main(argv: list[str] | None = None) -> int:
    import torch

    from primeval.training.expert.network import PolicyValueNetwork
    from primeval.training.expert.play import load_evaluator

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", choices=list(GAMES), default="primordial_soup")
    parser.add_argument("--players", type=int)
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--sims", type=int, default=64)
    parser.add_argument("--net", help="a network JSON or a ppo zip (default: a fresh network)")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    players = args.players or GAMES[args.game].default_players
    rules, states = positions(args.game, players, args.positions)
    net = (load_evaluator(args.net) if args.net
           else PolicyValueNetwork(env_spec(args.game, players), (256, 256), seed=0))
    rows = [("plain (mcts default leaf: margin, heuristic prior)", f"mcts:sims={args.sims}",
             None)]
    rows += [(f"network, batch={b}", f"mcts:sims={args.sims},batch={b},net=given", net)
             for b in (1, 4, 8, 16)]
    print(f"{args.game}, {players} players, {args.positions} positions, {args.sims} sims "
          f"each; load {os.getloadavg()[0]:.2f}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print("| search | simulations/s |\n|---|---|")
    for label, spec, evaluator in rows:
        print(f"| {label} | {measure(spec, args.game, rules, states, evaluator):.0f} |",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
