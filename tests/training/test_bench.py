"""`primeval bench`: the report's shape and arithmetic (never its speeds)."""

from __future__ import annotations

import builtins
import json

import pytest

from primeval.training import bench


def test_random_play_report_and_peer_ratios(capsys):
    report = bench.main(["--game", "primordial_soup", "--seconds", "0.3", "--repeats", "1",
                         "--peers", "--json"])
    printed = json.loads(capsys.readouterr().out)
    assert printed["games"] == report["games"]
    (game,) = report["games"]
    assert (game["game"], game["players"], game["encoder"]) == ("primordial_soup", 4, "flat")
    assert game["steps_per_second"] > 0 and game["games"] >= 1
    # decisions per game match the rules' game length, not a constant
    assert 100 < game["decisions_per_game"] < 2000
    peers = {p["env"]: p for p in report["peers"]}
    assert set(peers) == {"connect_four_v3", "go_v5", "chess_v6"}
    for name, peer in peers.items():
        assert report["ratios"]["primordial_soup"][name] == pytest.approx(
            game["steps_per_second"] / peer["steps_per_second"])
    assert set(report["targets"]) == {"primordial_soup >= 1.5x go_v5",
                                      "primordial_soup >= 10.0x chess_v6"}
    assert report["targets"]["primordial_soup >= 1.5x go_v5"] == (
        report["ratios"]["primordial_soup"]["go_v5"] >= 1.5)
    assert report["machine"]["cores"] >= 1 and "numpy" in report["machine"]["versions"]


def test_games_and_peers_are_run_in_turns_and_reported_as_medians(monkeypatch):
    """One run of every game and peer per round, so that a drifting machine shifts every
    figure alike; each figure is the median of its rounds."""
    calls = []
    speeds = iter([100.0, 900.0, 10.0, 300.0, 700.0, 30.0, 200.0, 800.0, 20.0])

    def fake_run(name):
        calls.append(name)
        return {"steps_per_second": next(speeds), "games_per_second": 1.0,
                "decisions_per_game": 50.0, "games": 2}

    monkeypatch.setattr(bench, "random_play", lambda game, *a, **k: fake_run(game))
    monkeypatch.setattr(bench, "peer_env", lambda name: name)
    monkeypatch.setattr(bench, "play_random", lambda env, *a, **k: fake_run(env))
    games, peers = bench.bench_round_robin([("origin", 3)], "flat", ["go_v5", "chess_v6"],
                                           seconds=1.0, repeats=3)
    assert calls == ["origin", "go_v5", "chess_v6"] * 3
    assert games[0]["steps_per_second"] == 200.0  # median of 100, 300, 200
    assert [p["steps_per_second"] for p in peers] == [800.0, 20.0]
    assert games[0]["games"] == 6 and games[0]["decisions_per_game"] == 50.0


def test_profile_report_names_where_a_step_spends_its_time(capsys):
    report = bench.main(["--game", "origin", "--seconds", "0.5", "--repeats", "1",
                         "--profile"])
    (profile,) = report["profiles"]
    assert profile["game"] == "origin" and profile["agent_steps"] > 10
    functions = profile["functions"]
    assert len(functions) == 25
    own = [f["own_us_per_step"] for f in functions]
    assert own == sorted(own, reverse=True) and own[-1] >= 0
    assert all(f["total_us_per_step"] >= f["own_us_per_step"] for f in functions)
    # the encoder and the rules are where an Origin step goes
    names = " ".join(f["function"] for f in functions)
    assert "origin/encoders.py" in names and "core/aec.py" in names
    assert "origin profile (cProfile" in capsys.readouterr().out


def test_memory_report(capsys):
    report = bench.main(["--game", "origin", "--seconds", "0.2", "--repeats", "1",
                         "--memory"])
    (memory,) = report["memory"]
    assert memory["envs"] == 64
    assert 0 < memory["env_mb"] < memory["process_rss_mb"]
    assert "origin memory:" in capsys.readouterr().out


def test_peers_without_their_dependencies_say_what_to_install(monkeypatch):
    real_import = builtins.__import__

    def no_chess(name, *args, **kwargs):
        if name == "chess" or name.startswith("pettingzoo.classic"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_chess)
    with pytest.raises(SystemExit, match=r"pip install 'primeval\[bench\]'"):
        bench.peer_env("chess_v6")


def test_bad_settings_are_refused():
    with pytest.raises(SystemExit, match="--seconds"):
        bench.main(["--game", "origin", "--seconds", "0"])


