"""Imitation before PPO: the policy first learns to play as the heuristic bot does.

A policy trained by PPO from scratch has to discover, from a rank reward at the end of long
games, what the heuristic already knows (which actions score). :func:`demonstrations` plays
games in which every seat is the game's heuristic and keeps each decision that had a choice
(the acting seat's observation, its mask, the heuristic's action) with that seat's final
rank reward. :func:`pretrain` then fits the policy to those actions (cross-entropy over the
masked distribution) and the value network to those rewards, so PPO starts from the
heuristic's play with a value function that already reads positions. This is behaviour
cloning, the usual start of league training (AlphaStar began from human games); the
training config's ``pretrain`` section sets it (``games: 0`` leaves it out).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from primeval.envs.core.rewards import reward_for_mode
from primeval.envs.games import make_raw_env
from primeval.training.agents import agent_action, make_heuristic, turns
from primeval.training.seeding import Seeds, as_seeds


@dataclass
class Demonstrations:
    """Decisions with a choice, from games of heuristic bots.

    Attributes:
        observations: ``(N, obs)`` float32, each the acting seat's observation.
        masks: ``(N, actions)`` bool, its legal actions.
        actions: ``(N,)`` int64, what the heuristic played.
        returns: ``(N,)`` float32, the acting seat's final rank reward in that game.
        games: How many games they come from.
    """

    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray
    games: int

    def __len__(self) -> int:
        return len(self.actions)


def demonstrations(game: str, players: int, games: int, seed: int | Seeds = 0,
                   obs_encoder: str = "flat", reward_mode: str = "rank",
                   **env_kwargs: Any) -> Demonstrations:
    """Play ``games`` seeded games of heuristic bots in every seat and keep every decision
    that had more than one legal action. ``seed`` (an int or a
    :class:`~primeval.training.seeding.Seeds` stream) seeds game ``g`` by
    ``spawn("game", g)`` and the bot of seat ``s`` by ``spawn("bot", s)``."""
    seeds = as_seeds(seed)
    env = make_raw_env(game, players, obs_encoder=obs_encoder, **env_kwargs)
    bots = [make_heuristic(game, seeds.spawn("bot", seat)) for seat in range(players)]
    observations, masks, actions, seats, game_of = [], [], [], [], []
    finals = []
    for g in range(games):
        env.reset(seed=seeds.spawn("game", g))
        for seat, name in turns(env):
            mask = env.action_mask(name, dtype=bool)
            action = agent_action(bots[seat], env, name)
            if mask.sum() > 1:
                observations.append(env.obs_encoder.encode(env.game_state, seat))
                masks.append(mask)
                actions.append(action)
                seats.append(seat)
                game_of.append(g)
            env.step(action)
        finals.append(reward_for_mode(reward_mode, env.rules.scores(env.game_state)))
    returns = np.array([finals[g][s] for g, s in zip(game_of, seats, strict=True)],
                       dtype=np.float32)
    return Demonstrations(np.array(observations, dtype=np.float32), np.array(masks),
                          np.array(actions, dtype=np.int64), returns, games)


def pretrain(model: Any, data: Demonstrations, epochs: int, batch_size: int,
             learning_rate: float, value_coef: float = 0.5, seed: int = 0) -> dict[str, float]:
    """Fit ``model``'s policy to the demonstrated actions and its value to their returns.

    Returns:
        ``accuracy`` (how often the policy's most likely action is the heuristic's, over
        the data after training), the last epoch's ``policy_loss`` and ``value_loss``.
    """
    import torch as th

    policy = model.policy
    policy.set_training_mode(True)
    optimizer = th.optim.Adam(policy.parameters(), lr=learning_rate)
    rng = np.random.default_rng(seed)
    n = len(data)
    obs_all = th.as_tensor(data.observations)
    masks_all = th.as_tensor(data.masks)
    actions_all = th.as_tensor(data.actions)
    returns_all = th.as_tensor(data.returns)
    policy_loss = value_loss = float("nan")
    for _epoch in range(epochs):
        order = rng.permutation(n)
        totals = np.zeros(2)
        for start in range(0, n, batch_size):
            idx = th.as_tensor(order[start:start + batch_size])
            values, log_prob, _entropy = policy.evaluate_actions(
                obs_all[idx], actions_all[idx], action_masks=masks_all[idx])
            p_loss = -log_prob.mean()
            v_loss = th.nn.functional.mse_loss(values.flatten(), returns_all[idx])
            optimizer.zero_grad()
            (p_loss + value_coef * v_loss).backward()
            th.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            totals += [p_loss.item() * len(idx), v_loss.item() * len(idx)]
        policy_loss, value_loss = totals / n
    policy.set_training_mode(False)
    with th.no_grad():
        hits = 0
        for start in range(0, n, 4096):
            sl = slice(start, start + 4096)
            dist = policy.get_distribution(obs_all[sl], action_masks=masks_all[sl].numpy())
            hits += int((dist.get_actions(deterministic=True) == actions_all[sl]).sum())
    return {"accuracy": hits / n, "policy_loss": float(policy_loss),
            "value_loss": float(value_loss), "samples": n, "games": data.games}
