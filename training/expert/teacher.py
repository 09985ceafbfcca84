"""Expert iteration's warm start: a trained PPO agent (``teacher.checkpoint``) plays the
heuristic bots, and the policy-value network learns its play (every seat's decisions with
the teacher's policy as the policy target, every seat's result as the value target), a share
of the games held out to report the value's R^2 (:func:`warm_start`).
:mod:`primeval.training.expert.train` calls it before a run's first iteration."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np

from primeval.envs.core.rewards import rank_rewards
from primeval.envs.games import make_raw_env
from primeval.training import config as loader
from primeval.training.expert.config import ExpertConfig
from primeval.training.expert.games import each_decision, network_at
from primeval.training.expert.learner import held_out_losses, learn
from primeval.training.seeding import RunSeeds

_TEACHERS: dict[str, Any] = {}


def teacher_path(checkpoint: str) -> str:
    """``teacher.checkpoint`` as a file: a path as it is; a zoo member (``zoo:soup-4p/ppo``)
    as the PPO checkpoint the package ships for it.

    Raises:
        ValueError: A zoo name that is no member, or a member that is no PPO checkpoint.
    """
    if not checkpoint.startswith("zoo:"):
        return checkpoint
    from primeval.training.benchmark.zoo import get_member

    spec = get_member(checkpoint).agent_spec()
    if not spec.startswith("ppo:"):
        raise ValueError(f"teacher.checkpoint={checkpoint!r}: {spec!r} is no PPO checkpoint")
    return spec[len("ppo:"):]


def play_teacher_game(task: dict[str, Any]) -> dict[str, Any]:
    """One game of the teacher (``teacher.checkpoint``, its most likely action) in seat
    ``task["seat"]`` against heuristic bots; every seat's decisions with a choice recorded:
    the network's observation, the mask, the teacher's policy there (the target) and, once
    the game is over, every seat's rank reward (ego-centric); ``teacher.positions`` of them
    drawn at random when it is set."""
    from primeval.training.agents import make_heuristic
    from primeval.training.expert.play import PPOEvaluator

    config = loader.build(ExpertConfig, task["config"])
    n = config.players
    path = teacher_path(config.teacher.checkpoint)
    if path not in _TEACHERS:
        _TEACHERS.clear()
        _TEACHERS[path] = PPOEvaluator(path)
    teacher = _TEACHERS[path]
    network = network_at(task["network"], -1)  # its encoder only
    env = make_raw_env(config.game, n, obs_encoder=config.encoder, **config.env)
    env.reset(seed=task["game_seed"])
    rules = env.rules
    encoder = network.encoder_for(rules)
    bots = [make_heuristic(config.game, seed) for seed in task["agent_seeds"]]
    obs, masks, policies, seats = [], [], [], []
    for seat, state, mask, legal in each_decision(env):
        if legal.size == 1:
            env.step(int(legal[0]))
            continue
        policy, _values = teacher.evaluate_states(rules, [state], [seat])
        obs.append(encoder.encode(state, seat))
        masks.append(mask)
        policies.append(policy[0].astype(np.float32))
        seats.append(seat)
        if seat == task["seat"]:
            action = int(np.argmax(np.where(mask, policy[0], -1.0)))
        else:
            action = int(bots[seat].act(None, mask, state=state, seat=seat))
        env.step(action)
    scores = [float(x) for x in rules.scores(env.game_state)]
    result = np.asarray(rank_rewards(scores), dtype=np.float32)
    keep = config.teacher.positions
    if 0 < keep < len(seats):
        rng = np.random.default_rng(task["sample_seed"])
        chosen = np.sort(rng.choice(len(seats), size=keep, replace=False))
        obs, masks, policies, seats = (
            [part[i] for i in chosen] for part in (obs, masks, policies, seats)
        )
    k, num_actions = len(seats), network.num_actions
    return {
        "index": task["index"],
        "obs": np.asarray(obs, dtype=np.float32).reshape(k, -1),
        "masks": np.asarray(masks, dtype=bool).reshape(k, num_actions),
        "visits": np.asarray(policies, dtype=np.float32).reshape(k, num_actions),
        "values": np.asarray(
            [result[(s + np.arange(n)) % n] for s in seats], dtype=np.float32
        ).reshape(k, n),
        "scores": scores,
        "seat": task["seat"],
    }


def _teacher_tasks(config: ExpertConfig, network: Path) -> list[dict[str, Any]]:
    seeds = RunSeeds(config.seed)
    n = config.players
    return [
        {
            "config": loader.to_dict(config),
            "index": g,
            "seat": g % n,
            "game_seed": seeds.spawn("teacher", g),
            "agent_seeds": [seeds.spawn("teacher", g, "seat", s) for s in range(n)],
            "sample_seed": seeds.spawn("teacher", g, "positions"),
            "network": str(network),
        }
        for g in range(config.teacher.games)
    ]


def warm_start(
    config: ExpertConfig, network: Any, optimizer: Any, latest: Path, pool: Any, progress: bool
) -> dict[str, Any]:
    """The teacher's games, then ``teacher.steps`` Adam steps on the positions of all but
    the held-out games; the figures (the teacher's win rate in its games, the losses on the
    held-out games before and after, the seconds)."""
    from primeval.training.evaluate import AgentResult

    t0 = time.perf_counter()
    tasks = _teacher_tasks(config, latest)
    played = pool.imap(play_teacher_game, tasks) if pool is not None else map(
        play_teacher_game, tasks
    )
    if progress:
        from tqdm import tqdm

        played = tqdm(played, total=len(tasks), desc="teacher", unit="game")
    games = list(played)
    games.sort(key=lambda g: g["index"])
    play_seconds = time.perf_counter() - t0
    held = int(round(config.teacher.holdout * len(games)))
    keys = ("obs", "masks", "visits", "values")

    def stack(part: list[dict[str, Any]]) -> dict[str, np.ndarray]:
        return {k: np.concatenate([g[k] for g in part]) for k in keys}

    train_part, test_part = games[held:], games[:held]
    data = stack(train_part)
    test = stack(test_part) if held else None
    before = held_out_losses(network, test) if test is not None else None
    losses = learn(
        network, optimizer, data, config, RunSeeds(config.seed).rng("teacher", "learn"),
        steps=config.teacher.steps,
    )
    after = held_out_losses(network, test) if test is not None else None
    network.save(latest)
    teacher = AgentResult("teacher", games=len(games))
    teacher.wins = sum(
        1.0 / g["scores"].count(max(g["scores"]))
        for g in games
        if g["scores"][g["seat"]] == max(g["scores"])
    )
    report = {
        "checkpoint": config.teacher.checkpoint,
        "games": len(games),
        "held_out_games": held,
        "positions": int(len(data["obs"])),
        "teacher_win_rate": teacher.win_rate,
        "teacher_win_rate_ci95": list(teacher.win_interval()),
        "train_losses": losses,
        "held_out_before": before,
        "held_out_after": after,
        "play_seconds": round(play_seconds, 1),
        "seconds": round(time.perf_counter() - t0, 1),
    }
    if progress:
        line = (
            f"teacher: {len(games)} games ({report['positions']} positions learnt) in "
            f"{play_seconds:.0f} s, its win rate {report['teacher_win_rate']:.3f}; "
            f"train losses policy {losses['policy_loss']:.3f}, value {losses['value_loss']:.3f}"
        )
        if after is not None:
            line += (
                f"; held out: policy {after['policy_loss']:.3f}, value {after['value_loss']:.3f}"
                f" (R^2 {after['value_r2']:.3f}), agreement {after['policy_agreement']:.3f}"
            )
        print(line, flush=True)
    return report
