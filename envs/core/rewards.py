"""Final rewards from final scores; every mode is zero-sum.

Modes (``reward_mode=`` of the env):

- ``"rank"`` (default): by final rank, first +1, last -1, linear between; tied players share
  the average reward of the places they occupy.
- ``"win"``: the winner(s) (everyone with the top score) get +1 each, the others share the
  loss equally: ``-k / (n - k)`` each for ``k`` winners among ``n``; all tied gives 0.
- ``"score"``: raw score minus the mean score.

A single player always gets 0.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "REWARD_MODES",
    "check_reward_mode",
    "rank_rewards",
    "reward_for_mode",
    "score_rewards",
    "win_rewards",
]

REWARD_MODES: tuple[str, ...] = ("rank", "win", "score")


def rank_rewards(scores: Sequence[float]) -> list[float]:
    """Rank rewards: first +1, last -1, linear between, ties share their places' average.

    Example: ``rank_rewards([3, 9, 9, 1]) == [-1/3, 2/3, 2/3, -1.0]`` (the two tied leaders
    share places 1 and 2, worth +1 and +1/3).

    Args:
        scores: Final score per seat; higher is better.

    Returns:
        One reward per seat, summing to 0.
    """
    n = len(scores)
    if n <= 1:
        return [0.0] * n
    place_reward = [(n - 1 - 2 * place) / (n - 1) for place in range(n)]
    order = sorted(range(n), key=lambda seat: -scores[seat])
    rewards = [0.0] * n
    start = 0
    while start < n:
        stop = start
        while stop < n and scores[order[stop]] == scores[order[start]]:
            stop += 1
        shared = sum(place_reward[start:stop]) / (stop - start)
        for place in range(start, stop):
            rewards[order[place]] = shared
        start = stop
    return rewards


def win_rewards(scores: Sequence[float]) -> list[float]:
    """Win/loss rewards: +1 per top scorer, the others share ``-k`` equally; all tied gives 0."""
    n = len(scores)
    if n == 0:
        return []
    best = max(scores)
    winners = sum(1 for score in scores if score == best)
    if winners == n:
        return [0.0] * n
    loss = -winners / (n - winners)
    return [1.0 if score == best else loss for score in scores]


def score_rewards(scores: Sequence[float]) -> list[float]:
    """Raw scores minus their mean."""
    if not scores:
        return []
    mean = sum(scores) / len(scores)
    return [float(score) - mean for score in scores]


_MODES = {"rank": rank_rewards, "win": win_rewards, "score": score_rewards}


def check_reward_mode(mode: str) -> str:
    """Returns ``mode`` if known, else raises ValueError listing the allowed modes."""
    if mode not in _MODES:
        raise ValueError(f"unknown reward mode {mode!r}; allowed: {', '.join(REWARD_MODES)}")
    return mode


def reward_for_mode(mode: str, scores: Sequence[float]) -> list[float]:
    """Final rewards for ``scores`` under ``mode`` (``"rank"``, ``"win"`` or ``"score"``).

    Raises:
        ValueError: Unknown mode (the message lists the allowed modes).
    """
    return _MODES[check_reward_mode(mode)](scores)
