"""The fast path of the Primordial Soup encoders writes exactly what the reference writes.

The reference (``encoders_reference``) defines every feature by its piece name in plain code;
the encoders the envs use write them through the fast path (``encoders_fast``). Along seeded
random games of every player count, every seat's observation from every encoder is compared
with the reference's, byte for byte (the pattern of OpenSpiel's ``test_consistent``), and so
are hand-built states holding every decision kind and the edge cases.
"""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs.primordial_soup.encoders import ENCODERS
from primeval.envs.primordial_soup.encoders_reference import ReferenceEncoder
from primeval.envs.primordial_soup.rules import PrimordialSoupRules
from tests.envs.primordial_soup.test_encoders import example_states, make_rules
from tests.helpers import play_checked_game

ENCODER_NAMES = sorted(ENCODERS)


def differing(encoder, got: np.ndarray, expected: np.ndarray) -> list[str]:
    """The pieces (``"flat"``) or channels (``"planes"``) where two observations differ."""
    if hasattr(encoder, "pieces"):
        return [name for name in encoder.pieces
                if not np.array_equal(encoder.view(got, name), encoder.view(expected, name))]
    channels = np.flatnonzero((got != expected).reshape(len(encoder.channels), -1).any(axis=1))
    return [encoder.channels[c] for c in channels]


def assert_same_as_reference(fast, reference, state, seat: int, where: str) -> None:
    got, expected = fast.encode(state, seat), reference.encode(state, seat)
    assert got.dtype == expected.dtype == np.float32, where
    assert got.shape == expected.shape, where
    assert np.array_equal(got, expected), (
        f"{fast.name} {where} seat {seat}: the fast path differs from the reference in "
        f"{differing(fast, got, expected)}")


@pytest.mark.parametrize("name", ENCODER_NAMES)
@pytest.mark.parametrize("num_players", [3, 4])
def test_fast_path_equals_the_reference_along_random_games(num_players, name):
    rules = PrimordialSoupRules(num_players=num_players)
    fast, reference = ENCODERS[name](rules), ReferenceEncoder(rules, name)
    for seed in range(3):
        steps = [0]

        def check(state, seed=seed, steps=steps):
            for seat in range(num_players):
                where = f"seed {seed} step {steps[0]} ({rules.decision_name(state)})"
                assert_same_as_reference(fast, reference, state, seat, where)
            steps[0] += 1

        play_checked_game(rules, seed, check=check, check_input_kept=False)


@pytest.mark.parametrize("name", ENCODER_NAMES)
@pytest.mark.parametrize("num_players", [3, 4])
def test_fast_path_equals_the_reference_on_every_decision_kind(num_players, name):
    """Hand-built states: every decision kind's frame fields, setup, game over, no frame,
    and counts beyond the bounds (clipped)."""
    rules = make_rules(num_players)
    fast, reference = ENCODERS[name](rules), ReferenceEncoder(rules, name)
    for i, state in enumerate(example_states(num_players)):
        kind = state.stack[-1]["kind"] if state.stack else "no frame"
        for seat in range(num_players):
            assert_same_as_reference(fast, reference, state, seat, f"example {i} ({kind})")


def test_the_reference_refuses_a_seat_outside_the_game():
    reference = ReferenceEncoder(make_rules(3), "flat")
    with pytest.raises(ValueError, match="out of range"):
        reference.encode(example_states(3)[0], 3)
