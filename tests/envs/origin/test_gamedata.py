"""The Origin data files (origin.md "The map", "Rewards board and innovation tiles", "Cards" and
"Tokens"): the shipped reconstruction loads with the documented counts, every inconsistency in a
user's file raises an ``OriginDataError`` naming the file and the entry, and a user's own valid
files drive the game (board size, action layout, card parameters).

Broken files are written to ``tmp_path`` (a fresh path per test, so the ``lru_cache`` of
``load_origin_data``, keyed by path, never hands back an earlier load).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import yaml

from primeval.envs.origin import gamedata
from primeval.envs.origin.config import OriginConfig
from primeval.envs.origin.gamedata import OriginDataError, load_origin_data
from primeval.envs.origin.rules import OriginRules
from primeval.envs.origin.rules.moves import move_range

DATA = Path(gamedata.__file__).parent / "data"


def shipped(name: str):
    """A shipped data file, parsed (``map``, ``cards`` or ``components``)."""
    return yaml.safe_load((DATA / f"{name}.yaml").read_text(encoding="utf-8"))


def write(tmp_path: Path, name: str, raw) -> str:
    path = tmp_path / f"{name}.yaml"
    if isinstance(raw, str):
        path.write_text(raw, encoding="utf-8")
    else:
        path.write_text(yaml.safe_dump(raw, sort_keys=False), encoding="utf-8")
    return str(path)


def fails(match_parts: list[str], **files) -> OriginDataError:
    """Load the files both ways (``load_origin_data`` and ``OriginConfig``); each must raise
    an ``OriginDataError`` whose message contains every part."""
    with pytest.raises(OriginDataError) as direct:
        load_origin_data(files.get("map_file"), files.get("cards_file"),
                         files.get("components_file"))
    with pytest.raises(ValueError) as via_config:
        OriginConfig(**files)
    for exc in (direct.value, via_config.value):
        for part in match_parts:
            assert part in str(exc), f"{part!r} not in {str(exc)!r}"
    return direct.value


# The shipped files --------------------------------------------------------------------------


def test_shipped_map_has_the_spec_counts():
    """origin.md "The map": 42 territories (Origin 1, green 6, yellow 9, orange 9, purple 8,
    brown 9), AF 8 / EU 12 / NA 7 / SA 6 / OC 5 / AN 4, 6 continents, 11 straits."""
    world = load_origin_data().world
    assert world.size == 42
    assert world.continents == ("AF", "EU", "NA", "SA", "OC", "AN")
    assert world.continent_names[1] == "Eurasia"
    assert Counter(t.colour for t in world.territories) == {
        "origin": 1, "green": 6, "yellow": 9, "orange": 9, "purple": 8, "brown": 9}
    assert Counter(t.continent for t in world.territories) == {
        "AF": 8, "EU": 12, "NA": 7, "SA": 6, "OC": 5, "AN": 4}
    assert len(world.straits) == 11 and len(world.strait_ids) == 11


def test_shipped_map_origin_and_straits_follow_the_spec():
    """origin.md "The map": AF0 is the Origin with 5 neighbours; the 11 straits join the listed ends
    and count as adjacency edges."""
    world = load_origin_data().world
    assert world.territories[world.origin].id == "AF0"
    assert len(world.neighbours[world.origin]) == 5
    ends = {sid: tuple(world.territories[i].id for i in pair)
            for sid, pair in zip(world.strait_ids, world.straits, strict=True)}
    assert ends == {
        "S1": ("AF1", "EU1"), "S2": ("AF2", "EU5"), "S3": ("AF4", "EU6"),
        "S4": ("EU12", "NA1"), "S5": ("EU3", "NA4"), "S6": ("EU11", "OC1"),
        "S7": ("NA7", "SA1"), "S8": ("SA6", "AN1"), "S9": ("AF7", "AN2"),
        "S10": ("OC3", "AN3"), "S11": ("AF3", "SA4")}
    for a, b in world.straits:
        assert b in world.neighbours[a] and a in world.neighbours[b]
        assert world.territories[a].continent != world.territories[b].continent


def test_shipped_map_is_connected_and_distances_are_consistent():
    """origin.md "The map": every territory reachable; distances symmetric; free straits
    never make a path longer."""
    world = load_origin_data().world
    d, free = world.distance, world.distance_free_straits
    assert (d <= world.size).all()
    assert (d == d.T).all() and (np.diag(d) == 0).all()
    assert (free <= d).all()
    for t, ns in enumerate(world.neighbours):
        assert all(d[t, u] == 1 for u in ns)


@pytest.mark.parametrize("free_straits", [False, True])
def test_within_reach_lists_the_other_territories_that_close(free_straits):
    """``WorldMap.within(reach, free_straits)`` (the reach of Evolve, Migrate and Swap as
    sets) is read off the distance matrices: other territories at most ``reach`` away."""
    world = load_origin_data().world
    d = world.distance_free_straits if free_straits else world.distance
    for reach in (1, 2, 3, 5):
        table = world.within(reach, free_straits)
        assert table is world.within(reach, free_straits)  # built once
        for src in range(world.size):
            assert table[src] == {t for t in range(world.size)
                                  if t != src and d[src, t] <= reach}
    if free_straits:  # across a strait is 0 steps away, so within reach 0
        a, b = world.straits[0]
        assert b in world.within(0, True)[a] and b not in world.within(0)[a]


def test_shipped_cards_are_48_with_14_14_20():
    """origin.md "Cards": 48 cards, 14 yellow, 14 orange, 20 purple, unique ids."""
    cards = load_origin_data().cards
    assert len(cards) == 48
    assert Counter(c.colour for c in cards) == {"yellow": 14, "orange": 14, "purple": 20}
    assert len({c.id for c in cards}) == 48
    assert [c.index for c in cards] == list(range(48))


def test_shipped_components_tiles_and_tokens():
    """origin.md "Pawns and villages", "Rewards board and innovation tiles" and "Tokens": 9
    villages, 27 pawn kinds, slots 3/3/3/6, 30 tiles (10/8/6/4/2), 6 hunting and 11 strait
    tokens with the proposed values, hand limit 2."""
    comps = load_origin_data().components
    assert comps.villages_per_player == 9
    assert len(comps.pawn_types) == 27
    assert comps.tile_slots == {"yellow": 3, "orange": 3, "purple": 3, "brown": 6}
    assert len(comps.slot_colours) == 15
    assert comps.innovation_tiles == {1: 10, 2: 8, 3: 6, 4: 4, 5: 2}
    assert comps.num_tiles == 30
    assert comps.tile_points == {1: 1, 2: 1, 3: 1, 4: 1, 5: 5}
    assert sorted(comps.hunting_tokens) == [2, 2, 3, 3, 4, 4]
    assert sorted(comps.strait_tokens) == [1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3]
    assert (comps.objectives_dealt, comps.objectives_kept, comps.objective_hand_limit) == (
        3, 1, 2)


def test_shipped_files_load_through_the_default_config():
    """Data validation: the data ship inside the package and the default config uses them."""
    config = OriginConfig()
    assert config.data is load_origin_data(None, None, None)
    assert config.data.world.size == 42


# Map errors ----------------------------------------------------------------------------------


def test_unknown_territory_in_a_land_edge(tmp_path):
    """Data validation: a land edge naming an unknown territory."""
    raw = shipped("map")
    raw["land_edges"]["AF"].append("AF1-XX9")
    path = write(tmp_path, "map", raw)
    fails([path, "land edge 'AF1-XX9'", "unknown territory 'XX9'"], map_file=path)


def test_unknown_territory_in_a_strait(tmp_path):
    """Data validation: a strait naming an unknown territory."""
    raw = shipped("map")
    raw["straits"]["S4"] = ["EU12", "ZZ1"]
    path = write(tmp_path, "map", raw)
    fails([path, "strait S4", "unknown territory 'ZZ1'"], map_file=path)


def test_a_strait_to_itself(tmp_path):
    """Data validation: a strait whose two ends are the same territory."""
    raw = shipped("map")
    raw["straits"]["S1"] = ["AF1", "AF1"]
    path = write(tmp_path, "map", raw)
    fails([path, "strait S1", "from AF1 to itself"], map_file=path)


def test_a_land_edge_to_itself(tmp_path):
    """Data validation: a land edge from a territory to itself."""
    raw = shipped("map")
    raw["land_edges"]["OC"].append("OC2-OC2")
    path = write(tmp_path, "map", raw)
    fails([path, "land edge 'OC2-OC2'", "to itself"], map_file=path)


def test_a_duplicate_strait(tmp_path):
    """Data validation: two straits between the same territories."""
    raw = shipped("map")
    raw["straits"]["S12"] = ["EU1", "AF1"]
    path = write(tmp_path, "map", raw)
    fails([path, "strait S12", "duplicate strait"], map_file=path)


def test_a_disconnected_map(tmp_path):
    """Data validation (graph connectivity): without its three straits Antarctica is cut off."""
    raw = shipped("map")
    for sid in ("S8", "S9", "S10"):
        del raw["straits"][sid]
    path = write(tmp_path, "map", raw)
    err = fails([path, "disconnected", "cannot be reached from AF0"], map_file=path)
    assert all(t in str(err) for t in ("AN1", "AN2", "AN3", "AN4"))
    assert "AF1" not in str(err)


def test_a_territory_on_an_unknown_continent(tmp_path):
    """Data validation: a territory whose continent is not declared."""
    raw = shipped("map")
    raw["territories"]["AF1"] = ["XX", "yellow", "Maghreb"]
    path = write(tmp_path, "map", raw)
    fails([path, "territory AF1", "unknown continent 'XX'"], map_file=path)


def test_land_edges_under_an_unknown_continent(tmp_path):
    """Data validation: land edges grouped under an undeclared continent."""
    raw = shipped("map")
    raw["land_edges"]["ATL"] = raw["land_edges"].pop("OC")
    path = write(tmp_path, "map", raw)
    fails([path, "land_edges ATL", "unknown continent 'ATL'"], map_file=path)


def test_a_territory_of_an_unknown_colour(tmp_path):
    """origin.md "The map": territory colours are origin, green, yellow, orange, purple,
    brown."""
    raw = shipped("map")
    raw["territories"]["EU3"] = ["EU", "blue", "Scandinavia"]
    path = write(tmp_path, "map", raw)
    fails([path, "territory EU3", "unknown colour 'blue'"], map_file=path)


def test_the_origin_must_be_a_known_origin_territory(tmp_path):
    """origin.md "The map": exactly one Origin territory, named by ``origin``."""
    raw = shipped("map")
    raw["origin"] = "AF1"
    path = write(tmp_path, "map", raw)
    fails([path, "territory AF1", "must have colour 'origin'"], map_file=path)
    raw = shipped("map")
    raw["origin"] = "NOWHERE"
    path = write(tmp_path, "map_b", raw)
    fails([path, "origin", "unknown territory 'NOWHERE'"], map_file=path)


def test_a_map_without_straits_section(tmp_path):
    """Data validation: a missing top-level key is named."""
    raw = shipped("map")
    del raw["straits"]
    path = write(tmp_path, "map", raw)
    fails([path, "top level", "missing 'straits'"], map_file=path)


# Card errors ---------------------------------------------------------------------------------


def test_wrong_card_counts(tmp_path):
    """origin.md "Cards": 14 yellow cards are required."""
    raw = shipped("cards")
    raw["yellow"].pop()
    path = write(tmp_path, "cards", raw)
    fails([path, "yellow", "expected 14 cards, found 13"], cards_file=path)


def test_wrong_purple_count(tmp_path):
    """origin.md "Cards": 20 purple cards."""
    raw = shipped("cards")
    raw["purple"].append({"id": "O21", "points": 2,
                          "condition": {"kind": "continents_present", "count": 5}})
    path = write(tmp_path, "cards", raw)
    fails([path, "purple", "expected 20 cards, found 21"], cards_file=path)


def test_an_unknown_effect_kind(tmp_path):
    """Data validation (unknown ids): an effect kind the rules do not implement."""
    raw = shipped("cards")
    raw["yellow"][0]["effect"] = {"kind": "teleport"}
    path = write(tmp_path, "cards", raw)
    fails([path, "card Y1", "unknown effect kind 'teleport'"], cards_file=path)


def test_an_unknown_condition_kind(tmp_path):
    """Data validation: an objective condition kind the rules do not implement."""
    raw = shipped("cards")
    raw["purple"][3]["condition"] = {"kind": "pawns_in_the_sea", "count": 2}
    path = write(tmp_path, "cards", raw)
    fails([path, "card O4", "unknown condition kind 'pawns_in_the_sea'"], cards_file=path)


def test_an_orange_effect_kind_is_not_a_yellow_one(tmp_path):
    """origin.md "Cards": yellow kinds are one-shot, orange kinds lasting; ``hunt_draw`` is
    orange."""
    raw = shipped("cards")
    raw["yellow"][4]["effect"] = {"kind": "hunt_draw"}
    path = write(tmp_path, "cards", raw)
    fails([path, "card Y5", "unknown effect kind 'hunt_draw'"], cards_file=path)


@pytest.mark.parametrize(("colour", "k", "card", "param"), [
    ("yellow", 2, "Y3", "amount"),
    ("orange", 12, "P13", "points"),
    ("purple", 4, "O5", "continent"),
])
def test_a_missing_effect_parameter(tmp_path, colour, k, card, param):
    """Data validation: an effect kind without one of its parameters."""
    raw = shipped("cards")
    key = "condition" if colour == "purple" else "effect"
    del raw[colour][k][key][param]
    kind = raw[colour][k][key]["kind"]
    path = write(tmp_path, "cards", raw)
    fails([path, f"card {card}", f"{kind} needs parameter(s) ['{param}']"], cards_file=path)


def test_a_bad_effect_parameter_value(tmp_path):
    """Data validation: numeric parameters are ints >= 0; extra_action names an action."""
    raw = shipped("cards")
    raw["yellow"][2]["effect"]["amount"] = -1
    path = write(tmp_path, "cards", raw)
    fails([path, "card Y3", "amount must be an int >= 0"], cards_file=path)
    raw = shipped("cards")
    raw["yellow"][0]["effect"]["action"] = "fly"
    path = write(tmp_path, "cards_b", raw)
    fails([path, "card Y1", "action must be evolve, migrate or swap"], cards_file=path)


def test_duplicate_card_ids(tmp_path):
    """Data validation (unknown/duplicate ids): two cards with the same id, even across colours."""
    raw = shipped("cards")
    raw["yellow"][1]["id"] = "Y1"
    path = write(tmp_path, "cards", raw)
    fails([path, "card Y1", "duplicate card id"], cards_file=path)
    raw = shipped("cards")
    raw["orange"][0]["id"] = "Y7"
    path = write(tmp_path, "cards_b", raw)
    fails([path, "card Y7", "duplicate card id"], cards_file=path)


def test_an_objective_on_an_unknown_continent(tmp_path):
    """Data validation: a condition naming a continent the map does not have."""
    raw = shipped("cards")
    raw["purple"][4]["condition"]["continent"] = "ATLANTIS"
    path = write(tmp_path, "cards", raw)
    fails([path, "card O5", "unknown continent 'ATLANTIS'"], cards_file=path)


def test_an_orange_card_level_out_of_range(tmp_path):
    """origin.md "Cards": the level requirement of an orange card is a tile level 1-5."""
    raw = shipped("cards")
    raw["orange"][0]["level"] = 6
    path = write(tmp_path, "cards", raw)
    fails([path, "card P1", "level must be an int 1..5"], cards_file=path)


def test_an_objective_without_points(tmp_path):
    """origin.md "Objective cards": every objective has points (a missing value is not silently
    0)."""
    raw = shipped("cards")
    del raw["purple"][0]["points"]
    path = write(tmp_path, "cards", raw)
    fails([path, "card O1", "points must be an int >= 0"], cards_file=path)


@pytest.mark.parametrize(("key", "value", "message"), [
    ("min_continents", "two", "min_continents must be an int >= 0"),
    ("same_continent", "yes", "same_continent must be true or false"),
])
def test_bad_optional_group_parameters(tmp_path, key, value, message):
    """origin.md "Objective cards" (O11/O12): the optional parameters of connected_group are
    checked too."""
    raw = shipped("cards")
    raw["purple"][11]["condition"][key] = value
    path = write(tmp_path, "cards", raw)
    fails([path, "card O12", message], cards_file=path)


# Component errors ----------------------------------------------------------------------------


def test_hunting_tokens_must_match_green_territories(tmp_path):
    """origin.md "Hunting tokens": one hunting token per green territory."""
    raw = shipped("components")
    raw["hunting_tokens"] = raw["hunting_tokens"][:5]
    path = write(tmp_path, "components", raw)
    fails([path, "hunting_tokens", "5 tokens for 6 green territories"], components_file=path)


def test_strait_tokens_must_match_straits(tmp_path):
    """origin.md "Strait tokens": one strait token per strait."""
    raw = shipped("components")
    raw["strait_tokens"] = [*raw["strait_tokens"], 4]
    path = write(tmp_path, "components", raw)
    fails([path, "strait_tokens", "12 tokens for 11 straits"], components_file=path)


def test_token_counts_follow_a_users_map(tmp_path):
    """origin.md "Tokens": the token check compares with the map given, not the shipped one."""
    raw = shipped("map")
    del raw["straits"]["S11"]
    path = write(tmp_path, "map", raw)
    fails(["components.yaml", "strait_tokens", "11 tokens for 10 straits"], map_file=path)


def test_too_few_tiles_for_the_slots(tmp_path):
    """origin.md "Rewards board and innovation tiles": the tiles must fill the 15 face-up slots."""
    raw = shipped("components")
    raw["innovation_tiles"] = {1: 4, 2: 3, 3: 3, 4: 2, 5: 2}
    path = write(tmp_path, "components", raw)
    fails([path, "innovation_tiles", "14 tiles cannot fill 15 face-up slots"],
          components_file=path)


def test_tile_levels_must_be_one_to_five(tmp_path):
    """origin.md "Rewards board and innovation tiles": tiles have levels 1-5."""
    raw = shipped("components")
    raw["innovation_tiles"][6] = 1
    path = write(tmp_path, "components", raw)
    fails([path, "innovation_tiles", "levels 1..5"], components_file=path)


def test_bad_token_values(tmp_path):
    """origin.md "Tokens": token values are ints >= 0."""
    raw = shipped("components")
    raw["strait_tokens"][0] = "three"
    path = write(tmp_path, "components", raw)
    fails([path, "strait_tokens", "ints >= 0"], components_file=path)


def test_cannot_keep_more_objectives_than_dealt(tmp_path):
    """origin.md "Setup": 3 dealt, 1 kept."""
    raw = shipped("components")
    raw["objectives_kept"] = 4
    path = write(tmp_path, "components", raw)
    fails([path, "objectives_kept", "cannot keep more objectives than are dealt"],
          components_file=path)


def test_bad_tile_points(tmp_path):
    """origin.md "Rewards board and innovation tiles" and "Final scoring": tile points are ints
    for levels 1-5."""
    raw = shipped("components")
    raw["tile_points"][5] = "five"
    path = write(tmp_path, "components", raw)
    fails([path, "tile_points", "ints >= 0"], components_file=path)


def test_a_hunting_token_worth_nothing_is_rejected(tmp_path):
    """origin.md "Hunting tokens": a hunting token is taken by the first tribe to enter; the
    state marks a token still on the board by its value, so values are >= 1."""
    raw = shipped("components")
    raw["hunting_tokens"][0] = 0
    path = write(tmp_path, "components", raw)
    fails([path, "hunting_tokens", "ints >= 1"], components_file=path)


@pytest.mark.parametrize(("key", "value", "entry"), [
    ("neutral", {"height": 4, "width": 1}, "pawns: neutral"),
    ("neutral", "small", "pawns: neutral"),
    ("extra_medium_set_players", [5], "pawns: extra_medium_set_players"),
])
def test_bad_pawn_settings(tmp_path, key, value, entry):
    """origin.md "Pawns and villages": the neutral pawn is one of the 27 kinds; the extra medium
    set is used for some player counts among 2-4."""
    raw = shipped("components")
    raw["pawns"][key] = value
    path = write(tmp_path, "components", raw)
    fails([path, entry], components_file=path)


# File errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["map", "cards", "components"])
def test_malformed_yaml(tmp_path, which):
    """Data validation: a file that is not valid YAML names the file."""
    path = write(tmp_path, which, "territories: [AF0, {unclosed\n  - : :\n")
    fails([path, "not valid YAML"], **{f"{which}_file": path})


@pytest.mark.parametrize("which", ["map", "cards", "components"])
def test_a_file_of_the_wrong_shape(tmp_path, which):
    """Data validation: valid YAML but not a mapping at the top."""
    path = write(tmp_path, which, "- just\n- a list\n")
    fails([path, "top level"], **{f"{which}_file": path})


@pytest.mark.parametrize("which", ["map", "cards", "components"])
def test_a_missing_file(tmp_path, which):
    """Data validation: a file that does not exist names the file."""
    path = str(tmp_path / "nowhere" / f"{which}.yaml")
    fails([path, "cannot read the file"], **{f"{which}_file": path})


def test_the_error_is_a_value_error():
    """Data validation: data errors are ``ValueError``s (``OriginDataError`` subclasses it)."""
    assert issubclass(OriginDataError, ValueError)


# A user's own data files --------------------------------------------------------------------

SMALL_MAP = """\
# A user's own small world: 15 territories, 7 straits, 2 green territories.
continents: {AF: Africa, EU: Eurasia, NA: North America, SA: South America, OC: Oceania,
             AN: Antarctica}
