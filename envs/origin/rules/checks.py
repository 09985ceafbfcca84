"""What every Origin position the rules can reach satisfies: :func:`check_state`, which
``OriginRules.check_state`` runs (and so ``set_state`` on every loaded state, and the random
games and the fuzzer after every step).

Each check raises ``ValueError`` naming the field and the rule (origin.md) it breaks. The
checks are sound: a position the rules can reach passes them all. Where a value depends on
the game's history (the bonus an objective was scored with), only the bounds every history
keeps are checked.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from primeval.envs.core.validate import (
    FieldTest,
    check_frame_list,
    check_int,
    check_ints,
    check_state_dict,
    fail,
    int_in,
    is_bool,
    is_int,
    need,
    one_of,
    per_rules,
    short,
)
from primeval.envs.origin.gamedata import CARD_COLOURS, REWARD_COLOURS
from primeval.envs.origin.rules.cards import cards_in_hand
from primeval.envs.origin.rules.effects import objective_limit
from primeval.envs.origin.rules.turn import ACTIONS, end_condition
from primeval.envs.origin.state import DECKS, EMPTY, NEUTRAL, PHASES, OriginState

#: Yellow card kinds whose effect lasts for the rest of the turn (``turn_state["turn_cards"]``).
TURN_CARD_KINDS = ("range_bonus", "free_straits", "evolve_changes")
#: Frames whose player may be another than the one whose turn it is: the limit and the return
#: of the victim of a theft or a barter, and the tile of a passive player's Trade Routes.
ANY_PLAYER_FRAMES = ("objective_limit", "return_card", "take_tile")
#: Cards drawn by the "draw 3, return 2" reward option.
REWARD_DRAW = 3
#: Automatic steps that may wait below the pending decision during a turn.
WAITING_STEPS = ("strait_check", "draw", "objective_limit")


def check_state(rules, state: OriginState) -> None:
    """Raise ``ValueError`` naming the first field of ``state`` that breaks a rule."""
    _check_fields(rules, state)
    _check_components(rules, state)
    _check_board(rules, state)
    _check_cards(rules, state)
    _check_turn(rules, state)
    _check_stack(rules, state)
    if state.phase == "setup":
        _check_setup(rules, state)
    check_real_choice(rules, state)


def check_real_choice(rules, state: OriginState) -> None:
    """The pending decision offers a real choice: a decision whose only legal action is
    ``pass`` is resolved without asking (``FrameRules.advance``), and no decision is left
    without a legal action."""
    if not state.stack:
        return
    kind = state.stack[-1]["kind"]
    try:
        mask = rules.legal_mask(state)
    except Exception as exc:  # noqa: BLE001  (what the frame names is not there)
        raise ValueError(f"stack: the pending {kind} decision cannot be worked out "
                         f"({type(exc).__name__}: {exc})") from None
    count = int(np.count_nonzero(mask))
    need(count > 0, f"stack: the pending {kind} decision has no legal action")
    need(not (count == 1 and mask[rules.pass_action]), f"stack: the pending {kind} decision "
         "has only 'pass', which is taken without asking")


def check_dict(data: Any) -> None:
    """A state's JSON form (``OriginState.to_dict()``) has the fields a state is built from:
    checked before it is built, so that the error names the field."""
    check_state_dict(data, OriginState)
    check_frame_list(data)
    if not isinstance(data["turn_state"], dict):
        fail(f"turn_state: expected a dict, got "
             f"{short(data['turn_state'])}")


# Types and ranges ---------------------------------------------------------------------------

def _per_player(name: str, value: Any, n: int) -> None:
    if not (isinstance(value, list | tuple) and len(value) == n):
        fail(f"{name}: expected one entry per player ({n}), got {short(value)}")


def _check_fields(rules, state: OriginState) -> None:
    """Every field has its type and shape, and its values their range."""
    data, n = rules.data, rules.num_players
    comps, world = data.components, data.world
    num_cards, num_types = len(data.cards), len(comps.pawn_types)
    top_level = max(comps.innovation_tiles)
    if not (is_int(state.num_players) and state.num_players == n):
        fail(f"num_players = {short(state.num_players)}, the config has {n}")
    if not (isinstance(state.phase, str) and state.phase in PHASES):
        fail(f"phase = {short(state.phase)}: unknown phase, expected one of {PHASES}")
    check_int("turn", state.turn, 0)
    check_int("current", state.current, 0, n - 1)
    check_int("start_player", state.start_player, 0, n - 1)
    check_ints("pawn", state.pawn, world.size, -1, num_types - 1)
    check_ints("owner", state.owner, world.size, NEUTRAL, n - 1)
    check_ints("reserve", state.reserve, num_types, 0)
    check_ints("villages", state.villages, n, 0, comps.villages_per_player)
    for name in ("hands", "permanents", "objectives_done"):
        piles = getattr(state, name)
        _per_player(name, piles, n)
        for p, pile in enumerate(piles):
            check_ints(f"{name}[{p}]", pile, None, 0, num_cards - 1)
    check_ints("objective_points", state.objective_points, n, 0)
    _per_player("columns", state.columns, n)
    for p, cols in enumerate(state.columns):
        if not isinstance(cols, list | tuple):
            fail(f"columns[{p}]: expected a list of columns, got "
                 f"{short(cols)}")
        for c, col in enumerate(cols):
            check_ints(f"columns[{p}][{c}]", col, None, 1, top_level)
            if not col:
                fail(f"columns[{p}][{c}]: an empty tile column (a column is removed when its "
                     "last tile is raided)")
    check_ints("slots", state.slots, len(comps.slot_colours), 0, top_level)
    check_ints("tile_reserve", state.tile_reserve, 5, 0)
    check_int("lost_tiles", state.lost_tiles, 0)
    if not (isinstance(state.decks, list | tuple) and len(state.decks) == len(DECKS)):
        fail(f"decks: expected the {len(DECKS)} decks {DECKS}, got {short(state.decks)}")
    for d, deck in enumerate(state.decks):
        check_ints(f"decks[{d}]", deck, None, 0, num_cards - 1)
    check_ints("discard", state.discard, None, 0, num_cards - 1)
    check_ints("hunt_value", state.hunt_value, world.size, 0)
    seat_or_board = "the token owner is not a seat: expected -1 (on the board) or"
    check_ints("hunt_owner", state.hunt_owner, world.size, -1, n - 1, seat_or_board)
    check_ints("strait_value", state.strait_value, len(world.straits), 0)
    check_ints("strait_owner", state.strait_owner, len(world.straits), -1, n - 1, seat_or_board)
    if not isinstance(state.turn_state, dict):
        fail(f"turn_state: expected a dict, got "
             f"{short(state.turn_state)}")
    if not is_bool(state.end_triggered):
        fail(f"end_triggered = {short(state.end_triggered)}: "
             "expected True or False")
    check_int("final_turns_left", state.final_turns_left, 0, n)
    if not (isinstance(state.stack, list) and all(isinstance(f, dict) for f in state.stack)):
        fail(f"stack: expected a list of frames (dicts), got {short(state.stack)}")
    _check_frame_fields(rules, state)


#: :func:`_frame_fields` of each rules object, made once.
_SCHEMAS = per_rules(lambda rules: _frame_fields(rules))


def frame_schema(rules) -> dict[str, dict[str, FieldTest]]:
    """Per frame kind, its fields with what each holds (a description and a test)."""
    return _SCHEMAS(rules)


def _frame_fields(rules) -> dict[str, dict[str, FieldTest]]:
    data, n = rules.data, rules.num_players
    yellow = [c.effect for c in data.cards if c.colour == "yellow"]
    max_take = max([2, *(e["count"] for e in yellow if e["kind"] == "take_tile")])
    max_draw = max([1, *(e["count"] for e in yellow if e["kind"] == "draw_cards")])
    distances = {e["distance"] for e in yellow if e["kind"] == "great_hunt"}

    seat = int_in(0, n - 1)
    territory = int_in(0, rules.data.world.size - 1)
    card = int_in(0, len(data.cards) - 1)
    player = {"player": seat}
    at = {"player": seat, "territory": territory}
    victim = {"player": seat, "victim": seat}
    colours = ("a tuple of distinct reward colours", lambda v: isinstance(v, tuple) and v
               and len(set(v)) == len(v) and all(c in REWARD_COLOURS for c in v))
    dealt = ("a tuple of card indices", lambda v: isinstance(v, tuple) and all(
        card[1](c) for c in v))
    return {
        "deal_objectives": {}, "shuffle_objectives": {}, "final_scoring": {},
        "keep_objective": {"player": seat, "dealt": dealt,
                           "keep": int_in(1, data.components.objectives_kept)},
        "begin_turn": player, "turn": player, "end_turn": player,
        "evolve_pawn": at, "migrate_to": at, "swap_onto": at,
        "raft_destination": at, "exchange_second": at,
        "reward": {**at, "via": one_of("evolve", "migrate", "swap", "raft")},
        "reward_option": {"player": seat, "colour": one_of(*REWARD_COLOURS)},
        "take_tile": {"player": seat, "colours": colours, "count": int_in(1, max_take)},
        "draw": {"player": seat, "deck": int_in(0, len(DECKS) - 1), "count": int_in(1, max_draw)},
        "return_card": {"player": seat, "colour": one_of(*CARD_COLOURS),
                        "count": int_in(1, max(REWARD_DRAW, max_draw))},
        "choose_deck": {"player": seat, "count": int_in(1, max_draw),
                        "reason": one_of("hunt_draw", "empty_hunt_draw", "card")},
        "objective_limit": player, "strait_check": player, "raft_pawn": player,
        "steal_card": player, "steal_tile": player, "claim_strait": player,
        "barter_player": player, "exchange_first": player,
        "steal_tile_column": victim, "barter_take": victim,
        "barter_give": {**victim, "taken": card},
        "great_hunt": {"player": seat, "distance": (f"one of {sorted(distances)}",
                                                    lambda v: is_int(v) and v in distances)},
    }


def _check_frame_fields(rules, state: OriginState) -> None:
    """Every frame is of a known kind and has exactly its kind's fields, each in range."""
    schema = frame_schema(rules)
    for i, frame in enumerate(state.stack):
        kind = frame.get("kind")
        if not (isinstance(kind, str) and kind in schema):
            fail(f"stack[{i}]: unknown frame kind {short(kind)}")
        fields = schema[kind]
        if len(frame) != len(fields) + 1 or not all(name in frame for name in fields):
            fail(f"stack[{i}] ({kind}): fields {sorted(frame)}, expected "
                 f"{sorted({'kind', *fields})}")
        for name, (what, ok) in fields.items():
            if not ok(frame[name]):
                fail(f"stack[{i}] ({kind}): {name} = {short(frame[name])}, expected {what}")
        if "victim" in frame and frame["victim"] == frame["player"]:
            fail(f"stack[{i}] ({kind}): the victim is the acting player")


