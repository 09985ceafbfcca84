"""Saved states: a JSON-serialisable snapshot of a game in progress, and its checks.

A saved state holds the env id, its version, the rules config, the full rules state, the
random generator's state and the PettingZoo bookkeeping (whose turn, rewards, flags). It is
refused, with the env left as it was, when it comes from another game or version, or when
any part is missing or damaged.
"""

from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np

from primeval.envs.core.values import TreeError, plain_tree, short_repr

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
        # Without the masks a form wrapper puts there (numpy arrays, and derived from the
        # state): set_state sets every info anew from the game state.
        "infos": {agent: {k: copy.deepcopy(v) for k, v in info.items() if k != "action_mask"}
                  for agent, info in env.infos.items()},
        # While a finished game's agents step out one by one (PettingZoo's dead steps), the
        # agent selected when the game ended, which is selected again once they are all out.
        "skip_agent_selection": getattr(env, "_skip_agent_selection", None),
    }


#: Bounds on a saved state's tree (a real one nests 5 deep and holds about 400 values).
MAX_DEPTH = 16
MAX_VALUES = 100_000
MAX_STRING = 10_000
#: A step count no game reaches (``num_steps`` above it is refused even without max_steps).
MAX_NUM_STEPS = 10**9
#: No reward mode gives a final reward this large (rank and win: at most 1 in size; score:
#: a score minus the mean score).
MAX_REWARD = 1e6
#: Error messages quote at most this many characters of a value or of a rules error.
MESSAGE_LIMIT = 300


def _need(cond: bool, what: str) -> None:
    if not cond:
        raise StateError(f"set_state: {what}")


def _is_number(value: Any) -> bool:
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(value) and abs(value) <= MAX_REWARD)


def _r(value: Any) -> str:
    return short_repr(value, 120)


def rules_error(exc: BaseException) -> str:
    """``TypeName: message`` of a rules error, bounded to :data:`MESSAGE_LIMIT`."""
    try:
        text = str(exc)
    except Exception:  # noqa: BLE001
        text = "?"
    if len(text) > MESSAGE_LIMIT:
        text = text[: MESSAGE_LIMIT - 3] + "..."
    return f"{type(exc).__name__}: {text}"


def plain_state_tree(tree: Any) -> Any:
    """A rules state's plain form (``state.to_dict()``) checked and copied as
    :func:`plain_state` checks a saved state's (``TreeError`` when refused)."""
    return plain_tree(tree, max_depth=MAX_DEPTH, max_nodes=MAX_VALUES, max_string=MAX_STRING,
                      finite=False)


def plain_state(data: Any) -> dict[str, Any]:
    """A checked plain copy of a saved state's tree (see :func:`plain_tree`): a dict of
    dicts, lists and scalars only, nested at most :data:`MAX_DEPTH` deep, numpy scalars
    turned into Python ones.

    Raises:
        StateError: not a dict, or a part of another type, too deep or too large.
    """
    _need(isinstance(data, dict), f"expected a dict, got {type(data).__name__}")
    try:
        return plain_state_tree(data)
    except TreeError as exc:
        raise StateError(f"set_state: {exc}") from None


_FIELDS = ("_state", "_rng", "_mask", "_num_steps", "agents", "agent_selection", "rewards",
           "_cumulative_rewards", "terminations", "truncations", "infos",
           "_skip_agent_selection")