origin: A0
territories:
  A0: [AF, origin, Cradle]
  A1: [AF, yellow, North]
  A2: [AF, green, Plains]
  A3: [AF, brown, South]
  E1: [EU, orange, West]
  E2: [EU, purple, Middle]
  E3: [EU, yellow, East]
  N1: [NA, brown, Tundra]
  N2: [NA, green, Prairie]
  S1: [SA, orange, Forest]
  S2: [SA, yellow, Coast]
  O1: [OC, purple, Isles]
  O2: [OC, brown, Outback]
  X1: [AN, orange, Ice]
  X2: [AN, yellow, Shelf]
land_edges:
  AF: [A0-A1, A0-A2, A0-A3, A1-A2]
  EU: [E1-E2, E2-E3]
  NA: [N1-N2]
  SA: [S1-S2]
  OC: [O1-O2]
  AN: [X1-X2]
straits:
  T1: [A1, E1]
  T2: [E3, N1]
  T3: [N2, S1]
  T4: [A3, S2]
  T5: [S2, X1]
  T6: [E2, O1]
  T7: [O2, X2]
"""


def small_world(tmp_path) -> OriginConfig:
    comps = shipped("components")
    comps["hunting_tokens"] = [2, 4]
    comps["strait_tokens"] = [1, 1, 2, 2, 2, 3, 3]
    return OriginConfig(map_file=write(tmp_path, "small_map", SMALL_MAP),
                        components_file=write(tmp_path, "small_components", comps))


def test_a_users_own_map_loads(tmp_path):
    """origin.md "Config fields and data files": a user's valid map replaces the reconstruction."""
    data = small_world(tmp_path).data
    world = data.world
    assert world.size == 15 and len(world.straits) == 7
    assert world.territories[world.origin].id == "A0"
    assert [world.territories[i].id for i in world.neighbours[world.origin]] == [
        "A1", "A2", "A3"]
    assert world.distance[world.index("A0"), world.index("X2")] == 4  # A0-A3=S2=X1-X2
    assert data.components.hunting_tokens == (2, 4)