# Components ---------------------------------------------------------------------------------

def pawn_copies(rules) -> list[int]:
    """Pawns of each type in the game (the extra medium set with some player counts)."""
    comps = rules.data.components
    return [2 if h == 2 and rules.num_players in comps.extra_medium_set_players else 1
            for h, _w, _c in comps.pawn_types]


def _check_components(rules, state: OriginState) -> None:
    """Cards, tiles, pawns, villages and tokens are all somewhere, once."""
    data, n = rules.data, rules.num_players
    comps = data.components
    held = [c for pile in (*state.decks, *state.hands, *state.permanents,
                            *state.objectives_done, state.discard) for c in pile]
    held += [c for f in state.stack for c in f.get("dealt", ())]
    need(sorted(held) == list(range(len(data.cards))), "cards are missing or duplicated")
    colour_of = [card.colour for card in data.cards]
    turn_cards = state.turn_state.get("turn_cards", ())
    if not (isinstance(turn_cards, tuple) and all(is_int(c) for c in turn_cards)):
        fail(f"turn_state['turn_cards'] = {short(turn_cards)}: expected a tuple of card indices")
    piles = [("yellow", "discard", state.discard), ("yellow", "turn_cards", turn_cards)]
    piles += [(colour, f"decks[{d}] (the {colour} deck)", state.decks[d])
              for d, colour in enumerate(DECKS)]
    piles += [("orange", f"player {p}'s cards in play", pile)
              for p, pile in enumerate(state.permanents)]
    piles += [("purple", f"player {p}'s completed objectives", pile)
              for p, pile in enumerate(state.objectives_done)]
    piles += [("purple", "dealt objectives", f.get("dealt", ())) for f in state.stack]
    indices = range(len(colour_of))
    for colour, name, pile in piles:
        if not all(c in indices and colour_of[c] == colour for c in pile):
            fail(f"{name}: only {colour} cards may be there, found card indices {list(pile)}")
    tiles = (sum(1 for x in state.slots if x) + sum(state.tile_reserve) + state.lost_tiles
             + sum(len(col) for cols in state.columns for col in cols))
    need(tiles == comps.num_tiles, f"{tiles} tiles, expected {comps.num_tiles}")
    for level in range(1, len(state.tile_reserve) + 1):
        seen = (state.slots.count(level) + state.tile_reserve[level - 1]
                + sum(col.count(level) for cols in state.columns for col in cols))
        if seen > comps.innovation_tiles.get(level, 0):
            fail(f"{seen} tiles of level {level} on the board, in the reserve and in columns; "
                 f"the game has {comps.innovation_tiles.get(level, 0)}")
    need(all(state.slots) or not any(state.tile_reserve), "slots: an empty slot while the "
         "tile reserve has tiles (a slot is refilled from the reserve at once)")
    for t, (p, o) in enumerate(zip(state.pawn, state.owner, strict=True)):
        if (p >= 0) != (o != EMPTY):
            fail(f"territory {data.world.territories[t].id}: pawn and owner disagree")
    for p in range(n):
        if state.owner.count(p) + state.villages[p] != comps.villages_per_player:
            fail(f"player {p}: villages not conserved ({state.owner.count(p)} on the board, "
                 f"{state.villages[p]} in supply, expected {comps.villages_per_player})")
    on_board = [0] * len(comps.pawn_types)
    for pawn in state.pawn:
        if pawn >= 0:
            on_board[pawn] += 1
    for t, copies in enumerate(pawn_copies(rules)):
        if state.reserve[t] + on_board[t] != copies:
            fail(f"reserve[{t}]: pawn type {comps.pawn_types[t]}: {on_board[t]} on the board "
                 f"+ {state.reserve[t]} in reserve, the game has {copies}")
    need(state.owner.count(NEUTRAL) == 1, "exactly one neutral pawn expected")
    need(sorted(v for v in state.hunt_value if v) == sorted(comps.hunting_tokens),
         "hunting tokens not conserved")
    need(sorted(state.strait_value) == sorted(comps.strait_tokens),
         "strait tokens not conserved")


