"""Golden transcripts (tests/golden/): every seeded game played now matches its stored text.

A difference means the rules (or their determinism) changed. A deliberate rules change bumps
the env version (v0 -> v1) and regenerates the files with ``primeval golden --regenerate``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from primeval.envs.games import make_raw_env as make_env
from primeval.envs.testing.golden import CASES, describe_mismatch, file_name, transcript
from primeval.training import cli

GOLDEN = Path(__file__).resolve().parents[2] / "golden"


@pytest.mark.parametrize(("game", "players"), CASES, ids=[file_name(*c) for c in CASES])
def test_game_matches_its_golden_transcript(game, players):
    path = GOLDEN / file_name(game, players)
    assert path.is_file(), f"{path} is missing; run `primeval golden --regenerate` from the " \
        "repository root and add the file"
    expected = path.read_text(encoding="utf-8")
    actual = transcript(game, players)
    if actual != expected:
        pytest.fail(describe_mismatch(expected, actual, path), pytrace=False)


@pytest.mark.parametrize(("game", "players"), CASES, ids=[file_name(*c) for c in CASES])
def test_transcript_header_names_the_env_version_and_config(game, players):
    """The header ties the file to the env version: a bumped version cannot match."""
    env = make_env(game, players)
    header = (GOLDEN / file_name(game, players)).read_text(encoding="utf-8").split("\n=== ")[0]
    assert f"\nenv: {env.metadata['name']}\n" in header
    assert f"\nplayers: {players}\n" in header
    assert '"num_players": ' + str(players) in header


def test_transcript_shows_states_legal_and_chosen_actions_and_returns():
    text = transcript("origin", 2)
    steps = text.count("\n=== step ")
    assert steps > 100
    # Every step has a state, its legal actions and the chosen action; the end has the
    # final state, the scores and one return per agent (rank rewards: +1 for the winner).
    assert text.count("\nOrigin: ") == steps + 1  # "Origin: setup ..." or "Origin: turn ..."
    assert text.count("\nlegal (") == steps and text.count("\nchosen: ") == steps
    last = text.rsplit("\n=== end: terminated after ", 1)[1]
    assert last.startswith(f"{steps} steps\n")
    returns = last.rsplit("returns: ", 1)[1].strip().split(", ")
    assert [r.split()[0] for r in returns] == ["player_0", "player_1"]
    assert sorted(float(r.split()[1]) for r in returns) == [-1.0, 1.0]


def test_mismatch_names_the_first_differing_step_and_the_fix():
    text = transcript("primordial_soup", 3)
    lines = text.splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if line.startswith("=== step 17:"))
    changed = "".join(lines[:index + 2]) + "tampered\n" + "".join(lines[index + 3:])
    message = describe_mismatch(changed, text, "x.txt")
    assert f"first at line {index + 3} (=== step 17: " in message
    assert "primeval golden --regenerate" in message and "bump the env version" in message
    assert "-tampered" in message


def test_golden_command_regenerates_and_checks(tmp_path, capsys):
    """`primeval golden --regenerate --dir D` writes every file; `primeval golden --dir D`
    then passes, and fails with the diff once a file is edited or removed."""
    assert cli.main(["golden", "--dir", str(tmp_path / "missing")]) == 2
    assert "no folder" in capsys.readouterr().err
    assert cli.main(["golden", "--regenerate", "--dir", str(tmp_path)]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted(file_name(*c) for c in CASES)
    for name in names:  # the same bytes as the stored transcripts
        assert (tmp_path / name).read_bytes() == (GOLDEN / name).read_bytes(), name
    assert cli.main(["golden", "--dir", str(tmp_path)]) == 0
    capsys.readouterr()
    path = tmp_path / file_name("origin", 3)
    path.write_text(path.read_text().replace("chosen: ", "chosen:  ", 1))
    (tmp_path / file_name("origin", 4)).unlink()
    assert cli.main(["golden", "--dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert f"{path} differs from the game played now, first at line" in err
    assert "origin_4p.txt is missing" in err
