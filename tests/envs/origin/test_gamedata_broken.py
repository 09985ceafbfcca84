"""Broken Origin data files (map, cards, components): a clear error naming the file, the
entry and the problem."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from primeval.envs import origin_v0
from primeval.envs.origin import gamedata
from primeval.envs.origin.config import OriginConfig
from primeval.envs.origin.gamedata import OriginDataError, load_origin_data
from tests.helpers import files_in

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
