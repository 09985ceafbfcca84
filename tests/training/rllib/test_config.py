"""The RLlib backend's config and policy-mapping function: checked without ray."""

from __future__ import annotations

from collections import Counter
from importlib import resources

import pytest

from primeval.envs.games import GAMES
from primeval.training.ppo.config import ConfigError
from primeval.training.rllib.config import load_rllib_config
from primeval.training.rllib.train import seat_to_module


@pytest.mark.parametrize("game", list(GAMES))
def test_each_game_ships_an_rllib_config(game):
    path = resources.files("primeval.configs").joinpath(game, "rllib.yaml")
    config = load_rllib_config(path)
    assert config.game == game and config.players == GAMES[game].default_players
    assert config.module_ids == ["shared", "snapshot_0", "snapshot_1", "snapshot_2"]
    assert config.env_config() == {"game": game, "players": config.players,
                                   "encoder": "flat", "env": {}}


@pytest.mark.parametrize(("overrides", "message"), [
    ({"num_envrunners": 1}, "unknown key(s) ['num_envrunners']"),
    ({"ppo.lr": "fast"}, "ppo.lr: expected float"),
    ({"ppo.lambda_": 2}, "lambda_=2.0: must be in [0, 1]"),
    ({"ppo.minibatch_size": 9000}, "minibatch_size=9000: must be <= train_batch_size"),
    ({"self_play.weight": 1}, "self_play: weight=1.0: must be in [0, 1)"),
    ({"num_env_runners": -1}, "num_env_runners=-1: must be >= 0"),
    ({"players": 5}, "players=5: primordial_soup allows (3, 4)"),
    ({"address": 6379}, "address: expected str"),
    ({"env": {"no_such_rule": 1}}, "env: "),
])
def test_a_bad_config_is_refused_naming_the_key(overrides, message):
    with pytest.raises(ConfigError) as info:
        load_rllib_config(None, **overrides)
    assert message in str(info.value)


def test_an_sb3_config_is_refused_naming_its_keys():
    path = resources.files("primeval.configs").joinpath("origin", "default.yaml")
    with pytest.raises(ConfigError, match=r"unknown key\(s\) \[.*'n_envs'"):
        load_rllib_config(path)


class Episode:
    def __init__(self, id_: str) -> None:
        self.id_ = id_


def test_the_mapping_gives_every_game_one_shared_seat_and_snapshots_at_the_weight():
    players, keep, weight = 4, 3, 0.5
    counts: Counter[str] = Counter()
    for e in range(2000):
        episode = Episode(f"episode-{e}")
        modules = [seat_to_module(f"player_{s}", episode, players=players, keep=keep,
                                  weight=weight) for s in range(players)]
        assert "shared" in modules
        # the same episode and seat always map alike (every seat asks once, in any order)
        assert modules == [seat_to_module(f"player_{s}", episode, players=players, keep=keep,
                                          weight=weight) for s in range(players)]
        counts.update(modules)
    seats = 2000 * players
    # one seat of each game is shared; each other seat is a snapshot with chance `weight`
    assert counts["shared"] / seats == pytest.approx(1 - weight * 3 / 4, abs=0.02)
    assert {m for m in counts if m != "shared"} == {f"snapshot_{i}" for i in range(keep)}


def test_without_self_play_every_seat_is_shared():
    assert {seat_to_module(f"player_{s}", Episode("x"), players=3, keep=3, weight=0.0)
            for s in range(3)} == {"shared"}


def test_without_ray_the_backend_and_the_agent_say_what_to_install(capsys):
    try:
        import ray  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("ray is installed (the RLlib venv)")
    from primeval.training.agents import make_agent
    from primeval.training.cli import main

    assert main(["train", "--backend", "rllib"]) == 2
    assert "make rllib" in capsys.readouterr().err
    with pytest.raises(ValueError, match="needs the rllib extra"):
        make_agent("rllib:runs/x", "origin")


def test_rllib_flags_are_refused_with_the_sb3_backend(capsys):
    from primeval.training.cli import main

    assert main(["train", "--iterations", "3"]) == 2
    assert "--backend rllib" in capsys.readouterr().err
