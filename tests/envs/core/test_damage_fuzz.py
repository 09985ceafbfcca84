"""A damaged saved state is refused or it plays (issue 15, "Strict states").

One field of a real mid-game ``get_state()["game_state"]`` is damaged at random: a top-level
field, or an element deep in its lists and dicts, gets another int (negative and large ones
too), a flipped bool, another string, an item dropped or added, or a value of another type.
``set_state`` on a fresh env of the same game must then either refuse it with a
:class:`StateError` that says what is wrong, leaving the env as it was, or accept it, and
then the game plays on to its end with random legal actions without any exception, every
position on the way passing the rules' own ``check_state`` (a position the check accepts
leads only to positions it accepts).
"""

from __future__ import annotations

import copy
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

#: Positions the damage starts from: (seed, steps into the game), setup to late game.
STARTS = [(0, 3), (1, 12), (2, 40), (3, 70), (4, 120), (5, 200), (6, 300)]
#: Ints a damaged int may become besides its neighbours.
INTS = [-1_000_000, -7, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 9, 12, 20, 41, 55, 99, 2**31]
#: Values of another type.
OTHER_TYPES = [None, "x", 1.5, True, False, [], {}, [0], {"x": 0}, float("nan")]
#: A damaged game still ends within this many agent steps.
MAX_STEPS = 20_000


class Draw:
    """The random choices of one damage, drawn by Hypothesis (``data.draw``) or, for an
    exploratory run outside pytest, by a numpy generator."""

    def __init__(self, data=None, rng: np.random.Generator | None = None) -> None:
        self.data, self.rng = data, rng

    def index(self, n: int) -> int:
        """0 <= i < n."""
        if self.data is not None:
            return self.data.draw(st.integers(0, n - 1))
        return int(self.rng.integers(n))

    def pick(self, items: list) -> Any:
        return items[self.index(len(items))]


@functools.cache
def _saved(game: str, seed: int, steps: int) -> str:
    """A mid-game saved state, as JSON (each test takes a fresh copy)."""
    return json.dumps(mid_game(game, seed=seed, steps=steps).get_state())


def _strings(value: Any) -> list[str]:
    """Every string in a JSON value (keys too), for a damaged string to become."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (k, *_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _damaged_value(value: Any, draw: Draw, strings: list[str]) -> Any:
    """Another value for ``value``: mostly of its own kind, sometimes of another type."""
    if draw.index(6) == 0:
        return copy.deepcopy(draw.pick(OTHER_TYPES))
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return draw.pick([value - 1, value + 1, -value, *INTS])
    if isinstance(value, str):
        return draw.pick([*sorted(set(strings)), "", "bogus"])
    if isinstance(value, list):
        value = list(value)
        if value and draw.index(2) == 0:
            del value[draw.index(len(value))]
        elif value and draw.index(2) == 0:
            value.insert(draw.index(len(value) + 1), copy.deepcopy(draw.pick(value)))
        else:
            value.append(draw.pick(INTS))
        return value
    if isinstance(value, dict):
        value = dict(value)
        if value and draw.index(2) == 0:
            del value[draw.pick(sorted(value))]
        else:
            value[draw.pick([*sorted(set(strings)), "bogus"])] = draw.pick(INTS)
        return value
    return draw.pick(INTS)


def damage(game_state: dict, draw: Draw) -> str:
    """Damage one field of ``game_state`` in place; returns its path (for messages)."""
    strings = _strings(game_state)
    parent: Any = game_state
    key: Any = draw.pick(sorted(game_state))
    path = [key]
    # Go down into the field's lists and dicts, stopping at random.
    while isinstance(parent[key], list | dict) and parent[key] and draw.index(3) != 0:
        parent = parent[key]
        key = draw.index(len(parent)) if isinstance(parent, list) else draw.pick(sorted(parent))
        path.append(key)
    parent[key] = _damaged_value(parent[key], draw, strings)
    return "".join(f"[{k!r}]" for k in path)


def check_damaged(game: str, start: tuple[int, int], draw: Draw, *,
                  check_every_step: bool = True) -> str:
    """Damage a saved state of ``game`` and load it into a fresh env: refused with a named
    reason and the env unchanged, or played to its end. Returns what happened."""
    data = json.loads(_saved(game, *start))
    where = damage(data["game_state"], draw)
    env = GAMES[game].raw_env(num_players=3)
    env.reset(seed=0)
    before = env.get_state()
    try:
        env.set_state(data)
    except StateError as err:
        reason = str(err).removeprefix("set_state: ").strip()
        assert reason, f"{where}: refused without a reason"
        assert env.get_state() == before, f"{where}: a refused state changed the env"
        return f"refused {where}: {reason}"
    rules = env.rules
    for _turn in islice(random_steps(env, 0), MAX_STEPS):
        if check_every_step:
            rules.check_state(env.game_state)
    assert not env.agents, f"{where}: the game did not end within {MAX_STEPS} steps"
    return f"accepted {where}"


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=150, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_a_damaged_state_is_refused_with_a_reason_or_plays_to_the_end(game, data):
    """Damage one field of a mid-game state: ``set_state`` refuses it naming the problem and
    leaves the env unchanged, or the game plays on to its end without an exception."""
    draw = Draw(data)
    check_damaged(game, draw.pick(STARTS), draw)
