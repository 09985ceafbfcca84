"""Training smoke runs, resume, configs and the CLI (primeval train / evaluate)."""

from __future__ import annotations

import json

import pytest

from primeval.training import cli
from primeval.training.agents.policy import CheckpointError, PolicyAgent
from primeval.training.ppo.config import ConfigError, load_config
from primeval.training.ppo.train import train

SMOKE = {"total_steps": 2048, "n_envs": 2, "ppo.n_steps": 512, "ppo.batch_size": 256,
         "ppo.n_epochs": 1, "checkpoint_every": 1024, "eval.every": 1024, "eval.games": 2,
         "eval.final_games": 4, "select.games": 2, "network.net_arch": [32, 32],
         "torch_threads": 1}


@pytest.mark.slow
@pytest.mark.parametrize("game", ["primordial_soup", "origin"])
def test_smoke_training_run_writes_the_run_folder(game, tmp_path):
    """A short MaskablePPO run for each game writes the model, metrics, evaluation, the
    learning curve, checkpoints and TensorBoard logs; the model plays through evaluate."""
    config = load_config(f"configs/{game}/default.yaml",
                         **SMOKE, **{"opponents.self_play": 0.5,
                                     "self_play.snapshot_every": 1024})
    run = tmp_path / "run"
    final = train(config, run, progress=False)
    for name in ("model.zip", "metrics.csv", "eval.json", "learning_curve.png", "config.yaml",
                 "checkpoints/latest.zip", "checkpoints/progress.json"):
        assert (run / name).is_file(), name
    assert list((run / "snapshots").glob("step_*.zip"))
    assert any((run / "tb").rglob("events.out.tfevents*"))
    assert final["total_steps"] >= 2048
    assert 0.0 <= final["win_rate_vs_random"] <= 1.0
    rows = (run / "metrics.csv").read_text().strip().splitlines()
    assert rows[0].startswith("step,") and len(rows) >= 3
    evaluation = json.loads((run / "eval.json").read_text())
    assert evaluation["game"] == game and "vs_random" in evaluation
    from primeval.training.ppo.masking import MaskedActorCriticPolicy
    from primeval.training.ppo.prior import PriorActorCriticPolicy

    # the defaults: Primordial Soup's policy learns alone, Origin's over the heuristic prior
    expected = {"primordial_soup": MaskedActorCriticPolicy, "origin": PriorActorCriticPolicy}
    assert type(PolicyAgent(run / "model.zip").model.policy) is expected[game]


@pytest.mark.slow
def test_network_policy_sb3_trains_sb3_contribs_own_policy(tmp_path):
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    config = load_config("configs/primordial_soup/default.yaml",
                         **{**SMOKE, "total_steps": 1024, "network.policy": "sb3"})
    train(config, tmp_path / "run", progress=False)
    model = PolicyAgent(tmp_path / "run" / "model.zip").model
    assert type(model.policy) is MaskableActorCriticPolicy


@pytest.mark.slow
def test_resume_continues_to_the_total_steps(tmp_path):
    """--resume loads the last checkpoint and trains only the remaining steps."""
    config = load_config("configs/primordial_soup/default.yaml", **SMOKE)
    run = tmp_path / "run"
    train(config, run, progress=False)
    more = load_config(run / "config.yaml", total_steps=3072)
    final = train(more, run, resume=True, progress=False)
    assert final["total_steps"] == 3072
    progress = json.loads((run / "checkpoints" / "progress.json").read_text())
    assert progress["num_timesteps"] == 3072


def test_resume_without_checkpoint_is_refused(tmp_path):
    config = load_config("configs/primordial_soup/default.yaml", **SMOKE)
    with pytest.raises(CheckpointError, match="no checkpoint"):
        train(config, tmp_path / "empty", resume=True, progress=False)


def test_corrupt_checkpoint_is_refused_clearly(tmp_path):
    """A truncated or foreign file is a CheckpointError naming the file."""
    bad = tmp_path / "model.zip"
    bad.write_bytes(b"PK\x03\x04 truncated")
    with pytest.raises(CheckpointError, match="model.zip"):
        PolicyAgent(bad)
    with pytest.raises(CheckpointError, match="does not exist"):
        PolicyAgent(tmp_path / "missing.zip")


@pytest.mark.parametrize(("overrides", "message"), [
    ({"bogus": 1}, "unknown key"),
    ({"ppo.bogus": 1}, "ppo: unknown key"),
    ({"ppo.n_steps": "many"}, "ppo.n_steps: expected int"),
    ({"players": 5}, "players=5"),
    ({"encoder": "planes", "game": "origin", "players": 3}, "encoder"),
    ({"network.net_arch": [64, -1]}, "net_arch"),
    ({"opponents.random": 0.0}, "opponents"),
    ({"vec_env": "ray"}, "vec_env"),
    ({"network.policy": "MlpPolicy"}, "network.policy='MlpPolicy': allowed 'primeval', 'sb3'"),
])
def test_bad_configs_name_the_key(overrides, message):
    with pytest.raises(ConfigError, match=message):
        load_config("configs/primordial_soup/default.yaml", **overrides)