def test_the_action_layout_follows_a_users_map(tmp_path):
    """origin.md "Config fields and data files": territory and strait segments take their sizes
    from the data (6 territory segments and 1 strait segment shrink with the map)."""
    shipped_rules = OriginRules(num_players=3)
    rules = OriginRules(small_world(tmp_path))
    for seg in ("evolve_at", "migrate_from", "migrate_to", "swap_from", "swap_onto",
                "choose_territory"):
        assert rules.layout.size(seg) == 15
        assert shipped_rules.layout.size(seg) == 42
    assert rules.layout.size("choose_strait") == 7
    assert rules.layout.size("play_card") == 48
    assert shipped_rules.layout.n == 564
    assert rules.layout.n == 564 - 6 * (42 - 15) - (11 - 7)


def test_a_game_on_a_users_map_runs(tmp_path):
    """origin.md "Config fields and data files": a whole random game on a user's map keeps to
    the map (pawns only on its 15 territories, tokens on its 2 green territories and 7
    straits)."""
    rules = OriginRules(small_world(tmp_path))
    rng = np.random.default_rng(3)
    state = rules.initial_state(rng)
    assert len(state.pawn) == 15 and len(state.strait_owner) == 7
    assert sorted(v for v in state.hunt_value if v) == [2, 4]
    for _ in range(3000):
        if rules.is_terminal(state):
            break
        legal = rules.legal_actions(state)
        assert legal
        state = rules.apply(state, int(rng.choice(legal)), rng)
    assert rules.is_terminal(state)
    assert sum(o >= 0 for o in state.owner) + sum(state.villages) == 27


