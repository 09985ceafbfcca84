"""Origin's component data: the map, the cards and the components, loaded and validated.

The data ship as YAML files in ``primeval/envs/origin/data/``. The map, the yellow and
orange cards, the tile levels and the token values are RECONSTRUCTIONS (the printed
components were not found); a user can pass their own files through
:class:`~primeval.envs.origin.config.OriginConfig`. Loading checks everything and raises
:class:`OriginDataError` naming the file and the entry at fault.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import yaml

REWARD_COLOURS = ("yellow", "orange", "purple", "brown")
TERRITORY_COLOURS = ("origin", "green", *REWARD_COLOURS)
CARD_COLOURS = ("yellow", "orange", "purple")
CARD_COUNTS = {"yellow": 14, "orange": 14, "purple": 20}
PAWN_COLOURS = ("white", "brown", "black")

#: Effect kinds of yellow (one-shot) cards, with their required parameters.
YELLOW_EFFECTS: dict[str, tuple[str, ...]] = {
    "extra_action": ("action",),
    "range_bonus": ("amount",),
    "raft": (),
    "free_straits": (),
    "steal_card": (),
    "steal_tile": (),
    "steal_strait_token": (),
    "take_tile": ("count",),
    "draw_cards": ("count",),
    "barter": (),
    "great_hunt": ("distance",),
    "exchange_pawns": (),
    "evolve_changes": ("amount",),
}
#: Effect kinds of orange (permanent) cards, with their required parameters.
ORANGE_EFFECTS: dict[str, tuple[str, ...]] = {
    "range_bonus": ("amount",),
    "objective_limit": ("limit",),
    "fewer_returns": ("returns",),
    "hunt_draw": (),
    "free_straits": (),
    "brown_any_columns": (),
    "empty_hunt_draw": (),
    "evolve_changes": ("amount",),
    "swap_equal_width": (),
    "evolve_distance": ("distance",),
    "strait_tile": (),
    "objective_bonus": ("points",),
    "column_bonus": ("level", "points"),
    "leadership": ("height", "width"),
}
#: Condition kinds of purple (objective) cards, with their required parameters.
OBJECTIVE_CONDITIONS: dict[str, tuple[str, ...]] = {
    "pawns_on_colour": ("colour", "count"),
    "pawns_on_continent": ("continent", "count"),
    "connected_group": ("count",),
    "continents_present": ("count",),
    "pawns_with_trait": ("trait", "value", "count"),
    "colour_set": ("count",),
    "tokens_owned": ("token", "count"),
    "column_level": ("level",),
    "permanents_in_play": ("count",),
}


#: Optional parameters of some effect and condition kinds (besides the required ones).
OPTIONAL_PARAMS: dict[str, tuple[str, ...]] = {
    "connected_group": ("same_continent", "min_continents"),
}
MAP_KEYS = ("continents", "origin", "territories", "land_edges", "straits")
#: The keys of a card entry, by colour.
CARD_KEYS = {"yellow": ("id", "name", "effect"), "orange": ("id", "name", "level", "effect"),
             "purple": ("id", "name", "points", "condition")}
COMPONENT_KEYS = ("villages_per_player", "pawns", "tile_slots", "innovation_tiles",
                  "tile_points", "hunting_tokens", "strait_tokens", "objectives_dealt",
                  "objectives_kept", "objective_hand_limit")
PAWN_KEYS = ("heights", "widths", "colours", "extra_medium_set_players", "neutral")


class OriginDataError(ValueError):
    """A data file is missing, malformed or inconsistent; the message names file and entry."""


@dataclass(frozen=True)
class Territory:
    id: str
    continent: str
    colour: str
    name: str


@dataclass(frozen=True)
class WorldMap:
    """The territories and their connections.

    Attributes:
        continents: Continent ids in file order; ``continent_names`` their names.
        territories: Territories in file order (index = territory number).
        origin: Index of the Origin territory.
        neighbours: Per territory, the adjacent territories (land and strait edges).
        straits: ``(a, b)`` territory indices per strait; ``strait_ids`` their ids.
        distance: Shortest path lengths, every edge counting 1.
        distance_free_straits: The same with strait edges counting 0.
    """

    continents: tuple[str, ...]
    continent_names: tuple[str, ...]
    territories: tuple[Territory, ...]
    origin: int
    neighbours: tuple[tuple[int, ...], ...]
    straits: tuple[tuple[int, int], ...]
    strait_ids: tuple[str, ...]
    distance: np.ndarray
    distance_free_straits: np.ndarray
    #: ``distance`` as nested tuples (fast scalar reads).
    steps: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        set_ = object.__setattr__  # the dataclass is frozen
        set_(self, "steps", tuple(map(tuple, self.distance.tolist())))
        set_(self, "_within", {})

    @property
    def size(self) -> int:
        return len(self.territories)

    def within(self, reach: int, free_straits: bool = False) -> tuple[frozenset[int], ...]:
        """Per territory, the other territories at most ``reach`` steps away (``free_straits``:
        strait crossings count 0 steps, as in ``distance_free_straits``); built once per
        ``(reach, free_straits)``."""
        key = (reach, free_straits)
        if key not in self._within:
            steps = (self.distance_free_straits if free_straits else self.distance).tolist()
            self._within[key] = tuple(
                frozenset(t for t, d in enumerate(row) if d <= reach and t != src)
                for src, row in enumerate(steps))
        return self._within[key]

    def index(self, territory_id: str) -> int:
        for i, t in enumerate(self.territories):
            if t.id == territory_id:
                return i
        raise KeyError(territory_id)


@dataclass(frozen=True)
class Card:
    """One card. ``effect`` is the yellow/orange effect or the purple condition."""

    index: int
    id: str
    colour: str
    name: str
    effect: dict[str, Any]
    level: int = 0
    points: int = 0

    @property
    def kind(self) -> str:
        return self.effect["kind"]


@dataclass(frozen=True)
class Components:
    villages_per_player: int
    pawn_types: tuple[tuple[int, int, int], ...]  # (height, width, colour index)
    extra_medium_set_players: tuple[int, ...]
    neutral_height: int
    neutral_width: int
    tile_slots: dict[str, int]
    innovation_tiles: dict[int, int]
    tile_points: dict[int, int]
    hunting_tokens: tuple[int, ...]
    strait_tokens: tuple[int, ...]
    objectives_dealt: int
    objectives_kept: int
    objective_hand_limit: int

    @property
    def slot_colours(self) -> tuple[str, ...]:
        """The colour of each face-up tile slot on the rewards board, in order."""
        return tuple(c for c in REWARD_COLOURS for _ in range(self.tile_slots[c]))

    @property
    def num_tiles(self) -> int:
        return sum(self.innovation_tiles.values())


@dataclass(frozen=True)
class OriginData:
    world: WorldMap
    cards: tuple[Card, ...]
    components: Components

    def deck(self, colour: str) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.colour == colour)


# ---------------------------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------------------------

DATA_PACKAGE = "primeval.envs.origin"
DEFAULT_FILES = {"map": "data/map.yaml", "cards": "data/cards.yaml",
                 "components": "data/components.yaml"}


def _read_yaml(path: str | Path | None, default: str) -> tuple[Any, str]:
    if path is None:
        ref = resources.files(DATA_PACKAGE).joinpath(default)
        name = default
        text = ref.read_text(encoding="utf-8")
    else:
        name = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise OriginDataError(f"{name}: cannot read the file ({exc})") from None
    try:
        return yaml.safe_load(text), name
    except yaml.YAMLError as exc:
        raise OriginDataError(f"{name}: not valid YAML ({exc})") from None


def _need(cond: bool, file: str, where: str, what: str) -> None:
    if not cond:
        raise OriginDataError(f"{file}: {where}: {what}")


def _known(keys: Any, allowed: tuple[str, ...], file: str, where: str) -> None:
    """Refuse keys that are not in ``allowed`` (a misspelt key would otherwise be ignored)."""
    unknown = sorted(str(k) for k in keys if k not in allowed)
    _need(not unknown, file, where, f"unknown key(s) {unknown}; allowed: {list(allowed)}")


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def load_map(path: str | Path | None = None) -> WorldMap:
    raw, f = _read_yaml(path, DEFAULT_FILES["map"])
    _need(isinstance(raw, dict), f, "top level", "expected a mapping")
    for key in MAP_KEYS:
        _need(key in raw, f, "top level", f"missing '{key}'")
    _known(raw, MAP_KEYS, f, "top level")
    continents = raw["continents"]
    _need(isinstance(continents, dict) and continents, f, "continents",
          "expected a non-empty mapping id: name")
    terr_raw = raw["territories"]
    _need(isinstance(terr_raw, dict) and terr_raw, f, "territories",
          "expected a mapping id: [continent, colour, name]")
    territories = []
    for tid, entry in terr_raw.items():
        where = f"territory {tid}"
        _need(isinstance(entry, list) and len(entry) == 3, f, where,
              "expected [continent, colour, name]")
        cont, colour, name = entry
        _need(cont in continents, f, where,
              f"unknown continent {cont!r}; continents: {list(continents)}")
        _need(colour in TERRITORY_COLOURS, f, where,
              f"unknown colour {colour!r}; colours: {list(TERRITORY_COLOURS)}")
        territories.append(Territory(str(tid), cont, colour, str(name)))
    index = {t.id: i for i, t in enumerate(territories)}
    _need(raw["origin"] in index, f, "origin", f"unknown territory {raw['origin']!r}")
    origin = index[raw["origin"]]
    _need(territories[origin].colour == "origin", f, f"territory {raw['origin']}",
          "the Origin territory must have colour 'origin'")
    _need(sum(t.colour == "origin" for t in territories) == 1, f, "territories",
          "exactly one territory must have colour 'origin'")
    edges: set[frozenset[int]] = set()

    def edge(a: Any, b: Any, where: str) -> tuple[int, int]:
        for t in (a, b):
            _need(t in index, f, where, f"unknown territory {t!r}")
        _need(a != b, f, where, f"a connection from {a} to itself")
        return index[a], index[b]

    _need(isinstance(raw["land_edges"], dict), f, "land_edges",
          "expected a mapping continent: [A-B, ...]")
    for cont, lst in raw["land_edges"].items():
        _need(cont in continents, f, f"land_edges {cont}",
              f"unknown continent {cont!r}; continents: {list(continents)}")
        _need(isinstance(lst, list), f, f"land_edges {cont}", "expected a list of 'A-B'")
        for item in lst:
            where = f"land edge {item!r}"
            _need(isinstance(item, str) and item.count("-") == 1, f, where, "expected 'A-B'")
            a, b = (s.strip() for s in item.split("-"))
            i, j = edge(a, b, where)
            edges.add(frozenset((i, j)))
    _need(isinstance(raw["straits"], dict) and raw["straits"], f, "straits",
          "expected a mapping id: [A, B]")
    straits, strait_ids = [], []
    for sid, pair in raw["straits"].items():
        where = f"strait {sid}"
        _need(isinstance(pair, list) and len(pair) == 2, f, where, "expected [A, B]")
        i, j = edge(pair[0], pair[1], where)
        _need(frozenset((i, j)) not in {frozenset(s) for s in straits}, f, where,
              "duplicate strait")
        straits.append((i, j))
        strait_ids.append(str(sid))
    n = len(territories)
    neighbours: list[set[int]] = [set() for _ in range(n)]
    for e in edges | {frozenset(s) for s in straits}:
        i, j = tuple(e)
        neighbours[i].add(j)
        neighbours[j].add(i)
    strait_set = {frozenset(s) for s in straits}
    dist = _all_pairs(n, neighbours, lambda i, j: 1)
    dist_free = _all_pairs(n, neighbours,
                           lambda i, j: 0 if frozenset((i, j)) in strait_set else 1)
    unreachable = [territories[j].id for j in range(n) if dist[origin, j] >= n + 1]
    _need(not unreachable, f, "map", f"disconnected: {unreachable} cannot be reached from "
          f"{territories[origin].id}")
    return WorldMap(
        tuple(continents), tuple(str(v) for v in continents.values()), tuple(territories),
        origin, tuple(tuple(sorted(s)) for s in neighbours), tuple(straits),
        tuple(strait_ids), dist, dist_free,
    )


def _all_pairs(n: int, neighbours: list[set[int]], weight) -> np.ndarray:
    """Shortest paths with 0/1 edge weights (0-1 BFS from every territory)."""
    inf = n + 1
    out = np.full((n, n), inf, dtype=np.int16)
    for s in range(n):
        dist = [inf] * n
        dist[s] = 0
        queue = [s]
        while queue:
            nxt: list[int] = []
            for u in queue:
                for v in neighbours[u]:
                    d = dist[u] + weight(u, v)
                    if d < dist[v]:
                        dist[v] = d
                        (queue if weight(u, v) == 0 else nxt).append(v)
            queue = nxt
        out[s] = dist
    out.setflags(write=False)
    return out


def load_cards(path: str | Path | None = None, continents: tuple[str, ...] = (),
               ) -> tuple[Card, ...]:
    raw, f = _read_yaml(path, DEFAULT_FILES["cards"])
    _need(isinstance(raw, dict), f, "top level", "expected a mapping with yellow/orange/purple")
    _known(raw, CARD_COLOURS, f, "top level")
    cards: list[Card] = []
    seen: set[str] = set()
    for colour in CARD_COLOURS:
        _need(colour in raw and isinstance(raw[colour], list), f, colour,
              "expected a list of cards")
        _need(len(raw[colour]) == CARD_COUNTS[colour], f, colour,
              f"expected {CARD_COUNTS[colour]} cards, found {len(raw[colour])}")
        for entry in raw[colour]:
            _need(isinstance(entry, dict) and "id" in entry, f, colour,
                  f"card without an id: {entry!r}")
            cid = str(entry["id"])
            where = f"card {cid}"
            _need(cid not in seen, f, where, "duplicate card id")
            _known(entry, CARD_KEYS[colour], f, where)
            seen.add(cid)
            key = "condition" if colour == "purple" else "effect"
            effect = entry.get(key)
            _need(isinstance(effect, dict) and "kind" in effect, f, where,
                  f"missing '{key}: {{kind: ...}}'")
            kinds = {"yellow": YELLOW_EFFECTS, "orange": ORANGE_EFFECTS,
                     "purple": OBJECTIVE_CONDITIONS}[colour]
            _need(effect["kind"] in kinds, f, where,
                  f"unknown {key} kind {effect['kind']!r}; known: {sorted(kinds)}")
            missing = [p for p in kinds[effect["kind"]] if p not in effect]
            _need(not missing, f, where, f"{effect['kind']} needs parameter(s) {missing}")
            _known(effect, ("kind", *kinds[effect["kind"]],
                            *OPTIONAL_PARAMS.get(effect["kind"], ())), f, where)
            _check_params(f, where, effect, continents)
            level = entry.get("level", 0)
            points = entry.get("points", None if colour == "purple" else 0)
            if colour == "orange":
                _need(_int(level) and 1 <= level <= 5, f, where, "level must be an int 1..5")
            if colour == "purple":
                _need(_int(points) and points >= 0, f, where, "points must be an int >= 0")
            cards.append(Card(len(cards), cid, colour, str(entry.get("name", cid)),
                              dict(effect), int(level), int(points)))
    return tuple(cards)


def _check_params(f: str, where: str, effect: dict, continents: tuple[str, ...]) -> None:
    for key, value in effect.items():
        if key in ("amount", "count", "limit", "returns", "distance", "points", "level",
                   "height", "width", "value", "min_continents"):
            _need(_int(value) and value >= 0, f, where, f"{key} must be an int >= 0")
    if "same_continent" in effect:
        _need(isinstance(effect["same_continent"], bool), f, where,
              "same_continent must be true or false")
    if effect["kind"] == "extra_action":
        _need(effect["action"] in ("evolve", "migrate", "swap"), f, where,
              "action must be evolve, migrate or swap")
    if effect["kind"] == "pawns_on_colour":
        _need(effect["colour"] in TERRITORY_COLOURS[1:], f, where,
              f"colour must be one of {list(TERRITORY_COLOURS[1:])}")
    if effect["kind"] == "pawns_on_continent" and continents:
        _need(effect["continent"] in continents, f, where,
              f"unknown continent {effect['continent']!r}; continents: {list(continents)}")
    if effect["kind"] == "pawns_with_trait":
        _need(effect["trait"] in ("height", "width"), f, where, "trait must be height or width")
    if effect["kind"] == "tokens_owned":
        _need(effect["token"] in ("hunting", "strait"), f, where,
              "token must be hunting or strait")


def load_components(path: str | Path | None = None) -> Components:
    raw, f = _read_yaml(path, DEFAULT_FILES["components"])
    _need(isinstance(raw, dict), f, "top level", "expected a mapping")
    for key in COMPONENT_KEYS:
        _need(key in raw, f, "top level", f"missing '{key}'")
    _known(raw, COMPONENT_KEYS, f, "top level")
    pawns = raw["pawns"]
    if isinstance(pawns, dict):
        _known(pawns, PAWN_KEYS, f, "pawns")
    _need(isinstance(pawns, dict) and pawns.get("heights") == [1, 2, 3]
          and pawns.get("widths") == [1, 2, 3]
          and pawns.get("colours") == list(PAWN_COLOURS), f, "pawns",
          f"heights and widths must be [1, 2, 3] and colours {list(PAWN_COLOURS)}")
    slots = raw["tile_slots"]
    _need(isinstance(slots, dict) and set(slots) == set(REWARD_COLOURS)
          and all(_int(v) and v >= 0 for v in slots.values()), f, "tile_slots",
          f"expected a count >= 0 for each of {list(REWARD_COLOURS)}")
    tiles = raw["innovation_tiles"]
    _need(isinstance(tiles, dict) and set(tiles) == {1, 2, 3, 4, 5}
          and all(_int(v) and v >= 0 for v in tiles.values()), f, "innovation_tiles",
          "expected counts for levels 1..5")
    _need(sum(tiles.values()) >= sum(slots.values()), f, "innovation_tiles",
          f"{sum(tiles.values())} tiles cannot fill {sum(slots.values())} face-up slots")
    points = raw["tile_points"]
    _need(isinstance(points, dict) and set(points) == {1, 2, 3, 4, 5}
          and all(_int(v) and v >= 0 for v in points.values()), f, "tile_points",
          "expected points (ints >= 0) for levels 1..5")
    # A hunting token's value also marks it as still on the board, so it must be >= 1.
    for key, low in (("hunting_tokens", 1), ("strait_tokens", 0)):
        _need(isinstance(raw[key], list) and all(_int(v) and v >= low for v in raw[key]),
              f, key, f"expected a list of token values (ints >= {low})")
    for key in ("villages_per_player", "objectives_dealt", "objectives_kept",
                "objective_hand_limit"):
        _need(_int(raw[key]) and raw[key] >= 1, f, key, "expected an int >= 1")
    _need(raw["objectives_kept"] <= raw["objectives_dealt"], f, "objectives_kept",
          "cannot keep more objectives than are dealt")
    neutral = pawns.get("neutral", {"height": 1, "width": 1})
    _need(isinstance(neutral, dict) and neutral.get("height") in (1, 2, 3)
          and neutral.get("width") in (1, 2, 3), f, "pawns: neutral",
          "expected {height: 1..3, width: 1..3}")
    extra = pawns.get("extra_medium_set_players", [4])
    _need(isinstance(extra, list) and all(v in (2, 3, 4) for v in extra), f,
          "pawns: extra_medium_set_players", "expected a list of player counts (2, 3, 4)")
    types = tuple(itertools.product((1, 2, 3), (1, 2, 3), range(3)))
    return Components(
        raw["villages_per_player"], types, tuple(extra),
        int(neutral["height"]), int(neutral["width"]), dict(slots), dict(tiles),
        {int(k): int(v) for k, v in points.items()}, tuple(raw["hunting_tokens"]),
        tuple(raw["strait_tokens"]), raw["objectives_dealt"], raw["objectives_kept"],
        raw["objective_hand_limit"],
    )


@lru_cache(maxsize=8)
def load_origin_data(map_file: str | None = None, cards_file: str | None = None,
                     components_file: str | None = None) -> OriginData:
    """Load and cross-check the three data files (the shipped ones by default)."""
    world = load_map(map_file)
    cards = load_cards(cards_file, world.continents)
    comps = load_components(components_file)
    greens = sum(t.colour == "green" for t in world.territories)
    cf = components_file or DEFAULT_FILES["components"]
    _need(len(comps.hunting_tokens) == greens, cf, "hunting_tokens",
          f"{len(comps.hunting_tokens)} tokens for {greens} green territories")
    _need(len(comps.strait_tokens) == len(world.straits), cf, "strait_tokens",
          f"{len(comps.strait_tokens)} tokens for {len(world.straits)} straits")
    return OriginData(world, cards, comps)
