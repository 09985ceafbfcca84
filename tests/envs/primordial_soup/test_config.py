"""The Primordial Soup rules configuration (primordial_soup.md "Config fields").

Every field: its default follows the rules reference, every bad value raises a ``ValueError``
naming the field and the allowed values, the config is frozen and survives
``to_dict``/``from_dict``, and every board layout is a connected soup of 19 spaces around the
island.
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from primeval.envs.primordial_soup.config import PrimordialSoupConfig
from primeval.envs.primordial_soup.data import (
    BOARD_LAYOUTS,
    DIRECTION_DELTA,
    EAST,
    NORTH,
    SOUTH,
    WEST,
)
from primeval.envs.primordial_soup.rules import PrimordialSoupRules

FIELDS = {f.name for f in dataclasses.fields(PrimordialSoupConfig)}

#: The proposed deck of primordial_soup.md "Environment cards", card by card.
SPEC_DECK = (
    ("none", 10), ("W", 6), ("N", 8), ("E", 12), ("S", 9), ("W", 11),
    ("E", 13), ("N", 7), ("S", 14), ("E", 10), ("W", 12),
)

#: Every field's default per primordial_soup.md "Config fields" (and the sections it
#: points to).
SPEC_DEFAULTS = {
    "num_players": 4,
    "board_layout": "A",
    "environment_deck": SPEC_DECK,
    "finish_zone_start": 42,
    "six_allows_stay": True,
    "start_bp": 4,
    "income_bp": 10,
    "division_cost": 6,
    "division_cost_with_rate": 4,
    "move_cost": 1,
    "cubes_per_colour": 55,
    "setup_cubes_per_space": 2,
    "excretion_cubes": 2,
    "death_damage": 2,
    "death_damage_longevity": 3,
    "natural_death_cubes": 2,
    "violent_death_cubes": 1,
    "aggression_kill_cubes": 2,
    "first_start_amoeba_damage": None,
    "tentacle_max_cubes": None,
    "parasitism_requires_shortage": False,
    "holding_follows_own": False,
    "relocated_amoeba_feeds": False,
    "holding_tentacle": True,
    "escape_after_lost_defense": True,
    "armor_with_both": "return_both",
    "start_order_dice": 2,
    "max_amoebas": 7,
}


# Defaults --------------------------------------------------------------------------------------


def test_every_field_has_a_spec_default_listed():
    """primordial_soup.md "Config fields": the test table covers every config field (a new field
    needs a default here)."""
    assert set(SPEC_DEFAULTS) == FIELDS


@pytest.mark.parametrize("name", sorted(SPEC_DEFAULTS))
def test_default_matches_spec(name):
    """primordial_soup.md "Config fields": each default is the rulebook value or the proposed
    default."""
    assert getattr(PrimordialSoupConfig(), name) == SPEC_DEFAULTS[name]


def test_default_environment_deck_is_the_spec_proposal():
    """primordial_soup.md "Environment cards": 11 cards, exactly one without drift, N x2 E x3 S
    x2 W x3, ozone 6..14."""
    deck = PrimordialSoupConfig().environment_deck
    assert len(deck) == 11
    drifts = [d for d, _ in deck]
    assert {d: drifts.count(d) for d in set(drifts)} == {"none": 1, "N": 2, "E": 3, "S": 2, "W": 3}
    assert sorted(o for _, o in deck) == [6, 7, 8, 9, 10, 10, 11, 12, 12, 13, 14]


@pytest.mark.parametrize(("players", "start_damage", "tentacle"), [(4, 1, 3), (3, 0, 2)])
def test_player_count_dependent_defaults(players, start_damage, tentacle):
    """primordial_soup.md "Setup" and "Config fields": first start amoeba 1 DP with 4 players, 0
    with 3; Tentacle takes 3 cubes (2 with 3 players)."""
    config = PrimordialSoupConfig(num_players=players)
    assert config.start_damage == start_damage
    assert config.tentacle_limit == tentacle


def test_rulebook_overrides_of_derived_values():
    """primordial_soup.md "Config fields": ``None`` means the rulebook value; an int replaces it."""
    config = PrimordialSoupConfig(num_players=3, first_start_amoeba_damage=1,
                                  tentacle_max_cubes=3)
    assert config.start_damage == 1
    assert config.tentacle_limit == 3


def test_max_rounds_follows_the_deck():
    """primordial_soup.md "Environment cards": one card at setup and one per round, so 11 cards
    give at most 10 rounds."""
    assert PrimordialSoupConfig().max_rounds == 10
    assert PrimordialSoupConfig(environment_deck=(("N", 5),) * 4).max_rounds == 3


def test_finish_zone_alternative_41():
    """primordial_soup.md "The scoring ladder": the finish zone starts at 42; 41 is the
    configurable alternative."""
    assert PrimordialSoupConfig(finish_zone_start=41).finish_zone_start == 41


def test_environment_deck_given_as_lists_is_normalised():
    """primordial_soup.md "Environment cards" (configurable deck): lists of lists (as from
    JSON/YAML) become tuples."""
    config = PrimordialSoupConfig(environment_deck=[["N", 7], ["none", 9]])
    assert config.environment_deck == (("N", 7), ("none", 9))
    hash(config)


# Bad values ------------------------------------------------------------------------------------

#: (field, bad value, a fragment of the allowed values the message must list).
BAD_VALUES = [
    ("num_players", 2, "3 or 4"),
    ("num_players", 5, "3 or 4"),
    ("num_players", 3.0, "3 or 4"),
    ("num_players", True, "3 or 4"),
    ("num_players", "4", "3 or 4"),
    ("board_layout", "C", "'A', 'B', 'A_mirror', 'B_mirror'"),
    ("board_layout", "a", "'A', 'B', 'A_mirror', 'B_mirror'"),
    ("board_layout", None, "'A', 'B', 'A_mirror', 'B_mirror'"),
    ("board_layout", ["A"], "'A', 'B', 'A_mirror', 'B_mirror'"),
    ("environment_deck", (), "at least 2"),
    ("environment_deck", (("N", 6),), "at least 2"),
    ("environment_deck", "N6N7", "at least 2"),
    ("environment_deck", None, "at least 2"),
    ("environment_deck", {"N": 6, "S": 7}, "at least 2"),
    ("environment_deck", (("X", 6), ("N", 7)), "drift in ('W', 'N', 'E', 'S', 'none')"),
    ("environment_deck", (("north", 6), ("N", 7)), "drift in"),
    ("environment_deck", ((["N"], 6), ("N", 7)), "drift in"),
    ("environment_deck", (("N", -1), ("N", 7)), "ozone an int >= 0"),
    ("environment_deck", (("N", 6.5), ("N", 7)), "ozone an int >= 0"),
    ("environment_deck", (("N", "6"), ("N", 7)), "ozone an int >= 0"),
    ("environment_deck", (("N", True), ("N", 7)), "ozone an int >= 0"),
    ("environment_deck", (("N",), ("N", 7)), "(drift, ozone)"),
    ("environment_deck", (("N", 6, 1), ("N", 7)), "(drift, ozone)"),
    ("environment_deck", ("N6", ("N", 7)), "(drift, ozone)"),
    ("finish_zone_start", 4, "an int >= 5"),
    ("finish_zone_start", 42.0, "an int >= 5"),
    ("finish_zone_start", "42", "an int >= 5"),
    ("finish_zone_start", None, "an int >= 5"),
    ("six_allows_stay", 1, "True or False"),
    ("six_allows_stay", "yes", "True or False"),
    ("start_bp", -1, "an int >= 0"),
    ("start_bp", 4.0, "an int >= 0"),
    ("income_bp", -1, "an int >= 0"),
    ("income_bp", False, "an int >= 0"),
    ("division_cost", -1, "an int >= 0"),
    ("division_cost_with_rate", -1, "an int >= 0"),
    ("move_cost", -1, "an int >= 0"),
    ("move_cost", 0.5, "an int >= 0"),
    ("cubes_per_colour", 0, "an int >= 1"),
    ("cubes_per_colour", "55", "an int >= 1"),
    ("setup_cubes_per_space", -1, "an int >= 0"),
    ("setup_cubes_per_space", 3, "at most cubes_per_colour / number of spaces"),
    ("excretion_cubes", -1, "an int >= 0"),
    ("death_damage", 0, "an int >= 1"),
    ("death_damage_longevity", 0, "an int >= 1"),
    ("natural_death_cubes", -1, "an int >= 0"),
    ("violent_death_cubes", -1, "an int >= 0"),
    ("aggression_kill_cubes", -1, "an int >= 0"),
    ("first_start_amoeba_damage", -1, "None (rulebook value) or an int >= 0"),
    ("first_start_amoeba_damage", 1.0, "None (rulebook value) or an int >= 0"),
    ("tentacle_max_cubes", -1, "None (rulebook value) or an int >= 0"),
    ("tentacle_max_cubes", 4, "None or an int from 0 to 3"),
    ("parasitism_requires_shortage", 0, "True or False"),
    ("holding_follows_own", "no", "True or False"),
    ("relocated_amoeba_feeds", None, "True or False"),
    ("holding_tentacle", 1, "True or False"),
    ("escape_after_lost_defense", "yes", "True or False"),
    ("armor_with_both", "return_one", "'return_both'"),
    ("armor_with_both", ["return_both"], "'return_both'"),
    ("start_order_dice", 0, "an int >= 1"),
    ("max_amoebas", 0, "an int from 1 to 7"),
    ("max_amoebas", 8, "an int from 1 to 7"),
    ("max_amoebas", 7.0, "an int from 1 to 7"),
]


def test_every_field_has_bad_values_tested():
    """primordial_soup.md "Config fields": every field is validated (the table below covers them
    all)."""
    assert {name for name, _, _ in BAD_VALUES} == FIELDS


@pytest.mark.parametrize("build", ["constructor", "from_overrides"])
@pytest.mark.parametrize(("name", "value", "allowed"), BAD_VALUES,
                         ids=[f"{n}={v!r}" for n, v, _ in BAD_VALUES])
def test_bad_value_raises_value_error_naming_field_and_allowed(build, name, value, allowed):
    """primordial_soup.md "Config fields": a bad value raises ValueError naming the field and
    what is allowed (wrong type, out of range, unknown layout, malformed deck)."""
    make = PrimordialSoupConfig if build == "constructor" else PrimordialSoupConfig.from_overrides
    with pytest.raises(ValueError) as err:
        make(**{name: value})
    message = str(err.value)
    assert f"PrimordialSoupConfig.{name}=" in message
    assert "allowed:" in message
    assert allowed in message


def test_too_few_cubes_for_the_setup_names_the_setup_field():
    """primordial_soup.md "Setup": 19 spaces x 2 cubes need 38 of each colour; fewer cannot be
    set up."""
    with pytest.raises(ValueError, match="setup_cubes_per_space.*cubes_per_colour"):
        PrimordialSoupConfig(cubes_per_colour=37)
    assert PrimordialSoupConfig(cubes_per_colour=38).cubes_per_colour == 38


def test_unknown_field_name_is_rejected_by_from_overrides():
    """Config validation: an unknown field name raises ValueError naming it and the known fields."""
    with pytest.raises(ValueError) as err:
        PrimordialSoupConfig.from_overrides(num_player=4)
    message = str(err.value)
    assert "num_player'" in message
    assert "known fields" in message
    assert all(name in message for name in FIELDS)


def test_unknown_field_name_is_rejected_by_the_rules_object():
    """Rules layer: keyword overrides to the rules object go through the same validation."""
    with pytest.raises(ValueError, match="unknown PrimordialSoupConfig field"):
        PrimordialSoupRules(finish_zone=41)
    with pytest.raises(ValueError, match="num_players"):
        PrimordialSoupRules(num_players=2)


def test_unknown_field_name_is_rejected_by_from_dict():
    """Config validation: ``from_dict`` validates like ``from_overrides``."""
    d = PrimordialSoupConfig().to_dict()
    d["gene_table"] = "custom"
    with pytest.raises(ValueError, match="gene_table"):
        PrimordialSoupConfig.from_dict(d)


# Frozen, serialisation -------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SPEC_DEFAULTS))
def test_config_is_frozen(name):
    """Config validation: frozen config dataclass; no field can be reassigned."""
    config = PrimordialSoupConfig()
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(config, name, SPEC_DEFAULTS[name])


def test_config_is_hashable_and_compares_by_value():
    """Config validation: a frozen config is a value."""
    assert PrimordialSoupConfig() == PrimordialSoupConfig()
    assert hash(PrimordialSoupConfig()) == hash(PrimordialSoupConfig())
    assert PrimordialSoupConfig(finish_zone_start=41) != PrimordialSoupConfig()


NON_DEFAULT = dict(
    num_players=3,
    board_layout="B_mirror",
    environment_deck=(("none", 5), ("E", 9), ("S", 11)),
    finish_zone_start=41,
    six_allows_stay=False,
    start_bp=5,
    income_bp=11,
    division_cost=5,
    division_cost_with_rate=3,
    move_cost=2,
    cubes_per_colour=60,
    setup_cubes_per_space=1,
    excretion_cubes=1,
    death_damage=3,
    death_damage_longevity=4,
    natural_death_cubes=1,
    violent_death_cubes=2,
    aggression_kill_cubes=1,
    first_start_amoeba_damage=1,
    tentacle_max_cubes=1,
    parasitism_requires_shortage=True,
    holding_follows_own=True,
    relocated_amoeba_feeds=True,
    holding_tentacle=False,
    escape_after_lost_defense=False,
    armor_with_both="return_both",
    start_order_dice=1,
    max_amoebas=5,
)


def test_non_default_example_sets_every_field():
    """primordial_soup.md "Config fields": the round-trip example below exercises every field."""
    assert set(NON_DEFAULT) == FIELDS


@pytest.mark.parametrize("overrides", [{}, NON_DEFAULT], ids=["defaults", "non_default"])
def test_to_dict_from_dict_round_trip(overrides):
    """Rules layer and data validation: the config survives to_dict/from_dict, also through JSON."""
    config = PrimordialSoupConfig(**overrides)
    d = config.to_dict()
    assert set(d) == FIELDS
    assert PrimordialSoupConfig.from_dict(d) == config
    assert PrimordialSoupConfig.from_dict(json.loads(json.dumps(d))) == config
    for name, value in overrides.items():
        assert getattr(PrimordialSoupConfig.from_dict(d), name) == value


# Board layouts (primordial_soup.md "Board layout")
# --------------------------------------------------------------

#: The adjacency table of layout A (primordial_soup.md "Board layout"): space -> (N, E, S, W),
#: -1 for an edge or the island.
SPEC_ADJACENCY_A = {
    0: (-1, -1, 2, -1), 1: (-1, 2, 6, -1), 2: (0, 3, 7, 1), 3: (-1, 4, -1, 2),
    4: (-1, 5, 8, 3), 5: (-1, -1, 9, 4), 6: (1, 7, 10, -1), 7: (2, -1, 11, 6),
    8: (4, 9, 13, -1), 9: (5, -1, 14, 8), 10: (6, 11, 15, -1), 11: (7, 12, 16, 10),
    12: (-1, 13, 17, 11), 13: (8, 14, 18, 12), 14: (9, -1, -1, 13), 15: (10, 16, -1, -1),
    16: (11, 17, -1, 15), 17: (12, 18, -1, 16), 18: (13, -1, -1, 17),
}


def test_layout_a_is_the_spec_adjacency_table():
    """primordial_soup.md "Board layout": layout A (the default) has exactly the proposed
    adjacency table."""
    board = PrimordialSoupConfig().board
    assert board.num_spaces == 19
    for space, (n, e, s, w) in SPEC_ADJACENCY_A.items():
        assert board.neighbours[space][NORTH] == n, space
        assert board.neighbours[space][EAST] == e, space
        assert board.neighbours[space][SOUTH] == s, space
        assert board.neighbours[space][WEST] == w, space
    assert board.island == (2, 2)


def _cells(layout: str) -> set[tuple[int, int]]:
    return set(PrimordialSoupConfig(board_layout=layout).board.cells)


@pytest.mark.parametrize("layout", sorted(BOARD_LAYOUTS))
def test_every_layout_is_19_connected_spaces_around_the_island(layout):
    """primordial_soup.md "The board" and "Board layout": every layout variant (A, B and the
    mirrors) has 19 spaces, orthogonal adjacency only, all connected, and an island that no
    space covers and that blocks moves."""
    board = PrimordialSoupConfig(board_layout=layout).board
    assert board.num_spaces == 19
    assert len(set(board.cells)) == 19
    assert board.island not in board.cells
    # The island sits inside the soup, with a space on each of its four sides.
    ix, iy = board.island
    assert all((ix + dx, iy + dy) in board.cells for dx, dy in DIRECTION_DELTA[:4])
    # Connected through orthogonal adjacency.
    seen, frontier = {0}, [0]
    while frontier:
        for n in board.adjacent(frontier.pop()):
            if n not in seen:
                seen.add(n)
                frontier.append(n)
    assert seen == set(range(19))
    # Neighbours are orthogonal grid neighbours; edges and the island block.
    for space, (x, y) in enumerate(board.cells):
        for d, (dx, dy) in enumerate(DIRECTION_DELTA[:4]):
            target = (x + dx, y + dy)
            expected = board.cells.index(target) if target in board.cells else -1
            assert board.neighbours[space][d] == expected


def test_layout_b_is_a_turned_180_degrees():
    """primordial_soup.md "Board layout": layout B is S7's drawing, layout A turned by 180
    degrees; the mirrors are the west-east reflections."""
    a = _cells("A")
    assert _cells("B") == {(4 - x, 4 - y) for x, y in a}
    assert _cells("A_mirror") == {(4 - x, y) for x, y in a}
    assert _cells("B_mirror") == {(x, 4 - y) for x, y in a}
    assert len({frozenset(_cells(name)) for name in BOARD_LAYOUTS}) == 4


@pytest.mark.parametrize("layout", sorted(BOARD_LAYOUTS))
def test_every_layout_plays(layout):
    """primordial_soup.md "Board layout": a game can be set up on every layout variant."""
    rules = PrimordialSoupRules(board_layout=layout)
    state = rules.initial_state(np.random.default_rng(1))
    assert len(state.cubes) == 19
    assert rules.legal_actions(state)
