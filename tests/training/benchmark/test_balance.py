"""The balance page: seat win rates and game length from heuristic games."""

from __future__ import annotations

import json

import pytest

from primeval.training import cli
from primeval.training.benchmark.balance import seat_balance


def test_seat_balance_counts_every_game_once_per_seat():
    table = seat_balance("origin", 2, 4, seed=0)
    assert [s["seat"] for s in table["seats"]] == [0, 1]
    assert sum(s["win_rate"] for s in table["seats"]) == pytest.approx(1.0)
    for s in table["seats"]:
        lo, hi = s["win_rate_ci95"]
        assert lo <= s["win_rate"] <= hi
    assert sum(s["mean_rank"] for s in table["seats"]) == pytest.approx(3.0)
    length = table["length"]
    assert 10 < length["p5"] <= length["median"] <= length["p95"]


@pytest.mark.slow
def test_the_balance_command_writes_the_page(tmp_path):
    out = tmp_path / "balance.md"
    assert (
        cli.main(
            ["benchmark", "--balance", "--tasks", "origin-2p", "--games", "2", "--out", str(out)]
        )
        == 0
    )
    text = out.read_text()
    assert "primeval benchmark --balance --tasks origin-2p --games 2 --seed 0" in text
    assert "## primordial_soup" not in text
    assert "## origin, 2 players" in text and "| 1 (player_1) |" in text
    assert json.loads(out.with_suffix(".json").read_text())["tables"][0]["games"] == 2
