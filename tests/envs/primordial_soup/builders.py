"""Helpers for rule tests: hand-built positions and scripted dice.

``table()`` gives a position at the start of a round with no amoebas, no genes and every
space holding the setup cubes; tests then place exactly what a rule needs and push the frame
(decision or step) they want to exercise, and ``run()`` carries out automatic steps until the
next decision, as the rules engine does after every action.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from primeval.envs.core.chance import ChanceEvent, ChanceSource
from primeval.envs.primordial_soup.data import GENE_INDEX
from primeval.envs.primordial_soup.rules import PrimordialSoupRules
from primeval.envs.primordial_soup.state import GameState


class ScriptedDice(ChanceSource):
    """Scripted chance (:mod:`primeval.envs.core.chance`): each die takes the next scripted
    face, and anything else (drawing an environment card) the next scripted value too (the
    card's index among those not turned). Running out raises, so a test notices an
    unexpected roll; a value the event cannot take raises naming the event.
    """

    def __init__(self, values: Iterable[int]) -> None:
        self.values = list(values)

    def draw(self, event: ChanceEvent) -> int:
        if not self.values:
            raise AssertionError(f"the rules rolled more dice than the test scripted "
                                 f"(next: {event.label})")
        return event.check(self.values.pop(0))


def table(num_players: int = 4, round: int = 1, phase: str = "movement_and_feeding",
          **config) -> tuple[PrimordialSoupRules, GameState]:
    """Rules and an empty table: markers on ladder spaces 1..n (seat p on p+1), 4 BP each."""
    rules = PrimordialSoupRules(num_players=num_players, **config)
    state = rules.initial_state(np.random.default_rng(0))
    state.stack = []
    state.round = round
    state.phase = phase
    for p, ps in enumerate(state.players):
        ps.score = p + 1
        ps.bp = rules.config.start_bp
        ps.genes = {}
        ps.amoeba_space = [-1] * rules.config.max_amoebas
        ps.amoeba_damage = [0] * rules.config.max_amoebas
        ps.amoeba_done = [False] * rules.config.max_amoebas
    return rules, state


def put(state: GameState, player: int, number: int, space: int, damage: int = 0) -> None:
    """Put amoeba ``number`` (1..7) of ``player`` on ``space``."""
    ps = state.players[player]
    ps.amoeba_space[number - 1] = space
    ps.amoeba_damage[number - 1] = damage


def set_cubes(state: GameState, space: int, counts: list[int]) -> None:
    """Set the cubes on a space by colour, moving the difference to or from the supply."""
    for colour, count in enumerate(counts):
        diff = count - state.cubes[space][colour]
        state.supply[colour] -= diff
        state.cubes[space][colour] = count
        assert state.supply[colour] >= 0


def give_gene(state: GameState, player: int, key: str, acquired: int = 0) -> None:
    """Give a gene from the supply (acquired in round ``acquired``)."""
    i = GENE_INDEX[key]
    assert state.gene_supply[i] > 0, f"no {key} left in the supply"
    state.gene_supply[i] -= 1
    state.players[player].genes[key] = acquired


def run(rules: PrimordialSoupRules, state: GameState, *frames: dict, rng=None) -> GameState:
    """Push frames (the first one ends on top) and carry out steps up to the next decision."""
    for frame in reversed(frames):
        state.stack.append(dict(frame))
    rules.advance(state, rng if rng is not None else ScriptedDice([]))
    return state


def act(rules: PrimordialSoupRules, state: GameState, segment: str, *index: int,
        rng=None) -> GameState:
    """Apply an action named by its segment and index; returns the new state."""
    action = rules.layout.encode(segment, *index)
    return rules.apply(state, action, rng if rng is not None else ScriptedDice([]))


def legal(rules: PrimordialSoupRules, state: GameState) -> set[str]:
    """Legal actions as their descriptions, for readable assertions."""
    return {rules.layout.describe(a) for a in np.flatnonzero(rules.legal_mask(state))}


def total_cubes(state: GameState, colour: int) -> int:
    return sum(c[colour] for c in state.cubes) + state.supply[colour]


def assert_conserved(rules: PrimordialSoupRules, state) -> None:
    """55 cubes of each colour in play, none negative anywhere; BP never negative."""
    for colour in range(state.num_players):
        assert total_cubes(state, colour) == rules.config.cubes_per_colour
        assert state.supply[colour] >= 0
    assert all(count >= 0 for space in state.cubes for count in space)
    assert all(ps.bp >= 0 for ps in state.players)


def play(rules: PrimordialSoupRules, state, segment: str, *index: int, dice=()):
    """Apply one action with scripted dice; check that the input is untouched, that every
    scripted die was used and that cubes are conserved."""
    before = state.to_dict()
    rng = ScriptedDice(dice)
    new = rules.apply(state, rules.layout.encode(segment, *index), rng)
    assert state.to_dict() == before, "apply mutated its input"
    assert rng.values == [], f"dice not rolled: {rng.values}"
    assert_conserved(rules, new)
    return new


def segment_options(rules, state, segment: str) -> set:
    """The legal indices of one action segment."""
    result = set()
    for a in rules.legal_actions(state):
        seg, index = rules.layout.decode(a)
        if seg == segment:
            result.add(index)
    return result


def pending(state) -> tuple[str, int, int]:
    """The pending decision as (kind, player, amoeba number 1..7)."""
    f = state.stack[-1]
    return f["kind"], f["player"], f["amoeba"] + 1