# The board ----------------------------------------------------------------------------------

def _check_board(rules, state: OriginState) -> None:
    """The Origin, the tile columns and the tokens hold as the rules leave them."""
    data = rules.data
    world, comps = data.world, data.components
    origin = world.origin
    need(state.owner[origin] == NEUTRAL and state.pawn[origin] >= 0
         and comps.pawn_types[state.pawn[origin]][:2] == (comps.neutral_height,
                                                           comps.neutral_width),
         "the Origin territory holds the neutral 1/1 pawn")
    need(all(o != NEUTRAL for t, o in enumerate(state.owner) if t != origin),
         "only the Origin territory holds the neutral pawn")
    for p, cols in enumerate(state.columns):
        for col in cols:
            if list(col) != list(range(1, len(col) + 1)):
                fail(f"player {p}: tile column {list(col)} is not stacked level 1, 2, ... from "
                     "the bottom")
    greens = {t for t, terr in enumerate(world.territories) if terr.colour == "green"}
    for t in range(world.size):
        owner = state.hunt_owner[t]
        if t not in greens:
            if state.hunt_value[t] != 0 or owner != -1:
                fail(f"{world.territories[t].id}: a hunting token on a territory that is not "
                     "green")
        elif state.owner[t] != EMPTY and owner == -1:
            fail(f"{world.territories[t].id}: a pawn stands there but its hunting token was "
                 "not taken")
    stack = state.stack
    if len(stack) == 1 and stack[0]["kind"] == "turn":  # nothing pending
        for s, (a, b) in enumerate(world.straits):
            if state.owner[a] >= 0 and state.owner[a] == state.owner[b] \
                    and state.strait_owner[s] == -1:
                fail(f"strait {s}: one player holds both ends but its token was not claimed")
    if state.phase != "setup":
        need(state.end_triggered or end_condition(rules, state) is None,
             "an end condition holds but the end is not triggered")


