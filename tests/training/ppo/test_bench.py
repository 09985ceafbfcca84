"""The PPO half of `primeval bench` (`--ppo`, primeval.training.ppo.bench) and the command
that puts both halves in one report: the report's shape and arithmetic (never its speeds)."""

from __future__ import annotations

import json

import pytest

from primeval.training import cli
from primeval.training.ppo import bench


def run_bench(argv: list[str], capsys) -> dict:
    """`primeval bench ARGV --json`: the report it prints."""
    capsys.readouterr()
    assert cli.main(["bench", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.slow
def test_ppo_throughput_report(capsys):
    pytest.importorskip("sb3_contrib")
    report = run_bench(["--game", "primordial_soup", "--players", "3", "--seconds", "0.1",
                        "--repeats", "3", "--ppo", "--ppo-steps", "1024"], capsys)
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


def test_ppo_both_runs_every_pair_of_settings_and_policy(monkeypatch, capsys):
    """``--ppo-hparams both --ppo-policy both``: one PPO run per game, settings and policy;
    each alone runs just what it names."""
    calls = []

    def fake_ppo(game, players, encoder, steps, hparams, **kwargs):
        calls.append((game, hparams, kwargs["policy"]))
        return {"game": game, "hparams": hparams, "policy": kwargs["policy"],
                "env_steps_per_second": 2500.0}

    monkeypatch.setattr(bench, "bench_ppo", fake_ppo)
    argv = ["--game", "origin", "--seconds", "0.05", "--repeats", "1", "--ppo"]
    report = run_bench([*argv, "--ppo-hparams", "both", "--ppo-policy", "both"], capsys)
    assert calls == [("origin", "config", "primeval"), ("origin", "config", "sb3"),
                     ("origin", "sb3", "primeval"), ("origin", "sb3", "sb3")]
    assert [p["policy"] for p in report["ppo"]] == ["primeval", "sb3", "primeval", "sb3"]
    assert report["targets"] == {"origin MaskablePPO >= 2000 env steps/s": True}
    calls.clear()
    run_bench([*argv, "--ppo-policy", "sb3"], capsys)
    assert calls == [("origin", "config", "sb3")]


def test_bench_command_reports_both_halves_in_one_document(monkeypatch, capsys):
    """`primeval bench` keeps the report of one module: the env half's keys, then "ppo",
    then every target; the text report prints the env figures, the PPO figures and the
    targets."""
    def fake_ppo(game, players, encoder, steps, hparams, **kwargs):
        return {"game": game, "players": players, "encoder": encoder, "n_envs": 4,
                "hparams": hparams, "policy": kwargs["policy"], "n_steps": 512,
                "batch_size": 64, "n_epochs": 4, "env_steps_per_second": 1900.0,
                "sb3_alone": {"env_steps_per_second": 5000.0}, "env_us_per_env_step": 326.3}

    monkeypatch.setattr(bench, "bench_ppo", fake_ppo)
    argv = ["--game", "origin", "--seconds", "0.05", "--repeats", "1", "--memory", "--ppo"]
    report = run_bench(argv, capsys)
    assert list(report) == ["machine", "settings", "games", "memory", "ppo", "targets"]
    assert list(report["targets"]) == ["origin env < 5 MB",
                                       "origin 64 envs in one process < 1 GB",
                                       "origin MaskablePPO >= 2000 env steps/s"]
    assert report["targets"]["origin MaskablePPO >= 2000 env steps/s"] is False
    assert cli.main(["bench", *argv]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("machine: ") and lines[1].startswith("origin 3p flat: ")
    assert lines[2].startswith("origin memory: ")
    assert lines[3].startswith("origin MaskablePPO (primeval policy, config settings")
    assert [line.rsplit(": ", 1)[0] for line in lines[4:]] == [
        f"target {name}" for name in report["targets"]]
    assert lines[-1] == "target origin MaskablePPO >= 2000 env steps/s: NOT met"


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


@pytest.mark.slow
def test_the_self_play_benchmark_prints_every_setting_and_its_ratio(capsys):
    from primeval.training.ppo import bench_selfplay

    assert bench_selfplay.main(["--steps", "512", "--envs", "2", "--rounds", "1",
                                "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {(r["opponents"], r["vec_env"]) for r in rows} == {
        (o, v) for o in ("random", "self_play") for v in ("dummy", "batched")}
    for r in rows:
        assert r["env_steps_per_second"] > 0 and r["n_envs"] == 2
        if r["opponents"] == "random":
            assert r["ratio_to_random"] == 1.0
    with pytest.raises(SystemExit):
        bench_selfplay.main(["--steps", "0"])
