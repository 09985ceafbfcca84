"""Final scoring and the tie-break (spec section 6.9)."""

from __future__ import annotations

from primeval.envs.origin.rules.registry import step


def points(rules, state, player: int) -> dict[str, int]:
    """A player's points by source."""
    comps = rules.data.components
    cards = rules.data.cards
    tiles = sum(comps.tile_points[level] for col in state.columns[player] for level in col)
    columns_bonus = 0
    for c in state.permanents[player]:
        effect = cards[c].effect
        if effect["kind"] == "column_bonus":
            columns_bonus += effect["points"] * sum(
                1 for col in state.columns[player] if col and col[-1] >= effect["level"])
    return {
        "objectives": state.objective_points[player],
        "cards_in_hand": len(state.hands[player]),
        "hunting_tokens": _held(state.hunt_value, state.hunt_owner, player),
        "strait_tokens": _held(state.strait_value, state.strait_owner, player),
        "tiles": tiles,
        "column_bonus": columns_bonus,
    }


def _held(values: list[int], owners: list[int], player: int) -> int:
    """Total value of the tokens a player holds."""
    if player not in owners:
        return 0
    return sum(v for v, o in zip(values, owners, strict=True) if o == player)


def total(rules, state, player: int) -> int:
    return sum(points(rules, state, player).values())


@step("final_scoring")
def final_scoring(rules, state, frame, rng) -> None:
    state.stack.pop()
    state.phase = "game_over"
