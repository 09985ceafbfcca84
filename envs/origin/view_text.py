"""The Origin table as text, and the pending decision in words (part of the view).

``to_text(state, rules, viewer)`` shows the turn (or the setup), the phase, whose turn it is
and who decides now (:func:`header`: during the setup each player keeps an objective while
no one has a turn yet), the end trigger and the final round, the pending decision in words
(:func:`describe_decision`), the map by continent (every territory's colour, pawn, owner and hunting token), the straits and their
tokens, the rewards board (tile levels by slot colour, the reserve's size), the deck sizes,
every player (villages, tile columns, tokens, orange cards in play, completed objectives,
points by source, hand size by colour) and the hand of the player to decide (card ids and
names; an id names the card's kind: ``Y`` yellow action, ``P`` orange permanent, ``O`` purple
objective, so ``O7`` is purple). Players are ``player_0..``; a pawn is written ``h2/w1/white`` (height, width, colour).
Every line is at most :data:`MAX_WIDTH`.

Hidden information: hands, the objectives dealt, the deck order and the tile reserve. With
``viewer=None`` the text is the debugging table plus the deciding player's hand and
everything its decision shows that player (dealt objectives, the hand looked at in a
barter). With ``viewer`` a seat, a card is shown only to whom the rules show it
(:func:`may_see_pending`): the deciding player and the other party of a barter; everyone else
reads its colour, or a count.
"""

from __future__ import annotations

import textwrap
from typing import Any

from primeval.envs.core.text import MAX_WIDTH, describe_pending, wrap_items
from primeval.envs.origin.actions import pawn_name
from primeval.envs.origin.gamedata import REWARD_COLOURS
from primeval.envs.origin.rules import scoring
from primeval.envs.origin.rules.turn import end_condition
from primeval.envs.origin.state import DECKS, EMPTY, NEUTRAL, OriginState

__all__ = ["MAX_WIDTH", "card_label", "decider", "describe_decision", "header",
           "may_see_pending", "objective_text", "owner_name", "to_text"]


_POINT_LABELS = {
    "objectives": "objectives",
    "cards_in_hand": "cards",
    "hunting_tokens": "hunting",
    "strait_tokens": "straits",
    "tiles": "tiles",
    "column_bonus": "column bonus",
}


#: What a frame's ``territory`` is, by decision kind.
_TERRITORY_ROLE = {
    "evolve_pawn": "onto",
    "migrate_to": "pawn on",
    "swap_onto": "pawn on",
    "raft_destination": "pawn on",
    "exchange_second": "first pawn on",
}


def owner_name(owner: int) -> str:
    """``player_i``, ``neutral`` or ``empty``."""
    if owner == NEUTRAL:
        return "neutral"
    if owner == EMPTY or owner < 0:
        return "empty"
    return f"player_{owner}"


def objective_text(rules: Any, card: int) -> str:
    """An objective's condition in words, e.g. ``3 pawns on EU`` (from its data)."""
    cond = rules.data.cards[card].effect
    kind = cond.get("kind")
    if kind == "pawns_on_colour":
        return f"{cond['count']} pawns on {cond['colour']}"
    if kind == "pawns_on_continent":
        return f"{cond['count']} pawns on {cond['continent']}"
    if kind == "connected_group":
        where = ("one continent" if cond.get("same_continent")
                 else f"{cond.get('min_continents', 1)}+ continents")
        return f"{cond['count']} connected pawns, {where}"
    if kind == "continents_present":
        return f"pawns on {cond['count']} continents"
    if kind == "pawns_with_trait":
        return f"{cond['count']} pawns of {cond['trait']} {cond['value']}"
    if kind == "colour_set":
        return f"{cond['count']} pawns of each colour"
    if kind == "tokens_owned":
        return f"{cond['count']} {cond['token']} tokens"
    if kind == "column_level":
        return f"a column at level {cond['level']}"
    if kind == "permanents_in_play":
        return f"{cond['count']} orange cards in play"
    params = " ".join(f"{k}={v}" for k, v in cond.items() if k != "kind")
    return f"{kind} {params}".strip()


#: How card ids read: by the card's kind, not its colour's initial (``O7`` is purple).
CARD_IDS = "ids: Y yellow action, P orange permanent, O purple objective"


