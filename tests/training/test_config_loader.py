"""The one config loader of every backend (``primeval.training.config``): did-you-mean for
unknown keys, the expected type for a wrong one, ``--set`` overrides, shipped configs by
name, and every field documented where it is declared."""

from __future__ import annotations

import dataclasses

import pytest
import yaml

from primeval.training import cli
from primeval.training import config as loader
from primeval.training.config import ConfigError, parse_sets
from primeval.training.ppo.config import TrainConfig, load_config
from primeval.training.rllib.config import RLlibTrainConfig, load_rllib_config
from tests.helpers import files_in

BACKENDS = [(TrainConfig, load_config), (RLlibTrainConfig, load_rllib_config)]


def _sections(cls: type) -> list[type]:
    """``cls`` and every config dataclass nested in it (sections and list items)."""
    out = [cls]
    for spec in dataclasses.fields(cls):
        default = (
            spec.default if spec.default is not dataclasses.MISSING else spec.default_factory()
        )
        if dataclasses.is_dataclass(default):
            out += _sections(type(default))
        if spec.metadata.get("item"):
            out += _sections(spec.metadata["item"])
    return out


@pytest.mark.parametrize("cls", [TrainConfig, RLlibTrainConfig])
def test_every_field_is_documented_where_it_is_declared(cls):
    for section in _sections(cls):
        docs = loader.field_docs(section)
        names = [f.name for f in dataclasses.fields(section)]
        assert list(docs) == names, section.__name__
        undocumented = [name for name, (_, doc) in docs.items() if not doc]
        assert not undocumented, f"{section.__name__}: {undocumented}"


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"total_step": 5}, "unknown key(s) ['total_step']; allowed: "),
        ({"total_step": 5}, "did you mean 'total_steps'?"),
        ({"ppo.learnig_rate": 1.0}, "ppo: unknown key(s) ['learnig_rate']"),
        ({"ppo.learnig_rate": 1.0}, "did you mean 'learning_rate'?"),
        ({"oponents.random": 1.0}, "did you mean 'opponents'?"),
    ],
)
def test_unknown_keys_get_a_did_you_mean(overrides, message):
    with pytest.raises(ConfigError) as err:
        load_config(None, **overrides)
    assert message in str(err.value)


def test_no_did_you_mean_for_a_key_like_none_of_them():
    with pytest.raises(ConfigError) as err:
        load_config(None, zzz=1)
    assert "unknown key(s) ['zzz']" in str(err.value)
    assert "did you mean" not in str(err.value)


def test_the_rllib_config_shares_the_loader():
    """The RLlib config is checked by the same loader, without ray: a did-you-mean and the
    expected type."""
    with pytest.raises(ConfigError, match="did you mean 'num_env_runners'"):
        load_rllib_config(None, num_env_runner=1)
    with pytest.raises(ConfigError, match=r"ppo.lr: expected float, got 'x' \(str\)"):
        load_rllib_config(None, **{"ppo.lr": "x"})


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"players": "four"}, "players: expected int, got 'four' (str)"),
        ({"shaping": True}, "shaping: expected float, got True (bool)"),
        ({"ppo.n_steps": 1.5}, "ppo.n_steps: expected int, got 1.5 (float)"),
        ({"opponents": 3}, "opponents: expected a mapping, got int"),
        ({"league.schedule": {"from_step": 1}}, "league.schedule: expected a list, got dict"),
        (
            {"league.schedule": [{"from_step": 1, "rnd": 1}]},
            "league.schedule[0]: unknown key(s) ['rnd']",
        ),
        ({"total_steps.x": 1}, "total_steps: expected int, got {'x': 1} (dict)"),
    ],
)
def test_wrong_types_name_the_expected_type(overrides, message):
    with pytest.raises(ConfigError) as err:
        load_config(None, **overrides)
    assert message in str(err.value)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"shaping_sources.tile": 2}, "unknown source 'tile'; origin has objectives"),
        ({"shaping_sources.tiles": "x"}, "shaping_sources.tiles='x': must be a finite"),
        ({"shaping_sources": 3}, "shaping_sources: expected dict, got 3 (int)"),
        ({"shaping_sources.tiles": 2, "shaping": 0}, "set shaping > 0"),
        ({"shaping_others": float("inf")}, "shaping_others=inf: must be a finite number"),
        ({"shaping_prospects": 1, "shaping": 0}, "shaping_prospects with shaping=0.0"),
        ({"game": "primordial_soup", "players": 4, "encoder": "flat",
          "shaping_prospects": 1}, "primordial_soup counts no points in prospect"),
        ({"game": "primordial_soup", "players": 4, "encoder": "flat",
          "shaping_sources.tiles": 2},
         "primordial_soup has no points by source"),
    ],
)
def test_bad_shaping_sources_name_the_problem(overrides, message):
    """``shaping_sources`` is checked against the game's sources of points when loaded."""
    with pytest.raises(ConfigError) as err:
        load_config("origin/structured", **{"shaping": 0.1, **overrides})
    assert message in str(err.value)


def test_shaping_sources_load():
    config = load_config("origin/structured", shaping=0.1, shaping_prospects=0.5,
                         **{"shaping_sources.tiles": 2})
    assert config.shaping_sources == {"tiles": 2} and config.shaping_prospects == 0.5
    assert loader.to_dict(config)["shaping_sources"] == {"tiles": 2}


