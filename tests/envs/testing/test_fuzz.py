"""primeval fuzz: clean runs pass; a broken invariant is reported with seed, step and state."""

from __future__ import annotations

import pytest

from primeval.envs.games import GAMES
from primeval.envs.testing.fuzz import InvariantViolation, fuzz
from primeval.training import cli


@pytest.mark.parametrize(("game", "players"), [(name, n) for name, game in GAMES.items()
                                               for n in game.player_counts])
def test_fuzz_runs_clean(game, players):
    """A few games per player count with illegal actions sprinkled in: no violation."""
    report = fuzz(game, players, games=4, seed=3, illegal_rate=0.1)
    assert report.games == 4 and report.steps > 100 and report.illegal_tried > 0


def test_fuzz_reports_a_broken_invariant(monkeypatch):
    """A rule that loses a cube is caught at the step it happens, with the state text."""
    from primeval.envs.primordial_soup.rules import engine

    original = engine.PrimordialSoupRules.transition  # what the env calls (apply + mask)

    def leaky(self, state, action, rng, mask=None):
        new, new_mask = original(self, state, action, rng, mask)
        if new.round >= 2:
            new.supply[0] -= 1
        return new, new_mask

    monkeypatch.setattr(engine.PrimordialSoupRules, "transition", leaky)
    with pytest.raises(InvariantViolation) as err:
        fuzz("primordial_soup", 3, games=2, seed=0)
    text = str(err.value)
    assert "seed 0" in text and "step" in text and "cubes" in text and "Primordial Soup" in text


def test_fuzz_cli_exit_codes(monkeypatch, capsys):
    assert cli.main(["fuzz", "--game", "origin", "--players", "2", "--games", "1"]) == 0
    assert "no violation" in capsys.readouterr().out
    from primeval.envs.origin.rules import engine

    def broken(self, state):
        raise ValueError("tiles not conserved (planted)")

    monkeypatch.setattr(engine.OriginRules, "check_state", broken)
    assert cli.main(["fuzz", "--game", "origin", "--players", "2", "--games", "1"]) == 1
    assert "VIOLATION" in capsys.readouterr().err
