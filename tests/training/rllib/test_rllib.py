"""RLlib PPO on both games (``make test`` runs these in the RLlib venv; without ray they are
skipped): the env passes RLlib's check, the module masks, training with 0 and 1 EnvRunners
and self-play snapshots, the checkpoint as an ``rllib:PATH`` agent in tournaments and the
league, and the docs' example."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ray.rllib")
torch = pytest.importorskip("torch")

from ray.rllib.core.columns import Columns  # noqa: E402
from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402
from ray.rllib.utils.torch_utils import FLOAT_MIN  # noqa: E402

from primeval.envs.games import GAMES  # noqa: E402
from primeval.training.agents.policy import CheckpointError  # noqa: E402
from primeval.training.cli import main  # noqa: E402
from primeval.training.evaluate import round_robin, tournament  # noqa: E402
from primeval.training.rllib.agent import RLlibAgent, module_path  # noqa: E402
from primeval.training.rllib.config import load_rllib_config  # noqa: E402
from primeval.training.rllib.env import make_env  # noqa: E402
from primeval.training.rllib.train import (  # noqa: E402
    build_algorithm,
    module_spec,
    take_snapshot,
)

ROOT = Path(__file__).resolve().parents[3]
#: Seats of the trained fixture's games (3-player Primordial Soup, as the SB3 checkpoint
#: fixture of tests/conftest.py, so both kinds meet in one league)
PLAYERS = {"primordial_soup": 3, "origin": 3}
TINY = {"ppo.train_batch_size": 256, "ppo.minibatch_size": 128, "ppo.num_epochs": 1,
        "network.net_arch": [32], "self_play.keep": 2, "self_play.snapshot_every": 1,
        "eval.final_games": 0, "torch_threads": 1}


@pytest.mark.parametrize("game", list(GAMES))
def test_the_env_passes_rllibs_multiagent_check(game):
    env = make_env({"game": game})
    check_multiagent_environments(env)
    obs, _ = env.reset(seed=0)
    (agent, first), = obs.items()
    assert set(first) == {"observation", "action_mask"} and first["action_mask"].dtype == np.int8


def test_the_module_gives_illegal_actions_no_probability():
    config = load_rllib_config(None, game="origin", players=3, **TINY)
    module = module_spec(config).rl_module_specs["shared"].build()
    env = make_env(config.env_config())
    obs, _ = env.reset(seed=1)
    (first,) = obs.values()
    batch = {Columns.OBS: {"observation": torch.as_tensor(first["observation"])[None],
                           "action_mask": torch.as_tensor(first["action_mask"])[None]}}
    for forward in (module.forward_inference, module.forward_exploration, module.forward_train):
        logits = forward(dict(batch))[Columns.ACTION_DIST_INPUTS][0]
        illegal = torch.as_tensor(first["action_mask"]) == 0
        assert (logits[illegal] == FLOAT_MIN).all() and (logits[~illegal] > FLOAT_MIN).all()
    assert module.compute_values(dict(batch)).shape == (1,)


def test_snapshots_reach_the_learner_and_a_remote_env_runner(local_ray):
    """With one EnvRunner (a Ray actor): a snapshot copies the shared weights into its slot
    on the learner and on the EnvRunner; the slot plays seats of the sampled games."""
    config = load_rllib_config(None, game="primordial_soup", players=3, num_env_runners=1,
                               **{**TINY, "self_play.weight": 0.9})
    algo = build_algorithm(config)
    try:
        algo.train()
        take_snapshot(algo, 1)
        learner = algo.learner_group.get_weights(module_ids=["shared", "snapshot_1"])
        remote = algo.env_runner_group.foreach_env_runner(
            lambda runner: runner.module.get_state(), local_env_runner=False)[0]
        for name, value in learner["shared"].items():
            assert np.array_equal(np.asarray(learner["snapshot_1"][name]), np.asarray(value))
            if name in remote["snapshot_1"]:  # the EnvRunner's module is inference-only
                assert np.array_equal(np.asarray(remote["snapshot_1"][name]),
                                      np.asarray(value))
        result = algo.train()
        played = set(result["env_runners"]["num_module_steps_sampled"])
        assert "shared" in played and played & {"snapshot_0", "snapshot_1"}
        after = algo.learner_group.get_weights(module_ids=["shared", "snapshot_1"])
        assert all(np.array_equal(after["snapshot_1"][k], learner["snapshot_1"][k])
                   for k in after["snapshot_1"])  # snapshots are never trained
        assert not all(np.array_equal(after["shared"][k], learner["shared"][k])
                       for k in after["shared"])  # the shared policy is
    finally:
        algo.stop()


@pytest.fixture(scope="module")
def trained(local_ray, tmp_path_factory):
    """``primeval train --backend rllib`` for 2 iterations of each game (0 EnvRunners):
    {game: run folder}."""
    runs = {}
    for game in GAMES:
        run = tmp_path_factory.mktemp(f"rllib_{game}")
        config = run / "tiny.yaml"
        config.write_text("\n".join([
            f"game: {game}", f"players: {PLAYERS[game]}",
            "num_env_runners: 0", "checkpoint_every: 1", "torch_threads: 1",
            "self_play: {weight: 0.5, keep: 2, snapshot_every: 1}",
            "eval: {every: 2, games: 2, final_games: 2}", "network: {net_arch: [32]}",
            "ppo: {train_batch_size: 256, minibatch_size: 128, num_epochs: 1}"]))
        assert main(["train", "--backend", "rllib", "--config", str(config), "--iterations",
                     "2", "--out", str(run), "--quiet"]) == 0
        runs[game] = run
    return runs


@pytest.mark.parametrize("game", list(GAMES))
def test_training_writes_a_checkpoint_metrics_and_a_report(trained, game):
    run = trained[game]
    rows = (run / "metrics.csv").read_text().splitlines()
    assert len(rows) == 3 and rows[0].startswith("iteration,env_steps")
    assert int(rows[2].split(",")[1]) >= 512  # two iterations of 256 env steps
    assert "win rate" in (run / "summary.md").read_text()
    assert (run / "checkpoint" / "rllib_checkpoint.json").is_file()
    # two snapshots in two slots: the last one holds the final shared weights
    shared = RLlibAgent(run, trust_checkpoint=True).module.get_state()  # our own run
    last = RLlibAgent(run, module_id="snapshot_1", trust_checkpoint=True).module.get_state()
    assert all(np.array_equal(shared[k], last[k]) for k in shared if k in last)


@pytest.mark.parametrize("game", list(GAMES))
def test_the_checkpoint_plays_in_tournaments_and_the_league(trained, game, capsys,
                                                            untrained_checkpoint):
    run, players = trained[game], PLAYERS[game]
    results = tournament(game, players, [f"rllib:{run}"] + ["random"] * (players - 1),
                         games=players, seed=0, trust_checkpoint=True)
    assert results[0].games == players
    assert main(["evaluate", "--game", game, "--players", str(players), "--quiet", "--games",
                 "2", "--trust-checkpoint", "--agents", f"rllib:{run}", "heuristic",
                 *["random"] * (players - 2)]) == 0
    assert "\nrllib:" in capsys.readouterr().out  # the table's first row (a long path is cut)
    members = [f"rllib:{run}", "heuristic", "random"]
    if game == "primordial_soup":  # beside an SB3 MaskablePPO checkpoint of the same game
        members.append(f"ppo:{untrained_checkpoint()}")
    league = round_robin(game, members, games=len(members), seed=0, num_players=players,
                         trust_checkpoint=True)
    assert len(league) == len(members) and all(r.games > 0 for r in league)


def test_a_relative_checkpoint_path_loads(trained, monkeypatch):
    run = trained["origin"]
    monkeypatch.chdir(run.parent)
    assert RLlibAgent(run.name, trust_checkpoint=True).act(*_first_decision("origin")) >= 0


def _first_decision(game: str):
    env = GAMES[game].env(PLAYERS[game])
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    return obs["observation"], obs["action_mask"]


def test_a_checkpoint_of_another_game_is_refused(trained):
    with pytest.raises(CheckpointError, match="expects observations of shape"):
        tournament("origin", 3, [f"rllib:{trained['primordial_soup']}", "random", "random"],
                   games=1, trust_checkpoint=True)
    with pytest.raises(CheckpointError, match="--trust-checkpoint"):  # RLlib unpickles
        tournament("origin", 3, [f"rllib:{trained['origin']}", "random", "random"], games=1)
    with pytest.raises(CheckpointError, match="holds no RLlib module"):
        module_path(trained["origin"] / "metrics.csv")


def test_the_docs_example_runs(local_ray):
    """docs/integrations.md's Ray RLlib example, as written."""
    text = (ROOT / "docs" / "integrations.md").read_text(encoding="utf-8")
    section = text.split("## Ray RLlib", 1)[1].split("\n## ", 1)[0]
    (code,) = re.findall(r"^```python\n(.*?)^```", section, re.S | re.M)
    exec(compile(code, "docs/integrations.md", "exec"), {"__name__": "__docs__"})
