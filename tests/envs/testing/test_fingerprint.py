"""The envs behave as when the fingerprint was taken: the same observations, masks, rewards
and infos over seeded random games of every game, player count and encoder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from primeval.envs.testing.fingerprint import CASES, fingerprint

SAVED = json.loads((Path(__file__).parent / "fingerprint.json").read_text())

KEYS = [(module, n, encoder) for module, counts, encoders in CASES
        for n in counts for encoder in encoders]


@pytest.mark.parametrize(("module", "players", "encoder"), KEYS,
                         ids=[f"{m}-{n}p-{e}" for m, n, e in KEYS])
def test_behaviour_matches_the_saved_fingerprint(module, players, encoder):
    key = f"{module} {players}p {encoder}"
    assert fingerprint(module, players, encoder, games=5, seed=0) == SAVED["fingerprints"][key], (
        f"{key}: observations, masks, rewards or infos changed; if the change is meant, "
        f"remake the file with `{SAVED['command']}`")


def test_every_case_has_a_saved_fingerprint():
    assert sorted(SAVED["fingerprints"]) == sorted(f"{m} {n}p {e}" for m, n, e in KEYS)
