"""Playing cards (origin.md "Cards" and "Playing cards").

Up to one card of each colour per turn, only on one's own turn (several objectives in the
final round). Yellow: the effect at once, then discarded (out of the game). Orange: needs a
tile of the card's level; stays in play for good. Purple: when its condition holds, scored at
once, then a new objective is drawn (not in the final round).

Each effect kind is implemented once, in :data:`YELLOW`, and lasting effects (this turn's
yellow cards, orange cards in play) are read by the rule they change through
``effects.effects``.
"""

from __future__ import annotations

from collections.abc import Callable

from primeval.envs.core import chance
from primeval.envs.origin.rules.effects import add_turn_card, bonus, has_effect
from primeval.envs.origin.rules.objectives import holds
from primeval.envs.origin.rules.registry import decision
from primeval.envs.origin.rules.tiles import can_place, place_tile, takeable_slots
from primeval.envs.origin.state import DECKS, EMPTY, OriginState

#: Deck of each card colour, as ``OriginState.decks`` holds them.
DECK_INDEX = {name: i for i, name in enumerate(DECKS)}


def cards_in_hand(rules, state: OriginState, player: int, colour: str) -> list[int]:
    """The cards of a colour in a player's hand, in hand order."""
    return [c for c in state.hands[player] if rules.data.cards[c].colour == colour]


def playable_cards(rules, state, player: int) -> list[int]:
    """Cards in the player's hand that may be played now."""
    played = state.turn_state.get("played", ())
    final = state.phase == "final_round"
    result = []
    for c in state.hands[player]:
        card = rules.data.cards[c]
        if card.colour in played and not (card.colour == "purple" and final):
            continue
        if card.colour == "yellow":
            ok = YELLOW[card.kind][0](rules, state, player, card.effect)
        elif card.colour == "orange":
            ok = card.level in state.tiles_of(player)
        else:
            ok = holds(rules, state, player, c)
        if ok:
            result.append(c)
    return result


def play_card(rules, state, player: int, card_index: int, rng) -> None:
    """Play a card from the hand (its legality was checked by the mask)."""
    card = rules.data.cards[card_index]
    state.hands[player].remove(card_index)
    state.turn_state["played"] = (*state.turn_state.get("played", ()), card.colour)
    if card.colour == "yellow":
        state.discard.append(card_index)
        YELLOW[card.kind][1](rules, state, player, card_index, rng)
    elif card.colour == "orange":
        state.permanents[player].append(card_index)
    else:
        state.objectives_done[player].append(card_index)
        state.objective_points[player] += card.points + bonus(
            rules, state, player, "objective_bonus", "points")
        if state.phase != "final_round":
            state.stack.append({"kind": "draw", "player": player,
                                "deck": DECK_INDEX["purple"], "count": 1})


# Yellow effects: kind -> (can it be used now?, resolve) ------------------------------------------

Check = Callable[..., bool]
Resolve = Callable[..., None]
YELLOW: dict[str, tuple[Check, Resolve]] = {}


def yellow(kind: str, check: Check):
    def register(fn: Resolve) -> Resolve:
        YELLOW[kind] = (check, fn)
        return fn

    return register


def _always(rules, state, player, effect) -> bool:
    return True


def _others(state, player: int) -> list[int]:
    n = state.num_players
    return [(player + k) % n for k in range(1, n)]


@yellow("extra_action", _always)
def extra_action(rules, state, player, card, rng) -> None:
    """One extra action of the card's type this turn (with its reward), optional."""
    action = rules.data.cards[card].effect["action"]
    state.turn_state["extra_actions"] = (*state.turn_state.get("extra_actions", ()), action)


@yellow("range_bonus", _always)
def range_bonus(rules, state, player, card, rng) -> None:
    """Migrate/Swap range +amount for the rest of the turn."""
    add_turn_card(state, card)


@yellow("free_straits", _always)
def free_straits(rules, state, player, card, rng) -> None:
    """Strait crossings cost no steps for the rest of the turn."""
    add_turn_card(state, card)


@yellow("evolve_changes", _always)
def evolve_changes(rules, state, player, card, rng) -> None:
    """This turn an Evolve may change more traits (each change legal on its own)."""
    add_turn_card(state, card)


def raft_moves(rules, state, player) -> dict[int, list[int]]:
    world = rules.data.world
    mine = state.territories_of(player)
    ends = set()
    for a, b in world.straits:
        if a in mine:
            ends.add(b)
        if b in mine:
            ends.add(a)
    dests = sorted(t for t in ends if state.owner[t] == EMPTY)
    return {src: dests for src in mine} if dests else {}


@yellow("raft", lambda rules, state, player, effect: bool(raft_moves(rules, state, player)))
def raft(rules, state, player, card, rng) -> None:
    """Move one of your pawns to an empty territory across a strait from one of your pawns,
    and take its reward."""
    state.stack.append({"kind": "raft_pawn", "player": player})


