"""Every field of an env a restore could change, for "left exactly as it was" checks."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return (str(value.dtype), value.shape, value.tolist())
    return copy.deepcopy(value)


def every_field(env: Any) -> dict[str, Any]:
    """The saved state, the rules state, the generator, the PettingZoo bookkeeping (infos
    with their masks too), every agent's observation and the cached mask (which observing
    computes)."""
    raw = env.unwrapped
    # Observations first: observing computes the cached mask, which is then compared too.
    observations = {a: _plain(raw.observe(a)) for a in raw.possible_agents}
    return {
        "get_state": raw.get_state(),
        "game_state": raw.game_state.to_dict(),
        "rng": copy.deepcopy(raw._rng.bit_generator.state),
        "num_steps": raw.num_steps,
        "agents": list(raw.agents),
        "agent_selection": raw.agent_selection,
        "rewards": dict(raw.rewards),
        "cumulative_rewards": dict(raw._cumulative_rewards),
        "terminations": dict(raw.terminations),
        "truncations": dict(raw.truncations),
        "infos": _plain(raw.infos),
        "skip_agent_selection": raw._skip_agent_selection,
        "mask": None if raw._mask is None else raw._mask.tolist(),
        "observations": observations,
        "masks": {a: raw.action_mask(a).tolist() for a in raw.possible_agents},
    }
