"""The fast path of the Origin encoders writes exactly what the reference writes.

The reference (``encoders_reference``) defines every feature by its piece name in plain code,
with no caches; the encoders the envs use write them through the fast path (``encoders_fast``),
which keeps blocks between observations. Along seeded random games of every player count,
every seat's observation from every encoder (``"flat"``, ``"graph"``, the flat vector with
the static pieces, and ``"flat_objectives"``, whose own pieces are plain code both write) is
compared with the reference's, byte for byte (the pattern of OpenSpiel's
``test_consistent``), and so are hand-built states holding every decision kind.
"""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs.origin.encoders import ENCODERS, FlatEncoder, GraphEncoder, ObjectivesEncoder
from primeval.envs.origin.encoders_fast import Filler
from primeval.envs.origin.encoders_features import OriginFeatures
from primeval.envs.origin.encoders_reference import ReferenceEncoder
from primeval.envs.origin.rules import OriginRules
from tests.envs.origin.builders import table
from tests.envs.origin.test_encoders import example_frames
from tests.helpers import play_checked_game

#: Every encoder of the envs, by a name for the test ids.
LAYOUTS = {
    "flat": FlatEncoder,
    "graph": GraphEncoder,
    "flat+static": lambda rules: FlatEncoder(rules, include_static=True),
    "flat_objectives": ObjectivesEncoder,
}


def test_every_encoder_name_is_checked():
    assert set(ENCODERS) <= set(LAYOUTS)


def differing(encoder, got: np.ndarray, expected: np.ndarray) -> list[str]:
    """The pieces where two observations differ (and ``adjacency`` for the graph's)."""
    names = list(getattr(encoder, "pieces", ()))
    if not names:
        names = [*encoder.node_columns, *encoder.global_features.names]
    out = [name for name in names
           if not np.array_equal(encoder.view(got, name), encoder.view(expected, name))]
    if hasattr(encoder, "split") and not np.array_equal(encoder.split(got)[1],
                                                        encoder.split(expected)[1]):
        out.append("adjacency")
    return out


def assert_same_as_reference(fast, reference, state, seat: int, where: str) -> None:
    got, expected = fast.encode(state, seat), reference.encode(state, seat)
    assert got.dtype == expected.dtype == np.float32, where
    assert got.shape == expected.shape, where
    assert np.array_equal(got, expected), (
        f"{fast.name} {where} seat {seat}: the fast path differs from the reference in "
        f"{differing(fast, got, expected)}")


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_fast_path_equals_the_reference_along_random_games(num_players, layout):
    """One fast encoder along whole games (so its kept blocks are reused as in play), every
    seat after every step."""
    rules = OriginRules(num_players=num_players)
    fast = LAYOUTS[layout](rules)
    reference = ReferenceEncoder(rules, LAYOUTS[layout](rules))
    for seed in range(3):
        steps = [0]

        def check(state, seed=seed, steps=steps):
            for seat in range(num_players):
                where = f"seed {seed} step {steps[0]} ({rules.decision_name(state)})"
                assert_same_as_reference(fast, reference, state, seat, where)
            steps[0] += 1

        play_checked_game(rules, seed, check=check, check_input_kept=False)


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_fast_path_equals_the_reference_on_every_decision_kind(layout):
    """A frame of every decision kind, with its public and private fields, for every seat
    (the one deciding sees the private ones)."""
    rules, state = table(3)
    fast = LAYOUTS[layout](rules)
    reference = ReferenceEncoder(rules, LAYOUTS[layout](rules))
    for frame in example_frames(rules, state):
        state.stack = [dict(frame)]
        for seat in range(3):
            assert_same_as_reference(fast, reference, state, seat, frame["kind"])


def test_the_reference_refuses_a_seat_outside_the_game():
    rules, state = table(3)
    with pytest.raises(ValueError, match="out of range"):
        ReferenceEncoder(rules, "flat").encode(state, 3)


def test_the_fast_path_refuses_a_value_piece_it_does_not_write():
    """A piece given a denominator (a value piece) must be listed by the fast path too."""
    features = OriginFeatures(OriginRules(num_players=3))
    features.denominators["new_count"] = 4
    with pytest.raises(ValueError, match="new_count"):
        Filler(features)
