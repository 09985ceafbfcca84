"""The training league: PFSP weights, the opponent schedule, what it learns from episodes,
its ratings, and its file (saved with the checkpoint, continued by --resume)."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from primeval.training.agents import RandomAgent
from primeval.training.ppo.config import ConfigError, load_config
from primeval.training.ppo.league import CURRENT, League, Member, pfsp_weights
from primeval.training.ppo.train import train


@pytest.mark.parametrize("mode", ["hard", "even", "uniform"])
def test_pfsp_weights_sum_to_one(mode):
    rng = np.random.default_rng(0)
    for size in (1, 2, 7):
        chances = rng.random(size)
        weights = pfsp_weights(chances, mode, power=2.0)
        assert weights.shape == (size,) and np.all(weights >= 0)
        assert weights.sum() == pytest.approx(1.0)
    assert pfsp_weights(np.ones(3), "hard", 2.0).sum() == pytest.approx(1.0)  # all beaten


def test_hard_pfsp_favours_the_snapshots_the_learner_loses_to():
    weights = pfsp_weights(np.array([0.9, 0.5, 0.1]), "hard", power=2.0)
    assert weights[2] > weights[1] > weights[0]
    even = pfsp_weights(np.array([0.9, 0.5, 0.1]), "even", power=1.0)
    assert even[1] > even[0] and even[1] > even[2]


def league_of(tmp_path, **overrides) -> League:
    return League(load_config(None, **overrides), tmp_path)


def test_the_schedule_changes_the_opponent_weights_at_its_steps(tmp_path):
    league = league_of(tmp_path, **{"opponents.random": 1.0, "league.schedule": [
        {"from_step": 100, "heuristic": 1.0}]})
    rng = np.random.default_rng(0)
    assert {league.draw_kind(rng) for _ in range(50)} == {"random"}
    league.step = 100
    assert {league.draw_kind(rng) for _ in range(50)} == {"heuristic"}


def test_self_play_draws_the_current_policy_or_a_snapshot_by_pfsp(tmp_path):
    league = league_of(tmp_path, **{"opponents.random": 0.0, "opponents.self_play": 1.0,
                                    "league.current": 0.25, "self_play.keep": 2})
    rng = np.random.default_rng(0)
    assert league.draw_kind(rng) == "random"  # nothing to play yet
    league.set_current(object.__new__(type("Policy", (), {"name": ""})))
    assert league.draw_kind(rng) == CURRENT  # no snapshot yet
    for step in (10, 20, 30):
        (tmp_path / f"step_{step}.zip").write_bytes(b"")
        league.add_snapshot(step, tmp_path / f"step_{step}.zip")
    assert list(league.snapshot_weights()) == ["step_20", "step_30"]  # the 2 latest
    league.members["step_30"].games, league.members["step_30"].behind = 40, 38
    draws = [league.draw_kind(rng) for _ in range(4000)]
    assert draws.count(CURRENT) / len(draws) == pytest.approx(0.25, abs=0.03)
    assert draws.count("step_20") > 5 * draws.count("step_30")  # step_30 is mostly beaten


def test_an_episode_counts_whether_the_learner_finished_ahead_of_each_snapshot(tmp_path):
    league = league_of(tmp_path)
    (tmp_path / "s.zip").write_bytes(b"")
    league.add_snapshot(5, tmp_path / "s.zip")
    league.record({"seat": 0, "scores": [10, 12, 10, 3],
                   "opponents": {1: "step_5", 2: "heuristic", 3: CURRENT}})
    league.record({"seat": 2, "scores": [1, 2, 30], "opponents": {0: "step_5", 1: "random"}})
    snap, heur = league.members["step_5"], league.members["heuristic"]
    assert (snap.games, snap.behind) == (2, 1.0)
    assert (heur.games, heur.behind) == (1, 0.5)  # a tie counts a half
    assert snap.learner_ahead() == pytest.approx(2 / 4)


def test_ratings_move_towards_the_results(tmp_path):
    league = league_of(tmp_path)
    before = {n: m.mu for n, m in league.members.items()}
    league.rate([["heuristic", "random"]] * 5, [[1.0, 2.0]] * 5)
    assert league.members["heuristic"].mu > before["heuristic"]
    assert league.members["random"].mu < before["random"]
    assert league.members["heuristic"].sigma < 25 / 3


def test_the_league_file_round_trips_and_a_damaged_one_is_refused(tmp_path):
    league = league_of(tmp_path)
    league.members["x"] = Member("x", path="snapshots/x.zip", step=3, games=4, behind=1.5)
    league.step = 77
    path = league.save()
    again = league_of(tmp_path)
    again.load(path)
    assert again.to_dict() == league.to_dict()
    path.write_text("{\"members\": 3}")
    with pytest.raises(ValueError, match="not a saved league"):
        again.load(path)
    assert again.to_dict() == league.to_dict()  # a refused file changes nothing


SMOKE = {"total_steps": 2048, "n_envs": 4, "vec_env": "batched", "ppo.n_steps": 256,
         "ppo.batch_size": 256, "ppo.n_epochs": 1, "checkpoint_every": 1024,
         "eval.every": 1024, "eval.games": 2, "eval.final_games": 4, "select.games": 2,
         "network.net_arch": [16], "torch_threads": 1, "self_play.snapshot_every": 512,
         "opponents.random": 1.0, "league.rating_games": 6,
         "league.schedule": [{"from_step": 512, "random": 0.2, "heuristic": 0.3,
                              "self_play": 0.5}]}


@pytest.mark.slow
def test_a_tiny_league_run_end_to_end_and_resumed(tmp_path):
    """Batched self-play with a schedule: snapshots join the league, training episodes are
    counted against them, ratings are kept per evaluation, and --resume continues the same
    league to the new total."""
    run = tmp_path / "run"
    config = load_config("configs/primordial_soup/default.yaml", **SMOKE)
    final = train(config, run, progress=False)
    league = json.loads((run / "league.json").read_text())
    names = {m["name"]: m for m in league["members"]}
    snapshots = [m for m in names.values() if m["path"]]
    assert len(snapshots) >= 3 and all((run / m["path"]).is_file() for m in snapshots)
    assert sum(m["games"] for m in snapshots) > 0  # self-play episodes were counted
    assert names["heuristic"]["games"] > 0
    rows = list(csv.DictReader((run / "ratings.csv").open()))
    assert {r["member"] for r in rows} >= {"random", "heuristic"} | {m["name"] for m in snapshots}
    assert final["rating_heuristic"] != 25.0  # rating games were played
    for key in ("win_rate_heuristic_vs_random", "win_rate_vs_heuristic_lo"):
        assert key in final
    assert (run / "summary.md").read_text().count("|") > 20

    more = load_config(run / "config.yaml", total_steps=3072)
    train(more, run, resume=True, progress=False)
    resumed = {m["name"]: m for m in json.loads((run / "league.json").read_text())["members"]}
    assert set(names) <= set(resumed)
    assert resumed["heuristic"]["games"] >= names["heuristic"]["games"]
    assert json.loads((run / "eval.json").read_text())["total_steps"] == 3072


def test_loading_a_snapshot_leaves_the_global_generators_as_they_were(tmp_path,
                                                                     untrained_checkpoint):
    """SB3's load reseeds random, numpy.random and torch; training shuffles with numpy's."""
    import random
    import shutil

    import torch

    league = league_of(tmp_path, players=3)  # the checkpoint's env (its spec is checked)
    shutil.copy(untrained_checkpoint(), tmp_path / "step_7.zip")
    league.add_snapshot(7, tmp_path / "step_7.zip")
    random.seed(1)
    np.random.seed(1)  # noqa: NPY002  (the global generators are what is checked)
    torch.manual_seed(1)
    expected = (random.random(), np.random.random(), float(torch.rand(1)))  # noqa: NPY002
    random.seed(1)
    np.random.seed(1)  # noqa: NPY002
    torch.manual_seed(1)
    agent = league.policy("step_7")
    assert agent.name == "step_7"
    assert (random.random(), np.random.random(), float(torch.rand(1))) == expected  # noqa: NPY002


def test_rating_lineups_seat_the_newest_in_turn_and_no_member_twice(tmp_path):
    league = league_of(tmp_path)
    for step in (1, 2, 3):
        league.members[f"step_{step}"] = Member(f"step_{step}", path=f"s{step}.zip", step=step)
    lineups = league.rating_lineups("step_3", 8, 4, np.random.default_rng(0))
    assert [lineup.index("step_3") for lineup in lineups] == [0, 1, 2, 3] * 2
    assert all(len(set(lineup)) == 4 for lineup in lineups)


def test_rated_agents_join_the_ratings_but_are_never_drawn_as_opponents(tmp_path):
    league = league_of(tmp_path, **{"league.rated": ["mcts:sims=4"],
                                      "opponents.heuristic": 0.3, "opponents.random": 0.3,
                                      "opponents.self_play": 0.4})
    assert "mcts:sims=4" in league.members and league.members["mcts:sims=4"].path is None
    league.set_current(RandomAgent(0))
    league.add_snapshot(1, tmp_path / "step_1.zip")
    rng = np.random.default_rng(0)
    # every kind of opponent is drawn (a snapshot by PFSP too), the rated agent never
    assert {league.draw_kind(rng) for _ in range(400)} == {"random", "heuristic", CURRENT,
                                                           "step_1"}
    lineups = league.rating_lineups("random", 12, 4, np.random.default_rng(1))
    assert any("mcts:sims=4" in lineup for lineup in lineups)
    with pytest.raises(ConfigError, match="rated: 'heuristic' is not an mcts agent spec"):
        load_config(None, **{"league.rated": ["heuristic"]})
    with pytest.raises(ConfigError, match="sims"):
        load_config(None, **{"league.rated": ["mcts:sims=0"]})
    with pytest.raises(ConfigError, match="list of strings"):
        load_config(None, **{"league.rated": "mcts"})


@pytest.mark.slow
def test_a_rated_mcts_agent_gets_a_rating_in_a_tiny_run(tmp_path):
    run = tmp_path / "run"
    config = load_config("configs/primordial_soup/default.yaml", **{
        **SMOKE, "total_steps": 1024, "league.rated": ["mcts:sims=2"], "league.rating_games": 8,
        "eval.every": 512})
    train(config, run, progress=False)
    rows = list(csv.DictReader((run / "ratings.csv").open()))
    mcts = [r for r in rows if r["member"] == "mcts:sims=2"]
    assert mcts and float(mcts[-1]["mu"]) != 25.0  # it played rating games
    assert load_config(run / "config.yaml").league.rated == ("mcts:sims=2",)


def test_rating_games_leave_the_training_opponents_as_they_were(tmp_path,
                                                                 untrained_checkpoint):
    """Rating games play snapshots as agents of their own: a snapshot that is a training
    opponent mid-game keeps its generator, so rating games change nothing in training."""
    import shutil

    from sb3_contrib import MaskablePPO

    from primeval.training.ppo.train import rate_league

    league = league_of(tmp_path, players=3, **{"league.rated": ["mcts:sims=2"]})
    path = untrained_checkpoint()
    for step in (1, 2):
        shutil.copy(path, tmp_path / f"step_{step}.zip")
        league.add_snapshot(step, tmp_path / f"step_{step}.zip")
    opponent = league.policy("step_1")  # as a training env holds it
    opponent.seed(5)
    before = opponent.rng.bit_generator.state
    model = MaskablePPO.load(path, device="cpu")
    rate_league(model, league, league.config, "step_2", games=6, seeds=0)
    assert opponent.rng.bit_generator.state == before
    assert league.members["mcts:sims=2"].mu != 25.0 or league.members["step_1"].mu != 25.0


def test_the_training_envs_get_the_configs_shaping(tmp_path):
    """``make_training_env`` hands the config's shaping weights to every training env."""
    from primeval.training.ppo.train import make_training_env

    config = load_config("origin/structured", shaping=0.1, shaping_others=0.5,
                         shaping_prospects=0.25, **{"shaping_sources.tiles": 2})
    env = make_training_env(config, 0, League(config, tmp_path))()
    assert (env.shaping, env.shaping_others, env.shaping_prospects) == (0.1, 0.5, 0.25)
    assert env.shaping_sources["tiles"] == 2.0 and env.shaping_sources["objectives"] == 1.0
    plain = load_config("origin/structured", shaping=0.1)
    assert make_training_env(plain, 0, League(plain, tmp_path / "b"))().shaping_sources is None
