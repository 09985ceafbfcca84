"""Card effects in force and the rule values they change (origin.md "Yellow action cards",
"Orange permanent cards" and "Playing cards").

A lasting effect is an orange card in play or a yellow card played this turn whose effect
lasts for the turn. Each rule that a card can change (range, straits, evolution, objective
hand limit) asks here through :func:`effects`, so each effect kind is read in one place.
"""

from __future__ import annotations

from typing import Any

from primeval.envs.origin.state import OriginState


def effects(rules, state: OriginState, player: int, kind: str) -> list[dict[str, Any]]:
    """The effects of this kind in force for a player: their orange cards in play, and the
    yellow cards they played this turn whose effect lasts for the turn."""
    in_force = state.permanents[player]
    if state.current == player and "turn_cards" in state.turn_state:
        in_force = [*in_force, *state.turn_state["turn_cards"]]
    if not in_force:
        return []
    cards = rules.data.cards
    return [cards[c].effect for c in in_force if cards[c].kind == kind]


def bonus(rules, state: OriginState, player: int, kind: str, param: str) -> int:
    """Sum of a numeric parameter over the effects of a kind in force."""
    return sum(int(e[param]) for e in effects(rules, state, player, kind))


def has_effect(rules, state: OriginState, player: int, kind: str) -> bool:
    return bool(effects(rules, state, player, kind))


def add_turn_card(state: OriginState, card: int) -> None:
    """A yellow card whose effect lasts for the rest of the current turn."""
    state.turn_state["turn_cards"] = (*state.turn_state.get("turn_cards", ()), card)


def range_bonus(rules, state: OriginState, player: int) -> int:
    """Migrate/Swap range beyond the pawn's height: range bonuses and Leadership."""
    return (bonus(rules, state, player, "range_bonus", "amount")
            + bonus(rules, state, player, "leadership", "height"))


def free_straits(rules, state: OriginState, player: int) -> bool:
    """Whether strait crossings cost the player's Migrate/Swap no step (Canoes, Sea Voyage)."""
    return has_effect(rules, state, player, "free_straits")


def evolve_changes(rules, state: OriginState, player: int) -> int:
    """Traits an evolution may change: 1, or more with Mutation/Adaptation."""
    return max([1] + [int(e["amount"]) for e in effects(rules, state, player, "evolve_changes")])


def evolve_distance(rules, state: OriginState, player: int) -> int:
    """Steps between a new pawn and its reference pawn: 1, or more with Pioneers."""
    return max([1] + [int(e["distance"])
                      for e in effects(rules, state, player, "evolve_distance")])


def objective_limit(rules, state: OriginState, player: int) -> int:
    return max([rules.data.components.objective_hand_limit]
               + [int(e["limit"]) for e in effects(rules, state, player, "objective_limit")])
