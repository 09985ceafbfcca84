"""The round (primordial_soup.md "The round"): six phases, each in ascending or descending
ladder order."""

from __future__ import annotations

from primeval.envs.primordial_soup.rules.common import draw_environment_card, mutation_points
from primeval.envs.primordial_soup.rules.registry import step


@step("begin_round")
def begin_round(rules, state, frame, rng) -> None:
    """Start a round: queue phases 1 to 6."""
    state.stack.pop()
    state.round += 1
    for ps in state.players:
        ps.aggression_used = False
        ps.amoeba_done = [False] * len(ps.amoeba_done)
    for kind in ("phase6", "phase5", "phase4", "phase3", "phase2", "phase1"):
        state.stack.append({"kind": kind})


@step("phase1")
def phase1(rules, state, frame, rng) -> None:
    """Phase 1, move and feed, ascending: each player finishes all their amoebas in turn."""
    state.stack.pop()
    state.phase = "movement_and_feeding"
    for p in reversed(state.ascending()):
        state.stack.append({"kind": "amoeba_turns", "player": p})


@step("amoeba_turns")
def amoeba_turns(rules, state, frame, rng) -> None:
    """Take the player's next amoeba in number order that has not yet had its turn.

    An amoeba that was carried elsewhere before its turn (Escape, Holding) still takes it,
    from its new space; one that was eaten is skipped.
    """
    ps = state.players[frame["player"]]
    for amoeba, space in enumerate(ps.amoeba_space):
        if space >= 0 and not ps.amoeba_done[amoeba]:
            ps.amoeba_done[amoeba] = True
            state.stack.append(
                {"kind": "feed", "player": frame["player"], "amoeba": amoeba,
                 "struggle_used": False}
            )
            state.stack.append({"kind": "move", "player": frame["player"], "amoeba": amoeba})
            return
    state.stack.pop()


@step("phase2")
def phase2(rules, state, frame, rng) -> None:
    """Phase 2: turn a new environment card; gene defects are fixed now and paid descending."""
    state.stack.pop()
    state.phase = "environment"
    draw_environment_card(state, rng)
    ozone = rules.config.environment_deck[state.environment_card][1]
    for p in reversed(state.descending()):
        due = mutation_points(state.players[p]) - ozone
        if due > 0:
            state.stack.append({"kind": "defect", "player": p, "remaining": due})


@step("phase3")
def phase3(rules, state, frame, rng) -> None:
    """Phase 3, descending: each player buys any number of genes in one turn."""
    state.stack.pop()
    state.phase = "new_genes"
    for p in reversed(state.descending()):
        state.stack.append({"kind": "buy", "player": p})


@step("phase4")
def phase4(rules, state, frame, rng) -> None:
    """Phase 4, descending: +10 BP, then cell division."""
    state.stack.pop()
    state.phase = "cell_division"
    for p in reversed(state.descending()):
        state.stack.append({"kind": "division_income", "player": p})


@step("phase5")
def phase5(rules, state, frame, rng) -> None:
    """Phase 5, descending: natural deaths of all players first, then Aggression."""
    state.stack.pop()
    state.phase = "deaths"
    for p in reversed(state.descending()):
        state.stack.append({"kind": "aggression", "player": p})
    state.stack.append({"kind": "natural_deaths"})


@step("phase6")
def phase6(rules, state, frame, rng) -> None:
    """Phase 6, descending: advance on the ladder, then check for the end of the game."""
    state.stack.pop()
    state.phase = "scoring"
    state.stack.append({"kind": "end_of_round"})
    state.stack.append({"kind": "advance"})
