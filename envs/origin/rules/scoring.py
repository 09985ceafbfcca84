"""Final scoring and the tie-break (origin.md "Final scoring")."""

from __future__ import annotations

from primeval.envs.origin.rules.registry import step

#: The sources of a player's points (origin.md "Final scoring"), the keys of :func:`points`.
POINT_SOURCES: tuple[str, ...] = ("objectives", "cards_in_hand", "hunting_tokens",
                                  "strait_tokens", "tiles", "column_bonus")


def points(rules, state, player: int) -> dict[str, int]:
    """A player's points by source."""
    return all_points(rules, state)[player]


def all_points(rules, state, hunting: list[int] | None = None,
               straits: list[int] | None = None) -> list[dict[str, int]]:
    """Every player's :func:`points`, in seat order (one pass over the tokens).

    Args:
        hunting, straits: The value of the hunting and strait tokens each seat holds, when
            the caller has counted them already (the observation encoders do).
    """
    n = state.num_players
    if hunting is None:
        hunting = _held_by_seat(state.hunt_value, state.hunt_owner, n)
    if straits is None:
        straits = _held_by_seat(state.strait_value, state.strait_owner, n)
    return [points_holding(rules, state, p, hunting=hunting[p], straits=straits[p])
            for p in range(n)]


def points_holding(rules, state, player: int, hunting: int, straits: int) -> dict[str, int]:
    """A player's :func:`points` by source, given the value of the hunting and strait
    tokens they hold."""
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
        "hunting_tokens": hunting,
        "strait_tokens": straits,
        "tiles": tiles,
        "column_bonus": columns_bonus,
    }


def _held_by_seat(values: list[int], owners: list[int], num_players: int) -> list[int]:
    """Total value of the tokens each seat holds."""
    held = [0] * num_players
    for value, owner in zip(values, owners, strict=True):
        if owner >= 0:
            held[owner] += value
    return held


def total(rules, state, player: int) -> int:
    return sum(points(rules, state, player).values())


@step("final_scoring")
def final_scoring(rules, state, frame, rng) -> None:
    state.stack.pop()
    state.phase = "game_over"
