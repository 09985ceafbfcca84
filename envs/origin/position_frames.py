"""Origin names and procedure frames for positions (:mod:`.position`): territories,
straits, cards and pawns by their ids, and how each field of a frame is written in a spec
(seats as numbers, territories and cards by id, decks and colours by name)."""

from __future__ import annotations

from typing import Any

from primeval.envs.core.position import (
    FrameField,
    PositionError,
    Spec,
    integer,
    lookup,
    read_frame,
    seat,
)
from primeval.envs.core.values import short_repr
from primeval.envs.origin.gamedata import PAWN_COLOURS, REWARD_COLOURS
from primeval.envs.origin.rules import OriginRules
from primeval.envs.origin.rules.checks import frame_schema
from primeval.envs.origin.state import DECKS

__all__ = ["Names", "frame_fields", "place_name", "read_named_frame"]


class Names:
    """The names of one data set: territories, straits, cards, pawn types."""

    def __init__(self, rules: OriginRules) -> None:
        data = rules.data
        self.data = data
        self.territories = {t.id: i for i, t in enumerate(data.world.territories)}
        self.straits = {s: i for i, s in enumerate(data.world.strait_ids)}
        self.cards = {c.id: c.index for c in data.cards}
        self.colours = {name: i for i, name in enumerate(PAWN_COLOURS)}

    def territory(self, name: Any, where: str) -> int:
        return lookup(name, self.territories, "territory", where)

    def card(self, name: Any, where: str, colour: str | None = None) -> int:
        index = lookup(name, self.cards, "card", where)
        card = self.data.cards[index]
        if colour is not None and card.colour != colour:
            named = card.id if card.name == card.id else f"{card.id} ({card.name})"
            raise PositionError(f"{where}: {named} is a {card.colour} card; "
                                f"only {colour} cards go in {place_name(where)}")
        return index

    def pawn(self, value: Any, where: str) -> int:
        """A pawn type from ``[height, width, colour]`` or ``"h2/w1/white"``."""
        parts = value
        if isinstance(value, str):
            pieces = value.split("/")
            if len(pieces) == 3 and pieces[0][:1] == "h" and pieces[1][:1] == "w":
                parts = [pieces[0][1:], pieces[1][1:], pieces[2]]
        types = self.data.components.pawn_types
        if isinstance(parts, list | tuple) and len(parts) == 3:
            colour = lookup(parts[2], self.colours, "pawn colour", where)
            h = integer(parts[0], f"{where} (height)")
            w = integer(parts[1], f"{where} (width)")
            if (h, w, colour) in types:
                return types.index((h, w, colour))
        heights = sorted({t[0] for t in types})
        widths = sorted({t[1] for t in types})
        raise PositionError(f"{where}: {short_repr(value)} is not a pawn; write "
                            "[height, width, colour] "
                            f"or 'h2/w1/white' with heights {heights}, widths {widths} and "
                            f"colours {list(PAWN_COLOURS)}")

    def pawn_value(self, pawn_type: int) -> list[Any]:
        h, w, c = self.data.components.pawn_types[pawn_type]
        return [h, w, PAWN_COLOURS[c]]


def frame_fields(rules: OriginRules, names: Names) -> dict[str, dict[str, FrameField]]:
    """Per frame kind, how each of its fields is written: seats as numbers (or
    ``player_2``), territories and cards by id, decks and colours by name."""
    n = rules.num_players
    cid = [c.id for c in rules.data.cards]
    tid = [t.id for t in rules.data.world.territories]

    def choice(options):
        return lambda v, w, x: lookup(v, {o: o for o in options}, "value", w)

    def cards(value, where, context):
        if not isinstance(value, list):
            raise PositionError(f"{where}: expected a list of card ids, got {short_repr(value)}")
        return tuple(names.card(c, where) for c in value)

    def colours(value, where, context):
        if not isinstance(value, list):
            raise PositionError(f"{where}: expected a list of colours "
                                f"{list(REWARD_COLOURS)}, got {short_repr(value)}")
        return tuple(lookup(c, {o: o for o in REWARD_COLOURS}, "colour", where) for c in value)

    by_name = {
        "player": FrameField(lambda v, w, x: seat(v, n, w)),
        "victim": FrameField(lambda v, w, x: seat(v, n, w)),
        "territory": FrameField(lambda v, w, x: names.territory(v, w), lambda v, x: tid[v]),
        "via": FrameField(choice(("evolve", "migrate", "swap", "raft"))),
        "colour": FrameField(choice(REWARD_COLOURS)),
        "colours": FrameField(colours, lambda v, x: list(v)),
        "deck": FrameField(lambda v, w, x: lookup(v, {d: i for i, d in enumerate(DECKS)},
                                                  "deck", w), lambda v, x: DECKS[v]),
        "reason": FrameField(choice(("hunt_draw", "empty_hunt_draw", "card"))),
        "taken": FrameField(lambda v, w, x: names.card(v, w), lambda v, x: cid[v]),
        "dealt": FrameField(cards, lambda v, x: [cid[c] for c in v]),
    }
    number = FrameField(lambda v, w, x: integer(v, w, 0))
    return {kind: {name: by_name.get(name, number) for name in schema}
            for kind, schema in frame_schema(rules).items()}


def read_named_frame(fields, raw: Any, where: str, kinds: tuple[str, ...], what: str,
                extra_keys: tuple[str, ...] = ()) -> dict[str, Any]:
    """One frame written by name (``decision`` or an entry of ``waiting``)."""
    if not isinstance(raw, dict):
        raise PositionError(f"{where}: expected a mapping with a kind, got {short_repr(raw)}")
    if raw.get("kind") is None:
        raise PositionError(f"{where}.kind: missing")
    kind = lookup(raw["kind"], {k: k for k in kinds}, what, f"{where}.kind")
    own = fields[kind]
    extra = [k for k in raw if k != "kind" and k not in own and k not in extra_keys]
    if extra:
        raise PositionError(f"{where}: a {short_repr(kind)} {what.split()[0]} has no "
                            f"{', '.join(short_repr(k) for k in extra)} "
                            f"(it has {['kind', *own, *extra_keys]})")
    return read_frame(Spec(raw, where, ("kind", *own, *extra_keys)), kind, own, {"below": []})


def place_name(where: str) -> str:
    """A card's place in a spec, for people: ``players[0].hand`` -> player 0's hand."""
    if where.startswith("players["):
        seat_, _, pile = where[len("players["):].partition("].")
        pile = {"hand": "hand", "permanents": "cards in play",
                "objectives_done": "completed objectives"}.get(pile, pile)
        return f"player {seat_}'s {pile} ({where})"
    if where.endswith(".dealt"):
        return f"the objectives dealt ({where})"
    return where
