"""bench_vec's settings: what each measuring run of a default config overrides."""

from __future__ import annotations

import pytest

from primeval.training.config import parse_sets
from primeval.training.ppo.bench_vec import main, process_env, settings_of, steady_overrides
from primeval.training.ppo.config import load_config


def test_settings_name_the_vec_env_and_the_workers():
    assert settings_of(["batched", "vector:2"]) == [
        ("batched", ["vec_env=batched"]),
        ("vector:2", ["vec_env=vector", "workers=2"]),
    ]


def test_a_setting_carries_further_overrides_after_a_plus():
    assert settings_of(["vector+torch_threads=2", "vector:2+torch_threads=2+n_envs=16"]) == [
        ("vector+torch_threads=2", ["vec_env=vector", "torch_threads=2"]),
        ("vector:2+torch_threads=2+n_envs=16",
         ["vec_env=vector", "workers=2", "torch_threads=2", "n_envs=16"]),
    ]
    with pytest.raises(SystemExit, match="torch_threads"):
        settings_of(["vector+torch_threads"])


def test_an_env_item_sets_the_runs_process_environment_not_the_config(monkeypatch):
    """``+env:NAME=VALUE`` reaches the run's environment (OpenMP reads OMP_WAIT_POLICY when
    torch loads, too early for a config key) and is not passed on as a config override."""
    monkeypatch.setenv("PYTHONPATH", "/somewhere/else")
    [(label, sets)] = settings_of(["vector+torch_threads=2+env:OMP_WAIT_POLICY=PASSIVE"])
    assert sets == ["vec_env=vector", "torch_threads=2", "env:OMP_WAIT_POLICY=PASSIVE"]
    env, left = process_env(sets + ["seed=3"], None)
    assert env["OMP_WAIT_POLICY"] == "PASSIVE" and "PYTHONPATH" not in env
    assert left == ["vec_env=vector", "torch_threads=2", "seed=3"]
    env, _ = process_env(["env:A=b=c"], "/shim")
    assert (env["A"], env["PYTHONPATH"]) == ("b=c", "/shim")
    for bad in ("vector+env:", "vector+env:=1", "vector+env:OMP_WAIT_POLICY"):
        with pytest.raises(SystemExit, match="not KEY=VALUE"):
            settings_of([bad])


@pytest.mark.parametrize("game", ["primordial_soup", "origin"])
def test_a_measuring_run_plays_the_last_phase_without_evaluations(game):
    sets = parse_sets(steady_overrides(game, 4096))
    config = load_config(f"configs/{game}/default.yaml", **sets)
    shipped = load_config(f"configs/{game}/default.yaml")
    assert config.total_steps == 4096 and config.league.schedule == ()
    assert config.eval.games == 1 and config.league.rating_games == 0
    last = shipped.league.schedule[-1] if shipped.league.schedule else shipped.opponents
    assert (config.opponents.random, config.opponents.heuristic, config.opponents.self_play) == (
        last.random,
        last.heuristic,
        last.self_play,
    )
    # everything else is the shipped config's
    assert (config.ppo, config.network, config.n_envs, config.vec_env, config.prior) == (
        shipped.ppo,
        shipped.network,
        shipped.n_envs,
        shipped.vec_env,
        shipped.prior,
    )


def test_bad_arguments_are_refused():
    with pytest.raises(SystemExit):
        main(["--steps", "0"])


@pytest.mark.parametrize("game", ["primordial_soup", "origin"])
def test_the_config_file_a_run_reads_is_the_default_with_the_sets(game, tmp_path):
    """Runs read their settings from a config file (a tree whose ``train`` has no ``--set``
    runs the same settings): the file is the config ``--set`` would give."""
    from primeval.training.ppo.bench_vec import config_with, default_config

    sets = steady_overrides(game, 4096) + ["vec_env=batched", "ppo.learning_rate=0.001"]
    path = tmp_path / "config.yaml"
    path.write_text(config_with(default_config(game, None), sets), encoding="utf-8")
    assert load_config(path) == load_config(f"configs/{game}/default.yaml", **parse_sets(sets))
    from primeval.training.config import ConfigError

    with pytest.raises(ConfigError, match="expected KEY=VALUE"):
        config_with(default_config(game, None), ["total_steps"])
