"""Origin positions by name: a rules state from a dict (or YAML) and back.

``build_position(rules, spec)`` returns an :class:`~primeval.envs.origin.state.OriginState`
at a player's turn menu (or at any other decision the rules pause at,
:data:`ALL_DECISIONS`: ``decision`` names the frame's fields, ``waiting`` the frames under it
above the turn menu, ``current`` whose turn it is; the setup's ``keep_objective`` too), with everything the spec leaves out filled in as the rules would
have it: the pawn reserve and the villages (from the pawns on the map), the decks (every
card not elsewhere), the face-up tiles and the face-down reserve (30 tiles in all), the
hunting and strait tokens (and who took them), the end trigger and the procedure stack.
It is checked with the rules' ``check_state``. ``position_to_dict(rules, state)`` writes a
state at any decision back as a spec that rebuilds it exactly, leaving out what equals the
default. ``docs/positions.md`` has the full format; in short::

    decision: {kind: turn, player: 1, action_taken: false}   # player 1's turn menu
    turn: 8
    players:                                 # one entry per seat, in seat order
      - pawns: {AF1: [1, 1, brown], EU1: [2, 1, brown]}
        hand: [Y3, O5]
        columns: [2]                         # tile columns by height: one column 1, 2
      - pawns: {AF6: [1, 2, brown]}
        hand: [O7]
        permanents: [P1]
      - {}

Keys (every one optional except ``decision``):

- ``decision``: ``kind: turn`` (the turn menu: an action, a card, or ending the turn) and
  ``player`` (a seat: ``1`` or ``"player_1"``); what happened this turn so far:
  ``action_taken`` (default false), ``played`` (card colours played), ``extra_actions``
  (open extra actions: evolve, migrate, swap) and ``turn_cards`` (yellow cards in force this
  turn, which are in the discard too).
- ``phase``: ``play`` (default) or ``final_round``; ``final_turns_left``: final-round turns
  still to play, this one included (default: every player's). ``end_triggered``: default
  whether an end condition holds (always in the final round).
- ``turn``: turns started so far (default: the first turn of ``player`` counting from
  ``start_player``, default 0).
- ``neutral``: the colour of the neutral 1/1 pawn on the Origin territory (default white).
- ``players``: one mapping per seat: ``pawns`` (territory id -> ``[height, width,
  colour]`` or ``"h2/w1/white"``), ``hand``, ``permanents`` (orange cards in play),
  ``objectives_done`` (cards by id), ``objective_points`` (default: the points printed on
  the completed objectives), ``columns`` (innovation tile columns, each by its height).
- ``decks``: ``yellow``/``orange``/``purple`` -> the whole deck, top card first; default: the
  cards of that colour not elsewhere, in file order. ``discard``: yellow cards played.
- ``slots``: ``yellow``/``orange``/``purple``/``brown`` -> the tile level in each face-up slot
  of that colour (0 = empty); default: the lowest levels left, in slot order. ``lost_tiles``:
  the levels of tiles out of the game. The face-down reserve is every other tile.
- ``hunting_tokens``: green territory -> token value (default: the tokens in file order on
  the green territories in map order); ``hunting_holders``: territory -> the seat that took
  its token, or null for a token still there (default: the owner of the pawn there).
- ``strait_tokens``: strait id (``S1``) -> value (default: file order);
  ``strait_holders``: strait -> seat or null (default: the player with both ends, if any).

Every refusal is a :class:`~primeval.envs.core.position.PositionError` naming the entry
(``players[0].hand``) and what is allowed.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from primeval.envs.core.position import (
    PositionError,
    Spec,
    check_position,
    integer,
    lookup,
    plain_spec,
    seat,
    verified_dict,
    write_frame,
)
from primeval.envs.core.values import short_repr
from primeval.envs.origin.actions import pawn_name
from primeval.envs.origin.config import OriginConfig
from primeval.envs.origin.gamedata import CARD_COLOURS, PAWN_COLOURS, REWARD_COLOURS
from primeval.envs.origin.position_frames import (
    Names,
    frame_fields,
    place_name,
    read_named_frame,
)
from primeval.envs.origin.rules import OriginRules
from primeval.envs.origin.rules.effects import objective_limit
from primeval.envs.origin.rules.registry import REGISTRY
from primeval.envs.origin.rules.turn import ACTIONS, end_condition
from primeval.envs.origin.state import EMPTY, NEUTRAL, OriginState

__all__ = ["ALL_DECISIONS", "DECISIONS", "PositionError", "build_position", "position_to_dict"]

#: The decision a short spec names: the turn menu.
DECISIONS = ("turn",)
#: Every decision the rules can pause at: a position may wait for each of them.
ALL_DECISIONS: tuple[str, ...] = tuple(REGISTRY.decisions)
_TOP_KEYS = ("phase", "decision", "current", "waiting", "turn", "start_player",
             "final_turns_left", "end_triggered", "neutral", "players", "decks", "discard",
             "slots", "lost_tiles", "hunting_tokens", "hunting_holders", "strait_tokens",
             "strait_holders")
#: The turn's flags, written in ``decision`` beside the decision's own fields.
_TURN_KEYS = ("action_taken", "played", "extra_actions", "turn_cards")
_PLAYER_KEYS = ("pawns", "hand", "permanents", "objectives_done", "objective_points",
                "columns")
_PHASES = ("setup", "play", "final_round")
#: Frames a spec may write in ``waiting``: decisions and the steps that wait under one.
_WAITING_KINDS = (*ALL_DECISIONS, "strait_check", "draw", "objective_limit")


def _rules(rules: OriginRules | OriginConfig) -> OriginRules:
    return rules if isinstance(rules, OriginRules) else OriginRules(rules)


# Building ------------------------------------------------------------------------------------

def build_position(rules: OriginRules | OriginConfig, spec: dict[str, Any]) -> OriginState:
    """The rules state the position ``spec`` describes (the format is the module's docstring).

    Args:
        rules: The rules (or their config) the position is played by.
        spec: The position, names and small numbers only.

    Raises:
        PositionError: an unknown name, a number out of range, a card or tile twice or
            missing, or a position the rules could not reach (the message names the entry
            and what is allowed).
    """
    rules = _rules(rules)
    spec = plain_spec(spec)
    names = Names(rules)
    data, n = rules.data, rules.num_players
    comps, world = data.components, data.world
    top = Spec(spec, "", _TOP_KEYS)
    fields = frame_fields(rules, names)
    raw_decision = top.require("decision")
    pending = read_named_frame(fields, raw_decision, "decision", ALL_DECISIONS, "decision kind",
                          _TURN_KEYS)
    kind, player = pending["kind"], pending["player"]
    decision = Spec(raw_decision, "decision", raw_decision.keys())
    waiting = [read_named_frame(fields, raw, f"waiting[{i}]", _WAITING_KINDS, "frame kind")
               for i, raw in enumerate(top.sequence("waiting"))]
    setup = kind == "keep_objective"
    phase = lookup(top.get("phase", "setup" if setup else "play"), {p: p for p in _PHASES},
                   "phase", "phase")
    if (phase == "setup") != setup:
        raise PositionError(f"phase: {phase}, but a {short_repr(kind)} decision is taken "
                            + ("in the setup" if setup else "in a turn, after the setup"))
    start = seat(top.get("start_player", 0), n, "start_player")
    current = seat(top.get("current", start if setup else player), n, "current")
    if setup and current != start:
        raise PositionError(f"current: {current}, but in the setup no turn has started, so "
                            f"the current seat is the start player ({start})")
    if kind == "turn" and current != player:
        raise PositionError(f"current: {current}, but the turn menu is player {player}'s, "
                            "whose turn it is")
    if kind == "turn" and waiting:
        raise PositionError("waiting: nothing waits under the turn menu (it is the bottom "
                            "of every turn)")
    if setup and any(f["kind"] != "keep_objective" for f in waiting):
        raise PositionError("waiting: in the setup only the other players' keep_objective "
                            "decisions wait")
    if setup and any(decision.has(k) for k in _TURN_KEYS):
        raise PositionError(f"decision: no turn has started in the setup, so it has none of "
                            f"{list(_TURN_KEYS)}")

    entries = top.sequence("players") or [{}] * n
    if len(entries) != n:
        raise PositionError(f"players: {len(entries)} entries, but this is a {n}-player game "
                            "(one entry per seat, in seat order)")
    players = [Spec(e, f"players[{p}]", _PLAYER_KEYS) for p, e in enumerate(entries)]

    # The map: pawns, villages and the pawn reserve.
    pawn, owner = [-1] * world.size, [EMPTY] * world.size
    neutral_colour = lookup(top.get("neutral", PAWN_COLOURS[0]), names.colours,
                            "pawn colour", "neutral")
    neutral = comps.pawn_types.index((comps.neutral_height, comps.neutral_width,
                                      neutral_colour))
    pawn[world.origin], owner[world.origin] = neutral, NEUTRAL
    copies = [2 if h == 2 and n in comps.extra_medium_set_players else 1
              for h, _w, _c in comps.pawn_types]
    standing: dict[int, list[str]] = {neutral: [_neutral_place(world)]}
    origin_id = world.territories[world.origin].id
    for p, ps in enumerate(players):
        for name, value in ps.mapping("pawns").items():
            where = ps.where(f"pawns.{name}")
            t = names.territory(name, ps.where("pawns"))
            kind = names.pawn(value, where)
            if t == world.origin:
                raise PositionError(f"{where}: player {p}'s pawn {pawn_name(data, kind)} cannot "
                                    f"stand on {origin_id}, the Origin territory: only the "
                                    "neutral pawn stands there and no pawn ever enters it "
                                    "(origin.md \"The map\")")
            if owner[t] != EMPTY:
                raise PositionError(f"{where}: player {owner[t]}'s pawn "
                                    f"{pawn_name(data, pawn[t])} stands on {name} already, so "
                                    f"player {p}'s {pawn_name(data, kind)} cannot; one pawn per "
                                    "territory, on its owner's village")
            pawn[t], owner[t] = kind, p
            here = standing.setdefault(kind, [])
            here.append(f"player {p}'s on {world.territories[t].id}")
            if len(here) > copies[kind]:
                raise PositionError(_too_many_pawns(data, n, kind, copies[kind], here, where))
    used = Counter(x for x in pawn if x >= 0)
    reserve = [count - used[i] for i, count in enumerate(copies)]
    villages = []
    for p in range(n):
        left = comps.villages_per_player - owner.count(p)
        if left < 0:
            raise PositionError(f"players[{p}].pawns: player {p} has {owner.count(p)} pawns on the "
                                f"map, but a pawn always stands on one of its owner's villages "
                                f"and a player has {comps.villages_per_player} "
                                "(origin.md \"Pawns and villages\")")
        villages.append(left)

    # Cards.
    placed: dict[int, str] = {}

    def place(card: int, where: str) -> int:
        if card in placed:
            c = data.cards[card]
            named = c.id if c.name == c.id else f"{c.id} ({c.name})"
            raise PositionError(f"{where}: the {c.colour} card {named} is in "
                                f"{place_name(placed[card])} already; each card is in exactly "
                                f"one place, so it cannot be in {place_name(where)} too")
        placed[card] = where
        return card

    hands, permanents, done, points = [], [], [], []
    for p, ps in enumerate(players):
        hands.append([place(names.card(x, ps.where("hand")), ps.where("hand"))
                      for x in ps.sequence("hand")])
        permanents.append([place(names.card(x, ps.where("permanents"), "orange"),
                                 ps.where("permanents")) for x in ps.sequence("permanents")])
        done.append([place(names.card(x, ps.where("objectives_done"), "purple"),
                           ps.where("objectives_done")) for x in ps.sequence("objectives_done")])
        printed = sum(data.cards[c].points for c in done[p])
        points.append(ps.integer("objective_points", printed, 0))
    for i, frame in enumerate([*waiting, pending]):
        where = f"waiting[{i}].dealt" if i < len(waiting) else "decision.dealt"
        for card in frame.get("dealt", ()):
            place(card, where)
    discard = [place(names.card(x, "discard", "yellow"), "discard")
               for x in top.sequence("discard")]
    decks_spec = top.sub("decks", CARD_COLOURS)
    decks = []
    for colour in CARD_COLOURS:
        where = decks_spec.where(colour)
        if decks_spec.has(colour):
            deck = [place(names.card(x, where, colour), where)
                    for x in decks_spec.sequence(colour)]
            missing = [c.id for c in data.deck(colour) if c.index not in placed]
            if missing:
                raise PositionError(f"{where}: the {colour} cards {missing} are nowhere; the "
                                    f"whole {colour} deck is written here, so put them in it, "
                                    "in a hand or wherever else they are (every card is in "
                                    "exactly one place)")
        else:
            deck = [place(c.index, where) for c in data.deck(colour) if c.index not in placed]
        decks.append(deck)

    # Tiles: columns, lost tiles, face-up slots, the face-down reserve.
    left = dict(comps.innovation_tiles)
    columns = []
    for ps in players:
        heights = [integer(h, ps.where("columns"), 1, max(left)) for h in ps.sequence("columns")]
        columns.append([list(range(1, h + 1)) for h in heights])
    lost = [integer(x, "lost_tiles", 1, max(left)) for x in top.sequence("lost_tiles")]
    for level in [lv for cols in columns for col in cols for lv in col] + lost:
        left[level] -= 1
    short = sorted(lv for lv, k in left.items() if k < 0)
    if short:
        level = short[0]
        held = [f"player {p}'s columns {sum(col.count(level) for col in cols)}"
                for p, cols in enumerate(columns) if any(level in col for col in cols)]
        if level in lost:
            held.append(f"lost_tiles {lost.count(level)}")
        total = comps.innovation_tiles[level] - left[level]
        raise PositionError(f"players[*].columns and lost_tiles: {total} tiles of level {level} "
                            f"({', '.join(held)}), but the game has "
                            f"{comps.innovation_tiles[level]} (a column of height h holds one "
                            "tile of each level 1..h)")
    slots = _slots(rules, top, left)

    # Tokens.
    greens = [t for t, terr in enumerate(world.territories) if terr.colour == "green"]
    hunt_value = [0] * world.size
    values = _tokens(top, "hunting_tokens", comps.hunting_tokens, greens,
                     lambda x, w: _green(names, x, w, greens))
    for t, v in zip(greens, values, strict=True):
        hunt_value[t] = v
    hunt_owner = [owner[t] if t in greens and owner[t] >= 0 else -1 for t in range(world.size)]
    for name, holder in top.mapping("hunting_holders").items():
        t = _green(names, name, "hunting_holders", greens)
        hunt_owner[t] = -1 if holder is None else seat(holder, n, f"hunting_holders.{name}")
    strait_value = _tokens(top, "strait_tokens", comps.strait_tokens,
                           list(range(len(world.straits))),
                           lambda x, w: lookup(x, names.straits, "strait", w))
    strait_owner = [owner[a] if owner[a] >= 0 and owner[a] == owner[b] else -1
                    for a, b in world.straits]
    for name, holder in top.mapping("strait_holders").items():
        s = lookup(name, names.straits, "strait", "strait_holders")
        strait_owner[s] = -1 if holder is None else seat(holder, n, f"strait_holders.{name}")

    state = OriginState(
        num_players=n, phase=phase, turn=1, current=current, start_player=start,
        pawn=pawn, owner=owner, reserve=reserve, villages=villages, hands=hands,
        permanents=permanents, objectives_done=done, objective_points=points, columns=columns,
        slots=slots, tile_reserve=[left[lv] for lv in range(1, 6)], lost_tiles=len(lost),
        decks=decks, discard=discard, hunt_value=hunt_value, hunt_owner=hunt_owner,
        strait_value=strait_value, strait_owner=strait_owner,
        turn_state=_turn_state(names, decision), stack=_stack(current, waiting, pending),
    )
    if setup:
        state.turn = top.integer("turn", 0, 0, 0)
    else:
        first = (current - start) % n + 1
        state.turn = top.integer("turn", first, 1)
        if not rules.config.final_round_starts_with_trigger and state.turn % n != first % n:
            raise PositionError(f"turn: turn {state.turn} is player "
                                f"{(start + state.turn - 1) % n}'s, not player {current}'s: "
                                f"turns go clockwise from start_player {start}, so player "
                                f"{current}'s turns are {first}, {first + n}, {first + 2 * n}, "
                                "...")
    triggered = phase == "final_round" or end_condition(rules, state) is not None
    state.end_triggered = top.boolean("end_triggered", triggered)
    if phase == "final_round":
        if not state.end_triggered:
            raise PositionError("end_triggered: the final round comes after the end trigger")
        state.final_turns_left = top.integer("final_turns_left", n, 1, n)
    elif top.has("final_turns_left"):
        raise PositionError("final_turns_left: only in phase final_round")
    _check_turn(rules, state, current)
    check_position(rules, state)
    return state


def _stack(current: int, waiting: list[dict[str, Any]],
           pending: dict[str, Any]) -> list[dict[str, Any]]:
    """The procedure stack: the turn menu of the seat whose turn it is (in the setup the
    objectives shuffled back) under the frames waiting and the pending decision."""
    if pending["kind"] == "keep_objective":
        return [{"kind": "shuffle_objectives"}, *waiting, pending]
    if pending["kind"] == "turn":
        return [pending]
    return [{"kind": "turn", "player": current}, *waiting, pending]


def _neutral_place(world) -> str:
    return (f"the neutral pawn on {world.territories[world.origin].id}, the Origin territory, "
            "which belongs to no one and whose colour `neutral` sets (default white)")


def _too_many_pawns(data, n: int, kind: int, copies: int, standing: list[str],
                    where: str) -> str:
    """Why one more pawn of a type is refused: whose the others are and where they stand."""
    extra = data.components.extra_medium_set_players
    h = data.components.pawn_types[kind][0]
    if h == 2 and n in extra:
        rule = (f"one pawn of each height, width and colour, and with {n} players a second "
                "set of the medium (height 2) ones")
    else:
        rule = "one pawn of each height, width and colour" + (
            f" (a second medium set only with {' or '.join(map(str, extra))} players)"
            if h == 2 and extra else "")
    return (f"{where}: pawn {pawn_name(data, kind)} is on the map {len(standing)} times: "
            f"{'; '.join(standing)}. The game has {copies}: "
            f"{rule}, in one reserve shared by every player (origin.md \"Pawns and villages\")")


def _slots(rules, top: Spec, left: dict[int, int]) -> list[int]:
    """The face-up slots (taking their tiles out of ``left``, which becomes the reserve)."""
    colours = rules.data.components.slot_colours
    spec = top.sub("slots", REWARD_COLOURS)
    slots = [0] * len(colours)
    free = []
    for colour in REWARD_COLOURS:
        indices = [i for i, c in enumerate(colours) if c == colour]
        if not spec.has(colour):
            free += indices
            continue
        levels = spec.sequence(colour)
        if len(levels) != len(indices):
            raise PositionError(f"{spec.where(colour)}: {len(levels)} levels, the rewards board "
                                f"has {len(indices)} {colour} slots")
        for i, level in zip(indices, levels, strict=True):
            slots[i] = integer(level, spec.where(colour), 0, max(left))
            if slots[i]:
                left[slots[i]] -= 1
                if left[slots[i]] < 0:
                    total = rules.data.components.innovation_tiles[slots[i]]
                    raise PositionError(f"{spec.where(colour)}: a level-{slots[i]} tile in a "
                                        f"{colour} slot, but the game's {total} level-"
                                        f"{slots[i]} tiles are all in the players' columns, "
                                        "the other slots or lost_tiles")
    for i in sorted(free):  # the lowest levels left, in slot order
        level = next((lv for lv in sorted(left) if left[lv] > 0), 0)
        if level:
            left[level] -= 1
        slots[i] = level
    if 0 in slots and any(left.values()):
        raise PositionError(f"slots: an empty slot while the reserve holds {sum(left.values())} "
                            "tiles; a slot taken is refilled from the reserve")
    return slots


def _green(names: Names, name: Any, where: str, greens: list[int]) -> int:
    t = names.territory(name, where)
    if t not in greens:
        raise PositionError(f"{where}: {name} is not a green territory; hunting tokens lie on "
                            f"{[names.data.world.territories[g].id for g in greens]}")
    return t


def _tokens(top: Spec, key: str, tokens: tuple[int, ...], places: list[int],
            place_of) -> list[int]:
    """Token values in ``places`` order: the file's order, or the spec's mapping of every
    place to a value (the same values, in any order)."""
    if not top.has(key):
        return list(tokens)
    written = top.mapping(key)
    by_place = {place_of(name, key): integer(v, f"{key}.{name}", 0) for name, v in
                written.items()}
    values = [by_place.get(p) for p in places]
    if None in values or sorted(values) != sorted(tokens):
        raise PositionError(f"{key}: give a value for every place, the game's tokens "
                            f"{sorted(tokens)} in any order; got {written}")
    return values


def _turn_state(names: Names, decision: Spec) -> dict[str, Any]:
    """The current turn's flags, as the rules keep them (a key only once something set it)."""
    ts: dict[str, Any] = {}
    if decision.boolean("action_taken", False):
        ts["action_taken"] = True
    if decision.has("played"):
        colours = {c: c for c in CARD_COLOURS}
        ts["played"] = tuple(lookup(c, colours, "card colour", decision.where("played"))
                             for c in decision.sequence("played"))
    if decision.has("extra_actions"):
        actions = {a: a for a in ACTIONS}
        ts["extra_actions"] = tuple(lookup(a, actions, "action",
                                           decision.where("extra_actions"))
                                    for a in decision.sequence("extra_actions"))
    if decision.has("turn_cards"):
        ts["turn_cards"] = tuple(names.card(c, decision.where("turn_cards"), "yellow")
                                 for c in decision.sequence("turn_cards"))
    return ts


def _check_turn(rules, state: OriginState, player: int) -> None:
    """What the rules leave true at a turn menu, beyond ``check_state``."""
    ts = state.turn_state
    played = ts.get("played", ())
    for colour in CARD_COLOURS:
        if played.count(colour) > 1 and not (colour == "purple" and state.phase == "final_round"):
            raise PositionError(f"decision.played: player {state.current} played "
                                f"{played.count(colour)} {colour} cards this turn; a player "
                                f"plays at most one card of each colour per turn (more "
                                "objectives only in the final round)")
    for card in ts.get("turn_cards", ()):
        if card not in state.discard:
            raise PositionError(f"decision.turn_cards: {rules.data.cards[card].id} was played "
                                f"this turn by player {state.current}, so it is in the discard "
                                "too (a played yellow card leaves the game)")
    if ts.get("turn_cards") and "yellow" not in played:
        raise PositionError(f"decision.played: a yellow card is in force this turn, so player "
                            f"{state.current} played yellow; write it in played")
    for p in range(state.num_players):
        purple = [c for c in state.hands[p] if rules.data.cards[c].colour == "purple"]
        limit = objective_limit(rules, state, p)
        returning = any(f.get("player") == p and (
            f["kind"] == "objective_limit"
            or (f["kind"] == "return_card" and f.get("colour") == "purple"))
            for f in state.stack)
        if len(purple) > limit and not returning:
            ids = ", ".join(rules.data.cards[c].id for c in purple)
            raise PositionError(f"players[{p}].hand: player {p} holds {len(purple)} objectives "
                                f"({ids}), but a player holds at most {limit} (more only with an "
                                "objective_limit card in play, Oral Tradition) and no return of "
                                "objectives is pending (origin.md \"Objective hand limit\")")


# Writing -------------------------------------------------------------------------------------

def position_to_dict(rules: OriginRules | OriginConfig, state: OriginState) -> dict[str, Any]:
    """The position of ``state`` as a spec of names that :func:`build_position` turns back
    into the very same state; entries equal to their default are left out.

    Raises:
        PositionError: the game is over (no decision waits), or the state holds something
            no position at its decision holds.
    """
    rules = _rules(rules)
    names = Names(rules)
    data, n = rules.data, rules.num_players
    comps, world = data.components, data.world
    frame = state.pending
    if frame is None or frame.get("kind") not in ALL_DECISIONS:
        pending = frame.get("kind") if frame else "nothing"
        raise PositionError(f"this state has no position form: it waits for {short_repr(pending)} "
                            f"(phase {state.phase}); positions wait for one of "
                            f"{sorted(ALL_DECISIONS)}")
    cid = [c.id for c in data.cards]
    fields = frame_fields(rules, names)
    decision = write_frame(frame, fields[frame["kind"]], {"below": []})
    waiting = [write_frame(f, fields[f["kind"]], {"below": []}) for f in state.stack[1:-1]]
    ts = state.turn_state
    if state.phase != "setup":
        decision["action_taken"] = bool(ts.get("action_taken"))
    for key in ("played", "extra_actions"):
        if key in ts:
            decision[key] = list(ts[key])
    if "turn_cards" in ts:
        decision["turn_cards"] = [cid[c] for c in ts["turn_cards"]]
    spec: dict[str, Any] = {"phase": state.phase, "decision": decision}
    if state.phase != "setup" and state.current != frame["player"]:
        spec["current"] = state.current
    if waiting:
        spec["waiting"] = waiting
    spec["turn"] = state.turn
    if state.start_player:
        spec["start_player"] = state.start_player
    if state.phase == "final_round":
        spec["final_turns_left"] = state.final_turns_left
    spec["neutral"] = names.pawn_value(state.pawn[world.origin])[2]
    players = []
    for p in range(n):
        entry: dict[str, Any] = {}
        pawns = {world.territories[t].id: names.pawn_value(state.pawn[t])
                 for t in state.territories_of(p)}
        lists = {"pawns": pawns, "hand": [cid[c] for c in state.hands[p]],
                 "permanents": [cid[c] for c in state.permanents[p]],
                 "objectives_done": [cid[c] for c in state.objectives_done[p]]}
        entry.update({k: v for k, v in lists.items() if v})
        if state.objective_points[p] != sum(data.cards[c].points for c in state.objectives_done[p]):
            entry["objective_points"] = state.objective_points[p]
        if state.columns[p]:
            entry["columns"] = [len(col) for col in state.columns[p]]
        players.append(entry)
    spec["players"] = players
    decks = {}
    for colour, deck in zip(CARD_COLOURS, state.decks, strict=True):
        if deck != sorted(deck):  # the default: file order
            decks[colour] = [cid[c] for c in deck]
    if decks:
        spec["decks"] = decks
    if state.discard:
        spec["discard"] = [cid[c] for c in state.discard]
    in_columns = Counter(lv for cols in state.columns for col in cols for lv in col)
    face_up = Counter(lv for lv in state.slots if lv)
    lost = []  # every tile of a level not in a column, a slot or the reserve
    for level, count in sorted(comps.innovation_tiles.items()):
        lost += [level] * (count - in_columns[level] - face_up[level]
                           - state.tile_reserve[level - 1])
    if lost:
        spec["lost_tiles"] = lost
    for_slots = {lv: k - in_columns[lv] - lost.count(lv)
                 for lv, k in comps.innovation_tiles.items()}
    if state.slots != _slots(rules, Spec({}, "", ()), for_slots):
        colours = comps.slot_colours
        spec["slots"] = {colour: [lv for lv, c in zip(state.slots, colours, strict=True)
                                  if c == colour] for colour in REWARD_COLOURS}
    greens = [t for t, terr in enumerate(world.territories) if terr.colour == "green"]
    if [state.hunt_value[t] for t in greens] != list(comps.hunting_tokens):
        spec["hunting_tokens"] = {world.territories[t].id: state.hunt_value[t] for t in greens}
    holders = {world.territories[t].id: (None if state.hunt_owner[t] < 0 else state.hunt_owner[t])
               for t in greens
               if state.hunt_owner[t] != (state.owner[t] if state.owner[t] >= 0 else -1)}
    if holders:
        spec["hunting_holders"] = holders
    if list(state.strait_value) != list(comps.strait_tokens):
        spec["strait_tokens"] = dict(zip(world.strait_ids, state.strait_value, strict=True))
    holders = {}
    for s, (a, b) in enumerate(world.straits):
        default = state.owner[a] if state.owner[a] >= 0 and state.owner[a] == state.owner[b] else -1
        if state.strait_owner[s] != default:
            holders[world.strait_ids[s]] = None if state.strait_owner[s] < 0 else state.strait_owner[s]
    if holders:
        spec["strait_holders"] = holders
    triggered = state.phase == "final_round" or end_condition(rules, state) is not None
    if state.end_triggered != triggered:
        spec["end_triggered"] = state.end_triggered
    return verified_dict(rules, state, spec, build_position)
