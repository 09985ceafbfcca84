"""Cell division (primordial_soup.md "Phase 4: Cell division"): income, new amoebas, Spores, the
0/1 cases."""

from __future__ import annotations

from primeval.envs.primordial_soup.rules.registry import decision, step


@step("division_income")
def division_income(rules, state, frame, rng) -> None:
    """Each player receives the income (10 BP) at the start of their division turn."""
    state.stack.pop()
    state.players[frame["player"]].bp += rules.config.income_bp
    state.stack.append({"kind": "divide", "player": frame["player"], "free_used": False})


def division_cost(rules, ps) -> int:
    return rules.config.division_cost_with_rate if ps.has("division_rate") else \
        rules.config.division_cost


def division_spaces(rules, state, player: int, free_used: bool) -> tuple[list[int], bool]:
    """Spaces a new amoeba may go on, and whether this placement is free.

    A new amoeba goes on a space without one of your amoebas, orthogonally adjacent to one
    (Spores: anywhere). With no amoeba on the board the first one is free and goes anywhere;
    with exactly one, the next goes anywhere at normal cost.
    """
    ps = state.players[player]
    own = {sp for sp in ps.amoeba_space if sp >= 0}
    board = rules.board
    free = not own and not free_used
    if not free and ps.bp < division_cost(rules, ps):
        return [], False
    anywhere = len(own) <= 1 or ps.has("spores")
    beside_own = {a for sp in own for a in board.adjacent(sp)}  # adjacency is symmetric
    spaces = [
        s for s in range(board.num_spaces) if s not in own and (anywhere or s in beside_own)
    ]
    return spaces, free


@decision("divide", "player_{player} divides amoebas")
class Divide:
    """Phase 4: place new amoebas (numbers not on the board) for 6 BP each (4 with Division
    Rate); ``pass`` ends the turn."""

    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        player = frame["player"]
        spaces, _ = division_spaces(rules, state, player, frame["free_used"])
        numbers = [i for i, sp in enumerate(state.players[player].amoeba_space) if sp < 0]
        if spaces and numbers:
            view = rules.layout.segment_view(mask, "place_amoeba")
            for i in numbers:
                view[i, spaces] = True
        rules.layout.allow(mask, "pass")

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        if segment == "pass":
            state.stack.pop()
            return
        player = frame["player"]
        ps = state.players[player]
        _, free = division_spaces(rules, state, player, frame["free_used"])
        amoeba, space = index
        if free:
            frame["free_used"] = True
        else:
            ps.bp -= division_cost(rules, ps)
        ps.amoeba_space[amoeba] = space
        ps.amoeba_damage[amoeba] = 0