def test_config_file_errors(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: [unclosed\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(bad)
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.yaml")


def test_shipped_configs_load():
    for game, players in (("primordial_soup", 4), ("origin", 3)):
        config = load_config(f"configs/{game}/default.yaml")
        assert config.game == game and config.players == players


def test_evaluate_cli_tiny_tournament(tmp_path, capsys):
    """primeval evaluate prints a table and writes the same numbers as JSON."""
    out = tmp_path / "eval.json"
    code = cli.main(["evaluate", "--game", "primordial_soup", "--players", "3", "--agents",
                     "heuristic", "random", "random", "--games", "6", "--seed", "0",
                     "--json", str(out), "--quiet"])
    assert code == 0
    text = capsys.readouterr().out
    assert "heuristic" in text and "95% CI" in text
    data = json.loads(out.read_text())
    assert data["games"] == 6 and len(data["agents"]) == 3
    rates = [a["win_rate"] for a in data["agents"]]
    assert sum(rates) == pytest.approx(1.0)
    for agent in data["agents"]:
        lo, hi = agent["win_rate_ci95"]
        assert 0 <= lo <= agent["win_rate"] <= hi <= 1
        assert {"mu", "sigma", "ordinal"} <= set(agent["rating"])


def test_evaluate_cli_errors(capsys):
    assert cli.main(["evaluate", "--game", "origin", "--players", "3", "--agents", "random",
                     "--games", "1"]) == 2
    assert "3 players need 3 agents" in capsys.readouterr().err
    assert cli.main(["evaluate", "--agents", "alien", "random", "random", "random",
                     "--games", "1"]) == 2
    assert "unknown agent" in capsys.readouterr().err


def _logged_learning_rates(run) -> list[float]:
    """The step sizes SB3 logged at the updates of the run (TensorBoard's scalars: SB3
    writes them at its next log dump, so the last update of a ``learn`` is not among them)."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    rates = []
    for folder in sorted((run / "tb").iterdir()):
        events = EventAccumulator(str(folder))
        events.Reload()
        rates += [e.value for e in events.Scalars("train/learning_rate")]
    return rates


def _checkpoint_learning_rate(run) -> float:
    """The optimizer's step size in the run's checkpoint (saved after its last update)."""
    import io
    import zipfile

    import torch

    with zipfile.ZipFile(run / "checkpoints" / "latest.zip") as saved:
        state = torch.load(io.BytesIO(saved.read("policy.optimizer.pth")), weights_only=True)
    return state["param_groups"][0]["lr"]


@pytest.mark.slow
def test_a_linear_learning_rate_falls_to_zero_at_total_steps_also_when_resumed(tmp_path):
    """ppo.lr_schedule: linear: each update's step size is learning_rate times the share of
    total_steps left (rollouts of 1,024 steps); a resumed run follows its new total."""
    lr = 0.001
    config = load_config("configs/primordial_soup/default.yaml",
                         **{**SMOKE, "ppo.learning_rate": lr, "ppo.lr_schedule": "linear"})
    run = tmp_path / "run"
    train(config, run, progress=False)
    assert _logged_learning_rates(run) == pytest.approx([lr / 2])  # at 1,024 of 2,048
    assert _checkpoint_learning_rate(run) == 0.0  # at 2,048
    train(load_config(run / "config.yaml", total_steps=4096), run, resume=True, progress=False)
    assert _logged_learning_rates(run) == pytest.approx([lr / 2, lr / 4])  # 3,072 of 4,096
    assert _checkpoint_learning_rate(run) == 0.0
    constant = load_config("configs/primordial_soup/default.yaml",
                           **{**SMOKE, "ppo.learning_rate": lr})
    train(constant, tmp_path / "constant", progress=False)
    assert _logged_learning_rates(tmp_path / "constant") == pytest.approx([lr])
    assert _checkpoint_learning_rate(tmp_path / "constant") == pytest.approx(lr)


def test_an_unknown_learning_rate_schedule_is_named():
    with pytest.raises(ConfigError, match="lr_schedule='cosine'"):
        load_config("configs/primordial_soup/default.yaml", **{"ppo.lr_schedule": "cosine"})


@pytest.mark.slow
@pytest.mark.parametrize("name", ["primordial_soup/default", "origin/structured"])
def test_a_bfloat16_update_is_the_policys_precision_fresh_and_resumed(name, tmp_path,
                                                                      monkeypatch):
    """ppo.update_dtype: bfloat16 reaches the policy of a fresh and of a resumed run (a
    checkpoint does not keep it), the update's passes return float32; float32 sets none."""
    import torch

    from primeval.training.ppo.masking import MaskedActorCriticPolicy

    seen = []
    original = MaskedActorCriticPolicy.evaluate_actions

    def spy(self, *args, **kwargs):
        out = original(self, *args, **kwargs)
        seen.append((self.update_dtype, out[1].dtype))
        return out

    monkeypatch.setattr(MaskedActorCriticPolicy, "evaluate_actions", spy)
    config = load_config(f"configs/{name}.yaml", **SMOKE, **{"ppo.update_dtype": "bfloat16"})
    run = tmp_path / "run"
    train(config, run, progress=False)
    assert seen and set(seen) == {(torch.bfloat16, torch.float32)}
    seen.clear()
    train(load_config(run / "config.yaml", total_steps=3072), run, resume=True, progress=False)
    assert seen and set(seen) == {(torch.bfloat16, torch.float32)}
    seen.clear()
    train(load_config(f"configs/{name}.yaml", **SMOKE), tmp_path / "float32", progress=False)
    assert seen and set(seen) == {(None, torch.float32)}


def test_an_update_precision_is_named_and_needs_the_packages_policy():
    with pytest.raises(ConfigError, match="update_dtype='float16'"):
        load_config("configs/primordial_soup/default.yaml", **{"ppo.update_dtype": "float16"})
    with pytest.raises(ConfigError, match="MlpPolicy"):
        load_config("configs/primordial_soup/default.yaml",
                    **{"ppo.update_dtype": "bfloat16", "network.policy": "sb3"})
