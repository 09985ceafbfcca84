"""An imitation probe of the structured policy (:mod:`~primeval.training.ppo.structured`)
against the MLP: how well each fits the heuristic's choices, by kind of decision.

``python -m primeval.training.ppo.structured_probe [--game G] [--games N] [--seed S]
[--epochs E]`` prints the report as JSON (figures: ``docs/learning.md``, "A network that
reads the map"; Origin by default, ``--game primordial_soup`` for the soup).
A diagnostic of what each network can learn, not a training mode.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch as th
from torch import nn

from primeval.training.ppo.masking import MaskedActorCriticPolicy
from primeval.training.ppo.structured import StructuredActorCriticPolicy


def imitation_probe(
    games: int = 80,
    seed: int = 2026120301,
    epochs: int = 6,
    players: int | None = None,
    game: str = "origin",
) -> dict[str, Any]:
    """How well each network fits the heuristic's choices in ``game``, by kind of decision:
    a diagnostic of what the network can learn, not a training mode.

    Plays ``games`` games of heuristic bots (:func:`~primeval.training.ppo.imitation.
    demonstrations`, ``graph`` observations; ``players`` seats, the game's default if None),
    fits a fresh structured policy and a fresh MLP (256x256, tanh, on the same observations)
    to the first 80% of the games, and reports the held-out accuracy (the most likely action
    is the heuristic's) on the other 20%, over the decisions whose heuristic action names a
    place (a territory, a soup space) and over the rest."""
    from sb3_contrib import MaskablePPO

    from primeval.envs.games import get_game, make_raw_env
    from primeval.training.ppo.imitation import Demonstrations, demonstrations, pretrain
    from primeval.training.seeding import as_seeds
    from primeval.wrappers.single_agent import SingleAgentEnv

    seeds = as_seeds(seed)
    if players is None:
        players = get_game(game).default_players
    env = SingleAgentEnv(make_raw_env(game, players, obs_encoder="graph"))
    structure = env.game.obs_encoder.structure()
    data = demonstrations(game, players, games, seeds.child("games"), obs_encoder="graph")
    # decisions come in game order: the first 80% are (about) the first 80% of the games
    cut = int(0.8 * len(data))
    train = Demonstrations(
        data.observations[:cut], data.masks[:cut], data.actions[:cut], data.returns[:cut], games
    )
    test_obs = th.as_tensor(data.observations[cut:])
    test_actions = data.actions[cut:]
    names_place = np.asarray(structure["action_kind"])[test_actions] >= 0
    out: dict[str, Any] = {
        "game": game,
        "players": players,
        "games": games,
        "seed": seed,
        "train_decisions": cut,
        "test_decisions": len(data) - cut,
        "test_place_decisions": int(names_place.sum()),
    }
    nets = {
        "structured": (
            StructuredActorCriticPolicy,
            {"structure": structure, "net_arch": [256], "activation_fn": nn.ReLU},
        ),
        "mlp": (MaskedActorCriticPolicy, {"net_arch": [256, 256], "activation_fn": nn.Tanh}),
    }
    for name, (policy, kwargs) in nets.items():
        model = MaskablePPO(policy, env, device="cpu", seed=seeds.spawn(name), policy_kwargs=kwargs)
        fit = pretrain(
            model,
            train,
            epochs=epochs,
            batch_size=256,
            learning_rate=1e-3,
            seed=seeds.spawn("shuffle", name),
        )
        with th.no_grad():
            chosen = model.policy.get_distribution(
                test_obs, action_masks=data.masks[cut:]
            ).get_actions(deterministic=True)
        hits = chosen.numpy() == test_actions
        out[name] = {
            "train_accuracy": fit["accuracy"],
            "test_accuracy_place": float(hits[names_place].mean()),
            "test_accuracy_other": float(hits[~names_place].mean()),
        }
    return out


def main(argv: list[str] | None = None) -> None:
    """``python -m primeval.training.ppo.structured_probe [--game G] [--games N] [--seed S]
    [--epochs E]``: print :func:`imitation_probe`'s report as JSON."""
    import argparse
    import json

    from primeval.envs.games import GAMES

    parser = argparse.ArgumentParser(
        prog="python -m primeval.training.ppo.structured_probe",
        description=imitation_probe.__doc__.split("\n")[0],
    )
    parser.add_argument("--game", choices=sorted(GAMES), default="origin",
                        help="the game (its default player count)")
    parser.add_argument("--games", type=int, default=80, help="heuristic games (>= 5)")
    parser.add_argument("--seed", type=int, default=2026120301, help="the probe's seed")
    parser.add_argument("--epochs", type=int, default=6, help="passes over the fitted data")
    args = parser.parse_args(argv)
    if args.games < 5 or args.epochs < 1 or args.seed < 0:
        parser.error("--games must be >= 5, --epochs >= 1 and --seed >= 0")
    th.set_num_threads(1)
    print(json.dumps(imitation_probe(args.games, args.seed, args.epochs, game=args.game), indent=2))


if __name__ == "__main__":
    main()
