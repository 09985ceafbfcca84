"""The fast heuristics make the reference's very choices (issue 23, item 2).

Positions come from seeded games (``bench.record_positions``: the reference heuristic plays,
a random legal action one decision in three), of every player count and rules variant. At
every position with more than one legal action a reference and a fast agent, seeded alike,
answer in lockstep: the same action, the same fallback count and the same generator state
afterwards (a fallback draw would otherwise show only later), and the fast agent leaves the
state as it found it.
"""

from __future__ import annotations

import numpy as np
import pytest

from primeval.training.agents.heuristics import HEURISTICS
from primeval.training.agents.heuristics.bench import PAIRS, record_positions
from primeval.training.agents.heuristics.origin import OriginHeuristic, ReferenceOriginHeuristic
from primeval.training.agents.heuristics.primordial_soup import (
    PrimordialSoupHeuristic,
    ReferencePrimordialSoupHeuristic,
)

#: (game, players, games, variant): every player count and rules variant, at least 1,000
#: positions per game in all.
CASES = [
    ("origin", 2, 3, {}),
    ("origin", 3, 2, {}),
    ("origin", 4, 2, {}),
    ("origin", 3, 2, {"final_round_starts_with_trigger": True}),
    ("origin", 4, 2, {"random_start_player": False, "score_tiebreak": False}),
    ("primordial_soup", 3, 2, {}),
    ("primordial_soup", 4, 2, {}),
    ("primordial_soup", 4, 1, {"holding_tentacle": False, "escape_after_lost_defense": False}),
    (
        "primordial_soup",
        3,
        1,
        {
            "board_layout": "B_mirror",
            "six_allows_stay": True,
            "parasitism_requires_shortage": True,
            "holding_follows_own": True,
            "relocated_amoeba_feeds": True,
        },
    ),
]
#: Positions each case must reach, so that every game has more than 1,000 in all.
MIN_POSITIONS = {"origin": 210, "primordial_soup": 260}


def test_the_fast_agents_are_the_defaults():
    assert HEURISTICS["origin"] is OriginHeuristic
    assert HEURISTICS["primordial_soup"] is PrimordialSoupHeuristic
    assert issubclass(OriginHeuristic, ReferenceOriginHeuristic)
    assert issubclass(PrimordialSoupHeuristic, ReferencePrimordialSoupHeuristic)
    assert OriginHeuristic._move_value is not ReferenceOriginHeuristic._move_value


@pytest.mark.parametrize(
    ("game", "players", "games", "variant"),
    CASES,
    ids=[f"{c[0]}-{c[1]}p-{i}" for i, c in enumerate(CASES)],
)
def test_same_choices_and_generator_state(game, players, games, variant):
    reference_class, fast_class, _ = PAIRS[game]
    reference = fast = None
    count = 0
    for seed_offset, (rules, state, mask, seat) in enumerate(
        record_positions(game, players, games, seed=players, **variant)
    ):
        if reference is None:
            reference = reference_class(rules, seed=7)
            fast = fast_class(rules, seed=7)
        before = state.to_dict()
        want = reference.act(None, mask, state=state, seat=seat)
        assert state.to_dict() == before, "the reference changed the state"
        got = fast.act(None, mask, state=state, seat=seat)
        where = f"{game} {players}p {variant} position {seed_offset}: {state.stack[-1]['kind']}"
        assert got == want, f"{where}: fast {got} != reference {want}"
        assert state.to_dict() == before, f"{where}: the fast agent changed the state"
        assert fast.fallbacks == reference.fallbacks, where
        assert fast.rng.bit_generator.state == reference.rng.bit_generator.state, where
        count += 1
    assert count >= MIN_POSITIONS[game], f"only {count} positions"


def test_a_forced_fallback_draws_alike():
    """A rule finding nothing legal falls back to the generator: both draw the same."""
    reference_class, fast_class, players = PAIRS["origin"]
    rules, state, mask, seat = next(iter(record_positions("origin", players, 1, seed=3)))
    reference, fast = reference_class(rules, seed=11), fast_class(rules, seed=11)
    state.stack = []  # no pending frame: both must fall back
    for _ in range(5):
        assert fast.act(None, mask, state=state, seat=seat) == reference.act(
            None, mask, state=state, seat=seat
        )
    assert fast.fallbacks == reference.fallbacks == 5
    assert np.array_equal(
        fast.rng.integers(1 << 30, size=3), reference.rng.integers(1 << 30, size=3)
    )


@pytest.mark.parametrize("players", [2, 4])
def test_origin_values_every_move_alike(players):
    """Beyond the choices: at every turn the fast agent values every complete move with the
    reference's very float, so a change that moves a value without changing a choice in these
    games still shows."""
    from primeval.training.agents.heuristics.origin.context import _Ctx

    turns = 0
    for rules, state, _mask, seat in record_positions("origin", players, 2, seed=players):
        frame = state.stack[-1]
        if frame["kind"] != "turn":
            continue
        player = frame.get("player", seat)
        reference, fast = ReferenceOriginHeuristic(rules), OriginHeuristic(rules)
        kinds = ("evolve", "migrate", "swap")
        want = reference._moves(_Ctx(reference, rules, state, player), kinds)
        got = fast._moves(_Ctx(fast, rules, state, player), kinds)
        assert got == want, (
            f"turn {state.turn}: {[(g, w) for g, w in zip(got, want, strict=True) if g != w]}"
        )
        turns += 1
    assert turns > 100


def test_a_yellow_cards_trial_shares_only_with_its_own_position():
    """The fast agent's trial of a yellow card takes the turn's values over only when the
    trial's position is the turn's with that one card added to the turn's cards."""
    from primeval.training.agents.heuristics.origin.fast_context import _fast, _inherit

    kinds = ("evolve", "migrate", "swap")
    for rules, state, _mask, _seat in record_positions("origin", 3, 1, seed=3):
        frame = state.stack[-1]
        if frame["kind"] != "turn":
            continue
        agent, player = OriginHeuristic(rules), frame["player"]
        ctx = agent._ctx(rules, state, player)
        if agent._moves(ctx, kinds):
            break
    card = next(c for c, data in enumerate(rules.data.cards) if data.colour == "yellow")

    def trial_of(position, played):
        trial = position.copy()
        trial.turn_state["turn_cards"] = (*trial.turn_state.get("turn_cards", ()), played)
        return trial

    shared = agent._ctx(rules, trial_of(state, card), player)
    _inherit(shared, ctx, card)
    assert _fast(shared).known, "the card's own trial takes the turn's values"
    assert agent._moves(shared, kinds) == ReferenceOriginHeuristic(rules)._moves(
        ReferenceOriginHeuristic(rules)._ctx(rules, shared.state, player), kinds
    )
    moved = trial_of(state, card)
    moved.owner[moved.owner.index(-1)] = player  # another position
    other_card = trial_of(state, card + 1)  # another card played
    for position, played in ((moved, card), (other_card, card), (state.copy(), card)):
        trial = agent._ctx(rules, position, player)
        _inherit(trial, ctx, played)
        assert "_fast" not in trial.__dict__ and "scores" not in trial.__dict__
