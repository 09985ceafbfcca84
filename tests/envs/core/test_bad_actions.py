"""Bad actions through the adapter, for both games: each refused with an error naming it, and
nothing changed (``get_state()`` is equal before and after)."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from primeval.envs.core.errors import IllegalActionError, InvalidActionTypeError
from primeval.envs.games import GAMES
from primeval.envs.testing.random_play import advance
from tests.helpers import mid_game, play_to_the_end


@pytest.mark.parametrize("game", GAMES)
def test_illegal_action_id(game):
    """A masked-out id raises IllegalActionError naming the id, its meaning, the agent, the
    phase and legal choices; nothing changes."""
    env = mid_game(game)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[-1])
    before = env.get_state()
    with pytest.raises(IllegalActionError) as err:
        env.step(bad)
    message = str(err.value)
    assert message.startswith(f"illegal action {bad} (")
    assert env.rules.action_to_str(env.game_state, bad) in message
    assert f"for {agent} in phase '{env.rules.phase_name(env.game_state)}'" in message
    assert f"legal: {int(np.flatnonzero(mask)[0])}=" in message
    assert env.get_state() == before


#: Integer ids outside ``[0, n)``, as functions of ``n``.
OUT_OF_RANGE = {
    "-1": lambda n: -1,
    "-1000": lambda n: -1000,
    "n": lambda n: n,
    "n+1": lambda n: n + 1,
    "10**9": lambda n: 10**9,
    "np.int64(n)": np.int64,
    "np.int8(-1)": lambda n: np.int8(-1),
}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("value", OUT_OF_RANGE)
def test_out_of_range_id(game, value):
    env = mid_game(game)
    n = env.action_space(env.agent_selection).n
    action = OUT_OF_RANGE[value](n)
    before = env.get_state()
    with pytest.raises(IllegalActionError,
                       match=rf"^action id {int(action)} out of range \[0, {n}\) for "
                             rf"{env.agent_selection}$"):
        env.step(action)
    assert env.get_state() == before


#: Values that are not an int, as functions of a legal id: each is refused even though it
#: "means" that legal id.
WRONG_TYPES = {
    "float": float,
    "float_half": lambda a: a + 0.5,
    "nan": lambda a: float("nan"),
    "inf": lambda a: float("inf"),
    "np.float32": np.float32,
    "np.float64": np.float64,
    "np.bool_": lambda a: np.bool_(True),
    "bool": lambda a: True,
    "None": lambda a: None,
    "str": str,
    "word": lambda a: "pass",
    "bytes": lambda a: str(a).encode(),
    "list": lambda a: [a],
    "tuple": lambda a: (a,),
    "np.array_1d": lambda a: np.array([a]),
    "np.array_2d": lambda a: np.array([[a]]),
    "np.array_0d_float": lambda a: np.array(float(a)),
    "np.str_": lambda a: np.str_(a),
    "complex": complex,
}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", WRONG_TYPES)
def test_wrong_action_type(game, kind):
    """Not an int (of any kind): InvalidActionTypeError (an IllegalActionError and a
    TypeError) naming the range, the type and the value; nothing changes."""
    env = mid_game(game)
    n = env.action_space(env.agent_selection).n
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    action = WRONG_TYPES[kind](legal)
    before = env.get_state()
    with pytest.raises(InvalidActionTypeError) as err:
        env.step(action)
    assert isinstance(err.value, TypeError) and isinstance(err.value, IllegalActionError)
    shown = action[()] if isinstance(action, np.ndarray) and action.shape == () else action
    assert str(err.value) == (f"action must be an int in [0, {n}), got "
                              f"{type(shown).__name__} {shown!r}")
    assert env.get_state() == before


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", [int, np.int64, np.int32, np.uint16, np.array])
def test_integer_kinds_are_accepted(game, kind):
    """The control: a legal id as any integer kind (or a 0-d integer array) is played."""
    env = mid_game(game)
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    twin = env.clone()
    env.step(kind(legal))
    twin.step(legal)
    assert env.get_state() == twin.get_state() and env.num_steps == 41


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", ["float_half", "None", "str", "np.float32", "np.array_1d"])
def test_wrong_action_through_env_changes_nothing(game, kind):
    """Through ``env()`` (PettingZoo's wrappers) a value that is not an id is refused before
    the game sees it; nothing changes."""
    env = mid_game(game, wrapped=True)
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    before = env.unwrapped.get_state()
    with pytest.raises((AssertionError, IllegalActionError)):
        env.step(WRONG_TYPES[kind](legal))
    assert env.unwrapped.get_state() == before


@pytest.mark.parametrize("game", GAMES)
def test_wrong_action_through_env_names_the_value(game):
    env = mid_game(game, wrapped=True)
    n = env.action_space(env.agent_selection).n
    with pytest.raises(IllegalActionError, match=rf"\[0, {n}\).*3\.5"):
        env.step(3.5)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("wrapped", [False, True], ids=["raw_env", "env"])
@pytest.mark.parametrize("end", ["terminated", "truncated"])
def test_acting_for_a_done_agent(game, wrapped, end):
    """Once an agent is done (game over or max_steps), only ``None`` is accepted for it."""
    module = GAMES[game]
    kwargs = {"max_steps": 25} if end == "truncated" else {}
    env = (module.env if wrapped else module.raw_env)(num_players=3, **kwargs)
    env.reset(seed=3)
    if end == "terminated":
        play_to_the_end(env)
    else:
        advance(env, 25)
    agent = env.agent_selection
    assert (env.terminations if end == "terminated" else env.truncations)[agent]
    before = env.unwrapped.get_state()
    with pytest.raises(ValueError, match="when an agent is dead, the only valid action is "
                                         "None"):
        env.step(0)
    assert env.unwrapped.get_state() == before
    env.step(None)  # the agent leaves as usual
    assert agent not in env.agents


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("action", [None, 0])
def test_stepping_after_the_end(game, action, caplog):
    """After every agent has left: the raw env raises, naming ``reset()``; ``env()`` warns
    (PettingZoo's OrderEnforcingWrapper); neither changes anything."""
    raw, wrapped = GAMES[game].raw_env(num_players=3), GAMES[game].env(num_players=3)
    for env in (raw, wrapped):
        env.reset(seed=4)
        play_to_the_end(env)
        while env.agents:
            env.step(None)
    before = raw.get_state()
    with pytest.raises(RuntimeError, match=r"the game is over and every agent has left; "
                                           r"call reset\(\)"):
        raw.step(action)
    assert raw.get_state() == before
    before = wrapped.unwrapped.get_state()
    with caplog.at_level(logging.WARNING):
        wrapped.step(action)
    assert "step() called after all agents are terminated or truncated" in caplog.text
    assert wrapped.unwrapped.get_state() == before


@pytest.mark.parametrize("game", GAMES)
def test_stepping_before_reset_through_env(game):
    env = GAMES[game].env(num_players=3)
    with pytest.raises(AssertionError, match=r"reset\(\) needs to be called before step"):
        env.step(0)


@pytest.mark.parametrize("game", GAMES)
def test_stepping_before_reset(game):
    env = GAMES[game].raw_env(num_players=3)
    with pytest.raises(RuntimeError, match=r"reset\(\)"):
        env.step(0)
