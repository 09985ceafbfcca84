"""A short trial run is not a long silent wait (issue 26 item 1): the final evaluation shows
its progress, ``--eval-games`` shortens it, the training bar ends at the steps PPO runs, and
``make train`` takes a step count."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from primeval.training import cli
from primeval.training.ppo.config import load_config
from primeval.training.ppo.train import planned_steps, rollout_steps

ROOT = Path(__file__).resolve().parents[3]
TINY = [
    "--set",
    "n_envs=2",
    "--set",
    "ppo.n_steps=64",
    "--set",
    "ppo.batch_size=64",
    "--set",
    "ppo.n_epochs=1",
    "--set",
    "network.net_arch=[16]",
    "--set",
    "league.rating_games=0",
    "--set",
    "torch_threads=1",
]


def test_planned_steps_round_up_to_whole_rollouts():
    config = load_config("primordial_soup/default", total_steps=3000)
    assert rollout_steps(config) == 256 * 8
    assert planned_steps(config) == 4096  # what PPO runs for 3,000: two rollouts
    assert planned_steps(config, start=2048) == 4096
    assert planned_steps(config, start=4096) == 4096  # nothing left
    assert planned_steps(load_config("primordial_soup/default", total_steps=4096)) == 4096


@pytest.mark.slow
def test_a_trial_run_shows_its_evaluation_and_ends_its_bar_at_the_steps_run(tmp_path, capsys):
    out = tmp_path / "run"
    code = cli.main(
        ["train", "--total-steps", "200", "--eval-games", "3", "--out", str(out), *TINY]
    )
    assert code == 0
    captured = capsys.readouterr()
    text = captured.out + captured.err
    # PPO runs whole rollouts of 64 x 2 = 128 steps: 256 for 200, and says so
    assert "training runs to step 256 (total_steps 200 rounded up)" in text
    bars = re.findall(r"train: .*?(\d+)/(\d+)", captured.err)
    assert bars and all(int(done) <= int(total) == 256 for done, total in bars)
    assert bars[-1] == ("256", "256")
    # the final evaluation: announced, three tables with a bar each, --eval-games games
    assert "final evaluation: 3 games per table" in text
    for table in (
        "final: agent vs random",
        "final: agent vs heuristic",
        "final: heuristic vs random",
    ):
        assert re.search(rf"{table}: 100%.*3/3", captured.err), table
    # the step-0 evaluation played at most --eval-games games per table too
    assert re.search(r"step 0: agent vs random: 100%.*3/3", captured.err)
    final = json.loads((out / "eval.json").read_text())
    assert final["total_steps"] == 256
    assert [
        t[0]["games"]
        for t in (final["vs_random"], final["vs_heuristic"], final["heuristic_vs_random"])
    ] == [3, 3, 3]
    every = load_config(ROOT / "configs" / "primordial_soup" / "default.yaml").eval.every
    assert (
        f"eval:\n  every: {every}\n  games: 3\n  final_games: 3"
        in (out / "config.yaml").read_text()
    )
    # the closing lines: the final table as summary.md keeps it, and where both files are
    summary = (out / "summary.md").read_text()
    assert summary.strip() in captured.out
    assert captured.out.rstrip().endswith(
        f"(also in {out / 'summary.md'}; the learning curve in {out / 'learning_curve.png'})")
    # and the choice of the shipped policy too; with no snapshot before the end here, the
    # final policy is chosen without a selection game
    assert "select:\n  snapshots: 2\n  games: 3" in (out / "config.yaml").read_text()
    assert "select: step" not in captured.err
    assert "model.zip is the final policy: no snapshot before it" in text
    assert final["selection"]["chosen"] == 256 and final["selection"]["file"] is None
    assert final["selection"]["games"] == 0


def test_eval_games_and_set_cannot_both_set_the_final_games(tmp_path, capsys):
    code = cli.main(
        [
            "train",
            "--eval-games",
            "3",
            "--set",
            "eval.final_games=5",
            "--out",
            str(tmp_path / "run"),
        ]
    )
    assert code == 2
    assert "eval.final_games is given by both --set and --eval-games" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("bad", ["0", "-2", "many"])
def test_eval_games_must_be_a_positive_count(bad, capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["train", "--eval-games", bad])
    assert exc.value.code == 2
    assert "--eval-games" in capsys.readouterr().err


def test_make_train_takes_a_step_count_and_evaluation_games():
    command = ["make", "-n", "-C", str(ROOT), "-o", ".venv/.installed", "train"]
    plain = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    assert "--total-steps" not in plain and "--eval-games" not in plain
    short = subprocess.run(
        [*command, "STEPS=20000", "EVAL_GAMES=40"], capture_output=True, text=True, check=True
    ).stdout
    assert "--total-steps 20000" in short and "--eval-games 40" in short
    assert "configs/primordial_soup/default.yaml" in short


def test_make_train_takes_a_config_and_keeps_its_run_apart():
    """``CONFIG=NAME`` trains configs/GAME/NAME.yaml into runs/GAME-NAME, so the default
    run's folder is not overwritten; the shipped config it names loads."""
    command = ["make", "-n", "-C", str(ROOT), "-o", ".venv/.installed", "train"]
    plain = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    assert "--config configs/primordial_soup/default.yaml --out runs/primordial_soup " in plain
    scratch = subprocess.run([*command, "GAME=origin", "CONFIG=scratch"], capture_output=True,
                             text=True, check=True).stdout
    assert "--config configs/origin/scratch.yaml --out runs/origin-scratch " in scratch
    config = load_config(ROOT / "configs" / "origin" / "scratch.yaml")
    assert config.prior.agent == "none" and config.pretrain.games == 0  # learned from scratch


def test_eval_games_is_explained_in_the_help(capsys):
    with pytest.raises(SystemExit):
        cli.main(["train", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--eval-games N games per table of the final evaluation (sets eval.final_games" in text
