"""docs/tutorial.md runs end to end: the install command resolves against the pins, and in a
temporary folder the trial run, the evaluation, the terminal game and the Python game run as
written, with tiny step and game counts (its Python blocks marked ``python`` also run in
tests/test_docs.py; the last one, marked ``py``, needs the trained model and runs here)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TUTORIAL = ROOT / "docs" / "tutorial.md"
PRIMEVAL = Path(sys.executable).parent / "primeval"
#: The tutorial's counts, and the tiny ones the test runs instead (the rest as written).
TINY = {
    "--total-steps 20000": "--total-steps 256 --set n_envs=2 --set ppo.n_steps=64 "
    "--set ppo.batch_size=64 --set ppo.n_epochs=1 "
    "--set network.net_arch=[16] --set league.rating_games=0",
    "--eval-games 40": "--eval-games 2",
    "--games 100": "--games 2",
}


def blocks(kind: str) -> list[str]:
    return re.findall(rf"^```{kind}\n(.*?)^```", TUTORIAL.read_text(encoding="utf-8"), re.S | re.M)


def commands() -> list[list[str]]:
    """The tutorial's shell commands after the install, each as argv, with tiny counts."""
    out = []
    for block in blocks("bash")[1:]:
        for line in block.strip().splitlines():
            for big, tiny in TINY.items():
                line = line.replace(big, tiny)
            argv = shlex.split(line)
            assert argv[0] == ".venv/bin/primeval", line
            out.append([str(PRIMEVAL), *argv[1:]])
    return out


def test_the_tutorial_has_its_six_steps():
    text = TUTORIAL.read_text(encoding="utf-8")
    titles = re.findall(r"^## \d\. (.*)$", text, re.M)
    assert titles == [
        "Install",
        "A position, by name",
        "A picture",
        "Train for a few minutes",
        "Evaluate it against the heuristic",
        "Play against it",
    ]
    assert [argv[1] for argv in commands()] == ["train", "evaluate", "play"]
    assert len(blocks("python")) == 2 and len(blocks("py")) == 1
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/tutorial.md" in readme.split("## API tour")[0]  # the README's first screen


@pytest.mark.slow
def test_the_install_command_resolves_against_the_pins():
    (install,) = [line for line in blocks("bash")[0].splitlines() if "pip install" in line]
    assert install == '.venv/bin/pip install -c constraints.txt -e ".[train]"'
    argv = shlex.split(install)[1:]
    result = subprocess.run(
        [sys.executable, "-m", "pip", *argv, "--dry-run"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Would install primeval-" in result.stdout


@pytest.mark.slow
def test_train_evaluate_and_play_as_the_tutorial_says(tmp_path, monkeypatch):
    train, evaluate, play = commands()
    run = subprocess.run(train, cwd=tmp_path, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "(total_steps 256 rounded up)" not in run.stdout  # 256 is two whole rollouts
    assert "| trained agent | 3 heuristic |" in run.stdout
    assert (tmp_path / "runs/first/model.zip").is_file()
    assert (tmp_path / "runs/first/learning_curve.png").is_file()

    result = subprocess.run(evaluate, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "primordial_soup, 4 players, 2 games (seats rotated), seed 1" in result.stdout
    assert "ppo:runs/first/model.zip" in result.stdout

    # the terminal game: 25 choices of the first option, then the end of the input quits
    game = subprocess.run(
        play, cwd=tmp_path, input="1\n" * 25, capture_output=True, text=True, timeout=600
    )
    assert game.returncode == 0, game.stderr[-3000:]
    assert "ppo:runs/first/model.zip" in game.stdout

    # the Python game against the trained agent, to the end
    monkeypatch.chdir(tmp_path)
    (code,) = blocks("py")
    namespace: dict = {"__name__": "__tutorial__"}
    exec(compile(code, str(TUTORIAL), "exec"), namespace)
    core = namespace["env"].unwrapped
    assert core.rules.is_terminal(core.game_state)
    assert core.describe().startswith("game over after ")