# Cards --------------------------------------------------------------------------------------

def _check_cards(rules, state: OriginState) -> None:
    """Objective points and the objective hand limit (origin.md "Playing cards", "Agriculture"
    and "Objective hand limit")."""
    cards = rules.data.cards
    # A yellow card lasting for a turn could raise the bonus of the objectives scored in
    # that turn: then no upper bound is known from the state.
    yellow_bonus = any(c.colour == "yellow" and c.kind == "objective_bonus" for c in cards)
    for p in range(rules.num_players):
        done = state.objectives_done[p]
        printed = sum(cards[c].points for c in done)
        bonuses = [int(cards[c].effect["points"]) for c in state.permanents[p]
                   if cards[c].kind == "objective_bonus"]
        extra = state.objective_points[p] - printed
        # Each objective scored its printed points plus the bonus of the cards in play then,
        # some of today's (cards in play stay for good): per objective, between the sum of
        # the negative bonuses and the sum of the positive ones.
        if yellow_bonus:
            ok = True
        elif len(bonuses) == 1:  # k of the objectives came after the bonus card
            ok = any(extra == k * bonuses[0] for k in range(len(done) + 1))
        else:
            ok = (len(done) * sum(b for b in bonuses if b < 0) <= extra
                  <= len(done) * sum(b for b in bonuses if b > 0))
        need(ok, f"objective_points[{p}] = {state.objective_points[p]}: the completed "
             f"objectives (objectives_done) are worth {printed} points"
             + (f" plus up to {bonuses} each from the objective bonus in play (Agriculture)"
                if bonuses else " and no objective bonus card (Agriculture) is in play"))
    stack = state.stack
    for p in range(rules.num_players):
        held = len(cards_in_hand(rules, state, p, "purple"))
        limit = objective_limit(rules, state, p)
        if held > limit:
            pending = any(f.get("player") == p and (
                f["kind"] == "objective_limit"
                or (f["kind"] == "return_card" and f.get("colour") == "purple"))
                for f in stack)
            need(pending, f"hands[{p}]: {held} objectives in hand, over the objective hand "
                 f"limit of {limit} (more only with an objective_limit card in play, Oral "
                 "Tradition), and no return of objectives is pending")


