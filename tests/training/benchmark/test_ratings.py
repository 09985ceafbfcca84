"""α-Rank over the head-to-head matrix, and the zoo's leaderboard command."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from primeval.training import cli
from primeval.training.benchmark.ratings import (
    alpharank,
    fixation_probability,
    head_to_head,
    nash_average,
)

# A transitive meta-game: 0 beats 1 beats 2 beats 3 (row finished ahead of column).
TRANSITIVE = np.array(
    [[0.5, 0.7, 0.8, 0.95], [0.3, 0.5, 0.65, 0.9], [0.2, 0.35, 0.5, 0.7], [0.05, 0.1, 0.3, 0.5]]
)


def _order(mass: np.ndarray) -> list[int]:
    return sorted(range(len(mass)), key=lambda i: -mass[i])


def test_alpharank_puts_the_mass_on_the_strongest():
    mass = alpharank(TRANSITIVE)
    assert mass.sum() == pytest.approx(1.0)
    assert mass[0] > 0.999  # at a large alpha the mass sits on the strongest
    assert _order(alpharank(TRANSITIVE, alpha=0.1)) == [0, 1, 2, 3]  # smaller: the order


def test_nash_averaging_orders_a_transitive_zoo():
    p, rating = nash_average(TRANSITIVE)
    assert p == pytest.approx([1, 0, 0, 0], abs=1e-6)  # the best member is the equilibrium
    # the equilibrium's own rating is 0 up to the solver's tolerance (1e-9 per constraint;
    # the last digits move with the BLAS thread count)
    assert _order(rating) == [0, 1, 2, 3] and rating[0] == pytest.approx(0, abs=1e-7)


def _random_zoo(rng, size):
    x = rng.random((size, size))
    m = x / (x + x.T)
    np.fill_diagonal(m, 0.5)
    return m


def test_nash_averaging_ignores_clones():
    """Any zoo, any member cloned (one or three copies): every rating stays as it was."""
    rng = np.random.default_rng(0)
    for _ in range(40):
        size = int(rng.integers(3, 7))
        m = _random_zoo(rng, size)
        cloned = int(rng.integers(size))
        copies = int(rng.integers(1, 4))
        index = [*range(size), *[cloned] * copies]
        _p, rating = nash_average(m)
        p_clone, rating_clone = nash_average(m[np.ix_(index, index)])
        assert rating_clone[:size] == pytest.approx(rating, abs=1e-5)
        shares = p_clone[[cloned, *range(size, size + copies)]]
        assert shares.sum() == pytest.approx(_p[cloned], abs=1e-4)  # the clones split it


def test_rock_paper_scissors_shares_the_mass():
    rps = np.array([[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]])
    assert alpharank(rps) == pytest.approx([1 / 3] * 3, abs=1e-6)


@pytest.mark.parametrize("cloned", [0, 1, 2, 3])
def test_an_alpharank_clone_does_not_change_the_others_order(cloned):
    """On a transitive zoo, a copy of member ``cloned`` (same row and column) leaves the
    other members' order, and the original and its clone share the original's mass."""
    size = len(TRANSITIVE)
    index = [*range(size), cloned]
    with_clone = TRANSITIVE[np.ix_(index, index)]
    mass = alpharank(with_clone, alpha=0.1)
    assert mass[cloned] == pytest.approx(mass[size], rel=1e-6)
    before = [i for i in _order(alpharank(TRANSITIVE, alpha=0.1)) if i != cloned]
    after = [i for i in _order(mass[:size]) if i != cloned]
    assert after == before


def test_a_crowd_of_clones_does_not_lift_whom_they_lose_to():
    """A mean win rate over the pool is gamed by clones: three copies of the weakest member
    make whoever beats it look best. α-Rank keeps the strongest first."""
    # 0 beats 1 narrowly and beats 2 narrowly; 1 crushes 2; 2 is cloned three times.
    base = np.array([[0.5, 0.6, 0.6], [0.4, 0.5, 0.99], [0.4, 0.01, 0.5]])
    index = [0, 1, 2, 2, 2]
    crowd = base[np.ix_(index, index)]
    assert crowd[1].mean() > crowd[0].mean()  # the naive average puts 1 first
    _p, rating = nash_average(crowd)
    assert rating[0] > rating[1] > rating[2]
    assert alpharank(crowd)[0] > 0.99


def test_neutral_drift_fixes_with_probability_one_over_m():
    assert fixation_probability(np.zeros(49), np.zeros(49), 100.0) == pytest.approx(1 / 50)


def test_head_to_head_counts_who_finished_ahead():
    games = [([0, 1, 2], [3.0, 1.0, 2.0]), ([2, 0, 1], [5.0, 5.0, 0.0])]
    matrix, counts = head_to_head(games, 4)
    assert counts[0, 1] == 2 and counts[0, 3] == 0
    assert matrix[0, 1] == 1.0 and matrix[0, 2] == pytest.approx(0.75)
    assert matrix[2, 0] == pytest.approx(0.25) and matrix[0, 3] == 0.5
    assert np.allclose(matrix + matrix.T, 1.0)


def test_bad_payoffs_are_named():
    with pytest.raises(ValueError, match="square"):
        alpharank(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="NaN"):
        alpharank(np.array([[0.5, np.nan], [0.5, 0.5]]))
    with pytest.raises(ValueError, match="square"):
        nash_average(np.zeros((2, 3)))


@pytest.mark.slow
def test_the_leaderboard_command_writes_the_page_and_the_picture(tmp_path, monkeypatch):
    import primeval.training.benchmark.zoo as zoo

    monkeypatch.setattr(zoo, "SPEC_MEMBERS", {"random": "random", "heuristic": "heuristic"})
    monkeypatch.setattr(zoo, "manifest", lambda: {"members": []})
    out = tmp_path / "docs" / "leaderboard.md"
    assert (
        cli.main(
            [
                "benchmark",
                "--leaderboard",
                "--tasks",
                "origin-2p",
                "--games",
                "2",
                "--out",
                str(out),
                "--quiet",
            ]
        )
        == 0
    )
    text = out.read_text()
    assert "primeval benchmark --leaderboard --tasks origin-2p --games 2" in text
    assert "zoo:origin-2p/heuristic" in text and "α-Rank" in text
    assert (tmp_path / "docs" / "images" / "leaderboard-origin-2p.png").stat().st_size > 1000
    board = json.loads(out.with_suffix(".json").read_text())["boards"][0]
    assert board["members"] == ["random", "heuristic"] and board["games"] == 2


def test_a_zoo_board_names_file_members_by_their_zoo_name_not_a_path():
    """A board's specs and results name a shipped checkpoint ``zoo:TASK/MEMBER``, not the
    path it has on the machine that played (docs/leaderboard.json is committed)."""
    from primeval.training.benchmark.ratings import play_zoo

    board = play_zoo("origin-3p", 3, seed=5, members=["random", "heuristic", "ppo"])
    assert board["specs"] == ["random", "heuristic", "zoo:origin-3p/ppo"]
    assert [r["agent"] for r in board["results"]] == board["specs"]
    assert "zoo_files" not in json.dumps(board) and board["games"] == 3
    committed = (Path(__file__).resolve().parents[3] / "docs" / "leaderboard.json").read_text()
    assert "zoo_files" not in committed
