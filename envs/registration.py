"""Environment ids for PettingZoo's and Gymnasium's registries.

Importing ``primeval.envs`` registers:

* AEC (``pettingzoo.make("aec", id, **kwargs)``): ``primeval/primordial_soup-v0``,
  ``primeval/origin-v0`` (the ``env()`` of each game, with PettingZoo's safety wrappers);
* Gymnasium (``gymnasium.make(id, **kwargs)``): ``primeval/PrimordialSoup-v0``,
  ``primeval/Origin-v0``, the single-agent view with opponents inside ``step()``.

:func:`make` builds either kind by id without going through a registry.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class EnvEntry:
    id: str
    kind: str  # "aec" or "gymnasium"
    entry_point: str
    kwargs: dict[str, Any]
    arguments: str


ENTRIES: tuple[EnvEntry, ...] = (
    EnvEntry("primeval/primordial_soup-v0", "aec", "primeval.envs.primordial_soup_v0:env", {},
             "num_players=4 (3|4), obs_encoder='flat'|'planes', render_mode, max_steps, "
             "reward_mode='rank'|'win'|'score', **PrimordialSoupConfig fields"),
    EnvEntry("primeval/origin-v0", "aec", "primeval.envs.origin_v0:env", {},
             "num_players=3 (2|3|4), obs_encoder='flat'|'graph', render_mode, max_steps=5000, "
             "reward_mode, **OriginConfig fields (map_file, cards_file, ...)"),
    EnvEntry("primeval/PrimordialSoup-v0", "gymnasium", "primeval.training.gym_env:make",
             {"game": "primordial_soup"},
             "num_players=4, opponent='random'|'heuristic'|'ppo:PATH' (or a list, one per "
             "seat), obs_encoder='flat', learner_seat=None (random), shaping=0.0, "
             "**PrimordialSoupConfig fields"),
    EnvEntry("primeval/Origin-v0", "gymnasium", "primeval.training.gym_env:make",
             {"game": "origin"},
             "num_players=3, opponent='random'|'heuristic'|'ppo:PATH' (or a list), "
             "obs_encoder='flat', learner_seat=None, shaping=0.0, **OriginConfig fields"),
)
BY_ID = {e.id: e for e in ENTRIES}


def register_envs() -> None:
    """Register every id (idempotent: already registered ids are left alone)."""
    import gymnasium
    from pettingzoo.env_registry.registration import aec_registry, register

    for entry in ENTRIES:
        if entry.kind == "aec":
            if entry.id not in aec_registry:
                register("aec", entry.id, entry.entry_point, kwargs=dict(entry.kwargs))
        elif entry.id not in gymnasium.registry:
            gymnasium.register(entry.id, entry_point=entry.entry_point,
                               kwargs=dict(entry.kwargs))


def make(env_id: str, **kwargs: Any):
    """Build a registered env by id without a registry (AEC or Gymnasium single-agent)."""
    try:
        entry = BY_ID[env_id]
    except KeyError:
        raise ValueError(f"unknown env id {env_id!r}; ids: {sorted(BY_ID)}") from None
    module, attr = entry.entry_point.split(":")
    factory = getattr(importlib.import_module(module), attr)
    return factory(**{**entry.kwargs, **kwargs})
