"""``primeval evaluate --record`` game records and ``primeval replay``."""

from __future__ import annotations

import argparse
import io
import json
import struct
from pathlib import Path

import numpy as np
import pytest

from primeval.envs.games import make_raw_env as make_env
from primeval.training import cli
from primeval.training.evaluate import tournament
from primeval.training.replay import (
    ReplayError,
    load_record,
    load_records,
    replay_cli,
    replay_record,
    write_png,
)

CASES = {
    # file name: (game, players, agents, games, seed)
    "soup.jsonl": ("primordial_soup", 3, ["heuristic", "random", "random"], 3, 10),
    "origin.jsonl": ("origin", 2, ["heuristic", "random"], 2, 20),
}


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("records")
    paths = {}
    for name, (game, players, agents, games, seed) in CASES.items():
        path = folder / name
        code = cli.main(["evaluate", "--game", game, "--players", str(players), "--agents",
                         *agents, "--games", str(games), "--seed", str(seed), "--quiet",
                         "--record", str(path)])
        assert code == 0
        paths[name] = path
    return paths


def read_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def write_lines(path: Path, rows: list) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def replay_args(path: Path, index: int = 0, **kw) -> argparse.Namespace:
    argv = ["replay", str(path), "--game-index", str(index)]
    for key, value in kw.items():
        argv += [f"--{key.replace('_', '-')}", str(value)]
    return cli.build_parser().parse_args(argv)


@pytest.mark.parametrize("name", list(CASES))
def test_record_lines(records, name):
    game, players, agents, games, seed = CASES[name]
    rows = read_lines(records[name])
    assert len(rows) == games
    config = make_env(game, players).rules.config.to_dict()
    for g, row in enumerate(rows):
        assert set(row) >= {"game", "players", "config", "seed", "agents", "actions", "scores"}
        assert row["game"] == game and row["players"] == players
        assert row["config"] == json.loads(json.dumps(config))
        assert row["seed"] == seed + g
        # Seats rotate: agent i sits at seat (i + g) % n.
        assert row["agents"] == [agents[(s - g) % players] for s in range(players)]
        assert len(row["scores"]) == players
        assert len(row["actions"]) > 20 and all(isinstance(a, int) for a in row["actions"])


@pytest.mark.parametrize("name", list(CASES))
def test_replay_reproduces_the_scores(records, name, capsys):
    rows = read_lines(records[name])
    for index, row in enumerate(rows):
        assert cli.main(["replay", str(records[name]), "--game-index", str(index),
                         "--every", "40"]) == 0
        out = capsys.readouterr().out
        assert "scores match the record" in out
        assert out.count("--- after step") == (len(row["actions"]) - 1) // 40
        assert "--- start ---" in out and "--- end ---" in out
        assert out.count("\nstep ") == len(row["actions"])
        scores = replay_record(row, render="none", stdout=io.StringIO())
        assert scores == row["scores"]


def test_replay_prints_the_board_after_every_step(records):
    out = io.StringIO()
    row = read_lines(records["soup.jsonl"])[0]
    replay_record(row, stdout=out)
    text = out.getvalue()
    assert text.count("Primordial Soup: round") == len(row["actions"]) + 1
    assert "game over" in text


def test_tournament_api_record(tmp_path):
    path = tmp_path / "api.jsonl"
    tournament("primordial_soup", 3, ["random"] * 3, 2, seed=4, record=path)
    rows = read_lines(path)
    assert [r["agents"] for r in rows] == [["random"] * 3] * 2
    for row in rows:
        assert replay_record(row, render="none", stdout=io.StringIO()) == row["scores"]


def find_illegal(row: dict, step: int) -> int:
    """An action id that is illegal at ``step`` (0-based) of the recorded game."""
    env = make_env(row["game"], row["players"])
    env.reset(seed=row["seed"])
    for action in row["actions"][:step]:
        env.step(action)
    return int(np.flatnonzero(~np.asarray(env.rules.legal_mask(env.game_state)))[0])


@pytest.mark.parametrize("name", list(CASES))
def test_tampered_record_is_refused(records, name, tmp_path, capsys):
    rows = read_lines(records[name])
    step = len(rows[1]["actions"]) // 2
    bad = find_illegal(rows[1], step)
    rows[1]["actions"][step] = bad
    path = write_lines(tmp_path / "tampered.jsonl", rows)
    assert cli.main(["replay", str(path), "--game-index", "1", "--render", "none"]) == 2
    err = capsys.readouterr().err
    assert f"{path} game 1: step {step + 1}: action {bad} (" in err
    assert "is not legal for player_" in err and "legal: " in err
    # The untouched record in the same file still replays.
    assert cli.main(["replay", str(path), "--game-index", "0", "--render", "none"]) == 0


def test_incomplete_overlong_and_wrong_score_records(records, tmp_path):
    row = read_lines(records["soup.jsonl"])[0]
    where = "x.jsonl game 0"
    short = dict(row, actions=row["actions"][:-1])
    with pytest.raises(ReplayError, match="ends after .* actions but the game is not over"):
        replay_record(short, where=where, render="none", stdout=io.StringIO())
    long = dict(row, actions=row["actions"] + [0])
    with pytest.raises(ReplayError, match=f"game ended after step {len(row['actions'])}"):
        replay_record(long, where=where, render="none", stdout=io.StringIO())
    wrong = dict(row, scores=[s + 1 for s in row["scores"]])
    with pytest.raises(ReplayError, match="replayed scores .* differ from the recorded"):
        replay_record(wrong, where=where, render="none", stdout=io.StringIO())
    out_of_range = dict(row, actions=[10**6] + row["actions"][1:])
    with pytest.raises(ReplayError, match="step 1: action 1000000 is out of range"):
        replay_record(out_of_range, where=where, render="none", stdout=io.StringIO())
    bad_config = dict(row, config=dict(row["config"], board_layout="Z"))
    with pytest.raises(ReplayError, match="cannot build the primordial_soup env.*board_layout"):
        replay_record(bad_config, where=where, render="none", stdout=io.StringIO())


