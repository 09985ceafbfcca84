"""A fingerprint of an env's behaviour: one hash over seeded random games.

``python -m primeval.envs.testing.fingerprint`` prints, for every game, player count and
observation encoder, the SHA-256 of everything the env shows its agents over a few seeded
games of random legal play: the agent to act, every agent's observation and mask, rewards,
terminations, truncations and infos after every step. A change that keeps behaviour keeps
every line; ``tests/envs/testing/fingerprint.json`` holds the lines a test compares with.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from typing import Any

import numpy as np

from primeval.envs.games import DESCRIPTORS, GAMES


def cases(games: Any = None) -> tuple[tuple[str, tuple[int, ...], tuple[str, ...]], ...]:
    """(versioned env name, player counts, encoders) of every game of the catalogue now
    (or of the descriptors ``games``)."""
    return tuple((game.env_name, game.player_counts, game.encoders)
                 for game in (GAMES.values() if games is None else games))


#: The cases of the games the package ships (the saved fingerprints' keys).
CASES: tuple[tuple[str, tuple[int, ...], tuple[str, ...]], ...] = cases(DESCRIPTORS)


def fingerprint(env_module: str, num_players: int, obs_encoder: str, games: int = 5,
                seed: int = 0) -> str:
    """The hex SHA-256 of ``games`` seeded random games of one configuration; ``env_module``
    is a catalogue game's versioned env name (``"origin_v0"``)."""
    import importlib

    by_env_name = {game.env_name: game for game in GAMES.values()}
    module = (by_env_name[env_module].module() if env_module in by_env_name
              else importlib.import_module(f"primeval.envs.{env_module}"))
    env = module.raw_env(num_players=num_players, obs_encoder=obs_encoder)
    digest = hashlib.sha256()
    for g in range(games):
        rng = np.random.default_rng(seed + g)
        env.reset(seed=seed + g)
        _update(digest, env)
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
            else:
                mask = env.observe(agent)["action_mask"]
                env.step(int(rng.choice(np.flatnonzero(mask))))
            _update(digest, env)
    return digest.hexdigest()


def _update(digest: Any, env: Any) -> None:
    digest.update(str(env.agent_selection if env.agents else None).encode())
    for agent in env.agents:
        obs = env.observe(agent)
        digest.update(np.ascontiguousarray(obs["observation"]).tobytes())
        digest.update(np.ascontiguousarray(obs["action_mask"]).tobytes())
    digest.update(json.dumps([env.rewards, env.terminations, env.truncations, env.infos],
                             sort_keys=True, default=str).encode())


def fingerprints(games: int = 5, seed: int = 0) -> dict[str, str]:
    """``{"<module> <players>p <encoder>": hash}`` for every game of the catalogue, every
    player count and encoder."""
    return {f"{module} {n}p {encoder}": fingerprint(module, n, encoder, games, seed)
            for module, counts, encoders in cases() for n in counts for encoder in encoders}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print(json.dumps(fingerprints(args.games, args.seed), indent=2))


if __name__ == "__main__":
    main()
