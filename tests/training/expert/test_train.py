"""Expert iteration (training/expert/): its config, a tiny run end to end (self-play in a
spawned worker, learning, checkpoints, resume, the final table) whose network then guides
``mcts:net=``, and the refusals of bad configs and foreign run folders."""

from __future__ import annotations

import json

import numpy as np
import pytest

from primeval.training.agents import make_agent
from primeval.training.cli import main
from primeval.training.config import ConfigError
from primeval.training.evaluate import tournament
from primeval.training.expert.config import ExpertConfig, load_expert_config
from primeval.training.expert.games import play_selfplay_game
from primeval.training.expert.learner import ReplayBuffer, policy_target
from primeval.training.expert.network import load_network
from primeval.training.expert.train import _tasks, train_expert

TINY = {
    "players": 3,
    "iterations": 2,
    "games_per_iteration": 2,
    "search.sims": 3,
    "search.batch": 2,
    "network.hidden": [16],
    "learn.steps": 3,
    "learn.batch_size": 32,
    "eval.every": 1,
    "eval.games": 1,
    "eval.final_games": 1,
    "eval.sims": 2,
    "league.snapshot_every": 1,
    "env": {"max_steps": 120},
}


@pytest.mark.parametrize("game", ["primordial_soup", "origin"])
def test_the_shipped_configs_load(game):
    config = load_expert_config(f"{game}/expert")
    assert config.algo == "expert" and config.game == game and config.workers == 2


@pytest.mark.parametrize(
    ("overrides", "words"),
    [
        ({"algo": "ppo"}, "algo='ppo': this config is for 'expert'"),
        ({"players": 9}, "players=9"),
        ({"search.sims": 0}, "sims=0: must be > 0"),
        ({"search.noise_fraction": 2}, "noise_fraction=2"),
        ({"league.current": 0, "league.snapshots": 0, "league.heuristic": 0}, "not all 0"),
        ({"workers": -1}, "workers=-1"),
        ({"learn.target_temperature": 0}, "target_temperature=0.0: must be > 0"),
        ({"env": {"map_file": "x.yaml"}}, "cannot name data files"),
        ({"serach.sims": 3}, "did you mean 'search'"),
    ],
)
def test_a_bad_config_is_named(overrides, words):
    with pytest.raises(ConfigError, match=words.replace("(", r"\(")):
        load_expert_config("primordial_soup/expert", **overrides)


def test_a_self_play_game_records_every_decision_of_the_current_network(tmp_path):
    from primeval.training.expert.network import PolicyValueNetwork
    from primeval.training.expert.train import config_spec

    config = load_expert_config("primordial_soup/expert", **TINY)
    network = PolicyValueNetwork(config_spec(config), (16,), seed=0)
    network.save(tmp_path / "net.json")
    task = _tasks(config, 0, tmp_path / "net.json", [])[1]
    assert task["lineup"][1] == "current"  # game 1: the current network in seat 1
    game = play_selfplay_game(task)
    size = len(game["obs"])
    assert size > 0 and game["masks"].shape == (size, network.num_actions)
    np.testing.assert_allclose(game["visits"].sum(axis=1), 1.0, rtol=1e-5)
    assert not (game["visits"] * ~game["masks"]).any()  # visits only on legal actions
    assert np.allclose(game["values"].sum(axis=1), 0.0, atol=1e-6)  # rank rewards sum to 0
    again = play_selfplay_game(task)
    np.testing.assert_array_equal(game["visits"], again["visits"])  # seeded: the same game


def test_the_policy_target_sharpens_the_visit_counts_below_temperature_one():
    visits = np.array([0.0, 6.0, 3.0, 1.0], dtype=np.float32)
    np.testing.assert_allclose(policy_target(visits, 1.0), [0.0, 0.6, 0.3, 0.1], rtol=1e-6)
    np.testing.assert_allclose(policy_target(visits, 0.5), np.array([0, 36, 9, 1]) / 46, rtol=1e-6)
    assert policy_target(visits, 0.01).argmax() == 1 and policy_target(visits, 0.01)[1] > 0.999
    assert policy_target(visits, 0.01)[0] == 0.0  # an unvisited action stays out of the target