def card_label(rules: Any, card: int) -> str:
    """``Y3 Forced March``; orange cards add their level (``P1 Trackers (level 1)``) and
    objectives their points and, when unnamed, their condition (``O5 (3 pts: 3 pawns on
    AF)``). Ids name the kind (:data:`CARD_IDS`): ``Y`` yellow action, ``P`` orange
    permanent, ``O`` purple objective."""
    c = rules.data.cards[card]
    name = c.id if c.name == c.id else f"{c.id} {c.name}"
    if c.colour == "purple":
        what = f": {objective_text(rules, card)}" if c.name == c.id else ""
        return f"{name} ({c.points} pts{what})"
    if c.colour == "orange":
        return f"{name} (level {c.level})"
    return name


def _territory(rules: Any, t: int) -> str:
    terr = rules.data.world.territories
    if isinstance(t, int) and 0 <= t < len(terr):
        return f"{terr[t].id} {terr[t].name}"
    return str(t)


def may_see_pending(state: OriginState, viewer: int | None) -> bool:
    """Whether ``viewer`` may see the cards of the pending decision: the deciding player and
    the other party of a barter may; ``None`` (the debugging table) sees everything."""
    if viewer is None:
        return True
    frame = state.stack[-1] if state.stack else {}
    return viewer in (frame.get("player", -1), frame.get("victim", -1))


def describe_decision(state: OriginState, rules: Any, viewer: int | None = None) -> str:
    """The pending decision in words (``rules.describe_decision``) with its details named:
    territories by id and name, players, dealt and taken cards (as ``viewer`` may see them,
    see :func:`may_see_pending`)."""
    return describe_pending(state, rules.registry.decisions,
                            lambda frame: _describe_frame(state, rules, frame, viewer))


def _describe_frame(state: OriginState, rules: Any, frame: dict[str, Any],
                    viewer: int | None) -> str:
    """The rules' words for the pending decision, then its details in brackets."""
    kind = frame.get("kind", "?")
    sees = may_see_pending(state, viewer)
    text = rules.describe_decision(state)
    details = []
    if "territory" in frame:
        what = _TERRITORY_ROLE.get(kind, "territory")
        details.append(f"{what} {_territory(rules, frame['territory'])}")
    if "colours" in frame:
        details.append("from " + "/".join(frame["colours"]) + " columns")
    if "count" in frame and kind != "return_card":
        details.append(f"count {frame['count']}")
    if "reason" in frame:
        details.append(f"reason {frame['reason']}")
    if "distance" in frame:
        details.append(f"within {frame['distance']} steps")
    if frame.get("dealt"):
        dealt = (", ".join(card_label(rules, c) for c in frame["dealt"]) if sees
                 else f"{len(frame['dealt'])} objectives")
        details.append(f"dealt: {dealt}; keep {frame.get('keep', 1)}")
    if "taken" in frame:
        taken = (card_label(rules, frame["taken"]) if sees
                 else f"a {rules.data.cards[frame['taken']].colour} card")
        details.append(f"taken: {taken}")
    if kind == "barter_take" and 0 <= frame.get("victim", -1) < state.num_players:
        cards = state.hands[frame["victim"]]
        hand = ((", ".join(card_label(rules, c) for c in cards) or "empty") if sees
                else f"{len(cards)} cards")
        details.append(f"player_{frame['victim']}'s hand: {hand}")
    return text + (f" ({'; '.join(details)})" if details else "")


def _wrap(text: str, indent: str = "  ") -> list[str]:
    return textwrap.wrap(text, MAX_WIDTH, subsequent_indent=indent) or [""]


def _map_lines(state: OriginState, rules: Any) -> list[str]:
    world = rules.data.world
    lines = ["Map (territory, colour, pawn, owner; hunt = hunting token on the board):"]
    width = max(len(f"{t.id} {t.name}") for t in world.territories)
    for cont, cont_name in zip(world.continents, world.continent_names, strict=True):
        lines.append(f"{cont_name} ({cont}):")
        for t, terr in enumerate(world.territories):
            if terr.continent != cont:
                continue
            pawn = pawn_name(rules.data, state.pawn[t]) if state.pawn[t] >= 0 else "-"
            line = (f"  {(terr.id + ' ' + terr.name)[:width]:<{width}}  {terr.colour:<6}  "
                    f"{pawn:<12} {owner_name(state.owner[t])}")
            if terr.colour == "green":
                if state.hunt_owner[t] == -1 and state.hunt_value[t] > 0:
                    line += f"  hunt {state.hunt_value[t]}"
                elif state.hunt_owner[t] >= 0:
                    line += f"  (hunt token taken by player_{state.hunt_owner[t]})"
            lines.append(line.rstrip())
    return lines