# The turn -----------------------------------------------------------------------------------

def _check_turn(rules, state: OriginState) -> None:
    """Phase, turn, current player, the final round and the turn's flags (origin.md "A
    turn", "Playing cards", "End of the game" and "Final round")."""
    n, phase = rules.num_players, state.phase
    final = phase in ("final_round", "game_over")
    need(state.end_triggered or not final, f"phase {phase!r}: the end was not triggered "
         "(end_triggered is False)")
    if phase == "final_round":
        need(state.final_turns_left >= 1, "final_turns_left = 0 in the final round")
    else:
        need(state.final_turns_left == 0, f"final_turns_left = {state.final_turns_left} "
             f"outside the final round (phase {phase!r})")
    if phase == "setup":
        need(state.turn == 0 and state.current == state.start_player, "setup: the first turn "
             "has not started: turn must be 0 and current the start player")
        need(state.turn_state == {}, "turn_state: no turn has started in the setup")
        return
    need(state.turn >= 1, f"turn = {state.turn}: the first turn has started")
    # Turns go clockwise from the start player; with final_round_starts_with_trigger the
    # triggering player takes the first final turn at once (a second turn in a row).
    shift = 1 if final and rules.config.final_round_starts_with_trigger else 0
    expected = (state.start_player + state.turn - 1 - shift) % n
    need(state.current == expected, f"current = {state.current}: turn {state.turn} from "
         f"start player {state.start_player} is player {expected}'s (turns go clockwise)")
    ts = state.turn_state
    known = {"action_taken", "played", "extra_actions", "turn_cards"}
    if not set(ts) <= known:
        fail(f"turn_state: unknown keys {sorted(set(ts) - known)}")
    if ts.get("action_taken", True) is not True:
        fail(f"turn_state['action_taken'] = "
             f"{short(ts.get('action_taken'))}: only ever set to True")
    played = ts.get("played", ())
    if not (isinstance(played, tuple) and all(c in CARD_COLOURS for c in played)):
        fail(f"turn_state['played'] = {short(played)}: expected a tuple of card colours")
    for colour in CARD_COLOURS:
        once = colour != "purple" or phase == "play"
        need(not once or played.count(colour) <= 1, f"turn_state['played']: {colour} played "
             "twice in a turn (at most one card of each colour, more objectives only in the "
             "final round)")
    cur = state.current
    need(played.count("purple") <= len(state.objectives_done[cur]),
         "turn_state['played']: more objectives played this turn than completed")
    need("orange" not in played or state.permanents[cur], "turn_state['played']: an orange "
         "card played this turn but none is in play")
    need("yellow" not in played or state.discard, "turn_state['played']: a yellow card "
         "played this turn but the discard is empty")
    extra = ts.get("extra_actions", ())
    if not (isinstance(extra, tuple) and len(extra) <= played.count("yellow")
            and all(a in ACTIONS for a in extra)):
        fail(f"turn_state['extra_actions'] = "
             f"{short(extra)}: at most one, from the yellow card played this turn")
    turn_cards = ts.get("turn_cards", ())
    cards = rules.data.cards
    if not (len(turn_cards) <= played.count("yellow")
            and all(c in state.discard and cards[c].kind in TURN_CARD_KINDS for c in turn_cards)):
        fail(f"turn_state['turn_cards'] = {short(turn_cards)}: only the yellow card played this "
             "turn, if its effect lasts for the turn")