def test_a_self_play_game_records_the_sharpened_targets(tmp_path):
    from primeval.training.expert.network import PolicyValueNetwork
    from primeval.training.expert.train import config_spec

    tiny = {**TINY, "search.sims": 16}  # enough simulations to spread the visits
    plain = load_expert_config("primordial_soup/expert", **tiny)
    sharp = load_expert_config(
        "primordial_soup/expert", **tiny, **{"learn.target_temperature": 0.5}
    )
    PolicyValueNetwork(config_spec(plain), (16,), seed=0).save(tmp_path / "net.json")
    games = [play_selfplay_game(_tasks(c, 0, tmp_path / "net.json", [])[1]) for c in (plain, sharp)]
    np.testing.assert_array_equal(games[0]["obs"], games[1]["obs"])  # the same game is played
    expected = np.stack([policy_target(v, 0.5) for v in games[0]["visits"]])
    np.testing.assert_allclose(games[1]["visits"], expected, rtol=1e-5)
    assert not np.allclose(games[1]["visits"], games[0]["visits"])


def test_the_replay_buffer_keeps_the_newest_positions():
    buffer = ReplayBuffer(5)
    for start in (0, 3, 6):
        rows = np.arange(start, start + 3, dtype=np.float32)[:, None]
        buffer.add({"obs": rows, "masks": rows > -1, "visits": rows, "values": rows})
    assert len(buffer) == 5
    assert buffer.arrays()["obs"][:, 0].tolist() == [4, 5, 6, 7, 8]


@pytest.mark.slow
def test_a_tiny_run_trains_checkpoints_resumes_and_its_network_guides_mcts(tmp_path):
    run = tmp_path / "run"
    config = load_expert_config("primordial_soup/expert", workers=1, **TINY)
    final = train_expert(config, run, progress=False)
    progress = json.loads((run / "checkpoints" / "progress.json").read_text())
    assert progress["iteration"] == 2 and progress["games"] == 4
    assert final["raw"]["games"] == 1 and final["search"]["games"] == 1
    assert "| network (raw policy) | 2 heuristic | 1 |" in (run / "summary.md").read_text()
    assert list((run / "tb").iterdir())
    assert len((run / "metrics.csv").read_text().splitlines()) == 3
    before = load_network(run / "checkpoints" / "network.json")
    code = main(
        ["train", "--resume", str(run), "--set", "iterations=3", "--workers", "0", "--quiet"]
    )
    assert code == 0
    assert json.loads((run / "checkpoints" / "progress.json").read_text())["iteration"] == 3
    after = load_network(run / "network.json")
    assert any(
        (a != b).any()
        for a, b in zip(
            before.module.state_dict().values(), after.module.state_dict().values(), strict=True
        )
    )
    agent = make_agent(f"mcts:sims=3,net={run / 'network.json'}", "primordial_soup", seed=0)
    assert agent.evaluator.spec["players"] == 3
    results = tournament(
        "primordial_soup",
        3,
        [f"mcts:sims=3,net={run / 'network.json'}", "heuristic", "heuristic"],
        games=1,
        seed=9,
    )
    assert results[0].games == 1


def test_resume_refuses_a_foreign_run_folder(tmp_path, capsys):
    ppo_run = tmp_path / "ppo"
    ppo_run.mkdir()
    (ppo_run / "config.yaml").write_text("game: origin\nplayers: 3\n")
    assert main(["train", "--resume", str(ppo_run), "--algo", "expert"]) == 2
    assert "holds a run of another learner (algo 'ppo'" in capsys.readouterr().err
    run = tmp_path / "run"
    run.mkdir()
    config = load_expert_config("primordial_soup/expert", **TINY)
    from primeval.training.config import save

    save(config, run / "config.yaml")
    assert main(["train", "--resume", str(run), "--config", "origin/expert"]) == 2
    err = capsys.readouterr().err
    assert "holds a run of another config (differs in" in err and "game" in err
    assert main(["train", "--resume", str(run)]) == 2
    assert "no checkpoint at" in capsys.readouterr().err


def test_help_config_lists_the_expert_fields(capsys):
    assert main(["train", "--algo", "expert", "--help-config"]) == 0
    out = capsys.readouterr().out
    assert "search.sims: int = 48" in out and "learn.buffer" in out
    assert "primordial_soup/expert" in out


def test_the_config_round_trips_through_the_run_folder(tmp_path):
    from primeval.training.config import save

    config = load_expert_config("origin/expert", **TINY)
    save(config, tmp_path / "config.yaml")
    assert load_expert_config(tmp_path / "config.yaml") == config
    assert isinstance(config, ExpertConfig)
