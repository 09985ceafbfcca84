"""Phase 6 and the end of the game (primordial_soup.md "Phase 6: Scoring" and "End of the
game"): Advance Table, leapfrog, winner."""

from __future__ import annotations

from primeval.envs.primordial_soup.data import ADVANCE_FOR_AMOEBAS, ADVANCE_FOR_GENES
from primeval.envs.primordial_soup.rules.common import gene_count_for_advance
from primeval.envs.primordial_soup.rules.registry import step


def advance_distance(ps) -> int:
    """Spaces a player advances: live amoebas plus genes (advanced 2, Ray Protection 0)."""
    amoebas = len(ps.amoebas_on_board())
    genes = gene_count_for_advance(ps)
    return (ADVANCE_FOR_AMOEBAS[min(amoebas, len(ADVANCE_FOR_AMOEBAS) - 1)]
            + ADVANCE_FOR_GENES[min(genes, len(ADVANCE_FOR_GENES) - 1)])


def leapfrog(target_start: int, distance: int, occupied: set[int]) -> int:
    """Move a marker ``distance`` free spaces forward; occupied spaces are not counted."""
    position = target_start
    left = distance
    while left > 0:
        position += 1
        if position not in occupied:
            left -= 1
    return position


@step("advance")
def advance(rules, state, frame, rng) -> None:
    """Each player in descending order advances by the Advance Table, leapfrogging markers."""
    state.stack.pop()
    for p in state.descending():
        ps = state.players[p]
        occupied = {other.score for q, other in enumerate(state.players) if q != p}
        ps.score = leapfrog(ps.score, advance_distance(ps), occupied)


@step("end_of_round")
def end_of_round(rules, state, frame, rng) -> None:
    """The game ends after phase 6 when a marker is in the finish zone, or when the last
    environment card was turned over this round; otherwise the next round begins."""
    state.stack.pop()
    in_zone = any(ps.score >= rules.config.finish_zone_start for ps in state.players)
    if in_zone or not state.environment_deck:
        state.phase = "game_over"
    else:
        state.stack.append({"kind": "begin_round"})