def restore(env: Any, data: Any) -> None:
    """Load a snapshot into ``env``; checks everything before changing anything, and puts
    everything back if setting the env up from the state fails."""
    data = plain_state(data)
    _need(data.get("format") == FORMAT, f"not a primeval saved state (format="
          f"{_r(data.get('format'))}, expected {FORMAT!r})")
    version = data.get("format_version")
    _need(type(version) is int and version == FORMAT_VERSION,
          f"saved-state format version {_r(data.get('format_version'))}, this primeval reads "
          f"{FORMAT_VERSION}")
    name = env.metadata["name"]
    _need(data.get("env") == name, f"the state is of env {_r(data.get('env'))}, this env is "
          f"{name!r} (another game or another version)")
    missing = [k for k in ("config", "game_state", "rng", "num_steps", "agents",
                           "agent_selection", "rewards", "cumulative_rewards", "terminations",
                           "truncations", "infos") if k not in data]
    _need(not missing, f"missing key(s) {missing}")
    _need(isinstance(data["config"], dict),
          f"'config' must be a dict, got {type(data['config']).__name__}")
    own = env.rules.config.to_dict()
    if data["config"] != own:
        diff = sorted(str(k)[:60] for k in set(own) | set(data["config"])
                      if own.get(k) != data["config"].get(k))
        raise StateError(f"set_state: the state's rules config differs from this env's in "
                         f"{short_repr(diff, MESSAGE_LIMIT)}; build the env with the same "
                         "config")
    agents = data["agents"]
    _need(isinstance(agents, list) and all(isinstance(a, str) for a in agents)
          and len(set(agents)) == len(agents),
          f"'agents' must be a list of distinct agent names, got {_r(agents)}")
    _need(set(agents) <= set(env.possible_agents), f"unknown agents in {_r(agents)}")
    to_act = None
    try:
        state = env.rules.state_from_dict(data["game_state"])
        env.rules.check_state(state)
        terminal = env.rules.is_terminal(state)
        mask = env.rules.legal_mask(state)
        if not terminal:
            _need(bool(mask.any()), "the game state has no legal action")
            to_act = env.possible_agents[env.rules.current_player(state)]
    except StateError:
        raise
    except Exception as exc:  # noqa: BLE001  (any failure means a damaged state)
        raise StateError(f"set_state: damaged game_state ({rules_error(exc)})") from None
    try:
        rng = np.random.default_rng()
        rng.bit_generator.state = data["rng"]
    except Exception as exc:  # noqa: BLE001
        raise StateError(f"set_state: damaged rng state ({rules_error(exc)})") from None
    for key in ("rewards", "cumulative_rewards", "terminations", "truncations", "infos"):
        _need(isinstance(data[key], dict) and set(data[key]) == set(agents),
              f"'{key}' must have one entry per live agent {agents}")
    for key, ok, kind in (("rewards", _is_number, f"a finite number within +-{MAX_REWARD:g}"),
                          ("cumulative_rewards", _is_number,
                           f"a finite number within +-{MAX_REWARD:g}"),
                          ("terminations", lambda v: isinstance(v, bool), "True or False"),
                          ("truncations", lambda v: isinstance(v, bool), "True or False"),
                          ("infos", lambda v: isinstance(v, dict), "a dict")):
        bad = {a: v for a, v in data[key].items() if not ok(v)}
        _need(not bad, f"'{key}' values must be {kind}, got {_r(bad)}")
    selection = data["agent_selection"]
    _need(isinstance(selection, str) and selection in env.possible_agents,
          f"unknown agent_selection {_r(selection)}")
    num_steps = data["num_steps"]
    _need(isinstance(num_steps, int) and not isinstance(num_steps, bool)
          and 0 <= num_steps <= MAX_NUM_STEPS,
          f"num_steps must be an int >= 0 (and at most {MAX_NUM_STEPS}), got {_r(num_steps)}")
    # The bookkeeping must fit the game: every live agent is done or none is (the game ends
    # for all at once); a finished game has every live agent done; otherwise the agent
    # selected is the player to act.
    done = {a for a in agents if data["terminations"][a] or data["truncations"][a]}
    _need(done in (set(), set(agents)), f"only some live agents are done: {sorted(done)}")
    _need(not terminal or done == set(agents),
          "the game is over but the live agents are not terminated")
    if agents:
        _need(selection in agents, f"agent_selection {selection!r} is not a live agent")
    if agents and not done:
        _need(selection == to_act, f"agent_selection {selection!r} is not the player to act "
              f"({to_act})")
        # Rewards are 0 until the game ends (every mode gives only final rewards).
        nonzero = {a: v for key in ("rewards", "cumulative_rewards")
                   for a, v in data[key].items() if v != 0}
        _need(not nonzero, f"rewards before the end of the game: {_r(nonzero)} (every "
              "reward is 0 until the game ends)")
    max_steps = env.max_steps
    if max_steps is not None:
        _need(num_steps <= max_steps, f"num_steps {num_steps} is over this env's max_steps "
              f"{max_steps}")
        _need(num_steps < max_steps or not agents or done,
              f"num_steps {num_steps} reaches this env's max_steps {max_steps} but the game "
              "goes on (it would have been truncated)")
    # Saved states written before this key existed have none: nothing to select afterwards.
    skip = data.get("skip_agent_selection")
    _need(skip is None or (done and isinstance(skip, str) and skip in env.possible_agents),
          f"skip_agent_selection {_r(skip)} must be None, or an agent name once the game is "
          "over")
    # Everything checked: now change the env, putting every field back if setting the
    # infos up from the state fails.
    absent = object()
    old = {field: getattr(env, field, absent) for field in _FIELDS}
    try:
        env._state = state
        env._rng = rng
        env._mask = None
        env._num_steps = num_steps
        env.agents = list(agents)
        env.agent_selection = selection
        env.rewards = {a: float(v) for a, v in data["rewards"].items()}
        env._cumulative_rewards = {a: float(v) for a, v in data["cumulative_rewards"].items()}
        env.terminations = dict(data["terminations"])
        env.truncations = dict(data["truncations"])
        env.infos = data["infos"]  # a fresh plain copy (plain_state)
        env._skip_agent_selection = skip
        # The infos anew from the state (a form wrapper over the env then puts its own form).
        env._set_infos()
    except Exception as exc:  # noqa: BLE001  (a state the env cannot be set up from)
        for field, value in old.items():
            if value is absent:
                env.__dict__.pop(field, None)
            else:
                setattr(env, field, value)
        raise StateError(f"set_state: the env cannot be set up from this state "
                         f"({rules_error(exc)})") from None
