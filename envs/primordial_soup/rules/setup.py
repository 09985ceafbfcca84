"""Setup (primordial_soup.md "Setup"): the table, ladder start spaces by dice, then two start
amoebas per player."""

from __future__ import annotations

import numpy as np

from primeval.envs.primordial_soup.data import GENES
from primeval.envs.primordial_soup.rules.common import draw_environment_card, roll_die
from primeval.envs.primordial_soup.rules.registry import decision, step
from primeval.envs.primordial_soup.state import GameState, PlayerState


def set_up_table(rules, rng: np.random.Generator) -> GameState:
    """The table before the first decision: every player with the start BP and no amoeba on
    the board, the setup cubes on every space and the rest in the supply, every gene card in
    the supply, the first environment card turned; the start order is rolled next, by the
    ``setup_order`` step on the stack."""
    c = rules.config
    n = c.num_players
    spaces = rules.board.num_spaces
    state = GameState(
        num_players=n,
        round=0,
        phase="setup",
        players=[
            PlayerState(c.start_bp, 0, {}, [-1] * c.max_amoebas, [0] * c.max_amoebas,
                        [False] * c.max_amoebas)
            for _ in range(n)
        ],
        cubes=[[c.setup_cubes_per_space] * n for _ in range(spaces)],
        supply=[c.cubes_per_colour - c.setup_cubes_per_space * spaces] * n,
        gene_supply=[g.copies(n) for g in GENES],
        environment_card=-1,
        environment_deck=list(range(len(c.environment_deck))),
        stack=[{"kind": "setup_order"}],
    )
    draw_environment_card(state, rng)
    return state


@step("setup_order")
def setup_order(rules, state, frame, rng) -> None:
    """Everyone rolls the dice; ties re-roll. The highest roller picks a start space first."""
    config = rules.config
    state.stack.pop()
    rolls = {p: [] for p in range(state.num_players)}
    contenders = [list(range(state.num_players))]
    # Re-roll only within groups that tied, until every player has a distinct rank.
    while contenders:
        group = contenders.pop()
        totals = {p: sum(roll_die(rng) for _ in range(config.start_order_dice)) for p in group}
        for p in group:
            rolls[p].append(totals[p])
        by_total: dict[int, list[int]] = {}
        for p in group:
            by_total.setdefault(totals[p], []).append(p)
        contenders.extend(g for g in by_total.values() if len(g) > 1)
    order = sorted(range(state.num_players), key=lambda p: rolls[p], reverse=True)
    state.stack.append({"kind": "setup_amoebas"})
    for p in reversed(order):
        state.stack.append({"kind": "start_space", "player": p})


@decision("start_space", "player_{player} chooses a ladder start space")
class StartSpace:
    """Markers go on ladder spaces 1..4 (1..3 with 3 players), one marker per space."""

    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        taken = {ps.score for ps in state.players}
        for space in range(1, state.num_players + 1):
            if space not in taken:
                rules.layout.allow(mask, "start_space", space - 1)

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        state.players[frame["player"]].score = index + 1


@step("setup_amoebas")
def setup_amoebas(rules, state, frame, rng) -> None:
    """First start amoebas in ascending order (with 1 DP in a 4-player game), then the second
    ones in descending order with 0 DP."""
    state.stack.pop()
    state.stack.append({"kind": "begin_round"})
    for p in reversed(state.descending()):
        state.stack.append({"kind": "place_start", "player": p, "damage": 0})
    for p in reversed(state.ascending()):
        state.stack.append(
            {"kind": "place_start", "player": p, "damage": rules.config.start_damage}
        )


@decision("place_start", "player_{player} places a start amoeba")
class PlaceStart:
    """A start amoeba, any number 1..7, goes on a space with no amoeba at all."""

    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        ps = state.players[frame["player"]]
        occupied = {sp for p in state.players for sp in p.amoeba_space if sp >= 0}
        view = rules.layout.segment_view(mask, "place_amoeba")
        free_numbers = [i for i, sp in enumerate(ps.amoeba_space) if sp < 0]
        free_spaces = [s for s in range(rules.board.num_spaces) if s not in occupied]
        # every free number on every free space (as ``np.ix_``, without its checks' cost)
        view[np.asarray(free_numbers, dtype=np.intp)[:, None],
             np.asarray(free_spaces, dtype=np.intp)] = True

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        amoeba, space = index
        ps = state.players[frame["player"]]
        ps.amoeba_space[amoeba] = space
        ps.amoeba_damage[amoeba] = frame["damage"]