def test_bad_files(records, tmp_path, capsys):
    good = read_lines(records["origin.jsonl"])[0]
    cases = {
        "missing": (None, "does not exist"),
        "empty": ("\n\n", "holds no game record"),
        "text": ("this is not json\n", "line 1 is not JSON"),
        "second_line": (json.dumps(good) + "\n{oops\n", "line 2 is not JSON"),
        "array": ("[1, 2, 3]\n", "line 1 is a JSON list, not a game record"),
        "fields": (json.dumps({"game": "origin"}) + "\n", "missing field(s)"),
        "unknown_game": (json.dumps(dict(good, game="chess")) + "\n", "unknown game 'chess'"),
        "actions": (json.dumps(dict(good, actions=["a"])) + "\n", "actions must be a list"),
        "scores": (json.dumps(dict(good, scores=[1])) + "\n", "scores must be a list of 2"),
    }
    for name, (content, message) in cases.items():
        path = tmp_path / f"{name}.jsonl"
        if content is not None:
            path.write_text(content)
        assert cli.main(["replay", str(path)]) == 2, name
        err = capsys.readouterr().err
        assert message in err and str(path) in err, (name, err)
        assert err.startswith("primeval replay: error: ")
    assert cli.main(["replay", str(records["origin.jsonl"]), "--game-index", "2"]) == 2
    assert "holds 2 game record(s): --game-index 2 is out of range 0..1" in \
        capsys.readouterr().err
    assert cli.main(["replay", str(records["origin.jsonl"]), "--game", "primordial_soup"]) == 2
    assert "is a game of origin, not of primordial_soup" in capsys.readouterr().err
    assert len(load_records(records["soup.jsonl"])) == 3
    assert load_record(records["soup.jsonl"], 2, game="primordial_soup")["seed"] == 12


def test_picture_frames(records, tmp_path, monkeypatch):
    row = read_lines(records["soup.jsonl"])[0]
    view_cls = type(make_env("primordial_soup", 3).view)
    drawn = []

    def fake(self, state):
        drawn.append(state.round)
        return np.full((6, 8, 3), 200, dtype=np.uint8)

    monkeypatch.setattr(view_cls, "to_rgb_array", fake, raising=False)
    out = tmp_path / "frames"
    path = write_lines(tmp_path / "one.jsonl", [row])
    assert replay_cli(replay_args(path, render="picture", out_dir=out, every=100),
                      stdout=io.StringIO()) == 0
    n = len(row["actions"])
    expected = ["step_00000.png"] + [f"step_{k:05d}.png" for k in range(100, n, 100)] + \
        [f"step_{n:05d}.png"]
    assert sorted(p.name for p in out.iterdir()) == expected
    data = (out / "step_00000.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (8, 6)

    with pytest.raises(ReplayError, match="needs --out-dir"):
        replay_record(row, render="picture", stdout=io.StringIO())
    monkeypatch.setattr(view_cls, "to_rgb_array", None)
    with pytest.raises(ReplayError, match=r"no picture renderer \(view.to_rgb_array\)"):
        replay_record(row, render="picture", out_dir=out, stdout=io.StringIO())


def test_write_png_round_trip(tmp_path):
    image = np.arange(5 * 7 * 3, dtype=np.uint8).reshape(5, 7, 3)
    write_png(tmp_path / "a.png", image)
    pil = pytest.importorskip("PIL.Image")
    with pil.open(tmp_path / "a.png") as im:
        assert im.size == (7, 5) and im.mode == "RGB"
        assert np.array_equal(np.asarray(im), image)
    with pytest.raises(ReplayError, match="expected"):
        write_png(tmp_path / "b.png", np.zeros((2, 2, 2)))


def test_at_end_gets_the_final_state_only_once_the_scores_match(tmp_path):
    """``replay_record(..., at_end=f)`` calls ``f(rules, state)`` with the replayed end,
    whose scores are the record's; a record that fails to replay never reaches it."""
    path = tmp_path / "games.jsonl"
    tournament("primordial_soup", 3, ["random", "heuristic", "random"], games=1, seed=3,
               record=path)
    record = json.loads(path.read_text().splitlines()[0])
    seen = []
    replay_record(record, render="none", stdout=io.StringIO(),
                  at_end=lambda rules, state: seen.append(list(rules.scores(state))))
    assert seen == [record["scores"]]
    with pytest.raises(ReplayError):
        replay_record(dict(record, scores=[s + 1 for s in record["scores"]]), render="none",
                      stdout=io.StringIO(), at_end=lambda rules, state: seen.append(None))
    assert seen == [record["scores"]]


def test_on_step_sees_every_decision_before_its_action(tmp_path):
    """``replay_record(..., on_step=f)`` calls ``f(rules, state, seat, action, mask)`` once
    per recorded action, in order, with the deciding seat, the action (legal in ``mask``)
    and the state before it."""
    path = tmp_path / "games.jsonl"
    tournament("origin", 3, ["random", "heuristic", "random"], games=1, seed=5, record=path)
    record = json.loads(path.read_text().splitlines()[0])
    seen = []

    def on_step(rules, state, seat, action, mask):
        assert mask[action] and state.stack[-1]["player"] == seat
        seen.append(action)

    replay_record(record, render="none", stdout=io.StringIO(), on_step=on_step)
    assert seen == record["actions"]
