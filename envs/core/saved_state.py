"""Saved states: a JSON-serialisable snapshot of a game in progress, and its checks.

A saved state holds the env id, its version, the rules config, the full rules state, the
random generator's state and the PettingZoo bookkeeping (whose turn, rewards, flags). It is
refused, with the env left as it was, when it comes from another game or version, or when
any part is missing or damaged.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

FORMAT = "primeval-state"
FORMAT_VERSION = 1


class StateError(ValueError):
    """A saved state cannot be loaded into this env; the message says why."""


def snapshot(env: Any) -> dict[str, Any]:
    """The env's game as a JSON-serialisable dict."""
    if env.game_state is None:
        raise StateError("get_state: the env has not been reset yet")
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "env": env.metadata["name"],
        "config": env.rules.config.to_dict(),
        "game_state": env.game_state.to_dict(),
        "rng": copy.deepcopy(env._rng.bit_generator.state),
        "num_steps": env._num_steps,
        "agents": list(env.agents),
        "agent_selection": env.agent_selection,
        "rewards": dict(env.rewards),
        "cumulative_rewards": dict(env._cumulative_rewards),
        "terminations": dict(env.terminations),
        "truncations": dict(env.truncations),
        "infos": copy.deepcopy(env.infos),
    }


def _need(cond: bool, what: str) -> None:
    if not cond:
        raise StateError(f"set_state: {what}")


def restore(env: Any, data: Any) -> None:
    """Load a snapshot into ``env``; checks everything before changing anything."""
    _need(isinstance(data, dict), f"expected a dict, got {type(data).__name__}")
    _need(data.get("format") == FORMAT, f"not a primeval saved state (format="
          f"{data.get('format')!r}, expected {FORMAT!r})")
    _need(data.get("format_version") == FORMAT_VERSION,
          f"saved-state format version {data.get('format_version')!r}, this primeval reads "
          f"{FORMAT_VERSION}")
    name = env.metadata["name"]
    _need(data.get("env") == name, f"the state is of env {data.get('env')!r}, this env is "
          f"{name!r} (another game or another version)")
    missing = [k for k in ("config", "game_state", "rng", "num_steps", "agents",
                           "agent_selection", "rewards", "cumulative_rewards", "terminations",
                           "truncations", "infos") if k not in data]
    _need(not missing, f"missing key(s) {missing}")
    own = env.rules.config.to_dict()
    if data["config"] != own:
        diff = sorted(k for k in set(own) | set(data["config"])
                      if own.get(k) != data["config"].get(k))
        raise StateError(f"set_state: the state's rules config differs from this env's in "
                         f"{diff}; build the env with the same config")
    try:
        state = env.rules.state_from_dict(data["game_state"])
        env.rules.check_state(state)
        mask = env.rules.legal_mask(state)
        if not env.rules.is_terminal(state):
            _need(bool(mask.any()), "the game state has no legal action")
            _need(env.possible_agents[env.rules.current_player(state)] in data["agents"],
                  "the player to act is not among the live agents")
    except StateError:
        raise
    except Exception as exc:  # noqa: BLE001  (any failure means a damaged state)
        raise StateError(f"set_state: damaged game_state ({type(exc).__name__}: {exc})") from None
    try:
        rng = np.random.default_rng()
        rng.bit_generator.state = copy.deepcopy(data["rng"])
    except Exception as exc:  # noqa: BLE001
        raise StateError(f"set_state: damaged rng state ({exc})") from None
    agents = list(data["agents"])
    _need(set(agents) <= set(env.possible_agents), f"unknown agents in {agents}")
    for key in ("rewards", "cumulative_rewards", "terminations", "truncations", "infos"):
        _need(isinstance(data[key], dict) and set(data[key]) == set(agents),
              f"'{key}' must have one entry per live agent {agents}")
    _need(data["agent_selection"] in env.possible_agents, "unknown agent_selection "
          f"{data['agent_selection']!r}")
    _need(isinstance(data["num_steps"], int) and data["num_steps"] >= 0,
          "num_steps must be an int >= 0")
    # Everything checked: now change the env.
    env._state = state
    env._rng = rng
    env._mask = None
    env._num_steps = data["num_steps"]
    env.agents = agents
    env.agent_selection = data["agent_selection"]
    env.rewards = {a: float(v) for a, v in data["rewards"].items()}
    env._cumulative_rewards = {a: float(v) for a, v in data["cumulative_rewards"].items()}
    env.terminations = {a: bool(v) for a, v in data["terminations"].items()}
    env.truncations = {a: bool(v) for a, v in data["truncations"].items()}
    env.infos = copy.deepcopy(data["infos"])
    env._skip_agent_selection = None