def test_a_users_own_card_parameters_drive_the_rules(tmp_path):
    """origin.md "Cards": effects are data; a Forced March of +3 gives range +3."""
    from tests.envs.origin.builders import act, cid, give_card, put, table

    raw = shipped("cards")
    raw["yellow"][2]["effect"]["amount"] = 3
    rules, state = table(cards_file=write(tmp_path, "cards", raw))
    a = put(rules, state, 0, "AF7")
    give_card(rules, state, 0, "Y3")
    state = act(rules, state, "play_card", cid(rules, "Y3"))
    assert move_range(rules, state, 0, a) == 4


def test_loads_are_cached_by_path():
    """Data validation: the same files are loaded once (``load_origin_data`` is cached)."""
    assert load_origin_data() is load_origin_data()
    assert OriginConfig().data is load_origin_data(None, None, None)
    assert OriginConfig(num_players=2).data is OriginConfig(num_players=4).data


def test_messages_name_the_file_first(tmp_path):
    """Data validation: messages read ``<file>: <entry>: <problem>``."""
    raw = shipped("cards")
    raw["yellow"][0]["effect"] = {"kind": "teleport"}
    path = write(tmp_path, "cards", raw)
    err = fails([path], cards_file=path)
    assert re.match(rf"{re.escape(path)}: card Y1: unknown effect kind", str(err))
