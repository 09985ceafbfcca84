"""Training configs with unknown keys, wrong types or bad values: a ConfigError naming the file
and the key; the file untouched."""

from __future__ import annotations

import pytest

from primeval.envs.games import GAMES
from primeval.training import cli
from primeval.training.ppo.config import ConfigError, load_config
from tests.helpers import files_in

BAD_TRAINING_CONFIGS = [
    ("bogus: 1\n", "unknown key(s) ['bogus']"),
    ("ppo: {lr: 0.1}\n", "ppo: unknown key(s) ['lr']"),
    ("total_steps: many\n", "total_steps: expected int, got 'many' (str)"),
    ("total_steps: 100000.0\n", "total_steps: expected int, got 100000.0 (float)"),
    ("n_envs: true\n", "n_envs: expected int, got True (bool)"),
    ("seed: null\n", "seed: expected int, got None (NoneType)"),
    ("game: 3\n", "game: expected str, got 3 (int)"),
    ("ppo: [1, 2]\n", "ppo: expected a mapping, got list"),
    ("network: {net_arch: 256}\n", "network.net_arch: expected a list of positive ints"),
    ("ppo: {learning_rate: fast}\n", "ppo.learning_rate: expected float, got 'fast'"),
    ("env: [finish_zone_start]\n", "env: expected dict, got ['finish_zone_start'] (list)"),
    ("- game\n- origin\n", "expected a mapping at the top level"),
    ("game: [unclosed\n", "not valid YAML"),
    ("ppo: {n_steps: 0}\n", "ppo: n_steps=0: must be > 0"),
    ("ppo: {gamma: 1.5}\n", "ppo: gamma=1.5: must be in (0, 1]"),
    ("eval: {games: 0}\n", "eval: games=0: must be > 0"),
    ("seed: -1\n", "seed=-1: must be >= 0"),
    ("env: {bogus_rule: 1}\n", "env: unknown PrimordialSoupConfig field(s) ['bogus_rule']"),
    ("env: {finish_zone_start: 2}\n", "env: PrimordialSoupConfig.finish_zone_start=2 is "
                                      "invalid"),
]


@pytest.mark.parametrize(("text", "message"), BAD_TRAINING_CONFIGS,
                         ids=[t.strip() for t, _ in BAD_TRAINING_CONFIGS])
def test_bad_training_config(tmp_path, text, message):
    """A YAML config with unknown keys, wrong types or bad values: ConfigError naming the
    file and the key; the file is untouched."""
    path = tmp_path / "train.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(err.value).startswith(f"{path}: ")
    assert message in str(err.value)
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize(("text", "message"), [BAD_TRAINING_CONFIGS[i] for i in (0, 2, 13, 17)])
def test_bad_training_config_through_the_cli(tmp_path, text, message, capsys):
    """``primeval train --config bad.yaml``: exit 2 with the message; no run folder."""
    path = tmp_path / "train.yaml"
    path.write_text(text, encoding="utf-8")
    before = files_in(tmp_path)
    assert cli.main(["train", "--config", str(path), "--out", str(tmp_path / "run")]) == 2
    assert message in capsys.readouterr().err
    assert files_in(tmp_path) == before


def test_the_shipped_training_configs_still_load():
    """The control: the range checks accept the shipped configs and an env section."""
    for game in GAMES:
        assert load_config(f"configs/{game}/default.yaml").game == game
    config = load_config("configs/primordial_soup/default.yaml",
                         env={"finish_zone_start": 41})
    assert config.env == {"finish_zone_start": 41}
