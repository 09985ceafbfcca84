"""A game record never chooses files for primeval to open (issue 22, "Paths stay inside").

``primeval replay record.jsonl`` builds the env with the package's own data; a record whose
config names a data file (``/etc/passwd``, ``../`` paths, any ``*_file`` entry) is refused
with a message naming the flag that passes the user's own file, and nothing is read from it.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from primeval.envs.origin import config as origin_config
from primeval.envs.origin.gamedata import DATA_PACKAGE, DEFAULT_FILES
from primeval.training import cli
from primeval.training.replay import ReplayError, load_record, replay_record

SECRET = "root:x:0:0:SECRET-LINE-NEVER-SHOWN"


@pytest.fixture(scope="module")
def origin_record(tmp_path_factory) -> dict:
    path = tmp_path_factory.mktemp("records") / "origin.jsonl"
    assert (
        cli.main(
            [
                "evaluate",
                "--game",
                "origin",
                "--players",
                "2",
                "--agents",
                "random",
                "random",
                "--games",
                "1",
                "--seed",
                "3",
                "--quiet",
                "--record",
                str(path),
            ]
        )
        == 0
    )
    return load_record(path, 0)


@pytest.fixture
def opened(monkeypatch) -> list:
    """Every data-file triple Origin's config loads, recorded."""
    calls = []
    real = origin_config.load_origin_data

    def spy(*files):
        calls.append(files)
        return real(*files)

    monkeypatch.setattr(origin_config, "load_origin_data", spy)
    return calls


def _write(path: Path, record: dict) -> Path:
    path.write_text(json.dumps(record) + "\n")
    return path


def _hostile_paths(tmp_path: Path) -> list[str]:
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET + "\n")
    inside = tmp_path / "run" / "records"
    inside.mkdir(parents=True)
    return [
        "/etc/passwd",
        str(secret),
        "../../secret.txt",
        str(inside / ".." / ".." / "secret.txt"),
    ]


@pytest.mark.parametrize("entry", ["map_file", "cards_file", "components_file"])
@pytest.mark.parametrize(
    "which", range(4), ids=["etc_passwd", "absolute", "dotdot", "dotdot_absolute"]
)
def test_a_record_naming_a_data_file_is_refused_and_nothing_is_read(
    origin_record, tmp_path, monkeypatch, opened, capsys, entry, which
):
    """Through ``primeval replay``: exit code 2, a message naming the entry and the flag,
    never the file's content, and no data file but the package's own ever loaded."""
    hostile = _hostile_paths(tmp_path)[which]
    monkeypatch.chdir(tmp_path / "run" / "records" if which == 2 else tmp_path)
    record = dict(origin_record, config={**origin_record["config"], entry: hostile})
    file = _write(tmp_path / "bad.jsonl", record)
    code = cli.main(["replay", str(file), "--render", "none"])
    out, err = capsys.readouterr()
    assert code == 2
    flag = "--" + entry.replace("_", "-")
    assert f"the record names a data file, {entry}=" in err
    assert "a record cannot choose files for primeval to open" in err
    assert f"{flag} PATH" in err
    assert SECRET not in out + err and "SECRET" not in out + err
    assert all(files == (None, None, None) for files in opened), opened


def test_an_unknown_file_entry_is_refused_too(origin_record, opened):
    """Any ``*_file`` entry, not only the ones Origin knows, is a file name to refuse."""
    record = dict(origin_record, config={**origin_record["config"], "rules_file": "/etc/passwd"})
    with pytest.raises(ReplayError, match="rules_file='/etc/passwd'; a record cannot choose files"):
        replay_record(record, render="none", stdout=io.StringIO())
    assert all(files == (None, None, None) for files in opened)


def test_a_config_entry_that_is_no_rules_setting_is_refused(origin_record):
    """A record's config holds the game's rules settings only, not other env arguments."""
    record = dict(origin_record, config={**origin_record["config"], "render_mode": "human"})
    with pytest.raises(
        ReplayError,
        match=r"config entries \['render_mode'\] are not origin "
        "rules settings",
    ):
        replay_record(record, render="none", stdout=io.StringIO())


def test_the_users_own_file_passed_explicitly_is_the_one_read(
    origin_record, tmp_path, opened, capsys
):
    """``--map-file PATH`` (the shipped map, copied): the replay reads that file, whatever
    the record named, and the scores match."""
    from importlib import resources

    mine = tmp_path / "my_map.yaml"
    mine.write_text(
        resources.files(DATA_PACKAGE).joinpath(DEFAULT_FILES["map"]).read_text(encoding="utf-8")
    )
    record = dict(origin_record, config={**origin_record["config"], "map_file": "/etc/passwd"})
    file = _write(tmp_path / "rec.jsonl", record)
    code = cli.main(["replay", str(file), "--render", "none", "--map-file", str(mine)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "scores match the record" in out
    assert (str(mine), None, None) in opened
    assert all(files[0] in (None, str(mine)) for files in opened)
    # In Python: data_files=.
    scores = replay_record(
        record, render="none", stdout=io.StringIO(), data_files={"map_file": mine}
    )
    assert scores == origin_record["scores"]


def test_data_files_must_name_data_file_entries(origin_record):
    with pytest.raises(ReplayError, match="'render_mode' is not a data-file entry"):
        replay_record(
            origin_record, render="none", stdout=io.StringIO(), data_files={"render_mode": "human"}
        )


def test_a_record_nested_too_deeply_is_refused(tmp_path):
    """A line of JSON nested 100,000 deep: the package's error, not RecursionError."""
    file = tmp_path / "deep.jsonl"
    file.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    with pytest.raises(ReplayError, match="nested too deeply"):
        load_record(file, 0)