def test_parse_sets_reads_each_value_as_yaml():
    assert parse_sets(
        [
            "ppo.learning_rate=1e-4",
            "total_steps=2048",
            "vec_env=batched",
            "network.net_arch=[64, 64]",
            "prior.trainable=true",
            "env={finish_zone_start: 41}",
            "league.rated=[]",
            "address=",
        ]
    ) == {
        "ppo.learning_rate": 1e-4,
        "total_steps": 2048,
        "vec_env": "batched",
        "network.net_arch": [64, 64],
        "prior.trainable": True,
        "env": {"finish_zone_start": 41},
        "league.rated": [],
        "address": "",
    }
    assert parse_sets(["a=x=y"]) == {"a": "x=y"}


@pytest.mark.parametrize(
    ("items", "message"),
    [
        (["total_steps"], "expected KEY=VALUE"),
        (["=3"], "expected KEY=VALUE"),
        (["ppo..gamma=1"], "expected KEY=VALUE"),
        (["seed=1", "seed=2"], "--set seed: given twice"),
        (["net=[1, 2"], "the value is not valid YAML"),
    ],
)
def test_parse_sets_refuses_bad_items(items, message):
    with pytest.raises(ConfigError, match=message.replace("[", r"\[")):
        parse_sets(items)


def test_set_reaches_every_kind_of_field():
    config = load_config(
        "primordial_soup/default",
        **parse_sets(
            [
                "ppo.learning_rate=1e-4",
                "network.net_arch=[32]",
                "env.finish_zone_start=41",
                "league.schedule=[{from_step: 100, random: 1}]",
                "eval.final_games=8",
            ]
        ),
    )
    assert config.ppo.learning_rate == 1e-4
    assert config.network.net_arch == (32,)
    assert config.env == {"finish_zone_start": 41}
    assert config.league.schedule[0].from_step == 100
    assert config.eval.final_games == 8
    untouched = load_config("primordial_soup/default")
    assert config.ppo.n_steps == untouched.ppo.n_steps


@pytest.mark.parametrize("name", loader.shipped_configs())
def test_a_shipped_config_by_name_is_the_file(name):
    game, file = name.split("/")
    path = f"configs/{game}/{file}.yaml"
    from primeval.training.expert.config import config_algo, load_expert_config

    if config_algo(name) == "expert":  # expert iteration's: expert, distill
        load = load_expert_config
    else:
        load = {"rllib": load_rllib_config}.get(file, load_config)
    assert load(name) == load(path) == load(f"{name}.yaml")


def test_the_shipped_names():
    names = loader.shipped_configs()
    assert "origin/default" in names and "primordial_soup/rllib" in names


def test_an_unknown_name_lists_the_shipped_ones():
    with pytest.raises(ConfigError) as err:
        load_config("origin/defualt")
    message = str(err.value)
    assert "no such file and no shipped config" in message
    assert "did you mean 'origin/default'?" in message
    assert "primordial_soup/default" in message


def test_saved_config_reloads_equal(tmp_path):
    config = load_config(
        "origin/default",
        **{
            "network.net_arch": [8, 4],
            "league.rated": ["mcts:sims=2"],
            "league.schedule": [{"from_step": 5, "heuristic": 1.0}],
        },
    )
    loader.save(config, tmp_path / "config.yaml")
    data = yaml.safe_load((tmp_path / "config.yaml").read_text(encoding="utf-8"))
    assert data["network"]["net_arch"] == [8, 4]
    assert load_config(tmp_path / "config.yaml") == config


def test_cli_help_config_prints_every_field(capsys):
    for backend, cls in (("sb3", TrainConfig), ("rllib", RLlibTrainConfig)):
        assert cli.main(["train", "--backend", backend, "--help-config"]) == 0
        out = capsys.readouterr().out
        for key, kind, _, _ in loader.fields_of(cls):
            assert (f"\n{key}:  (section)" if kind == "section" else f"\n  {key}: ") in out
        assert "origin/default" in out
    assert "ppo.learning_rate: float = 0.0003" in cli_help("sb3", capsys)
    assert "      Adam's step size." in cli_help("sb3", capsys)


def cli_help(backend: str, capsys) -> str:
    cli.main(["train", "--backend", backend, "--help-config"])
    return capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--set", "ppo.learnig_rate=0.1"], "did you mean 'learning_rate'?"),
        (["--set", "total_steps=many"], "total_steps: expected int, got 'many' (str)"),
        (["--set", "seed=1", "--seed", "2"], "seed is given by both --set and --seed"),
        (["--set", "seed"], "expected KEY=VALUE"),
        (["--config", "origin/nope"], "no shipped config of that name"),
    ],
)
def test_cli_set_and_names_refuse_bad_input(tmp_path, capsys, argv, message):
    """A bad ``--set`` or ``--config`` name: exit 2 with the message; no run folder."""
    before = files_in(tmp_path)
    assert cli.main(["train", *argv, "--out", str(tmp_path / "run")]) == 2
    assert message in capsys.readouterr().err
    assert files_in(tmp_path) == before


def test_a_dotted_key_under_a_value_of_the_file_is_refused():
    with pytest.raises(ConfigError, match=r"seed.x: seed is not a section \(it is 0\)"):
        load_config("primordial_soup/default", **{"seed.x": 1})
