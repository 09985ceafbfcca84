"""The learning-curve plot (issue 26 item 12): a chance line, the final evaluation drawn
apart from the smaller evaluations during training, and the real algorithm in the title."""

from __future__ import annotations

import csv

import pytest

from primeval.training.ppo.config import load_config
from primeval.training.ppo.records import (
    METRICS_FIELDS,
    algorithm_name,
    learning_curve_figure,
    plot_learning_curve,
)

ROWS = [  # two evaluations during training (60 games), then the final one's row
    {
        "step": 0,
        "win_rate_vs_random": 0.3,
        "win_rate_vs_heuristic": 0.1,
        "win_rate_vs_heuristic_lo": 0.05,
        "win_rate_vs_heuristic_hi": 0.2,
        "rating_policy": 5,
    },
    {
        "step": 1000,
        "win_rate_vs_random": 0.8,
        "win_rate_vs_heuristic": 0.4,
        "win_rate_vs_heuristic_lo": 0.3,
        "win_rate_vs_heuristic_hi": 0.5,
        "rating_policy": 20,
    },
    {
        "step": 2048,
        "win_rate_vs_random": 0.9,
        "win_rate_vs_heuristic": 0.45,
        "win_rate_vs_heuristic_lo": 0.4,
        "win_rate_vs_heuristic_hi": 0.5,
        "rating_policy": 30,
    },
]
FINAL = {
    "total_steps": 2048,
    "vs_heuristic": [{"games": 400}],
    "win_rate_vs_random": 0.9,
    "win_rate_vs_random_lo": 0.87,
    "win_rate_vs_random_hi": 0.93,
    "win_rate_vs_heuristic": 0.45,
    "win_rate_vs_heuristic_lo": 0.40,
    "win_rate_vs_heuristic_hi": 0.50,
}


@pytest.fixture
def metrics(tmp_path):
    path = tmp_path / "metrics.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=METRICS_FIELDS)
        writer.writeheader()
        writer.writerows(ROWS)
    return path


def test_the_title_names_residual_ppo_when_a_prior_is_used():
    assert algorithm_name(load_config("primordial_soup/default")) == "MaskablePPO"
    origin = load_config("origin/default")
    assert origin.prior.agent == "heuristic"
    assert algorithm_name(origin) == "residual PPO over the heuristic (MaskablePPO)"


def test_chance_line_and_the_final_evaluation_apart(metrics):
    import matplotlib.pyplot as plt

    fig = learning_curve_figure(
        metrics, "origin, 3 players: residual PPO", players=3, final=FINAL, eval_games=60
    )
    try:
        wins = fig.axes[0]
        assert wins.get_title() == "origin, 3 players: residual PPO"
        lines = {line.get_label(): line for line in wins.get_lines()}
        # the evaluations during training, without the final row
        curve = lines["vs heuristic (60 games each)"]
        assert list(curve.get_xdata()) == [0, 1000]
        assert list(curve.get_ydata()) == [0.1, 0.4]
        chance = lines["chance (1/3)"]
        assert list(chance.get_ydata()) == [pytest.approx(1 / 3)] * 2
        labels = wins.get_legend_handles_labels()[1]
        assert "final vs heuristic (400 games, 95% CI)" in labels
        assert "final vs random (400 games, 95% CI)" in labels
        stars = [c for c in wins.containers if c.get_label().startswith("final vs heuristic")]
        (line, caps, (bars,)) = stars[0]
        assert list(line.get_xdata()) == [2048] and list(line.get_ydata()) == [0.45]
        (segment,) = bars.get_segments()
        assert [y for _, y in segment] == pytest.approx([0.40, 0.50])
        # the ratings keep every row, the final one's too
        (policy,) = [line for line in fig.axes[1].get_lines() if line.get_label() == "policy"]
        assert list(policy.get_xdata()) == [0, 1000, 2048]
        assert list(policy.get_ydata()) == [5, 20, 30]
    finally:
        plt.close(fig)


def test_without_a_final_every_row_is_a_point(metrics, tmp_path):
    import matplotlib.pyplot as plt

    fig = learning_curve_figure(metrics, "t")
    try:
        lines = {line.get_label(): line for line in fig.axes[0].get_lines()}
        assert list(lines["vs heuristic"].get_xdata()) == [0, 1000, 2048]
        assert not any(label.startswith("chance") for label in lines)
    finally:
        plt.close(fig)
    out = tmp_path / "curve.png"
    plot_learning_curve(metrics, out, "t", players=4, final=FINAL, eval_games=60)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_run_without_rating_games_says_so_instead_of_flat_lines(metrics):
    """With ``league.rating_games: 0`` every rating stays at its prior: the ratings panel
    draws no line and says why."""
    import matplotlib.pyplot as plt

    fig = learning_curve_figure(metrics, "t", rated=False)
    try:
        ratings = fig.axes[1]
        assert len(ratings.get_lines()) == 0 and ratings.get_legend() is None
        assert any("league.rating_games: 0" in t.get_text() for t in ratings.texts)
        assert [line.get_label() for line in fig.axes[0].get_lines()][:2] == [
            "vs random", "vs heuristic"]
    finally:
        plt.close(fig)
    fig = learning_curve_figure(metrics, "t")
    try:
        assert len(fig.axes[1].texts) == 0 and len(fig.axes[1].get_lines()) == 3
    finally:
        plt.close(fig)