# The procedure stack ------------------------------------------------------------------------

def _check_stack(rules, state: OriginState) -> None:
    """The frames are those a turn (or the setup) leaves: the turn menu at the bottom, steps
    waiting, the decision pending on top, each for the right player and what it names still
    there."""
    stack, phase = state.stack, state.phase
    if phase == "game_over":
        need(not stack, "stack: the game is over but frames are pending")
        return
    need(bool(stack), f"stack: empty in phase {phase!r} (only a finished game has no frame)")
    top = stack[-1]
    need(top["kind"] in rules.registry.decisions, f"stack: the top frame ({top['kind']}) is "
         "a step, not a decision (steps are carried out at once)")
    if phase == "setup":
        need(stack[0]["kind"] == "shuffle_objectives"
             and all(f["kind"] == "keep_objective" for f in stack[1:]) and len(stack) >= 2,
             "stack: the setup has the objectives shuffled back under the players' keeps")
        return
    if stack[0] != {"kind": "turn", "player": state.current}:
        fail(f"stack[0] = "
             f"{short(stack[0])}: the turn menu of the current player ({state.current})")
    below_top = stack[1:-1]
    for i, frame in enumerate(stack[1:], start=1):
        kind = frame["kind"]
        need(kind not in ("turn", "begin_turn", "end_turn", "final_scoring",
                          "deal_objectives", "keep_objective", "shuffle_objectives", "reward"),
             f"stack[{i}]: a {kind} frame in the middle of a turn")
        need(kind in ANY_PLAYER_FRAMES or frame["player"] == state.current,
             f"stack[{i}] ({kind}): player {frame['player']} acts in player "
             f"{state.current}'s turn")
        if frame is not top:
            need(kind in WAITING_STEPS or kind == "take_tile", f"stack[{i}]: a {kind} "
                 "decision waits below another decision")
    need(sum(f["kind"] == "strait_check" for f in below_top) <= 1
         and all(f["kind"] != "strait_check" for f in below_top[1:]),
         "stack: a strait check waits only right above the turn menu")
    for i, frame in enumerate(below_top, start=1):
        if frame["kind"] == "draw":
            need(i == len(stack) - 2 and top["kind"] == "take_tile", f"stack[{i}]: a draw "
                 "waits only under the tile of the same reward")
        if frame["kind"] == "objective_limit":
            need(i == len(stack) - 2 and top["kind"] == "return_card", f"stack[{i}]: an "
                 "objective limit waits only under a return of cards")
    _check_top(rules, state, top)


