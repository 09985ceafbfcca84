"""The games expert iteration's workers play (``multiprocessing`` with *spawn*, or the main
process with ``workers: 0``): a self-play game of the network-guided search against the
league (:func:`play_selfplay_game`) and an evaluation game against the heuristic bots
(:func:`play_evaluation_game`), each seeded by the task it is given; a worker keeps each
network it loads until a newer version replaces it (:func:`network_at`).
:mod:`primeval.training.expert.train` hands out the tasks."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from primeval.envs.core.agents import turns
from primeval.envs.core.rewards import rank_rewards
from primeval.envs.games import make_raw_env
from primeval.training import config as loader
from primeval.training.expert.config import ExpertConfig
from primeval.training.expert.learner import policy_target


def search_config(config: ExpertConfig, net: str, sims: int | None = None) -> Any:
    """The run's search (``config.search``) guided by the network at ``net``, with ``sims``
    simulations a move if given."""
    from primeval.training.agents.mcts import MCTSConfig

    s = config.search
    return MCTSConfig(sims=sims or s.sims, c=s.c, batch=s.batch, net=net)


#: The networks this process has loaded, by path and version (:func:`network_at`).
NETWORKS: dict[tuple[str, int], Any] = {}


def worker_init(threads: int) -> None:
    """A worker's start: Ctrl-C left to the main process, torch on ``threads`` threads."""
    import signal

    import torch

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's
    torch.set_num_threads(threads)


def network_at(path: str, version: int) -> Any:
    """A network by path, loaded once per version (the checkpoint's iteration)."""
    from primeval.training.expert.network import load_network

    key = (path, version)
    if key not in NETWORKS:
        for old in [k for k in NETWORKS if k[0] == path]:
            del NETWORKS[old]
        NETWORKS[key] = load_network(path)
    return NETWORKS[key]


def each_decision(env: Any):
    """A game's decisions in turn: ``(seat, state, mask, legal actions)``, the caller stepping
    the env with its action; the finished seats' ``None`` steps are taken here."""
    for seat, name in turns(env):
        mask = np.asarray(env.action_mask(name)).astype(bool)
        yield seat, env.game_state, mask, np.flatnonzero(mask)


def play_selfplay_game(task: dict[str, Any]) -> dict[str, Any]:
    """One self-play game (see the module docstring); the recorded positions and figures.

    ``task``: ``config`` (as a dict), ``iteration``, ``index``, ``game_seed``,
    ``agent_seeds`` (per seat), ``lineup`` (per seat: ``current``, ``heuristic`` or a
    snapshot's path) and ``network`` (the current network's path).
    """
    from primeval.training.agents import make_heuristic
    from primeval.training.agents.mcts import MCTSAgent

    config = loader.build(ExpertConfig, task["config"])
    n = config.players
    env = make_raw_env(config.game, n, obs_encoder=config.encoder, **config.env)
    env.reset(seed=task["game_seed"])
    rules = env.rules
    current = network_at(task["network"], task["iteration"])
    num_actions = current.num_actions
    agents: list[Any] = []
    rngs = []
    for seat, who in enumerate(task["lineup"]):
        seed = task["agent_seeds"][seat]
        rngs.append(np.random.default_rng(seed))
        if who == "heuristic":
            agents.append(make_heuristic(config.game, seed))
            continue
        net = current if who == "current" else network_at(who, 0)
        agent = MCTSAgent(
            config.game, search_config(config, who), rules=rules, seed=seed, evaluator=net
        )
        if config.search.noise_fraction > 0:
            agent.root_noise = (config.search.noise_alpha, config.search.noise_fraction)
        agents.append(agent)
    encoder = current.encoder_for(rules)
    obs, masks, visits, seats = [], [], [], []
    decisions = [0] * n
    t0 = time.perf_counter()
    for seat, state, mask, legal in each_decision(env):
        agent = agents[seat]
        if legal.size == 1:
            action = int(legal[0])
        elif isinstance(agent, MCTSAgent):
            root = agent.search(rules, state, seat)
            dist = MCTSAgent.visit_distribution(root, num_actions)
            if not dist.any():  # sims=1 values the root alone: nothing visited, nothing learnt
                env.step(MCTSAgent.best_action(root, legal.tolist(), seat))
                continue
            if decisions[seat] < config.search.sample_moves:
                action = int(rngs[seat].choice(num_actions, p=dist / dist.sum()))
            else:
                action = MCTSAgent.best_action(root, legal.tolist(), seat)
            decisions[seat] += 1
            if task["lineup"][seat] == "current":
                obs.append(encoder.encode(state, seat))
                masks.append(mask)
                visits.append(policy_target(dist, config.learn.target_temperature))
                seats.append(seat)
        else:
            action = int(agent.act(None, mask, state=state, seat=seat))
        env.step(action)
    scores = [float(x) for x in rules.scores(env.game_state)]
    result = np.asarray(rank_rewards(scores), dtype=np.float32)
    values = (
        np.stack([result[(s + np.arange(n)) % n] for s in seats])
        if seats
        else np.zeros((0, n), dtype=np.float32)
    )
    sims = sum(a.simulations for a in agents if isinstance(a, MCTSAgent))
    return {
        "index": task["index"],
        "obs": np.asarray(obs, dtype=np.float32).reshape(len(seats), -1),
        "masks": np.asarray(masks, dtype=bool).reshape(len(seats), num_actions),
        "visits": np.asarray(visits, dtype=np.float32).reshape(len(seats), num_actions),
        "values": values.astype(np.float32),
        "scores": scores,
        "lineup": task["lineup"],
        "simulations": sims,
        "seconds": time.perf_counter() - t0,
    }


def play_evaluation_game(task: dict[str, Any]) -> list[float]:
    """One evaluation game (in a worker or here): the network (raw, or with ``sims``
    simulations of search) in seat ``task["seat"]``, heuristic bots elsewhere, each agent
    seeded for this game; the final scores by seat."""
    from primeval.training.agents import make_heuristic
    from primeval.training.agents.mcts import MCTSAgent
    from primeval.training.evaluate import play_game
    from primeval.training.expert.play import NetworkAgent

    config = loader.build(ExpertConfig, task["config"])
    n = config.players
    network = network_at(task["network"], task["version"])
    env = make_raw_env(config.game, n, obs_encoder=config.encoder, **config.env)
    seat_agents: list[Any] = [make_heuristic(config.game, seed) for seed in task["agent_seeds"]]
    if task["sims"] is None:
        seat_agents[task["seat"]] = NetworkAgent(network)
    else:
        seat_agents[task["seat"]] = MCTSAgent(
            config.game,
            search_config(config, task["network"], task["sims"]),
            rules=env.rules,
            seed=task["agent_seeds"][task["seat"]],
            evaluator=network,
        )
    return [float(x) for x in play_game(env, seat_agents, seed=task["game_seed"])]
