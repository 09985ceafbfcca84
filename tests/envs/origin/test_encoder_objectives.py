"""The ``"flat_objectives"`` encoder: the ``"flat"`` vector, then what the objectives in the
observer's hand ask of the board (rules: ``objectives.progress``,
``objectives.prospect_by_territory``)."""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs.origin.encoders import FlatEncoder, ObjectivesEncoder
from primeval.envs.origin.rules import OriginRules, objectives
from primeval.envs.origin.state import EMPTY
from tests.envs.origin.builders import give_card, put, table, tid
from tests.envs.origin.test_encoders import random_states


def brute_force(rules: OriginRules, state, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """The prospect pieces by changing the state itself: each territory made the seat's
    (gain) or emptied (loss), the objectives' points times progress counted again."""
    cards = rules.data.cards
    held = [c for c in state.hands[seat] if cards[c].colour == "purple"
            and cards[c].effect["kind"] in objectives.WHERE_KINDS]

    def prospect(s) -> float:
        return sum(cards[c].points * objectives.progress(rules, s, seat, c) for c in held)

    now = prospect(state)
    gain = np.zeros(rules.data.world.size)
    loss = np.zeros(rules.data.world.size)
    for t in range(rules.data.world.size):
        other = state.copy()
        if state.owner[t] == seat:
            other.owner[t] = EMPTY
            loss[t] = now - prospect(other)
        else:
            other.owner[t] = seat
            gain[t] = prospect(other) - now
    return gain, loss


def test_layout_is_flat_then_three_pieces():
    rules = OriginRules(num_players=3)
    enc, flat = ObjectivesEncoder(rules), FlatEncoder(rules)
    assert enc.name == "flat_objectives"
    assert enc.features.names == flat.features.names + (
        "objective_progress", "prospect_gain", "prospect_loss")
    assert enc.size == flat.size + 20 + 2 * 42 == 1590
    assert enc.space().shape == (1590,)
    assert enc.cards_of("objectives_done") == [
        i for i, c in enumerate(rules.data.cards) if c.colour == "purple"]


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_every_piece_matches_the_rules_along_random_games(num_players):
    """Along random games, for every seat: the first part is the "flat" vector byte for
    byte; objective_progress is each held (or dealt) objective's progress; the prospect
    pieces are the brute force's, over the largest objective's points, clipped at 1."""
    enc = flat = None
    checked = nonzero = 0
    for rules, state in random_states(num_players, seed=40 + num_players, every=7):
        if enc is None:
            enc, flat = ObjectivesEncoder(rules), FlatEncoder(rules)
            purple = enc.cards_of("objectives_done")
        for seat in range(num_players):
            obs = enc.encode(state, seat)
            assert enc.space().contains(obs)
            assert obs[: flat.size].tobytes() == flat.encode(state, seat).tobytes()
            held = [c for c in state.hands[seat] if c in purple]
            frame = state.pending
            if frame and frame["kind"] == "keep_objective" and frame["player"] == seat:
                held += list(frame["dealt"])
            expected = np.zeros(len(purple), dtype=np.float32)
            for c in held:
                expected[purple.index(c)] = objectives.progress(rules, state, seat, c)
            np.testing.assert_array_equal(enc.view(obs, "objective_progress"), expected)
            gain, loss = brute_force(rules, state, seat)
            np.testing.assert_allclose(enc.view(obs, "prospect_gain"),
                                       np.minimum(gain / 6.0, 1.0), atol=1e-6)
            np.testing.assert_allclose(enc.view(obs, "prospect_loss"),
                                       np.minimum(loss / 6.0, 1.0), atol=1e-6)
            checked += 1
            nonzero += bool(gain.any()) + bool(loss.any())
    assert checked > 50 and nonzero > 20


def test_a_colour_objective_points_at_the_territories_of_its_colour():
    """O1 (3 points: two pawns on green): with one pawn on a green territory, every other
    green territory would complete it (3 * 1/2 points each), and losing the pawn on green
    would undo half of it; nothing else counts."""
    rules, state = table(3)
    o1 = give_card(rules, state, 0, "O1")
    put(rules, state, 0, "AF1")  # yellow: no part of O1
    greens = [t for t, x in enumerate(rules.data.world.territories) if x.colour == "green"]
    on_green = put(rules, state, 0, rules.data.world.territories[greens[0]].id, colour=1)
    enc = ObjectivesEncoder(rules)
    obs = enc.encode(state, 0)
    gain, loss = enc.view(obs, "prospect_gain"), enc.view(obs, "prospect_loss")
    free = [t for t in greens if state.owner[t] == EMPTY]
    assert free and np.allclose(gain[free], 1.5 / 6)
    assert np.count_nonzero(gain) == len(free)
    assert loss[on_green] == pytest.approx(1.5 / 6)
    assert loss[tid(rules, "AF1")] == 0.0 and np.count_nonzero(loss) == 1
    progress = enc.view(obs, "objective_progress")
    assert progress[enc.cards_of("objectives_done").index(o1)] == 0.5
    assert np.count_nonzero(progress) == 1
    # the other seats hold no objective: their pieces are zeros
    other = enc.encode(state, 1)
    assert not other[enc.pieces["objective_progress"].start:].any()


def test_the_state_is_not_changed():
    for rules, state in random_states(3, seed=7, every=25):
        before = state.to_dict()
        ObjectivesEncoder(rules).encode(state, state.current)
        assert state.to_dict() == before
