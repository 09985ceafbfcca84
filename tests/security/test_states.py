"""Hostile saved states, rules states and position specs (issue 22, "All-or-nothing
restores"): deep, huge, NaN, out-of-range, unicode and numpy values.

Each is refused with the package's error (``StateError``, ``PositionError``; never
``RecursionError`` or ``TypeError``), with a bounded message, leaving every field of the env
as it was: the saved state, the rules state, the generator, the bookkeeping and every
observation. What is accepted is plain afterwards: ``json.dumps(env.get_state())`` works.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from primeval.envs.core.position import PositionError
from primeval.envs.core.saved_state import StateError
from primeval.envs.core.values import TreeError, plain_tree, short_repr
from primeval.envs.games import GAMES
from primeval.envs.origin.position import build_position as origin_position
from primeval.envs.primordial_soup.position import build_position as soup_position
from primeval.envs.testing.random_play import advance
from tests.helpers import mid_game
from tests.security.fields import every_field


def nest(depth: int, inner=0, kind=list):
    """``inner`` nested ``depth`` deep in lists (or dicts ``{"x": ...}``), built from
    Python (JSON could not even read it)."""
    value = inner
    for _ in range(depth):
        value = [value] if kind is list else {"x": value}
    return value


def cyclic():
    loop: list = []
    loop.append(loop)
    return loop


def _first(d):
    return d["agents"][0]


def _set(key, value):
    return lambda d: d.__setitem__(key, value)


def _entry(key, value):
    return lambda d: d[key].__setitem__(_first(d), value)


def _frame(value):
    return lambda d: d["game_state"]["stack"].append(value)


#: (case, damage, words of the refusal).
HOSTILE = [
    ("infos_520_deep", _entry("infos", {"x": nest(520)}), "nested more than 16 deep"),
    ("infos_5000_deep_dicts", _entry("infos", nest(5000, kind=dict)), "nested more than 16 deep"),
    ("format_5000_deep", _set("format", nest(5000)), "nested more than 16 deep"),
    ("env_5000_deep", _set("env", nest(5000)), "nested more than 16 deep"),
    ("frame_5000_deep", _frame(nest(5000)), "nested more than 16 deep"),
    ("cyclic_list", _entry("infos", {"x": cyclic()}), "nested more than 16 deep"),
    ("huge_list", _entry("infos", {"x": list(range(200_000))}), "more than 100000 values in all"),
    (
        "huge_string",
        _set("agent_selection", "x" * 100_000),
        "a string of 100000 characters (at most 10000)",
    ),
    ("huge_key", _entry("infos", {"k" * 20_000: 1}), "a key of 20000 characters"),
    (
        "num_steps_10_12",
        _set("num_steps", 10**12),
        "num_steps must be an int >= 0 (and at most 1000000000)",
    ),
    ("num_steps_float", _set("num_steps", 40.0), "num_steps must be an int >= 0"),
    (
        "reward_1e308",
        _entry("cumulative_rewards", 1e308),
        "'cumulative_rewards' values must be a finite number within +-1e+06",
    ),
    (
        "reward_minus_1e308",
        _entry("rewards", -1e308),
        "'rewards' values must be a finite number within +-1e+06",
    ),
    ("reward_inf", _entry("rewards", float("inf")), "'rewards' values must be a finite"),
    (
        "reward_nan",
        _entry("cumulative_rewards", float("nan")),
        "'cumulative_rewards' values must be a finite",
    ),
    ("reward_mid_game", _entry("cumulative_rewards", 0.5), "rewards before the end of the game"),
    # A right-to-left override is shown escaped, so it cannot reorder the message.
    (
        "unicode_selection",
        _set("agent_selection", "pl\u00e4yer_0\u202e"),
        "unknown agent_selection 'pl\u00e4yer_0\\u202e'",
    ),
    ("unicode_format", _set("format", "primeval-\u0455tate"), "not a primeval saved state"),
    ("unicode_agent", _set("agents", ["player_0", "player_\u0661"]), "unknown agents"),
    ("bytes", _set("env", b"origin_v0"), "a bytes"),
    ("object", _set("rng", object()), "a object"),
    ("set", _entry("infos", {"x": {1, 2}}), "a set"),
    ("ndarray", _set("num_steps", np.array([40])), "a ndarray"),
    ("int_key", _entry("infos", {1: "x"}), "keys must be strings"),
    ("numpy_key", _set("rewards", {np.str_("player_0"): 0.0}), "one entry per live agent"),
    (
        "huge_int_in_game_state",
        lambda d: d["game_state"].__setitem__(
            "round" if "round" in d["game_state"] else "turn", 10**40
        ),
        "damaged game_state",
    ),
    ("not_a_dict", lambda d: None, "expected a dict"),
]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(("case", "damage", "words"), HOSTILE, ids=[c for c, _, _ in HOSTILE])
def test_a_hostile_saved_state_is_refused_and_changes_nothing(game, case, damage, words):
    """A mid-game env: the hostile state raises StateError naming the problem in a bounded
    message, and every field is as before; the env then plays on."""
    env = mid_game(game, seed=1, steps=40)
    data = mid_game(game, seed=2, steps=70).get_state()
    if case == "not_a_dict":
        data = [data]
    else:
        damage(data)
    before = every_field(env)
    with pytest.raises(StateError) as err:
        env.set_state(data)
    message = str(err.value)
    assert message.startswith("set_state: ")
    assert words in message
    assert len(message) < 700
    assert every_field(env) == before
    advance(env, 5)
    assert env.num_steps == 45


@pytest.mark.parametrize("game", GAMES)
def test_numpy_scalars_are_converted_and_the_state_stays_json(game):
    """numpy ints, floats and bools in a saved state load as Python ones:
    ``json.dumps(env.get_state())`` works and gives the original state back."""
    source = mid_game(game, seed=2, steps=70)
    data = source.get_state()
    plain = json.loads(json.dumps(data))
    data["num_steps"] = np.int64(data["num_steps"])
    data["rewards"] = {a: np.float32(0) for a in data["rewards"]}
    data["terminations"] = {a: np.bool_(False) for a in data["terminations"]}
    data["agents"] = tuple(data["agents"])
    key = "round" if "round" in data["game_state"] else "turn"
    data["game_state"][key] = np.int16(data["game_state"][key])
    data["rng"]["state"]["state"] = (
        np.uint64(data["rng"]["state"]["state"] % 2**64)
        if data["rng"]["state"]["state"] < 2**64
        else data["rng"]["state"]["state"]
    )
    env = GAMES[game].raw_env(num_players=3)
    env.reset(seed=0)
    env.set_state(data)
    text = json.dumps(env.get_state())
    assert json.loads(text) == plain
    assert type(env.num_steps) is int
    assert all(type(v) is bool for v in env.terminations.values())
    advance(env, 5)
    json.dumps(env.get_state())


@pytest.mark.parametrize("game", GAMES)
def test_num_steps_within_max_steps(game):
    """``num_steps`` over the env's ``max_steps``, or at it while the game goes on (it would
    have been truncated), is refused."""
    env = GAMES[game].raw_env(num_players=3, max_steps=100)
    env.reset(seed=1)
    advance(env, 40, 1)
    data = env.get_state()
    before = every_field(env)
    for steps, words in (
        (101, "num_steps 101 is over this env's max_steps 100"),
        (100, "reaches this env's max_steps 100 but the game goes on"),
    ):
        with pytest.raises(StateError, match=words):
            env.set_state({**data, "num_steps": steps})
        assert every_field(env) == before
    env.set_state({**data, "num_steps": 99})
    assert env.num_steps == 99


@pytest.mark.parametrize("game", GAMES)
def test_a_failure_while_setting_up_puts_every_field_back(game, monkeypatch):
    """Everything checked, the env is changed; if setting its infos up from the state then
    fails, every field is put back and StateError says why."""
    env = mid_game(game, seed=1, steps=40)
    data = mid_game(game, seed=2, steps=70).get_state()
    before = every_field(env)
    with monkeypatch.context() as patch:

        def broken(state):
            raise KeyError("phase table")

        patch.setattr(env.rules, "phase_name", broken)
        with pytest.raises(
            StateError,
            match="the env cannot be set up from this state "
            r"\(KeyError: 'phase table'\)",
        ):
            env.set_state(data)
    assert every_field(env) == before


def _deepen(state):
    """A frame holding a list nested 5,000 deep (both games keep a procedure stack)."""
    state.stack.append({"kind": "x", "deep": nest(5000)})
    return state


@pytest.mark.parametrize("game", GAMES)
def test_set_game_state_refuses_a_deep_state_and_changes_nothing(game):
    env = mid_game(game, seed=1, steps=40)
    state = _deepen(mid_game(game, seed=2, steps=70).game_state.copy())
    before = every_field(env)
    with pytest.raises(StateError) as err:
        env.set_game_state(state)
    assert str(err.value).startswith("set_game_state: refused (")
    assert len(str(err.value)) < 500
    assert every_field(env) == before


@pytest.mark.parametrize("game", GAMES)
def test_set_game_state_converts_numpy_scalars(game):
    """A rules state holding numpy ints plays, and ``get_state()`` stays JSON."""
    env = mid_game(game, seed=1, steps=40)
    state = mid_game(game, seed=2, steps=70).game_state.copy()
    key = "round" if hasattr(state, "round") else "turn"
    setattr(state, key, np.int64(getattr(state, key)))
    expected = state.to_dict()
    env.set_game_state(state)
    assert json.loads(json.dumps(env.get_state()))["game_state"] == json.loads(
        json.dumps({**expected, key: int(expected[key])})
    )
    assert type(getattr(env.game_state, key)) is int
    advance(env, 5)


SPECS = {
    "primordial_soup": (soup_position, {"decision": {"kind": "buy", "player": 2}}),
    "origin": (origin_position, {"decision": {"kind": "turn", "player": 1}}),
}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("where", ["decision", "players", "top"])
def test_a_position_spec_nested_5000_deep_is_refused(game, where):
    build, spec = SPECS[game]
    rules = GAMES[game].raw_env(num_players=3).rules
    spec = dict(spec)
    if where == "decision":
        spec["decision"] = {**spec["decision"], "player": nest(5000)}
    elif where == "players":
        spec["players"] = [nest(5000, kind=dict)]
    else:
        spec = nest(5000, kind=dict)
    with pytest.raises(PositionError, match="nested more than 16 deep"):
        build(rules, spec)


@pytest.mark.parametrize("game", GAMES)
def test_a_position_spec_with_numpy_numbers_builds(game):
    build, spec = SPECS[game]
    rules = GAMES[game].raw_env(num_players=3).rules
    numpy_spec = {"decision": {**spec["decision"], "player": np.int64(spec["decision"]["player"])}}
    assert build(rules, numpy_spec).to_dict() == build(rules, spec).to_dict()


def test_short_repr_is_bounded_and_never_raises():
    class Broken:
        def __repr__(self):
            raise RuntimeError("no")

    deep = nest(5000)
    assert short_repr(deep) == "[[[[[...]]]]]"
    assert len(short_repr({"k" * 500: list(range(10_000))}, 50)) <= 50
    assert short_repr(Broken()).startswith("<Broken ")

    class Endless:
        def __repr__(self):
            return repr(self)

    assert short_repr(Endless()).startswith("<Endless ")
    assert short_repr("player_0") == "'player_0'"
    assert short_repr(cyclic()).startswith("[")


def test_plain_tree_converts_numpy_and_refuses_what_is_not_plain():
    tree = {"a": (np.int8(3), np.float64(0.5), np.bool_(True), None), "b": {"c": "d"}}
    out = plain_tree(tree)
    assert out == {"a": [3, 0.5, True, None], "b": {"c": "d"}}
    assert [type(v) for v in out["a"]] == [int, float, bool, type(None)]
    for bad, words in (
        ({"a": float("nan")}, "['a']: nan is not a finite number"),
        ({1: 0}, "keys must be strings"),
        ([nest(40)], "nested more than 32 deep"),
        ({"a": [b"x"]}, "['a'][0]: a bytes"),
    ):
        with pytest.raises(TreeError, match=words.replace("[", r"\[").replace("]", r"\]")):
            plain_tree(bad)
    assert plain_tree({1: [2]}, str_keys=False) == {1: [2]}


def test_numpy_strings_and_float_versions_are_not_kept():
    """A numpy string is kept as a plain ``str``; a format version must be the int 1
    (``1.0`` and ``True`` equal it in Python, but are not it)."""
    env = mid_game("origin", seed=1, steps=40)
    data = mid_game("origin", seed=2, steps=70).get_state()
    data["agents"] = [np.str_(a) for a in data["agents"]]
    env.set_state(data)
    assert all(type(a) is str for a in env.agents)
    for version in (1.0, True, np.float64(1.0)):
        with pytest.raises(StateError, match="saved-state format version"):
            env.set_state({**data, "format_version": version})
