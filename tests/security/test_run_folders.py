"""A run folder cannot reach outside itself: ``league.json`` member paths must be relative
and inside the run folder, checked when the league is read and when a snapshot is loaded."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from primeval.training import cli
from primeval.training.ppo.config import load_config
from primeval.training.ppo.league import League, Member
from tests.helpers import files_in
from tests.security.test_checkpoints import run_folder

BAD_PATHS = {
    "climbs": ("../outside.zip", "climbs out of the run folder"),
    "climbs_deep": ("snapshots/../../outside.zip", "climbs out of the run folder"),
    "absolute": ("/etc/passwd", "is absolute"),
    "empty": ("", "is not a relative path"),
    "not_a_string": (7, "is not a relative path"),
}


def league_json(run, path) -> None:
    members = [{"name": "random"}, {"name": "heuristic"},
               {"name": "step_1", "path": path, "step": 1}]
    (run / "league.json").write_text(json.dumps({"step": 1, "members": members}))


@pytest.mark.parametrize("kind", BAD_PATHS)
def test_league_load_refuses_a_member_path_outside(tmp_path, kind):
    path, message = BAD_PATHS[kind]
    league_json(tmp_path, path)
    league = League(load_config(None, players=3), tmp_path)
    with pytest.raises(ValueError, match=f"league member 'step_1'.*{message}"):
        league.load()
    assert "step_1" not in league.members  # nothing changed


def test_league_load_refuses_a_link_leading_outside(tmp_path, model_zip):
    run, outside = tmp_path / "run", tmp_path / "outside"
    run.mkdir()
    outside.mkdir()
    shutil.copy(model_zip, outside / "step_1.zip")
    os.symlink(outside, run / "snapshots")
    league_json(run, "snapshots/step_1.zip")
    with pytest.raises(ValueError, match="leads outside the run folder"):
        League(load_config(None, players=3), run).load()


@pytest.mark.parametrize("kind", ["climbs", "absolute"])
def test_loading_a_snapshot_checks_its_path_again(tmp_path, model_zip, kind):
    """A member given in memory (not through league.json) is checked when it loads."""
    shutil.copy(model_zip, tmp_path.parent / "outside.zip")
    league = League(load_config(None, players=3), tmp_path)
    league.members["step_1"] = Member("step_1", path=BAD_PATHS[kind][0], step=1)
    with pytest.raises(ValueError, match=BAD_PATHS[kind][1]):
        league.policy("step_1")
    with pytest.raises(ValueError, match=BAD_PATHS[kind][1]):
        league.rating_agent("step_1", seed=0)


@pytest.mark.parametrize("kind", ["climbs", "absolute"])
def test_resume_refuses_a_league_reaching_outside(tmp_path, model_zip, kind, capsys):
    run = run_folder(tmp_path, model_zip.read_bytes())
    league_json(run, BAD_PATHS[kind][0])
    before = files_in(run)
    assert cli.main(["train", "--resume", str(run), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"primeval train: error: --resume {run}: {run / 'league.json'}: "
                          "league member 'step_1'")
    assert BAD_PATHS[kind][1] in err
    assert files_in(run) == before


def test_a_snapshot_inside_the_run_folder_loads(tmp_path, model_zip):
    (tmp_path / "snapshots").mkdir()
    shutil.copy(model_zip, tmp_path / "snapshots" / "step_1.zip")
    league_json(tmp_path, "snapshots/step_1.zip")
    league = League(load_config(None, players=3), tmp_path)
    league.load()
    assert league.policy("step_1").name == "step_1"