@decision("raft_pawn", "player_{player} chooses the pawn to carry by raft")
class RaftPawn:
    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        view = rules.layout.segment_view(mask, "choose_territory")
        view[list(raft_moves(rules, state, frame["player"]))] = True

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        state.stack.append({"kind": "raft_destination", "player": frame["player"],
                            "territory": index})


@decision("raft_destination", "player_{player} chooses where the raft carrying the pawn on {territory} lands")
class RaftDestination:
    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        view = rules.layout.segment_view(mask, "choose_territory")
        view[raft_moves(rules, state, frame["player"])[frame["territory"]]] = True

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        player, src = frame["player"], frame["territory"]
        state.pawn[index], state.owner[index] = state.pawn[src], player
        state.pawn[src], state.owner[src] = -1, EMPTY
        state.stack.append({"kind": "strait_check", "player": player})
        state.stack.append({"kind": "reward", "player": player, "territory": index,
                            "via": "raft"})


def _victims(state, player: int, has) -> list[int]:
    """Other players for whom ``has(state, q)`` holds."""
    return [q for q in _others(state, player) if has(state, q)]


def _has_cards(state, q: int) -> bool:
    return bool(state.hands[q])


def _has_tiles(state, q: int) -> bool:
    return bool(state.columns[q])


class _ChooseVictim:
    """A decision choosing another player (relative seat) who has something to take;
    subclasses set ``has`` and what happens ``then``."""

    has = staticmethod(_has_cards)

    @classmethod
    def legal(cls, rules, state, frame, mask) -> None:
        player = frame["player"]
        for q in _victims(state, player, cls.has):
            rules.layout.allow(mask, "choose_player", (q - player) % state.num_players - 1)

    @classmethod
    def apply(cls, rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        player = frame["player"]
        cls.then(rules, state, player, (player + index + 1) % state.num_players, rng)

    @staticmethod
    def then(rules, state, player: int, victim: int, rng) -> None:
        raise NotImplementedError


@yellow("steal_card", lambda rules, state, player, effect:
        bool(_victims(state, player, _has_cards)))
def steal_card(rules, state, player, card, rng) -> None:
    """Take a random card from another player's hand."""
    state.stack.append({"kind": "steal_card", "player": player})


@decision("steal_card", "player_{player} chooses whom to steal a card from")
class StealCard(_ChooseVictim):
    @staticmethod
    def then(rules, state, player: int, victim: int, rng) -> None:
        hand = state.hands[victim]
        taken = hand.pop(chance.pick(rng, len(hand), f"card stolen from player {victim}"))
        state.hands[player].append(taken)
        if rules.data.cards[taken].colour == "purple":
            state.stack.append({"kind": "objective_limit", "player": player})


@yellow("steal_tile", lambda rules, state, player, effect:
        bool(_victims(state, player, _has_tiles)))
def steal_tile(rules, state, player, card, rng) -> None:
    """Take the top tile of one of another player's columns; keep it if it fits your
    columns, otherwise it leaves the game."""
    state.stack.append({"kind": "steal_tile", "player": player})


@decision("steal_tile", "player_{player} chooses whom to raid")
class StealTile(_ChooseVictim):
    has = staticmethod(_has_tiles)

    @staticmethod
    def then(rules, state, player: int, victim: int, rng) -> None:
        state.stack.append({"kind": "steal_tile_column", "player": player, "victim": victim})


@decision("steal_tile_column", "player_{player} chooses the column of player_{victim} to raid")
class StealTileColumn:
    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        view = rules.layout.segment_view(mask, "choose_column")
        view[: len(state.columns[frame["victim"]])] = True

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        player, victim = frame["player"], frame["victim"]
        column = state.columns[victim][index]
        level = column.pop()
        if not column:
            del state.columns[victim][index]
        if can_place(state, player, level):
            place_tile(state, player, level)
        else:
            state.lost_tiles += 1


def claimable_straits(rules, state, player) -> list[int]:
    return [s for s, (a, b) in enumerate(rules.data.world.straits)
            if state.strait_owner[s] not in (-1, player)
            and player in (state.owner[a], state.owner[b])]


@yellow("steal_strait_token", lambda rules, state, player, effect:
        bool(claimable_straits(rules, state, player)))
def steal_strait_token(rules, state, player, card, rng) -> None:
    """Take a strait token from another player if you hold at least one end of it."""
    state.stack.append({"kind": "claim_strait", "player": player})


@decision("claim_strait", "player_{player} chooses the strait token to claim")
class ClaimStrait:
    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        view = rules.layout.segment_view(mask, "choose_strait")
        view[claimable_straits(rules, state, frame["player"])] = True

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        state.strait_owner[index] = frame["player"]
        if has_effect(rules, state, frame["player"], "strait_tile"):
            # Trade Routes: whenever you take a strait token, also take a tile
            state.stack.append({"kind": "take_tile", "player": frame["player"],
                                "colours": ("yellow", "orange", "purple", "brown"),
                                "count": 1})


@yellow("take_tile", lambda rules, state, player, effect: bool(
    takeable_slots(rules, state, player, ("yellow", "orange", "purple", "brown"))))
def inspiration(rules, state, player, card, rng) -> None:
    """Take tile(s) from any column of the rewards board (stacking rules apply)."""
    state.stack.append({"kind": "take_tile", "player": player,
                        "colours": ("yellow", "orange", "purple", "brown"),
                        "count": rules.data.cards[card].effect["count"]})


@yellow("draw_cards", lambda rules, state, player, effect: any(state.decks))
def foresight(rules, state, player, card, rng) -> None:
    """Draw the top cards of one deck of your choice."""
    state.stack.append({"kind": "choose_deck", "player": player,
                        "count": rules.data.cards[card].effect["count"], "reason": "card"})


def _barter_ok(rules, state, player, effect) -> bool:
    # The Barter card itself leaves the hand when played: another card must remain.
    return len(state.hands[player]) >= 2 and bool(_victims(state, player, _has_cards))


@yellow("barter", _barter_ok)
def barter(rules, state, player, card, rng) -> None:
    """Look at another player's hand and exchange one of your cards for one of theirs."""
    state.stack.append({"kind": "barter_player", "player": player})


@decision("barter_player", "player_{player} chooses whom to barter with")
class BarterPlayer(_ChooseVictim):
    @staticmethod
    def then(rules, state, player: int, victim: int, rng) -> None:
        state.stack.append({"kind": "barter_take", "player": player, "victim": victim})


@decision("barter_take", "player_{player} looks at player_{victim}'s hand and takes a card")
class BarterTake:
    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        view = rules.layout.segment_view(mask, "take_card")
        view[state.hands[frame["victim"]]] = True

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        state.stack.append({"kind": "barter_give", "player": frame["player"],
                            "victim": frame["victim"], "taken": index})


@decision("barter_give", "player_{player} gives a card to player_{victim} in exchange")
class BarterGive:
    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        view = rules.layout.segment_view(mask, "give_card")
        view[state.hands[frame["player"]]] = True

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        player, victim, taken = frame["player"], frame["victim"], frame["taken"]
        state.hands[victim].remove(taken)
        state.hands[player].remove(index)
        state.hands[player].append(taken)
        state.hands[victim].append(index)
        for p in (player, victim):
            state.stack.append({"kind": "objective_limit", "player": p})


def hunt_targets(rules, state, player, distance: int) -> list[int]:
    world = rules.data.world
    mine = state.territories_of(player)
    return [t for t in range(world.size)
            if state.hunt_owner[t] == -1 and state.hunt_value[t] > 0
            and world.territories[t].colour == "green"
            and any(world.steps[t][m] <= distance for m in mine)]


@yellow("great_hunt", lambda rules, state, player, effect:
        bool(hunt_targets(rules, state, player, effect["distance"])))
def great_hunt(rules, state, player, card, rng) -> None:
    """Take a hunting token still on a green territory within reach of one of your pawns."""
    state.stack.append({"kind": "great_hunt", "player": player,
                        "distance": rules.data.cards[card].effect["distance"]})


@decision("great_hunt", "player_{player} chooses the hunting token to take")
class GreatHunt:
    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        view = rules.layout.segment_view(mask, "choose_territory")
        view[hunt_targets(rules, state, frame["player"], frame["distance"])] = True

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        player = frame["player"]
        state.hunt_owner[index] = player
        if has_effect(rules, state, player, "hunt_draw"):
            state.stack.append({"kind": "choose_deck", "player": player, "count": 1,
                                "reason": "hunt_draw"})


@yellow("exchange_pawns", lambda rules, state, player, effect:
        len(state.territories_of(player)) >= 2)
def exchange_pawns(rules, state, player, card, rng) -> None:
    """Exchange the places of two of your pawns (villages move with them); no rewards."""
    state.stack.append({"kind": "exchange_first", "player": player})


@decision("exchange_first", "player_{player} chooses the first pawn to exchange")
class ExchangeFirst:
    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        view = rules.layout.segment_view(mask, "choose_territory")
        view[state.territories_of(frame["player"])] = True

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        state.stack.append({"kind": "exchange_second", "player": frame["player"],
                            "territory": index})


@decision("exchange_second", "player_{player} chooses the pawn to exchange with {territory}")
class ExchangeSecond:
    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        view = rules.layout.segment_view(mask, "choose_territory")
        view[[t for t in state.territories_of(frame["player"])
              if t != frame["territory"]]] = True

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        a = frame["territory"]
        state.pawn[a], state.pawn[index] = state.pawn[index], state.pawn[a]


__all__ = ["DECK_INDEX", "YELLOW", "cards_in_hand", "play_card", "playable_cards"]
