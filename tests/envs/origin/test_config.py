"""The Origin rules configuration (origin.md "Setup", "End of the game" and "Config fields and
data files").

Every field: its default follows the rules reference, every bad value raises a ``ValueError``
naming the field and the allowed values, unknown field names are rejected, the config is frozen
and survives ``to_dict``/``from_dict`` (also through JSON), and the values reach the rules.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
import yaml

from primeval.envs.origin import gamedata
from primeval.envs.origin.config import OriginConfig
from primeval.envs.origin.gamedata import OriginDataError
from primeval.envs.origin.rules import OriginRules

FIELDS = {f.name for f in dataclasses.fields(OriginConfig)}

#: Every field's default (origin.md "Config fields and data files": random start player
#: for RL, the adopted final round, the tie-break, the shipped data files).
SPEC_DEFAULTS = {
    "num_players": 3,
    "map_file": None,
    "cards_file": None,
    "components_file": None,
    "final_round_starts_with_trigger": False,
    "random_start_player": True,
    "score_tiebreak": True,
}

BAD_VALUES = [
    ("num_players", 1, "2, 3 or 4"),
    ("num_players", 5, "2, 3 or 4"),
    ("num_players", 0, "2, 3 or 4"),
    ("num_players", True, "2, 3 or 4"),
    ("num_players", "3", "2, 3 or 4"),
    ("num_players", 3.0, "2, 3 or 4"),
    ("num_players", None, "2, 3 or 4"),
    ("map_file", 3, "None or a path string"),
    ("map_file", ["map.yaml"], "None or a path string"),
    ("cards_file", b"cards.yaml", "None or a path string"),
    ("components_file", 0, "None or a path string"),
    ("final_round_starts_with_trigger", 1, "True or False"),
    ("final_round_starts_with_trigger", "yes", "True or False"),
    ("random_start_player", None, "True or False"),
    ("random_start_player", 0, "True or False"),
    ("score_tiebreak", "False", "True or False"),
]


def test_every_field_has_a_spec_default_listed():
    """Config validation: the table above lists every field."""
    assert set(SPEC_DEFAULTS) == FIELDS


@pytest.mark.parametrize("name", sorted(SPEC_DEFAULTS))
def test_default_matches_spec(name):
    """origin.md "Setup", "End of the game", "Final scoring" and "Config fields and data files":
    the defaults are the adopted readings."""
    assert getattr(OriginConfig(), name) == SPEC_DEFAULTS[name]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_player_count_is_accepted(players):
    """origin.md "Player counts and variants": Origin is for 2 to 4 players."""
    assert OriginConfig(num_players=players).num_players == players
    assert OriginRules(num_players=players).num_players == players


# Bad values ----------------------------------------------------------------------------------


def test_every_field_has_bad_values_tested():
    """Config validation: every field is validated (the table covers them all)."""
    assert {name for name, _, _ in BAD_VALUES} == FIELDS


@pytest.mark.parametrize("build", ["constructor", "from_overrides"])
@pytest.mark.parametrize(("name", "value", "allowed"), BAD_VALUES,
                         ids=[f"{n}={v!r}" for n, v, _ in BAD_VALUES])
def test_bad_value_raises_value_error_naming_field_and_allowed(build, name, value, allowed):
    """Config validation: a bad value raises ValueError naming the field and what is allowed."""
    make = OriginConfig if build == "constructor" else OriginConfig.from_overrides
    with pytest.raises(ValueError) as err:
        make(**{name: value})
    message = str(err.value)
    assert f"OriginConfig.{name}=" in message
    assert "allowed:" in message
    assert allowed in message


def test_a_bad_data_file_is_a_value_error_naming_the_file(tmp_path):
    """Data validation: a data file path that does not load raises a ValueError (OriginDataError)
    naming the file."""
    path = str(tmp_path / "missing_map.yaml")
    with pytest.raises(OriginDataError, match="missing_map.yaml"):
        OriginConfig(map_file=path)
    with pytest.raises(ValueError, match="missing_map.yaml"):
        OriginConfig.from_overrides(map_file=path)


def test_unknown_field_name_is_rejected_by_from_overrides():
    """Config validation: an unknown field name raises ValueError naming it and the known fields."""
    with pytest.raises(ValueError) as err:
        OriginConfig.from_overrides(num_player=4)
    message = str(err.value)
    assert "num_player'" in message
    assert "known fields" in message
    assert all(name in message for name in FIELDS)


def test_unknown_field_name_is_rejected_by_the_rules_object():
    """Rules layer: keyword overrides to the rules object go through the same validation."""
    with pytest.raises(ValueError, match="unknown OriginConfig field.*'map'"):
        OriginRules(map="world.yaml")
    with pytest.raises(ValueError, match="num_players"):
        OriginRules(num_players=5)


def test_rules_take_a_config_or_overrides_not_both():
    """Rules layer: a config object and keyword overrides together are ambiguous."""
    with pytest.raises(ValueError, match="not both"):
        OriginRules(OriginConfig(), num_players=2)


def test_unknown_field_name_is_rejected_by_from_dict():
    """Config validation: ``from_dict`` validates like ``from_overrides``."""
    d = OriginConfig().to_dict()
    d["junior_rules"] = True
    with pytest.raises(ValueError, match="junior_rules"):
        OriginConfig.from_dict(d)


# Frozen, serialisation ------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SPEC_DEFAULTS))
def test_config_is_frozen(name):
    """Config validation: frozen config dataclass; no field can be reassigned."""
    config = OriginConfig()
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(config, name, SPEC_DEFAULTS[name])


def test_config_is_hashable_and_compares_by_value():
    """Config validation: a frozen config is a value (the loaded data is not part of it)."""
    assert OriginConfig() == OriginConfig()
    assert hash(OriginConfig()) == hash(OriginConfig())
    assert OriginConfig(num_players=4) != OriginConfig()


def write_shipped_copies(tmp_path: Path) -> dict[str, str]:
    data = Path(gamedata.__file__).parent / "data"
    files = {}
    for name in ("map", "cards", "components"):
        path = tmp_path / f"my_{name}.yaml"
        path.write_text(yaml.safe_dump(yaml.safe_load((data / f"{name}.yaml").read_text())))
        files[f"{name}_file"] = str(path)
    return files


def non_default(tmp_path: Path) -> dict:
    return dict(num_players=4, final_round_starts_with_trigger=True,
                random_start_player=False, score_tiebreak=False,
                **write_shipped_copies(tmp_path))


def test_non_default_example_sets_every_field(tmp_path):
    """Config validation: the round-trip example below exercises every field."""
    assert set(non_default(tmp_path)) == FIELDS
    assert all(non_default(tmp_path)[k] != v for k, v in SPEC_DEFAULTS.items())


@pytest.mark.parametrize("which", ["defaults", "non_default"])
def test_to_dict_from_dict_round_trip(tmp_path, which):
    """Rules layer and data validation: the config survives to_dict/from_dict, also through JSON."""
    overrides = {} if which == "defaults" else non_default(tmp_path)
    config = OriginConfig.from_overrides(**overrides)
    d = config.to_dict()
    assert set(d) == FIELDS
    assert OriginConfig.from_dict(d) == config
    assert OriginConfig.from_dict(json.loads(json.dumps(d))) == config
    for name, value in overrides.items():
        assert getattr(OriginConfig.from_dict(d), name) == value


def test_a_round_tripped_config_loads_the_same_files(tmp_path):
    """origin.md "Config fields and data files": data files are named by path, so a restored
    config reloads the same data."""
    config = OriginConfig(**non_default(tmp_path))
    again = OriginConfig.from_dict(json.loads(json.dumps(config.to_dict())))
    assert again.data is config.data
    assert again.data.world.size == 42


# The values reach the rules --------------------------------------------------------------------


def test_random_start_player_false_always_starts_with_player_0():
    """origin.md "Setup": ``random_start_player=False`` starts with player_0, ``True`` draws."""
    fixed = OriginRules(num_players=4, random_start_player=False)
    drawn = OriginRules(num_players=4)
    starts_fixed = {fixed.initial_state(np.random.default_rng(s)).start_player
                    for s in range(12)}
    starts_drawn = {drawn.initial_state(np.random.default_rng(s)).start_player
                    for s in range(12)}
    assert starts_fixed == {0}
    assert len(starts_drawn) > 1


def test_num_players_sets_the_seats_and_the_pawns():
    """origin.md "Pawns and villages" and "Setup": 27 pawns with 2-3 players, 36 with 4 (one
    neutral on the board)."""
    for players, pawns in ((2, 27), (3, 27), (4, 36)):
        rules = OriginRules(num_players=players)
        state = rules.initial_state(np.random.default_rng(0))
        assert state.num_players == players and len(state.villages) == players
        assert sum(state.reserve) + 1 == pawns


def test_score_tiebreak_adds_cards_in_hand_as_hundredths():
    """origin.md "Tie-break": each card in hand is worth 1 point; the tie-break (cards in hand)
    is added to ``scores`` as hundredths only with ``score_tiebreak``."""
    from tests.envs.origin.builders import give_card, table

    for tiebreak, expected in ((True, 2.02), (False, 2.0)):
        rules, state = table(score_tiebreak=tiebreak)
        give_card(rules, state, 0, "Y1")
        give_card(rules, state, 0, "Y2")
        assert rules.scores(state) == pytest.approx([expected, 0.0, 0.0])