def _strait_lines(state: OriginState, rules: Any) -> list[str]:
    world = rules.data.world
    items = []
    for s, (a, b) in enumerate(world.straits):
        holder = state.strait_owner[s]
        where = "on board" if holder < 0 else f"player_{holder}"
        items.append(f"{world.strait_ids[s]} {world.territories[a].id}-"
                     f"{world.territories[b].id} [{state.strait_value[s]}: {where}]")
    return wrap_items("Straits [token value: holder]:", items)


def _board_lines(state: OriginState, rules: Any) -> list[str]:
    slot_colours = rules.data.components.slot_colours
    parts = []
    for colour in REWARD_COLOURS:
        levels = [str(level) if level else "-" for level, c in zip(state.slots, slot_colours,
                                                                     strict=True)
                  if c == colour]
        parts.append(f"{colour} {' '.join(levels)}")
    lines = ["Rewards board (tile level in each slot, - = empty):"]
    lines += _wrap("  " + " | ".join(parts), "    ")
    lines.append(f"  tile reserve: {sum(state.tile_reserve)} face down; "
                 f"tiles out of the game: {state.lost_tiles}")
    decks = ", ".join(f"{name} {len(deck)}" for name, deck in zip(DECKS, state.decks,
                                                                  strict=True))
    lines.append(f"Decks: {decks}; pawn reserve: {sum(state.reserve)} pawns")
    if state.discard:
        played = [card_label(rules, c) for c in state.discard]
        lines += wrap_items("Yellow cards played:", played)
    return lines


def _player_lines(state: OriginState, rules: Any) -> list[str]:
    world = rules.data.world
    cards = rules.data.cards
    who = decider(state, rules)
    lines = []
    for p in range(state.num_players):
        pts = scoring.points(rules, state, p)
        total = sum(pts.values())
        by_source = ", ".join(f"{_POINT_LABELS.get(k, k)} {v}" for k, v in pts.items())
        marks = []
        if p == state.current and state.phase not in ("setup", "game_over"):
            marks.append("to play")
        if p == who and (p != state.current or state.phase == "setup"):
            marks.append("to decide")
        if p == state.start_player:
            marks.append("start player")
        mark = f" ({', '.join(marks)})" if marks else ""
        lines += _wrap(f"player_{p}{mark}: {total} points ({by_source})", "    ")
        pawns = ", ".join(world.territories[t].id for t in state.territories_of(p)) or "none"
        lines += _wrap(f"  villages left {state.villages[p]}; pawns on {pawns}", "    ")
        columns = " ".join("[" + ",".join(str(x) for x in col) + "]"
                           for col in state.columns[p]) or "none"
        lines += _wrap(f"  tile columns: {columns}", "    ")
        hunts = [f"{state.hunt_value[t]} ({world.territories[t].id})"
                 for t, o in enumerate(state.hunt_owner) if o == p]
        straits = [f"{state.strait_value[s]} ({world.strait_ids[s]})"
                   for s, o in enumerate(state.strait_owner) if o == p]
        lines += _wrap(f"  tokens: hunting {', '.join(hunts) or 'none'}; "
                       f"straits {', '.join(straits) or 'none'}", "    ")
        orange = [card_label(rules, c) for c in state.permanents[p]] or ["none"]
        lines += wrap_items("  orange cards in play:", orange, "    ")
        done = [card_label(rules, c) for c in state.objectives_done[p]] or ["none"]
        lines += wrap_items(f"  objectives completed ({state.objective_points[p]} pts):",
                             done, "    ")
        sizes = [sum(cards[c].colour == colour for c in state.hands[p])
                 for colour in DECKS]
        lines.append(f"  hand: {len(state.hands[p])} cards ("
                     + ", ".join(f"{n} {colour}" for n, colour in zip(sizes, DECKS,
                                                                        strict=True)) + ")")
    return lines


