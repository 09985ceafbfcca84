"""The damage fuzz, extended to the whole saved state with type, depth and range mutations
(issue 22, "A hostile-input suite").

Hypothesis picks a value anywhere in a real mid-game ``get_state()`` (the bookkeeping, the
generator, the config, the rules state) and mutates it:

* **type**: another type (``None``, strings with control characters, floats, bools, bytes,
  sets, tuples, numpy scalars of its own value, a numpy array, an object);
* **depth**: the value wrapped in lists or dicts 1 to 5,000 deep (from Python: JSON could
  not even read the deepest);
* **range**: an extreme number (negative, ``10**12``, ``2**63``, ``10**40``, ``+-1e308``,
  ``NaN``, infinities).

``set_state`` on a mid-game env must then refuse it with a :class:`StateError` (never
another exception) and leave every field of the env as it was, or accept it, and then
``json.dumps(env.get_state())`` works and the game plays on to its end.
"""

from __future__ import annotations

import functools
import json
from itertools import islice
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from primeval.envs.core.saved_state import StateError
from primeval.envs.games import GAMES
from primeval.envs.testing.random_play import random_steps
from tests.helpers import mid_game
from tests.security.fields import every_field

#: Saved states the mutations start from: (seed, steps into the game).
STARTS = [(0, 3), (2, 40), (4, 120), (6, 300)]
DEPTHS = [1, 2, 8, 14, 15, 16, 17, 40, 600, 5000]
EXTREMES = [
    -1,
    -(2**63),
    0,
    10**12,
    2**63,
    10**40,
    1e308,
    -1e308,
    1e-300,
    float("nan"),
    float("inf"),
    float("-inf"),
]
MAX_STEPS = 20_000


@functools.cache
def _saved(game: str, seed: int, steps: int) -> str:
    return json.dumps(mid_game(game, seed=seed, steps=steps).get_state())


@functools.cache
def _target(game: str) -> str:
    """The env the states are loaded into, as a saved state (rebuilt for each example)."""
    return _saved(game, 9, 30)


def _nest(value: Any, depth: int, kind: str) -> Any:
    for _ in range(depth):
        value = [value] if kind == "list" else {"x": value}
    return value


def _other_type(value: Any, draw) -> Any:
    choices: list[Any] = [
        None,
        "",
        "x",
        "\u202eplayer_0",
        "\x00",
        1.5,
        True,
        False,
        b"x",
        {"x"},
        (value,),
        [],
        {},
        np.array([1, 2]),
        object(),
    ]
    if isinstance(value, bool):
        choices += [np.bool_(value)]
    elif isinstance(value, int):
        choices += [
            np.int64(value) if -(2**63) <= value < 2**63 else np.float64(value),
            np.int8(1),
            float(value),
        ]
    elif isinstance(value, float):
        choices += [np.float32(value), np.float64(value)]
    elif (
        isinstance(value, list)
        and value
        and all(isinstance(v, int) and not isinstance(v, bool) and abs(v) < 2**62 for v in value)
    ):
        choices += [[np.int64(v) for v in value], tuple(value)]
    elif isinstance(value, str):
        choices += [np.str_(value), value + "\u0301", value.upper()]
    return draw(st.sampled_from(choices))


def mutate(data: dict, draw) -> str:
    """Mutate one value of ``data`` in place; returns the path and the mutation."""
    parent: Any = data
    key: Any = draw(st.sampled_from(sorted(data)))
    path = [key]
    while isinstance(parent[key], list | dict) and parent[key] and draw(st.integers(0, 2)):
        parent = parent[key]
        key = (
            draw(st.integers(0, len(parent) - 1))
            if isinstance(parent, list)
            else draw(st.sampled_from(sorted(parent)))
        )
        path.append(key)
    kind = draw(st.sampled_from(["type", "depth", "range"]))
    value = parent[key]
    if kind == "type":
        new = _other_type(value, draw)
    elif kind == "depth":
        new = _nest(value, draw(st.sampled_from(DEPTHS)), draw(st.sampled_from(["list", "dict"])))
    else:
        new = draw(st.sampled_from(EXTREMES))
    parent[key] = new
    return f"{kind} at {''.join(f'[{k!r}]' for k in path)}"


@pytest.mark.parametrize("game", GAMES)
@settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_a_mutated_state_is_refused_unchanged_or_plays_on(game, data):
    draw = data.draw
    state = json.loads(_saved(game, *draw(st.sampled_from(STARTS))))
    where = mutate(state, draw)
    env = GAMES[game].raw_env(num_players=3)
    env.set_state(json.loads(_target(game)))
    before = every_field(env)
    try:
        env.set_state(state)
    except StateError as err:
        message = str(err)
        assert message.removeprefix("set_state: ").strip(), f"{where}: no reason"
        assert len(message) < 1000, f"{where}: an unbounded message"
        assert every_field(env) == before, f"{where}: a refused state changed the env"
        return
    json.dumps(env.get_state())
    for _turn in islice(random_steps(env, 0), MAX_STEPS):
        pass
    assert not env.agents, f"{where}: the game did not end within {MAX_STEPS} steps"
    env.rules.check_state(env.game_state)
    json.dumps(env.get_state())
