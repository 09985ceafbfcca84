"""Primordial Soup procedure frames by name, for positions (:mod:`.position`): how each
field of a frame is written in a spec (seats as numbers, amoebas by number 1..7, spaces as
the board text numbers them, directions by name, cubes by colour letter), with the defaults
that follow from the state or from the frames under it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from primeval.envs.core.position import (
    FrameField,
    PositionError,
    Spec,
    integer,
    lookup,
    read_frame,
    seat,
    write_frame,
)
from primeval.envs.core.validate import per_rules
from primeval.envs.core.values import short_repr
from primeval.envs.primordial_soup.data import DIRECTIONS
from primeval.envs.primordial_soup.rules import PrimordialSoupRules
from primeval.envs.primordial_soup.rules.checks import frame_schema
from primeval.envs.primordial_soup.rules.common import mutation_points
from primeval.envs.primordial_soup.rules.movement import die_outcomes
from primeval.envs.primordial_soup.state import GameState
from primeval.envs.primordial_soup.view_text import COLOUR_LETTERS

__all__ = ["amoeba_number", "board_space", "due", "frame_kind", "read_named_frame", "starts_left",
           "write_named_frame"]

#: Directions by name, as the board text and the actions write them.
_DIRECTION_NAMES = {name: i for i, name in enumerate(DIRECTIONS)}


def _below(context: dict, kind: str, what: str) -> dict[str, Any]:
    """The nearest frame of ``kind`` under this one, or PositionError saying the field
    ``what`` has nothing to be copied from."""
    for frame in reversed(context["below"]):
        if frame["kind"] == kind:
            return frame
    raise PositionError(f"no {kind} waits under this frame to take the {what} from; write "
                        "it, or the frame under it in waiting")


def _copy_below(kind: str, name: str, source: str | None = None) -> Callable[[dict], Any]:
    return lambda context: _below(context, kind, name)[source or name]


def _fields(rules: PrimordialSoupRules) -> dict[str, dict[str, FrameField]]:
    """Per frame kind, how each of its fields is written: seats as numbers (or
    ``player_2``), amoebas by number 1..7, spaces as the board text numbers them, directions
    by name (W, N, E, S, stay), cubes by colour letter; each field in the rules' frame
    (``checks.frame_schema``) order."""
    n = rules.num_players
    letters = {COLOUR_LETTERS[colour]: colour for colour in range(n)}

    def flag(value, where, context):
        if not isinstance(value, bool):
            raise PositionError(f"{where}: expected true or false, got {short_repr(value)}")
        return value

    def names(options):
        return lambda value, where, context: lookup(value, {o: o for o in options}, "value",
                                                    where)

    def counts(value, where) -> dict[int, int]:
        if not isinstance(value, dict):
            raise PositionError(f"{where}: expected colour letter -> count "
                                f"({', '.join(letters)}), got {short_repr(value)}")
        return {lookup(k, letters, "colour", where): integer(v, f"{where}.{k}", 0)
                for k, v in value.items()}

    def carry(value, where, context):
        got = counts(value, where)
        return tuple(got.get(colour, 0) for colour in range(n))

    def meal(value, where, context):
        eater = context["frame"]["player"]
        out = [0, 0, 0]
        for colour, count in counts(value, where).items():
            k = (colour - eater) % n
            if k == 0:
                raise PositionError(f"{where}: {COLOUR_LETTERS[colour]} is player {eater}'s "
                                    "own colour; an amoeba does not eat its own excretions")
            out[k - 1] = count
        return tuple(out)

    def write_meal(value, context):
        eater = context["frame"]["player"]
        return {COLOUR_LETTERS[(eater + k) % n]: count
                for k, count in enumerate(value, 1) if count}

    def followers(value, where, context):
        if not isinstance(value, list):
            raise PositionError(f"{where}: expected a list of [seat, amoeba number] pairs, "
                                f"got {short_repr(value)}")
        out = []
        for pair in value:
            if not (isinstance(pair, list) and len(pair) == 2):
                raise PositionError(f"{where}: {short_repr(pair)} is not a [seat, amoeba "
                                    "number] pair")
            out.append((seat(pair[0], n, where), amoeba_number(pair[1], rules, where) - 1))
        return tuple(out)

    def allowed(value, where, context):
        if not isinstance(value, list):
            raise PositionError(f"{where}: expected a list of directions "
                                f"{list(DIRECTIONS)}, got {short_repr(value)}")
        return tuple(sorted({lookup(d, _DIRECTION_NAMES, "direction", where) for d in value}))

    def dice_allow(context):
        state, frame = context["state"], context["frame"]
        if state.players[frame["player"]].has("movement_2"):
            return tuple(range(len(DIRECTIONS)))
        return tuple(sorted({o for face in state.dice for o in die_outcomes(rules, face)}))

    def target_space(context):
        frame = context["frame"]
        return context["state"].players[frame["target_player"]].amoeba_space[
            frame["target_amoeba"]]

    def own_space(context):
        frame = context["frame"]
        return context["state"].players[frame["player"]].amoeba_space[frame["amoeba"]]

    def owed(context):
        state, player = context["state"], context["frame"]["player"]
        owed = due(rules, state, player)
        if owed <= 0:
            mp = mutation_points(state.players[player])
            raise PositionError(f"player {player} owes no gene defect (mutation points {mp} "
                                f"<= ozone {mp - owed})")
        return owed

    seat_f = FrameField(lambda v, w, x: seat(v, n, w))
    amoeba_f = FrameField(lambda v, w, x: amoeba_number(v, rules, w) - 1,
                          lambda v, x: v + 1)
    space_f = FrameField(lambda v, w, x: board_space(v, rules, w))
    false_f = FrameField(flag, default=lambda x: False)
    mode_f = FrameField(names(("turn", "escape")), default=lambda x: "turn")
    by_name: dict[str, FrameField] = {
        "player": seat_f, "target_player": seat_f, "attacker_player": seat_f,
        "mover_player": seat_f, "amoeba": amoeba_f, "target_amoeba": amoeba_f,
        "mover_amoeba": amoeba_f, "space": space_f, "src": space_f, "dest": space_f,
        "mode": mode_f, "step": FrameField(lambda v, w, x: integer(v, w, 1, 2),
                                           default=lambda x: 1),
        "allowed": FrameField(allowed, lambda v, x: [DIRECTIONS[d] for d in v], dice_allow),
        "carry": FrameField(carry, lambda v, x: {COLOUR_LETTERS[c]: k for c, k in enumerate(v)},
                            lambda x: ()),
        "followers": FrameField(followers, lambda v, x: [[q, b + 1] for q, b in v],
                                lambda x: ()),
        "meal": FrameField(meal, write_meal),
        "attack_kind": FrameField(names(("struggle", "aggression"))),
        "remaining": FrameField(lambda v, w, x: integer(v, w, 1), default=owed),
        "damage": FrameField(lambda v, w, x: integer(v, w, 0),
                             default=lambda x: ([{"damage": 0}]
                                                + starts_left(rules, x["state"]))[-1]["damage"]),
    }
    special: dict[str, dict[str, FrameField]] = {
        "relocate": {"src": FrameField(space_f.read, default=own_space),
                     "stage": FrameField(names(("tentacle", "cling", "execute")),
                                         default=lambda x: "execute")},
        "attack": {"amoeba": FrameField(amoeba_f.read, lambda v, x: None if v < 0 else v + 1,
                                        lambda x: -1),
                   "space": FrameField(space_f.read, default=target_space),
                   "stage": FrameField(names(("start", "defend", "success", "failure")),
                                       default=lambda x: "defend"),
                   "free": FrameField(flag, default=lambda x: x["frame"]["retry_used"])},
        "retry": {"amoeba": FrameField(amoeba_f.read, lambda v, x: None if v < 0 else v + 1,
                                       lambda x: -1)},
        "defend": {name: FrameField(by_name.get(name, false_f).read,
                                    by_name.get(name, false_f).write,
                                    _copy_below("attack", name, source))
                   for name, source in (("player", "target_player"),
                                        ("amoeba", "target_amoeba"),
                                        ("attacker_player", "player"), ("space", None),
                                        ("attack_kind", None), ("escape_used", None),
                                        ("defense_used", None))},
        "tentacle": {"space": FrameField(space_f.read, default=_copy_below("relocate", "space",
                                                                           "src")),
                     "dest": FrameField(space_f.read, default=_copy_below("relocate", "dest"))},
        "cling": {"space": FrameField(space_f.read, default=_copy_below("relocate", "space",
                                                                        "src")),
                  "dest": FrameField(space_f.read, default=_copy_below("relocate", "dest")),
                  "mover_player": FrameField(seat_f.read,
                                             default=_copy_below("relocate", "mover",
                                                                 "player")),
                  "mover_amoeba": FrameField(amoeba_f.read, amoeba_f.write,
                                             _copy_below("relocate", "mover", "amoeba"))},
    }
    table: dict[str, dict[str, FrameField]] = {}
    for kind, schema in frame_schema(rules).items():
        names_in_order = list(schema)
        if kind == "attack":  # free follows from retry_used, so it is read after it
            names_in_order.remove("free")
            names_in_order.append("free")
        table[kind] = {name: special.get(kind, {}).get(name) or by_name.get(name, false_f)
                       for name in names_in_order}
    # A clinging amoeba's Tentacle (holding_tentacle) names the mover too.
    table["tentacle+mover"] = {**table["tentacle"],
                               "mover_player": seat_f, "mover_amoeba": amoeba_f}
    return table


_FIELDS = per_rules(_fields)


def frame_kind(rules, raw: Any, where: str, kinds: tuple[str, ...], what: str) -> str:
    """The kind of the frame ``raw`` written at ``where`` (one of ``kinds``)."""
    if not isinstance(raw, dict):
        raise PositionError(f"{where}: expected a mapping with a kind, got {short_repr(raw)}")
    if raw.get("kind") is None:
        raise PositionError(f"{where}.kind: missing")
    return lookup(raw["kind"], {k: k for k in kinds}, what, f"{where}.kind")


def read_named_frame(rules, raw: Any, where: str, kinds: tuple[str, ...], what: str,
                     context: dict) -> dict[str, Any]:
    """One frame written by name (``decision`` or an entry of ``waiting``)."""
    kind = frame_kind(rules, raw, where, kinds, what)
    table = _FIELDS(rules)
    key = "tentacle+mover" if kind == "tentacle" and (
        raw.get("mover_player") is not None or raw.get("mover_amoeba") is not None) else kind
    fields = table[key]
    extra = [k for k in raw if k != "kind" and k not in fields]
    if extra:
        raise PositionError(f"{where}: a {short_repr(kind)} {what.split()[0]} has no "
                            f"{', '.join(short_repr(k) for k in extra)} "
                            f"(it has {['kind', *fields]})")
    return read_frame(Spec(raw, where, ("kind", *fields)), kind, fields, context)


def write_named_frame(rules, frame: dict[str, Any], context: dict) -> dict[str, Any]:
    """``frame`` written by name, each field equal to its default left out."""
    table = _FIELDS(rules)
    key = "tentacle+mover" if "mover_player" in frame and frame["kind"] == "tentacle" \
        else frame["kind"]
    return write_frame(frame, table[key], context)


def amoeba_number(value: Any, rules, where: str) -> int:
    """An amoeba's number 1..max_amoebas as written at ``where``."""
    top = rules.config.max_amoebas
    try:
        return integer(value, where, 1, top)
    except PositionError:
        raise PositionError(f"{where}: amoeba {short_repr(value)} does not exist (amoebas are "
                            f"numbered 1..{top}: each player has {top} amoebas of its "
                            "colour)") from None


def board_space(value: Any, rules, where: str) -> int:
    """A space of the board, numbered as the board text numbers them."""
    last = rules.board.num_spaces - 1
    try:
        return integer(value, where, 0, last)
    except PositionError:
        raise PositionError(f"{where}: space {short_repr(value)} is not on the board "
                            f"(spaces 0..{last}, "
                            "as the board text numbers them)") from None


def starts_left(rules, state: GameState) -> list[dict[str, Any]]:
    """The start amoebas still to place, the next on top: first ones ascending with the
    start damage, then second ones descending, less the ones on the board."""
    c, n = rules.config, rules.num_players
    desc = state.descending()
    full = [{"kind": "place_start", "player": p, "damage": 0} for p in reversed(desc)]
    full += [{"kind": "place_start", "player": p, "damage": c.start_damage}
             for p in reversed(desc[::-1])]
    placed = sum(len(ps.amoebas_on_board()) for ps in state.players)
    return full[: max(2 * n - placed, 0)]


def due(rules, state: GameState, p: int) -> int:
    """The gene defect seat ``p`` owes this phase 2: its MP above the ozone value."""
    ozone = rules.config.environment_deck[state.environment_card][1]
    return mutation_points(state.players[p]) - ozone