def decider(state: OriginState, rules: Any) -> int:
    """The seat to decide now (the pending decision's player), ``-1`` when no one decides.

    It is not always ``state.current``, the seat whose turn it is: during the setup every
    player keeps an objective while ``current`` is the start player, and in a turn the
    other party of a card's effect may decide."""
    if not state.stack:
        return -1
    frame = state.stack[-1]
    if frame.get("kind") not in rules.registry.decisions:
        return -1
    player = frame.get("player", -1)
    return player if isinstance(player, int) and 0 <= player < state.num_players else -1


def header(state: OriginState, rules: Any) -> str:
    """The first line of the table: the turn (or the setup) and who decides now.

    ``Origin: setup (start player player_2), player_0 to decide (3 players)`` during the
    setup, ``Origin: turn 7, phase play, player_0's turn (3 players)`` in a turn, with
    ``, player_1 to decide`` added when another player decides in it."""
    who = decider(state, rules)
    if state.phase == "setup":
        head = f"Origin: setup (start player player_{state.start_player})"
        if who >= 0:
            head += f", player_{who} to decide"
    else:
        head = f"Origin: turn {state.turn}, phase {state.phase}, player_{state.current}'s turn"
        if who >= 0 and who != state.current and state.phase != "game_over":
            head += f", player_{who} to decide"
    return f"{head} ({state.num_players} players)"


def to_text(state: OriginState, rules: Any, viewer: int | None = None,
            pending: bool = True) -> str:
    """The readable table of ``state``.

    Args:
        state: The game state.
        rules: The ``OriginRules`` (data files).
        viewer: The seat reading it: the hand of the player to decide is shown to that
            player only, the pending decision as :func:`describe_decision` shows it to
            ``viewer``; ``None``: the debugging table, with that hand.
        pending: Include the ``Pending:`` line (the decision in words); ``False`` gives
            the table alone, which a console shows only when it changed.

    Returns:
        A multi-line string, every line at most :data:`MAX_WIDTH` characters.
    """
    lines = [header(state, rules)]
    if state.phase == "game_over":
        totals = [scoring.total(rules, state, p) for p in range(state.num_players)]
        ranking = sorted(range(state.num_players),
                         key=lambda p: (-totals[p], -len(state.hands[p])))
        lines.append("Game over: " + ", ".join(f"player_{p} {totals[p]}" for p in ranking))
    elif state.end_triggered:
        reason = end_condition(rules, state) or "an end condition was met"
        if state.phase == "final_round":
            lines.append(f"End triggered ({reason}): final round, "
                         f"{state.final_turns_left} final turn(s) left")
        else:
            lines.append(f"End triggered ({reason}): the final round starts after this turn")
    else:
        lines.append("End not triggered yet")
    ts = state.turn_state
    if state.phase in ("play", "final_round"):
        turn = [f"action {'taken' if ts.get('action_taken') else 'not taken'}"]
        if ts.get("played"):
            turn.append("cards played: " + ", ".join(ts["played"]))
        if ts.get("extra_actions"):
            turn.append("extra actions: " + ", ".join(ts["extra_actions"]))
        if ts.get("turn_cards"):
            turn.append("in force: " + ", ".join(card_label(rules, c) for c in ts["turn_cards"]))
        lines += _wrap("This turn: " + "; ".join(turn))
    if pending:
        lines += _wrap(f"Pending: {describe_decision(state, rules, viewer)}")
    lines.append("")
    lines += _map_lines(state, rules)
    lines += _strait_lines(state, rules)
    lines.append("")
    lines += _board_lines(state, rules)
    lines.append("")
    lines += _player_lines(state, rules)
    actor = decider(state, rules)
    if 0 <= actor < state.num_players and viewer in (None, actor):
        hand = [f"{card_label(rules, c)} [{rules.data.cards[c].colour}]"
                for c in state.hands[actor]] or ["empty"]
        lines.append("")
        lines += wrap_items(f"Hand of player_{actor} (to decide):", hand)
        lines.append(f"  (card {CARD_IDS})")
    out: list[str] = []
    for line in lines:
        out += _wrap(line) if len(line) > MAX_WIDTH else [line]
    return "\n".join(out)
