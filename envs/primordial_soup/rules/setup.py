"""Setup (spec section 7): ladder start spaces by dice, then two start amoebas per player."""

from __future__ import annotations

from primeval.envs.primordial_soup.rules.common import roll_die
from primeval.envs.primordial_soup.rules.registry import decision, step


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
        for space in range(rules.board.num_spaces):
            if space not in occupied:
                view[free_numbers, space] = True

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        amoeba, space = index
        ps = state.players[frame["player"]]
        ps.amoeba_space[amoeba] = space
        ps.amoeba_damage[amoeba] = frame["damage"]
