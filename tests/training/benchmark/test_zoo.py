"""The reference zoo: every member loads by name and plays; files stay within the budget and
the folder; a file member reproduces its rating (slow)."""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs.games import get_game
from primeval.training.benchmark import run_task
from primeval.training.benchmark.tasks import TASKS
from primeval.training.benchmark.zoo import (
    SIZE_BUDGET,
    get_member,
    manifest,
    members,
    zoo_agent,
    zoo_path,
    zoo_size,
)
from primeval.training.evaluate import AgentResult

ALL = [m.id for m in members()]
FILES = [m.id for m in members() if m.file is not None]


def _decisions(member_id: str, steps: int) -> int:
    """Seat the member in every seat of its task's game and play ``steps`` decisions."""
    member = get_member(member_id)
    task = TASKS[member.task]
    agent = zoo_agent(member_id, seed=0)
    env = get_game(task.game).raw_env(task.players)
    env.reset(seed=0)
    played = 0
    for name in env.agent_iter():
        if played == steps:
            break
        obs = env.observe(name)
        seat = env.possible_agents.index(name)
        action = agent.act(obs["observation"], obs["action_mask"], state=env.game_state, seat=seat)
        assert obs["action_mask"][action]
        env.step(action)
        played += 1
    return played


def test_every_task_has_the_spec_members():
    for task in TASKS:
        names = {m.name for m in members(task)}
        assert {"random", "heuristic", "mcts-25", "mcts-100"} <= names
        assert set(TASKS[task].opponents) <= names


@pytest.mark.parametrize("member_id", ALL)
def test_every_member_loads_by_name_and_plays(member_id):
    steps = 1 if "mcts" in member_id else 30
    assert _decisions(member_id, steps) == steps


def test_the_manifest_names_what_made_each_file():
    for entry in manifest()["members"]:
        assert entry["task"] in TASKS and entry["kind"] == "ppo"
        assert {"config", "commit", "command", "rating", "notes"} <= set(entry)
        assert entry["command"].startswith("primeval train")
        rating = entry["rating"]
        lo, hi = rating["win_rate_ci95"]
        assert lo <= rating["win_rate"] <= hi and rating["games"] > 0
        assert zoo_path(entry["file"]).stat().st_size > 0


def test_the_zoo_fits_its_budget():
    assert zoo_size() <= SIZE_BUDGET


def test_a_bad_name_is_refused_with_the_members():
    with pytest.raises(ValueError, match="task soup-4p has random, heuristic"):
        get_member("zoo:soup-4p/alphago")
    with pytest.raises(ValueError, match="write zoo:TASK/MEMBER"):
        get_member("zoo:soup-4p")
    with pytest.raises(ValueError, match="unknown benchmark task"):
        get_member("zoo:chess/random")
    with pytest.raises(ValueError, match="plays primordial_soup, not origin"):
        zoo_agent("zoo:soup-4p/random", game="origin")


def test_a_manifest_path_cannot_leave_the_folder():
    for name in ("../tasks.py", "/etc/passwd", "../../pyproject.toml", "missing.zip"):
        with pytest.raises(ValueError, match="not a file of the zoo folder"):
            zoo_path(name)


@pytest.mark.slow
@pytest.mark.parametrize("member_id", FILES)
def test_a_file_member_reproduces_its_rating(member_id):
    """A short run of the member's task (its check: games and seed in the manifest) lands
    inside the stated rating's interval widened by the short run's own Wilson interval."""
    member = get_member(member_id)
    check = member.info["check"]
    result = run_task(member.task, member_id, games=check["games"], seed=check["seed"])
    assert result["score"]["win_rate"] == pytest.approx(check["win_rate"])  # same seed
    short = AgentResult(
        "x", games=check["games"], wins=result["score"]["win_rate"] * check["games"]
    )
    lo, hi = short.win_interval()
    stated_lo, stated_hi = member.info["rating"]["win_rate_ci95"]
    assert lo <= stated_hi and hi >= stated_lo  # the intervals overlap
    assert np.isfinite(result["score"]["mean_reward"])