def _check_top(rules, state: OriginState, frame: dict) -> None:
    """What the pending decision names is still there (its legal actions are worked out from
    it, and applying one relies on it)."""
    kind, player = frame["kind"], frame["player"]
    where = f"stack[-1] ({kind})"
    if kind in ("migrate_to", "swap_onto", "raft_destination", "exchange_second"):
        need(state.owner[frame["territory"]] == player, f"{where}: territory "
             f"{frame['territory']} does not hold a pawn of player {player}")
    elif kind == "evolve_pawn":
        need(state.owner[frame["territory"]] == EMPTY, f"{where}: territory "
             f"{frame['territory']} is not empty")
    elif kind == "barter_give":
        need(frame["taken"] in state.hands[frame["victim"]], f"{where}: the card taken "
             f"({frame['taken']}) is not in player {frame['victim']}'s hand")
    elif kind == "return_card":
        held = len(cards_in_hand(rules, state, player, frame["colour"]))
        need(frame["count"] <= held, f"{where}: {frame['count']} {frame['colour']} cards to "
             f"return, player {player} holds {held}")


def _check_setup(rules, state: OriginState) -> None:
    """During the setup (origin.md "Setup") the table is as it was laid out; the players keep
    their objectives in turn order from the start player."""
    n, comps = rules.num_players, rules.data.components
    keeps = state.stack[1:]
    pending = [f["player"] for f in reversed(keeps)]  # the next to keep first
    done = n - len(pending)
    need(pending == [(state.start_player + k) % n for k in range(done, n)],
         f"stack: the players keep objectives in turn order from the start player "
         f"{state.start_player}, pending {pending}")
    for k in range(n):
        p = (state.start_player + k) % n
        if k < done:
            kept, dealt_left = comps.objectives_kept, None
        else:
            frame = state.stack[len(state.stack) - 1 - (k - done)]
            kept = comps.objectives_kept - frame["keep"]
            dealt_left = comps.objectives_dealt - kept
            need(len(frame["dealt"]) == dealt_left, f"stack (keep_objective of player {p}): "
                 f"{len(frame['dealt'])} objectives dealt left, expected {dealt_left}")
        need(len(state.hands[p]) == kept, f"hands[{p}]: {len(state.hands[p])} cards in the "
             f"setup, expected the {kept} objective(s) kept so far")
    need(all(len(state.decks[d]) == len(rules.data.deck(c)) for d, c in enumerate(DECKS[:2])),
         "decks: no yellow or orange card is drawn in the setup")
    untouched = (not any(state.permanents) and not any(state.objectives_done)
                 and not any(state.objective_points) and not any(state.columns)
                 and not state.discard and state.lost_tiles == 0
                 and all(o == -1 for o in state.hunt_owner)
                 and all(o == -1 for o in state.strait_owner)
                 and all(o in (EMPTY, NEUTRAL) for o in state.owner)
                 and not state.end_triggered)
    need(untouched, "setup: the table is as laid out (no pawn placed, no card played, no "
         "tile or token taken) until the first turn")
