"""Bad input, each with a clear error and nothing changed (issue 7): the complete checklist.

Every item of the issue's list, for both games where it applies. Each test asserts the
message names what is wrong and that nothing changed: ``get_state()`` (rules state,
generator, whose turn, rewards, flags) is equal before and after, and files are untouched.

| Issue item | Tests (here unless a path is given) |
|---|---|
| illegal action ids | ``test_illegal_action_id``; ``test_properties.py::test_illegal_actions_raise_and_change_nothing``; through ``env()`` an illegal id ends the game with -1 for the offender (documented): ``tests/*/test_env.py::test_illegal_action_through_env_ends_*`` |
| out-of-range ids | ``test_out_of_range_id`` |
| floats, numpy types of the wrong kind, None, strings | ``test_wrong_action_type``, ``test_integer_kinds_are_accepted`` (the control); through ``env()``: ``test_wrong_action_through_env_changes_nothing``, ``test_wrong_action_through_env_names_the_value`` |
| acting for an agent that is done | ``test_acting_for_a_done_agent`` |
| stepping after the game ended | ``test_stepping_after_the_end``; before ``reset()``: ``test_stepping_before_reset`` |
| unknown config fields and bad values | ``test_bad_game_config``; every field's bad values: ``tests/primordial_soup/test_config.py``, ``tests/origin/test_config.py`` |
| broken data files (Origin map and cards) | ``test_broken_origin_data_file``; every check of the loader: ``tests/origin/test_data_files.py`` |
| ``set_state`` with another game's, another version's or a damaged state | ``test_bad_saved_state``, ``test_finished_game_with_live_flags_is_refused``, ``test_a_truncated_game_saved_while_agents_leave_loads`` (the control); ``tests/test_saved_state.py::test_bad_states_are_refused_and_change_nothing`` |
| corrupt or truncated checkpoint to ``evaluate``, ``play``, ``--resume`` | ``test_bad_checkpoint_to_evaluate``, ``test_checkpoint_of_another_game_to_evaluate``, ``test_bad_checkpoint_to_play``, ``test_bad_checkpoint_to_resume``, ``test_failed_resume_leaves_the_config_alone``; ``tests/training/ppo/test_train.py::test_corrupt_checkpoint_is_refused_clearly``, ``test_resume_without_checkpoint_is_refused`` |
| config YAML with unknown keys or wrong types | ``test_bad_training_config``, ``test_bad_training_config_through_the_cli``, ``test_the_shipped_training_configs_still_load`` (the control); ``tests/training/ppo/test_train.py::test_bad_configs_name_the_key``, ``test_config_file_errors`` |
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
import pytest
import yaml

from primeval.envs import origin_v0, primordial_soup_v0
from primeval.envs.core.errors import IllegalActionError, InvalidActionTypeError
from primeval.envs.core.saved_state import StateError
from primeval.envs.origin import gamedata
from primeval.envs.origin.config import OriginConfig
from primeval.envs.origin.gamedata import OriginDataError, load_origin_data
from primeval.envs.testing.random_play import advance
from primeval.registration import make
from primeval.training import cli
from primeval.training.ppo.config import ConfigError, load_config, save_config

GAMES = {"primordial_soup": primordial_soup_v0, "origin": origin_v0}


def mid_game(game: str, seed: int = 1, steps: int = 40, wrapped: bool = False):
    """A 3-player env of ``game`` some steps into a seeded game."""
    module = GAMES[game]
    env = module.env(num_players=3) if wrapped else module.raw_env(num_players=3)
    env.reset(seed=seed)
    advance(env, steps, seed)
    return env


def play_to_the_end(env, seed: int = 0) -> None:
    """Random legal actions until the rules state is over (agents not yet stepped out)."""
    rules, rng = env.unwrapped.rules, np.random.default_rng(seed)
    while not rules.is_terminal(env.unwrapped.game_state):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)
                                                ["action_mask"]))))


def files_in(folder: Path) -> dict[str, bytes | None]:
    """Every path under ``folder`` with its bytes (``None`` for folders)."""
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None)
            for p in sorted(folder.rglob("*"))}


# Actions -----------------------------------------------------------------------------------


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


# Game configs --------------------------------------------------------------------------------


BAD_GAME_CONFIGS = [
    ("primordial_soup", {"bogus": 1}, "unknown PrimordialSoupConfig field(s) ['bogus']"),
    ("primordial_soup", {"num_player": 3}, "unknown PrimordialSoupConfig field(s) "
                                           "['num_player']"),
    ("primordial_soup", {"num_players": 5}, "PrimordialSoupConfig.num_players=5 is invalid; "
                                            "allowed: 3 or 4"),
    ("primordial_soup", {"board_layout": "Z"}, "PrimordialSoupConfig.board_layout='Z'"),
    ("primordial_soup", {"start_bp": -1}, "PrimordialSoupConfig.start_bp=-1 is invalid"),
    ("primordial_soup", {"six_allows_stay": "yes"}, "PrimordialSoupConfig.six_allows_stay"),
    ("primordial_soup", {"environment_deck": [["X", 3], ["N", 4]]}, "environment_deck"),
    ("origin", {"bogus": 1}, "unknown OriginConfig field(s) ['bogus']"),
    ("origin", {"num_players": 1}, "OriginConfig.num_players=1 is invalid; allowed: 2, 3 "
                                   "or 4"),
    ("origin", {"map_file": 3}, "OriginConfig.map_file=3 is invalid"),
    ("origin", {"score_tiebreak": "yes"}, "OriginConfig.score_tiebreak='yes' is invalid"),
    ("primordial_soup", {"obs_encoder": "pixels"}, "pixels"),
    ("origin", {"obs_encoder": "planes"}, "planes"),
    ("origin", {"render_mode": "rgb"}, "unknown render_mode 'rgb'"),
    ("primordial_soup", {"max_steps": 0}, "max_steps must be a positive int or None, got 0"),
    ("origin", {"max_steps": 2.5}, "max_steps must be a positive int or None, got 2.5"),
    ("primordial_soup", {"reward_mode": "money"}, "money"),
]


@pytest.mark.parametrize(("game", "kwargs", "message"), BAD_GAME_CONFIGS,
                         ids=[f"{g}-{k}" for g, k, _ in BAD_GAME_CONFIGS])
@pytest.mark.parametrize("build", ["env", "raw_env", "registry"])
def test_bad_game_config(game, kwargs, message, build):
    """Unknown fields and bad values: a ValueError naming the field (and what is allowed),
    through ``env()``, ``raw_env()`` and the registered id."""
    module = GAMES[game]
    factory = {"env": module.env, "raw_env": module.raw_env,
               "registry": lambda **kw: make(f"primeval/{game}-v0", **kw)}[build]
    with pytest.raises(ValueError) as err:
        factory(**kwargs)
    assert message in str(err.value)


# Origin data files ---------------------------------------------------------------------------

DATA = Path(gamedata.__file__).parent / "data"


def shipped(name: str):
    return yaml.safe_load((DATA / f"{name}.yaml").read_text(encoding="utf-8"))


def _extra_key(raw):
    raw["rivers"] = {"Nile": ["AF0", "AF2"]}


def _dangling_land_edge(raw):
    raw["land_edges"]["AF"].append("AF1-XX9")


def _dangling_strait(raw):
    raw["straits"]["S4"] = ["EU12", "ZZ1"]


def _two_origins(raw):
    raw["territories"]["AF1"] = ["AF", "origin", "Second Origin"]


def _territory_without_colour(raw):
    raw["territories"]["AF1"] = ["AF", "Maghreb"]


def _card_with_unknown_key(raw):
    raw["yellow"][0]["cost"] = 2


def _effect_with_unknown_parameter(raw):
    raw["yellow"][2]["effect"]["bonus"] = 1  # Y3 range_bonus takes only 'amount'


def _objective_with_a_level(raw):
    raw["purple"][0]["level"] = 2  # only orange cards have a level


def _unknown_deck(raw):
    raw["green"] = []


def _thirteen_yellow(raw):
    raw["yellow"].pop()


def _twenty_one_purple(raw):
    raw["purple"].append({"id": "O21", "points": 2,
                          "condition": {"kind": "continents_present", "count": 5}})


def _objective_on_a_missing_continent(raw):
    raw["purple"][4]["condition"]["continent"] = "ATLANTIS"


def _components_unknown_key(raw):
    raw["bonus_tiles"] = 3


def _too_few_hunting_tokens(raw):
    raw["hunting_tokens"].pop()


BROKEN_DATA = [
    ("map", "missing", None, "cannot read the file"),
    ("map", "bad_yaml", "territories: [AF0, {unclosed\n", "not valid YAML"),
    ("map", "unknown_key", _extra_key, "top level: unknown key(s) ['rivers']"),
    ("map", "dangling_land_edge", _dangling_land_edge,
     "land edge 'AF1-XX9': unknown territory 'XX9'"),
    ("map", "dangling_strait", _dangling_strait, "strait S4: unknown territory 'ZZ1'"),
    ("map", "two_origins", _two_origins, "exactly one territory must have colour 'origin'"),
    ("map", "short_entry", _territory_without_colour,
     "territory AF1: expected [continent, colour, name]"),
    ("cards", "missing", None, "cannot read the file"),
    ("cards", "bad_yaml", "yellow:\n  - {id: Y1, name: [unclosed\n", "not valid YAML"),
    ("cards", "unknown_card_key", _card_with_unknown_key,
     "card Y1: unknown key(s) ['cost']; allowed: ['id', 'name', 'effect']"),
    ("cards", "unknown_effect_parameter", _effect_with_unknown_parameter,
     "card Y3: unknown key(s) ['bonus']; allowed: ['kind', 'amount']"),
    ("cards", "key_of_another_colour", _objective_with_a_level,
     "card O1: unknown key(s) ['level']"),
    ("cards", "unknown_deck", _unknown_deck, "top level: unknown key(s) ['green']"),
    ("cards", "13_yellow", _thirteen_yellow, "yellow: expected 14 cards, found 13"),
    ("cards", "21_purple", _twenty_one_purple, "purple: expected 20 cards, found 21"),
    ("cards", "dangling_continent", _objective_on_a_missing_continent,
     "card O5: unknown continent 'ATLANTIS'"),
    ("components", "unknown_key", _components_unknown_key,
     "top level: unknown key(s) ['bonus_tiles']"),
    ("components", "wrong_token_count", _too_few_hunting_tokens,
     "hunting_tokens: 5 tokens for 6 green territories"),
]


@pytest.mark.parametrize(("which", "case", "edit", "message"), BROKEN_DATA,
                         ids=[f"{w}-{c}" for w, c, _, _ in BROKEN_DATA])
def test_broken_origin_data_file(tmp_path, which, case, edit, message):
    """A broken map, cards or components file: OriginDataError naming the file, the entry
    and the problem; the file is untouched and the shipped data still load."""
    path = tmp_path / f"my_{which}.yaml"
    if isinstance(edit, str):
        path.write_text(edit, encoding="utf-8")
    elif edit is not None:
        raw = shipped(which)
        edit(raw)
        path.write_text(yaml.safe_dump(raw, sort_keys=False), encoding="utf-8")
    before = files_in(tmp_path)
    default = load_origin_data(None, None, None)
    with pytest.raises(OriginDataError) as err:
        origin_v0.env(num_players=3, **{f"{which}_file": str(path)})
    assert str(err.value).startswith(f"{path}: ")
    assert message in str(err.value)
    assert files_in(tmp_path) == before
    assert OriginConfig().data is default
    assert origin_v0.raw_env(num_players=3).action_space("player_0").n == 564


# Saved states --------------------------------------------------------------------------------


def _set(key, value):
    def damage(d):
        d[key] = value
    return damage


def _delete(key):
    return lambda d: d.pop(key)


def _entry(key, value):
    def damage(d):
        d[key][d["agents"][0]] = value
    return damage


def _wrong_selection(d):
    others = [a for a in d["agents"] if a != d["agent_selection"]]
    d["agent_selection"] = others[0]


def _some_done(d):
    d["terminations"][d["agents"][1]] = True


def _break_game_state(game):
    def damage(d):
        if game == "primordial_soup":
            d["game_state"]["supply"][0] += 1  # a cube too many
        else:
            d["game_state"]["hands"][0].append(0)  # a card twice
    return damage


def _foreign(game):
    other = "origin" if game == "primordial_soup" else "primordial_soup"
    return lambda d: d.update(mid_game(other, seed=2, steps=70).get_state())


def _other_players(game):
    def damage(d):
        env = GAMES[game].raw_env(num_players=4)
        env.reset(seed=2)
        d.update(env.get_state())
    return damage


BAD_STATES = [
    ("another_game", _foreign, "(another game or another version)"),
    ("another_env_version", lambda g: lambda d: d.update(env=d["env"].replace("_v0", "_v1")),
     "_v1', this env is"),
    ("another_format_version", lambda g: _set("format_version", 2),
     "saved-state format version 2, this primeval reads 1"),
    ("another_config", _other_players, "rules config differs from this env's in "
                                       "['num_players']"),
    ("not_a_state", lambda g: _set("format", "pickle"), "not a primeval saved state"),
    ("missing_key", lambda g: _delete("rng"), "missing key(s) ['rng']"),
    ("config_not_a_dict", lambda g: _set("config", None), "'config' must be a dict"),
    ("broken_game_state", _break_game_state, "damaged game_state (ValueError"),
    ("game_state_not_a_dict", lambda g: _set("game_state", "x"), "damaged game_state"),
    ("damaged_rng", lambda g: _set("rng", {"bit_generator": "Nope"}), "damaged rng state"),
    ("agents_not_a_list", lambda g: _set("agents", "player_0"),
     "'agents' must be a list of distinct agent names"),
    ("duplicate_agents", lambda g: _set("agents", ["player_0", "player_0", "player_1"]),
     "'agents' must be a list of distinct agent names"),
    ("unknown_agent", lambda g: _set("agents", ["player_0", "player_9"]), "unknown agents"),
    ("reward_missing", lambda g: lambda d: d["rewards"].pop(d["agents"][0]),
     "'rewards' must have one entry per live agent"),
    ("reward_not_a_number", lambda g: _entry("rewards", "1.0"),
     "'rewards' values must be a finite number"),
    ("reward_nan", lambda g: _entry("cumulative_rewards", float("nan")),
     "'cumulative_rewards' values must be a finite number"),
    ("flag_not_a_bool", lambda g: _entry("terminations", "no"),
     "'terminations' values must be True or False"),
    ("info_not_a_dict", lambda g: _entry("infos", []), "'infos' values must be a dict"),
    ("unknown_selection", lambda g: _set("agent_selection", "player_9"),
     "unknown agent_selection 'player_9'"),
    ("selection_not_to_act", lambda g: _wrong_selection, "is not the player to act"),
    ("some_agents_done", lambda g: _some_done, "only some live agents are done"),
    ("negative_num_steps", lambda g: _set("num_steps", -1), "num_steps must be an int >= 0"),
    ("bool_num_steps", lambda g: _set("num_steps", True), "num_steps must be an int >= 0"),
    ("not_a_dict", lambda g: lambda d: None, "expected a dict, got list"),
]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(("case", "damage", "message"), BAD_STATES,
                         ids=[c for c, _, _ in BAD_STATES])
def test_bad_saved_state(game, case, damage, message):
    """``set_state`` refuses another game's, another version's or a damaged state with a
    StateError saying why; the env is unchanged and plays on."""
    env = mid_game(game, seed=1, steps=40)
    data = mid_game(game, seed=2, steps=70).get_state()  # a different moment of a game
    data = [data] if case == "not_a_dict" else json.loads(json.dumps(data))
    if case != "not_a_dict":
        damage(game)(data)
    before = env.get_state()
    with pytest.raises(StateError) as err:
        env.set_state(data)
    assert str(err.value).startswith("set_state: ")
    assert message in str(err.value)
    assert env.get_state() == before
    advance(env, 5)
    assert env.num_steps == 45


@pytest.mark.parametrize("game", GAMES)
def test_finished_game_with_live_flags_is_refused(game):
    """A finished game whose agents are not marked terminated is damaged."""
    source = GAMES[game].raw_env(num_players=3)
    source.reset(seed=5)
    play_to_the_end(source)
    data = source.get_state()
    data["terminations"] = dict.fromkeys(data["agents"], False)
    env = mid_game(game)
    before = env.get_state()
    with pytest.raises(StateError, match="the game is over but the live agents are not "
                                         "terminated"):
        env.set_state(data)
    assert env.get_state() == before


@pytest.mark.parametrize("game", GAMES)
def test_a_truncated_game_saved_while_agents_leave_loads(game):
    """The control of the checks above: a state saved after max_steps, while the agents
    step out one by one, loads whoever the rules would have next."""
    module = GAMES[game]
    for max_steps in range(20, 40):
        env = module.raw_env(num_players=3, max_steps=max_steps)
        env.reset(seed=0)
        advance(env, max_steps)
        env.step(None)  # player_0 leaves
        if env.possible_agents[env.rules.current_player(env.game_state)] not in env.agents:
            break
    else:
        pytest.fail("no game had its player to act leave first")
    fresh = module.raw_env(num_players=3, max_steps=max_steps)
    fresh.set_state(json.loads(json.dumps(env.get_state())))
    assert fresh.get_state() == env.get_state()
    while fresh.agents:
        fresh.step(None)


# Checkpoints ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def model_zip(tmp_path_factory):
    """A real (untrained) MaskablePPO checkpoint of 3-player Primordial Soup."""
    from sb3_contrib import MaskablePPO

    from primeval.envs.games import make_raw_env as make_env
    from primeval.wrappers.single_agent import SingleAgentEnv

    env = SingleAgentEnv(make_env("primordial_soup", 3))
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64,
                        policy_kwargs={"net_arch": [8]}, device="cpu", seed=0)
    path = tmp_path_factory.mktemp("model") / "model.zip"
    model.save(path)
    return path


BAD_CHECKPOINTS = {
    "truncated": (lambda good: good[: len(good) // 2], "cannot be loaded as a MaskablePPO "
                                                       "model"),
    "garbage": (lambda good: b"\x00not a zip at all" * 100, "cannot be loaded as a "
                                                           "MaskablePPO model"),
    "empty": (lambda good: b"", "cannot be loaded as a MaskablePPO model"),
    "missing": (None, "does not exist"),
}


def bad_checkpoint(folder: Path, model_zip: Path, kind: str) -> Path:
    path = folder / f"{kind}.zip"
    make_bytes = BAD_CHECKPOINTS[kind][0]
    if make_bytes is not None:
        path.write_bytes(make_bytes(model_zip.read_bytes()))
    return path


@pytest.mark.parametrize("kind", BAD_CHECKPOINTS)
def test_bad_checkpoint_to_evaluate(tmp_path, model_zip, kind, capsys):
    """``primeval evaluate`` with a corrupt, truncated, empty or missing checkpoint: exit 2,
    one line naming the file and the problem; no output file is written."""
    path = bad_checkpoint(tmp_path, model_zip, kind)
    before = files_in(tmp_path)
    code = cli.main(["evaluate", "--game", "primordial_soup", "--players", "3", "--agents",
                     f"ppo:{path}", "random", "random", "--games", "2", "--quiet",
                     "--json", str(tmp_path / "out.json"),
                     "--record", str(tmp_path / "games.jsonl")])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"primeval evaluate: error: checkpoint {path} ")
    assert BAD_CHECKPOINTS[kind][1] in err
    assert files_in(tmp_path) == before


def test_checkpoint_of_another_game_to_evaluate(tmp_path, model_zip, capsys):
    """A sound checkpoint of another game: exit 2 naming the shapes; nothing written."""
    before = files_in(tmp_path)
    code = cli.main(["evaluate", "--game", "origin", "--players", "3", "--agents",
                     f"ppo:{model_zip}", "random", "random", "--games", "2", "--quiet",
                     "--json", str(tmp_path / "out.json")])
    assert code == 2
    assert "expects observations of shape" in capsys.readouterr().err
    assert files_in(tmp_path) == before


@pytest.mark.parametrize("kind", ["truncated", "garbage"])
def test_bad_checkpoint_to_play(tmp_path, model_zip, kind, capsys, monkeypatch):
    """``primeval play`` with a bad opponent checkpoint: exit 2 naming the file, before the
    game starts (no input is read)."""
    import io

    path = bad_checkpoint(tmp_path, model_zip, kind)
    before = files_in(tmp_path)
    stdin = io.StringIO("1\n" * 50)
    monkeypatch.setattr("sys.stdin", stdin)
    code = cli.main(["play", "--game", "primordial_soup", "--players", "3", "--opponents",
                     f"ppo:{path}", "--seed", "0"])
    assert code == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"primeval play: error: checkpoint {path} cannot be "
                                   "loaded as a MaskablePPO model")
    assert stdin.tell() == 0 and "Your decision" not in captured.out
    assert files_in(tmp_path) == before


def run_folder(tmp_path: Path, checkpoint: bytes, encoder: str = "flat") -> Path:
    """A run folder of 3-player Primordial Soup as ``primeval train`` leaves it, with
    ``checkpoint`` as latest.zip."""
    run = tmp_path / "run"
    for sub in ("checkpoints", "snapshots", "tb"):
        (run / sub).mkdir(parents=True)
    config = load_config("configs/primordial_soup/default.yaml", players=3, encoder=encoder,
                         n_envs=1, total_steps=4096, torch_threads=1,
                         **{"ppo.n_steps": 64, "ppo.batch_size": 64, "network.net_arch": [8]})
    save_config(config, run / "config.yaml")
    (run / "checkpoints" / "latest.zip").write_bytes(checkpoint)
    (run / "checkpoints" / "progress.json").write_text('{"num_timesteps": 2048}')
    (run / "metrics.csv").write_text("step,wall_seconds\n2048,1.0\n")
    return run


RESUME_CASES = {
    "truncated": (lambda good: good[: len(good) // 2], "flat"),
    "garbage": (lambda good: b"PK\x03\x04 not really a zip", "flat"),
    "another_encoder": (lambda good: good, "planes"),  # a sound model of the flat encoder
}


@pytest.mark.parametrize("kind", RESUME_CASES)
def test_bad_checkpoint_to_resume(tmp_path, model_zip, kind, capsys):
    """``primeval train --resume`` with a bad latest.zip: exit 2 naming the run and the
    checkpoint; nothing in the run folder changes."""
    make_bytes, encoder = RESUME_CASES[kind]
    run = run_folder(tmp_path, make_bytes(model_zip.read_bytes()), encoder)
    before = files_in(run)
    code = cli.main(["train", "--resume", str(run), "--quiet"])
    assert code == 2
    err = capsys.readouterr().err
    latest = run / "checkpoints" / "latest.zip"
    assert f"primeval train: error: --resume {run}: checkpoint {latest} cannot be loaded" \
        in err
    assert files_in(run) == before


def test_failed_resume_leaves_the_config_alone(tmp_path, model_zip, capsys):
    run = run_folder(tmp_path, model_zip.read_bytes()[:100])
    before = files_in(run)
    assert cli.main(["train", "--resume", str(run), "--total-steps", "8192", "--quiet"]) == 2
    assert files_in(run) == before


# Training configs ----------------------------------------------------------------------------

BAD_TRAINING_CONFIGS = [
    ("bogus: 1\n", "unknown key(s) ['bogus']"),
    ("ppo: {lr: 0.1}\n", "ppo: unknown key(s) ['lr']"),
    ("total_steps: many\n", "total_steps: expected int, got 'many' (str)"),
    ("total_steps: 100000.0\n", "total_steps: expected int, got 100000.0 (float)"),
    ("n_envs: true\n", "n_envs: expected int, got True (bool)"),
    ("seed: null\n", "seed: expected int, got None (NoneType)"),
    ("game: 3\n", "game: expected str, got 3 (int)"),
    ("ppo: [1, 2]\n", "ppo: expected a mapping, got list"),
    ("network: {net_arch: 256}\n", "network.net_arch: expected a list of positive ints"),
    ("ppo: {learning_rate: fast}\n", "ppo.learning_rate: expected float, got 'fast'"),
    ("env: [finish_zone_start]\n", "env: expected dict, got ['finish_zone_start'] (list)"),
    ("- game\n- origin\n", "expected a mapping at the top level"),
    ("game: [unclosed\n", "not valid YAML"),
    ("ppo: {n_steps: 0}\n", "ppo: n_steps=0: must be > 0"),
    ("ppo: {gamma: 1.5}\n", "ppo: gamma=1.5: must be in (0, 1]"),
    ("eval: {games: 0}\n", "eval: games=0: must be > 0"),
    ("seed: -1\n", "seed=-1: must be >= 0"),
    ("env: {bogus_rule: 1}\n", "env: unknown PrimordialSoupConfig field(s) ['bogus_rule']"),
    ("env: {finish_zone_start: 2}\n", "env: PrimordialSoupConfig.finish_zone_start=2 is "
                                      "invalid"),
]


@pytest.mark.parametrize(("text", "message"), BAD_TRAINING_CONFIGS,
                         ids=[t.strip() for t, _ in BAD_TRAINING_CONFIGS])
def test_bad_training_config(tmp_path, text, message):
    """A YAML config with unknown keys, wrong types or bad values: ConfigError naming the
    file and the key; the file is untouched."""
    path = tmp_path / "train.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(err.value).startswith(f"{path}: ")
    assert message in str(err.value)
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize(("text", "message"), [BAD_TRAINING_CONFIGS[i] for i in (0, 2, 13, 17)])
def test_bad_training_config_through_the_cli(tmp_path, text, message, capsys):
    """``primeval train --config bad.yaml``: exit 2 with the message; no run folder."""
    path = tmp_path / "train.yaml"
    path.write_text(text, encoding="utf-8")
    before = files_in(tmp_path)
    assert cli.main(["train", "--config", str(path), "--out", str(tmp_path / "run")]) == 2
    assert message in capsys.readouterr().err
    assert files_in(tmp_path) == before


def test_the_shipped_training_configs_still_load():
    """The control: the range checks accept the shipped configs and an env section."""
    for game in GAMES:
        assert load_config(f"configs/{game}/default.yaml").game == game
    config = load_config("configs/primordial_soup/default.yaml",
                         env={"finish_zone_start": 41})
    assert config.env == {"finish_zone_start": 41}
