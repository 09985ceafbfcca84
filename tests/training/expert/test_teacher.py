"""Expert iteration's warm start from a trained PPO agent (``teacher:``): the teacher's games
record every seat's decisions with the teacher's policy as the target and every seat's
result, the run learns them before its iterations (or alone, ``iterations: 0``), a resumed
run does not repeat them, and a teacher of another game or a bad section is refused by name.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from primeval.envs.core.rewards import rank_rewards
from primeval.envs.games import make_raw_env
from primeval.training.agents import make_agent
from primeval.training.config import ConfigError
from primeval.training.expert.config import load_expert_config
from primeval.training.expert.network import (
    NetworkError,
    PolicyValueNetwork,
    load_network,
)
from primeval.training.expert.play import PPOEvaluator
from primeval.training.expert.teacher import _teacher_tasks, play_teacher_game, teacher_path
from primeval.training.expert.train import config_spec, train_expert
from primeval.training.seeding import RunSeeds

SOUP = "training/benchmark/zoo_files/soup-4p-ppo.zip"
ORIGIN = "training/benchmark/zoo_files/origin-3p-ppo.zip"
TINY = {
    "players": 4,
    "iterations": 0,
    "workers": 0,
    "network.hidden": [16],
    "learn.batch_size": 32,
    "eval.every": 1,
    "eval.games": 1,
    "eval.final_games": 1,
    "eval.sims": 2,
    "search.sims": 2,
    "search.batch": 2,
    "games_per_iteration": 1,
    "teacher.checkpoint": "zoo:soup-4p/ppo",  # the shipped agent, named by the zoo
    "teacher.games": 3,
    "teacher.steps": 4,
    "teacher.holdout": 0.34,
    "env": {"max_steps": 120},
}


def test_a_teacher_game_records_every_seat_with_the_teachers_policy(tmp_path):
    config = load_expert_config("primordial_soup/expert", **TINY)
    network = PolicyValueNetwork(config_spec(config), (16,), seed=0)
    network.save(tmp_path / "net.json")
    task = _teacher_tasks(config, tmp_path / "net.json")[1]
    assert task["seat"] == 1  # seats rotate with the game's number
    game = play_teacher_game(task)
    size = len(game["obs"])
    assert size > 0 and game["masks"].shape == (size, network.num_actions)
    np.testing.assert_allclose(game["visits"].sum(axis=1), 1.0, rtol=1e-5)
    assert not (game["visits"] * ~game["masks"]).any()  # the target only on legal actions
    assert (game["masks"].sum(axis=1) > 1).all()  # forced moves are not recorded
    # The value targets: every seat's rank reward, ego-centric (entry 0 the mover's own).
    result = np.asarray(rank_rewards(game["scores"]), dtype=np.float32)
    rotations = {tuple(np.roll(result, -s)) for s in range(4)}
    assert {tuple(row) for row in game["values"]} <= rotations
    assert len({tuple(row) for row in game["values"]}) == len(rotations)  # all seats recorded
    # The first target is the teacher's policy at the game's first decision with a choice.
    env = make_raw_env("primordial_soup", 4, max_steps=120)
    env.reset(seed=task["game_seed"])
    while np.asarray(env.action_mask(env.agent_selection)).sum() < 2:
        env.step(int(np.flatnonzero(env.action_mask(env.agent_selection))[0]))
    seat = env.possible_agents.index(env.agent_selection)
    policy, _ = PPOEvaluator(SOUP).evaluate_states(env.rules, [env.game_state], [seat])
    np.testing.assert_allclose(game["visits"][0], policy[0], rtol=1e-5, atol=1e-7)
    again = play_teacher_game(task)
    np.testing.assert_array_equal(game["visits"], again["visits"])  # seeded: the same game


def test_a_teacher_game_keeps_a_sample_of_its_positions_when_asked(tmp_path):
    config = load_expert_config("primordial_soup/expert", **TINY)
    network = PolicyValueNetwork(config_spec(config), (16,), seed=0)
    network.save(tmp_path / "net.json")
    every = play_teacher_game(_teacher_tasks(config, tmp_path / "net.json")[0])
    sampled_config = load_expert_config(
        "primordial_soup/expert", **{**TINY, "teacher.positions": 5}
    )
    sampled = play_teacher_game(_teacher_tasks(sampled_config, tmp_path / "net.json")[0])
    assert len(every["obs"]) > 5 and len(sampled["obs"]) == 5
    assert sampled["scores"] == every["scores"]  # the same game
    rows = [int(np.flatnonzero((every["obs"] == row).all(axis=1))[0]) for row in sampled["obs"]]
    assert rows == sorted(rows)  # in the game's order
    np.testing.assert_array_equal(sampled["visits"], every["visits"][rows])
    np.testing.assert_array_equal(sampled["values"], every["values"][rows])


@pytest.mark.slow
def test_the_warm_start_alone_trains_the_network_and_resume_does_not_repeat_it(tmp_path):
    run = tmp_path / "run"
    config = load_expert_config("primordial_soup/expert", **TINY)
    initial = PolicyValueNetwork(  # the run's own initial weights
        config_spec(config), (16,), seed=RunSeeds(config.seed).spawn("model")
    )
    final = train_expert(config, run, progress=False)
    teacher = final["teacher"]
    assert teacher["games"] == 3 and teacher["held_out_games"] == 1
    assert teacher["positions"] > 0 and 0 <= teacher["teacher_win_rate"] <= 1
    assert set(teacher["held_out_after"]) == {
        "policy_loss", "value_loss", "value_r2", "policy_agreement"
    }
    summary = (run / "summary.md").read_text()
    assert "warm start: 3 games of" in summary and "held-out games" in summary
    learnt = load_network(run / "network.json")
    fresh = PolicyValueNetwork.load(run / "network.json")
    fresh.module.load_state_dict(initial.module.state_dict())
    assert any(
        (a != b).any()
        for a, b in zip(
            learnt.module.state_dict().values(), fresh.module.state_dict().values(), strict=True
        )
    )
    progress = json.loads((run / "checkpoints" / "progress.json").read_text())
    assert progress["iteration"] == 0 and progress["teacher"]["games"] == 3
    again = train_expert(
        load_expert_config(run / "config.yaml", iterations=1), run, resume=True, progress=False
    )
    assert again["teacher"] == teacher  # learnt once: the report is the first run's
    assert again["iterations"] == 1 and again["games"] == 1
    agent = make_agent(f"mcts:sims=2,net={run / 'network.json'}", "primordial_soup", seed=0)
    assert agent.evaluator.spec["players"] == 4


def test_a_teacher_of_another_game_is_refused_before_anything_is_written(tmp_path):
    config = load_expert_config("primordial_soup/expert", **{**TINY, "teacher.checkpoint": ORIGIN})
    with pytest.raises(NetworkError, match="the network plays origin, not primordial_soup"):
        train_expert(config, tmp_path / "run", progress=False)
    assert not (tmp_path / "run").exists()


def test_a_zoo_teacher_must_be_a_ppo_checkpoint(tmp_path):
    assert teacher_path("zoo:soup-4p/ppo").endswith("soup-4p-ppo.zip")
    assert teacher_path(SOUP) == SOUP  # a path stays as it is
    config = load_expert_config(
        "primordial_soup/expert", **{**TINY, "teacher.checkpoint": "zoo:soup-4p/heuristic"}
    )
    with pytest.raises(ValueError, match="'heuristic' is no PPO checkpoint"):
        train_expert(config, tmp_path / "run", progress=False)
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize(
    ("overrides", "words"),
    [
        ({"iterations": 0}, "iterations=0: must be > 0 (or 0 with a teacher.checkpoint"),
        ({"teacher.games": 0}, "games=0: must be > 0"),
        ({"teacher.holdout": 1.0}, "teacher.holdout=1.0: must be in [0, 1)"),
        ({"teacher.positions": -1}, "teacher.positions=-1: must be >= 0"),
    ],
)
def test_a_bad_teacher_section_is_named(overrides, words):
    with pytest.raises(ConfigError, match=re.escape(words)):
        load_expert_config("primordial_soup/expert", **overrides)


def test_the_shipped_warm_start_config_names_the_shipped_agent():
    config = load_expert_config("primordial_soup/distill")
    assert config.iterations == 0 and config.teacher.positions == 40
    PPOEvaluator(teacher_path(config.teacher.checkpoint)).check_env(config.game, config.players)
