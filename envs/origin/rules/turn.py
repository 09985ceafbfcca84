"""A turn and the end of the game (origin.md "A turn", "End of the game" and "Final round").

A turn: exactly one of Evolve, Migrate and Swap (where each may go is in ``moves``), cards at
any point of one's own turn, then the next player. The end: as soon as an end condition holds
it is latched (:func:`check_end`); the turn is finished, then every player plays one final
turn and the game is scored.
"""

from __future__ import annotations

from primeval.envs.origin.rules.cards import play_card, playable_cards
from primeval.envs.origin.rules.moves import (
    evolve_options,
    evolve_targets,
    migrate_options,
    migrate_sources,
    swap_options,
    swap_sources,
)
from primeval.envs.origin.rules.registry import decision, step
from primeval.envs.origin.state import EMPTY, OriginState

ACTIONS = ("evolve", "migrate", "swap")


def actions_open(state) -> tuple[str, ...]:
    """Action types the current player may still take this turn: any one as the turn's
    action, then the extra ones granted by cards."""
    ts = state.turn_state
    if not ts.get("action_taken"):
        return ACTIONS
    return tuple(ts.get("extra_actions", ()))


def action_firsts(rules, state, player: int) -> dict[str, list[int]]:
    """Per open action type with a choice, its first choices: where to evolve, which pawn
    migrates or swaps (the keys of ``evolve_options``, ``migrate_options`` and
    ``swap_options``, found without listing every second choice)."""
    found = {}
    for action in actions_open(state):
        firsts = _FIRSTS[action](rules, state, player)
        if firsts:
            found[action] = firsts
    return found


_FIRSTS = {"evolve": evolve_targets, "migrate": migrate_sources, "swap": swap_sources}


@step("begin_turn")
def begin_turn(rules, state, frame, rng) -> None:
    state.stack.pop()
    state.turn += 1
    state.current = frame["player"]
    state.turn_state = {}
    state.stack.append({"kind": "turn", "player": frame["player"]})


@decision("turn", "player_{player} takes an action, plays a card or ends the turn")
class Turn:
    """The turn menu. The first choice of an action (where to evolve, which pawn migrates or
    swaps) starts it; ``play_card`` plays a card; ``pass`` ends the turn, allowed once the
    action is taken or when no action is possible (the player passes the action)."""

    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        player = frame["player"]
        options = action_firsts(rules, state, player)
        first = {"evolve": "evolve_at", "migrate": "migrate_from", "swap": "swap_from"}
        for action, firsts in options.items():
            view = rules.layout.segment_view(mask, first[action])
            view[firsts] = True
        for card in playable_cards(rules, state, player):
            rules.layout.allow(mask, "play_card", card)
        if state.turn_state.get("action_taken") or not options:
            rules.layout.allow(mask, "pass")

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        player = frame["player"]
        if segment == "pass":
            state.stack.pop()
            state.stack.append({"kind": "end_turn", "player": player})
        elif segment == "play_card":
            play_card(rules, state, player, index, rng)
        else:
            second = {"evolve_at": "evolve_pawn", "migrate_from": "migrate_to",
                      "swap_from": "swap_onto"}[segment]
            state.stack.append({"kind": second, "player": player, "territory": index})


def _use_action(state, action: str) -> None:
    ts = state.turn_state
    if not ts.get("action_taken"):
        ts["action_taken"] = True
    else:
        extra = list(ts.get("extra_actions", ()))
        extra.remove(action)
        ts["extra_actions"] = tuple(extra)


def _after_move(state, player: int, entered: int, via: str) -> None:
    """The reward of the territory entered, then the strait checks."""
    state.stack.append({"kind": "strait_check", "player": player})
    state.stack.append({"kind": "reward", "player": player, "territory": entered, "via": via})


@decision("evolve_pawn", "player_{player} chooses the pawn evolving onto territory {territory}")
class EvolvePawn:
    """Evolve: a reserve pawn and a village go on the empty territory; the pawn must be
    compatible with a neighbouring pawn (two traits equal, the third another colour or one
    taller or one wider)."""

    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        view = rules.layout.segment_view(mask, "evolve_pawn")
        view[evolve_options(rules, state, frame["player"], only=frame["territory"])[
            frame["territory"]]] = True

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        player, target = frame["player"], frame["territory"]
        state.reserve[index] -= 1
        state.villages[player] -= 1
        state.pawn[target] = index
        state.owner[target] = player
        _use_action(state, "evolve")
        check_end(rules, state)
        _after_move(state, player, target, "evolve")


@decision("migrate_to", "player_{player} chooses where the pawn on {territory} migrates")
class MigrateTo:
    """Migrate: your pawn and its village move to an empty territory at most its height in
    steps away (through occupied territories, straits included)."""

    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        view = rules.layout.segment_view(mask, "migrate_to")
        view[migrate_options(rules, state, frame["player"], only=frame["territory"])[
            frame["territory"]]] = True

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        player, src = frame["player"], frame["territory"]
        state.pawn[index], state.owner[index] = state.pawn[src], player
        state.pawn[src], state.owner[src] = -1, EMPTY
        _use_action(state, "migrate")
        _after_move(state, player, index, "migrate")


@decision("swap_onto", "player_{player} chooses the pawn that the one on {territory} swaps")
class SwapOnto:
    """Swap: your pawn moves (within its range) onto another player's strictly thinner pawn,
    which goes with its village to the territory yours left. Only you take a reward."""

    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        view = rules.layout.segment_view(mask, "swap_onto")
        view[swap_options(rules, state, frame["player"], only=frame["territory"])[
            frame["territory"]]] = True

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        player, src = frame["player"], frame["territory"]
        other = state.owner[index]
        state.pawn[index], state.pawn[src] = state.pawn[src], state.pawn[index]
        state.owner[index], state.owner[src] = player, other
        _use_action(state, "swap")
        _after_move(state, player, index, "swap")


@step("end_turn")
def end_turn(rules, state, frame, rng) -> None:
    """Pass to the next player clockwise. After the end is triggered, every player, the
    triggering one included, plays exactly one final turn; then the game is scored."""
    state.stack.pop()
    n = state.num_players
    player = frame["player"]
    check_end(rules, state)
    if state.phase == "final_round":
        state.final_turns_left -= 1
        if state.final_turns_left <= 0:
            state.stack.append({"kind": "final_scoring"})
            return
        following = (player + 1) % n
    elif state.end_triggered:
        state.phase = "final_round"
        state.final_turns_left = n
        following = player if rules.config.final_round_starts_with_trigger else (player + 1) % n
    else:
        following = (player + 1) % n
    state.stack.append({"kind": "begin_turn", "player": following})


# The end of the game (origin.md "End of the game") ------------------------------------------

def end_condition(rules, state: OriginState) -> str | None:
    """The end trigger that holds now, if any (origin.md "End of the game")."""
    if any(not deck for deck in state.decks):
        return "a deck is empty"
    if not any(state.slots) and not any(state.tile_reserve):
        return "every innovation tile has been taken"
    if not any(state.reserve):
        return "the pawn reserve is empty"
    if all(v == 0 for v in state.villages):
        return "every player has placed all villages"
    return None


def check_end(rules, state: OriginState) -> None:
    """Latch the end trigger as soon as a condition holds (a later refill does not undo it)."""
    if not state.end_triggered and end_condition(rules, state) is not None:
        state.end_triggered = True