@pytest.mark.slow
def test_ppo_throughput_report():
    pytest.importorskip("sb3_contrib")
    report = bench.main(["--game", "primordial_soup", "--players", "3", "--seconds", "0.1",
                         "--repeats", "3", "--ppo", "--ppo-steps", "1024"])
    (ppo,) = report["ppo"]
    assert (ppo["n_envs"], ppo["hparams"], ppo["policy"]) == (4, "config", "primeval")
    assert ppo["torch_threads"] == {"rollout": 1, "update": 2}
    assert ppo["distribution_checks"] is False
    assert ppo["env_steps"] >= 1024 and len(ppo["runs"]) == 3
    assert ppo["env_steps_per_second"] == sorted(ppo["runs"])[1] > 0
    alone = ppo["sb3_alone"]
    assert len(alone["runs"]) == 3 and alone["env_steps_per_second"] == sorted(alone["runs"])[1]
    assert ppo["env_us_per_env_step"] == pytest.approx(
        1e6 / ppo["env_steps_per_second"] - 1e6 / alone["env_steps_per_second"])
    assert "primordial_soup MaskablePPO >= 2000 env steps/s" in report["targets"]


def test_ppo_target_is_judged_on_primeval_trains_policy_and_settings():
    """``--ppo-policy both`` and ``--ppo-hparams both`` report more runs; the target reads the
    one ``primeval train`` does (its policy, the config's settings)."""
    def run(policy: str, hparams: str, speed: float) -> dict:
        return {"game": "origin", "policy": policy, "hparams": hparams,
                "env_steps_per_second": speed}

    report = {"ppo": [run("sb3", "config", 1500.0), run("primeval", "sb3", 1000.0),
                      run("primeval", "config", 2100.0)]}
    assert bench.targets(report) == {"origin MaskablePPO >= 2000 env steps/s": True}
    report["ppo"][2]["env_steps_per_second"] = 1999.0
    assert bench.targets(report) == {"origin MaskablePPO >= 2000 env steps/s": False}
    with pytest.raises(ValueError, match="policy must be 'primeval' or 'sb3', got 'Mlp"):
        bench.bench_ppo("origin", 3, "flat", 64, policy="MlpPolicy")
    with pytest.raises(ValueError, match="hparams must be 'config' or 'sb3', got 'fast'"):
        bench.bench_ppo("origin", 3, "flat", 64, hparams="fast")


def test_ppo_both_runs_every_pair_of_settings_and_policy(monkeypatch):
    """``--ppo-hparams both --ppo-policy both``: one PPO run per game, settings and policy;
    each alone runs just what it names."""
    calls = []

    def fake_ppo(game, players, encoder, steps, hparams, **kwargs):
        calls.append((game, hparams, kwargs["policy"]))
        return {"game": game, "hparams": hparams, "policy": kwargs["policy"],
                "env_steps_per_second": 2500.0}

    monkeypatch.setattr(bench, "bench_ppo", fake_ppo)
    monkeypatch.setattr(bench, "format_report", lambda report: "")
    argv = ["--game", "origin", "--seconds", "0.05", "--repeats", "1", "--ppo"]
    bench.main([*argv, "--ppo-hparams", "both", "--ppo-policy", "both"])
    assert calls == [("origin", "config", "primeval"), ("origin", "config", "sb3"),
                     ("origin", "sb3", "primeval"), ("origin", "sb3", "sb3")]
    calls.clear()
    bench.main([*argv, "--ppo-policy", "sb3"])
    assert calls == [("origin", "config", "sb3")]


def test_idle_env_has_the_game_spaces_and_does_nothing():
    """The env that measures SB3 and torch alone: a valid Gymnasium env with the game's
    spaces, zero observations, a fixed mask and episodes of a fixed length."""
    from stable_baselines3.common.env_checker import check_env

    from primeval.envs import origin_v0
    from primeval.wrappers.single_agent import SingleAgentEnv

    game = SingleAgentEnv(origin_v0.raw_env(num_players=3))
    env = bench.IdleEnv(game.observation_space, game.action_space, legal=5, length=3)
    check_env(env)
    obs, _ = env.reset(seed=0)
    assert obs.shape == game.observation_space.shape and not obs.any()
    assert env.action_masks().sum() == 5 and env.action_masks()[:5].all()
    ends = [env.step(0)[2] for _ in range(3)]
    assert ends == [False, False, True]
