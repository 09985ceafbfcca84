"""``primeval play`` as a prompt: the board only when it changed, forced choices taken,
``--record`` (replayed by ``primeval replay``), ``u`` (undo), ``h`` (hint) and ``--window``.
The human is scripted through stdin (``io.StringIO``)."""

from __future__ import annotations

import io
import json
import re

import numpy as np
import pytest

from primeval.training import cli
from primeval.training.agents.checkpoint import CheckpointError
from primeval.training.play import PlayError, play_cli
from primeval.training.replay import load_record, replay_record

SOUP = ["--game", "primordial_soup", "--players", "3", "--seat", "1"]
ORIGIN = ["--game", "origin", "--players", "2", "--seat", "0"]
ANSWER = re.compile(r"^your choice \(1-\d+, b board, u undo, h hint, q quit\): (.*)$", re.M)


def run_play(argv: list[str], stdin_text: str) -> str:
    args = cli.build_parser().parse_args(["play", *argv])
    stdout = io.StringIO()
    assert play_cli(args, stdin=io.StringIO(stdin_text), stdout=stdout) == 0
    return stdout.getvalue()


def recorded(path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def boards(out: str, header: str) -> list[str]:
    """Every board printed: from its header line to the decision, the prompt or the
    ranking that follows it."""
    end = r"(?=\n\nYour decision|\nyour choice|\n\nFinal ranking|\n\ngame truncated|\Z)"
    return re.findall(rf"^{re.escape(header)}.*?{end}", out, flags=re.M | re.S)


def test_board_only_when_it_changed_and_on_b():
    out = run_play([*SOUP, "--opponents", "heuristic", "--seed", "2"], "1\n" * 40 + "q\n")
    decisions = len(re.findall(r"^Your decision \(", out, flags=re.M))
    shown = boards(out, "Primordial Soup: round")
    assert 0 < len(shown) < decisions / 2  # not before every decision
    assert all(a != b for a, b in zip(shown, shown[1:], strict=False))  # a new board each time
    # Before each decision that follows an opponent's move, the board is shown again.
    between = re.split(r"^Your decision \(.*$", out, flags=re.M)[1:-1]
    for chunk in between:
        if re.search(r"^player_[02]: ", chunk, flags=re.M):
            assert (
                "\nPrimordial Soup: round"
                in chunk.split(re.findall(r"^player_[02]: .*$", chunk, flags=re.M)[-1], 1)[1]
            )
    assert "Pending:" not in out  # the decision is said once, under the board
    # "b" prints the board as it is now, then asks again.
    again = run_play([*SOUP, "--opponents", "heuristic", "--seed", "2"], "1\n" * 5 + "b\nq\n")
    prompts = ANSWER.findall(again)
    assert prompts[-2:] == ["b", "q"]
    tail = again.split("): b\n", 1)[1]
    assert tail.startswith("Primordial Soup: round")
    assert tail.split("\nyour choice")[0] == boards(again, "Primordial Soup: round")[-1]


def test_forced_choices_are_taken_and_shown_in_one_line():
    out = run_play([*ORIGIN, "--opponents", "heuristic", "--seed", "4"], "1\n" * 60 + "q\n")
    forced = re.findall(r"^player_0 \(you\): (.*) \(only choice\)$", out, flags=re.M)
    assert forced
    assert "your choice (1-1," not in out


@pytest.mark.parametrize("opponents", ["random", "mcts:sims=4,rollout=random"])
def test_undo_gives_the_game_a_fresh_run_with_the_new_choice_plays(tmp_path, opponents):
    """``u`` after decision k, then choice 2 there, is the game of a run answering choice 2
    at decision k: the opponents' moves after it (random choices, a search's random
    rollouts) are made again from the same seeds."""
    argv = [*SOUP, "--opponents", opponents, "--seed", "11"]
    plain = run_play([*argv, "--record", str(tmp_path / "plain.jsonl")], "1\n" * 30 + "q\n")
    # The first decision after which an opponent moves before the human's next prompt.
    lines = plain.splitlines()
    answered = [i for i, line in enumerate(lines) if ANSWER.match(line)]
    k = next(
        n
        for n, (i, j) in enumerate(zip(answered, answered[1:], strict=False), start=1)
        if any(re.match(r"^player_[02]: ", line) for line in lines[i:j])
    )
    undone = run_play(
        [*argv, "--record", str(tmp_path / "undone.jsonl")],
        "1\n" * k + "u\n2\n" + "1\n" * 20 + "q\n",
    )
    fresh = run_play(
        [*argv, "--record", str(tmp_path / "fresh.jsonl")],
        "1\n" * (k - 1) + "2\n" + "1\n" * 20 + "q\n",
    )
    assert re.search(r"^undone: ", undone, flags=re.M)
    a, b = recorded(tmp_path / "undone.jsonl"), recorded(tmp_path / "fresh.jsonl")
    assert a["actions"] == b["actions"] and a["scores"] == b["scores"]
    assert a["actions"] != recorded(tmp_path / "plain.jsonl")["actions"][: len(a["actions"])]
    # The output after the undo is the fresh run's, from the same decision on.
    after_undo = undone.split("\nundone: ", 1)[1].split("\n", 1)[1]
    assert (
        after_undo.split("): 2\n", 1)[1].rsplit("\nrecorded ", 1)[0]
        == fresh.split("): 2\n", 1)[1].rsplit("\nrecorded ", 1)[0]
    )


def test_undo_twice_and_with_nothing_to_undo():
    argv = [*ORIGIN, "--opponents", "heuristic", "--seed", "3"]
    out = run_play(argv, "u\n1\n1\nu\nu\nu\n1\nq\n")
    assert out.count("nothing to undo") == 2  # before any decision, and after undoing both
    assert out.count("\nundone: ") == 2


def test_hint_names_the_agents_choice_and_changes_nothing(tmp_path):
    argv = [*ORIGIN, "--opponents", "heuristic", "--seed", "5"]
    script = "1\n" * 8 + "q\n"
    plain = run_play([*argv, "--record", str(tmp_path / "plain.jsonl")], script)
    hinted = run_play(
        [*argv, "--record", str(tmp_path / "hinted.jsonl")], "h\n1\nh\nh\n" + "1\n" * 7 + "q\n"
    )
    assert recorded(tmp_path / "plain.jsonl") == recorded(tmp_path / "hinted.jsonl")
    hints = re.findall(r"^hint \(heuristic\): (\d+)\. (.*)$", hinted, flags=re.M)
    assert len(hints) == 3 and hints[1] == hints[2]  # asked twice: the same answer
    # The hint is one of the listed choices, by its number and its name.
    number, name = hints[0]
    listed = hinted.split("\nhint (", 1)[0]
    assert re.search(rf"^\s+{number}\. {re.escape(name)}$", listed, flags=re.M)

    # Without the hint lines (and their prompts) the output is the plain run's.
    def strip(text: str) -> str:
        text = re.sub(r"^hint \(heuristic\): .*\n", "", text, flags=re.M)
        return re.sub(r"^your choice \([^)]*\): h\n", "", text, flags=re.M)

    assert strip(hinted).replace(str(tmp_path / "hinted.jsonl"), "R") == strip(plain).replace(
        str(tmp_path / "plain.jsonl"), "R"
    )


def test_hint_from_mcts_and_bad_hint_specs():
    out = run_play(
        [*SOUP, "--opponents", "random", "--seed", "1", "--hint", "mcts:sims=8,rollout=random"],
        "h\nq\n",
    )
    assert re.search(r"^hint \(mcts:sims=8,rollout=random\): \d+\. \S", out, flags=re.M)
    with pytest.raises(ValueError, match="unknown agent 'oracle'"):
        run_play([*SOUP, "--hint", "oracle"], "q\n")


@pytest.mark.parametrize(
    ("argv", "script"),
    [
        ([*SOUP, "--opponents", "heuristic", "random", "--seed", "6"], "1\n" * 4000),
        ([*ORIGIN, "--opponents", "heuristic", "--seed", "6"], "1\n" * 4000),
        (
            [*ORIGIN, "--opponents", "random", "--seed", "8"],
            "1\n" * 12 + "u\n2\n" + "1\n" * 5 + "q\n",
        ),
    ],
)
def test_record_round_trip(tmp_path, argv, script):
    """The record of a played game (finished, or quit) replays to the same scores."""
    path = tmp_path / "game.jsonl"
    out = run_play([*argv, "--record", str(path)], script)
    assert f"replay it with `primeval replay {path}`" in out
    record = load_record(path, 0)
    seat = int(argv[argv.index("--seat") + 1])
    assert record["agents"][seat] == "human" and record["seed"] == int(argv[-1])
    assert ("finished" not in record) == ("Final ranking:" in out)
    replayed = io.StringIO()
    scores = replay_record(record, render="none", stdout=replayed)
    assert scores == record["scores"]
    assert replayed.getvalue().count("\nstep ") == len(record["actions"])
    assert cli.main(["replay", str(path), "--render", "none"]) == 0


def test_record_errors(tmp_path, capsys):
    with pytest.raises(PlayError, match="is a folder"):
        run_play([*SOUP, "--record", str(tmp_path)], "q\n")
    assert cli.main(["play", *SOUP, "--record", str(tmp_path / "no" / "game.jsonl")]) == 2
    assert "no such folder" in capsys.readouterr().err
    path = tmp_path / "game.jsonl"
    run_play([*SOUP, "--seed", "0", "--record", str(path)], "1\nq\n")
    record = recorded(path)
    record["finished"] = "no"
    path.write_text(json.dumps(record) + "\n")
    from primeval.training.replay import ReplayError

    with pytest.raises(ReplayError, match="finished must be true or false"):
        load_record(path, 0)


def test_no_seed_plays_a_fresh_seed_that_it_prints(tmp_path):
    path = tmp_path / "game.jsonl"
    out = run_play([*SOUP, "--opponents", "random", "--record", str(path)], "1\n1\nq\n")
    seed = int(re.search(r"; seed (\d+)$", out.splitlines()[0]).group(1))
    assert recorded(path)["seed"] == seed
    again = run_play([*SOUP, "--opponents", "random", "--seed", str(seed)], "1\n1\nq\n")
    assert again.split("\n", 1)[1] == out.split("\n", 1)[1].rsplit("recorded", 1)[0]


def test_window_shows_the_game_while_playing(monkeypatch):
    pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from primeval.envs.core.picture_window import window_pixels
    from primeval.envs.games import make_raw_env

    seen = {}
    real_close = __import__("primeval.envs.core.aec", fromlist=["x"]).TurnBasedAECEnv.close

    def close(env):  # the window's pixels and the game, just before play closes them
        seen["pixels"] = window_pixels()
        seen["state"] = env.get_state()
        real_close(env)

    monkeypatch.setattr("primeval.envs.core.aec.TurnBasedAECEnv.close", close)
    out = run_play([*SOUP, "--opponents", "random", "--seed", "3", "--window"], "1\n1\nq\n")
    assert "quit" in out
    env = make_raw_env("primordial_soup", 3)
    env.set_state(seen["state"])
    assert np.array_equal(seen["pixels"], env.view.to_rgb_array(env.game_state))


@pytest.mark.slow
def test_ppo_opponent_and_hint_through_the_cli(untrained_checkpoint, monkeypatch, capsys):
    """``primeval play`` with a checkpoint as opponent and as hint: the game and player count
    come from the checkpoint, the hint names a listed choice."""
    pytest.importorskip("sb3_contrib")
    path = untrained_checkpoint()
    monkeypatch.setattr("sys.stdin", io.StringIO("h\n1\nh\nq\n"))
    assert (
        cli.main(["play", "--opponents", f"ppo:{path}", "--hint", f"ppo:{path}", "--seed", "0"])
        == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("primordial_soup, 3 players; you are player_0;")
    hints = re.findall(rf"^hint \(ppo:{re.escape(str(path))}\): (\d+)\. (.*)$", out, flags=re.M)
    assert len(hints) == 2
    assert re.search(rf"^\s+{hints[0][0]}\. {re.escape(hints[0][1])}$", out, flags=re.M)
    assert re.search(r"^player_[12]: \S", out, flags=re.M)  # the checkpoint played


def test_zoo_members_as_opponents_and_hint():
    """``zoo:TASK/MEMBER`` names work in ``play`` as they do in ``evaluate``: the opponents
    are the member's agents and the hint is the shipped PPO agent's choice."""
    out = run_play(
        ["--game", "primordial_soup", "--players", "4", "--seat", "1", "--opponents",
         "zoo:soup-4p/heuristic", "--seed", "2", "--hint",
         "zoo:soup-4p/ppo"],
        "h\nq\n",
    )
    assert re.search(r"^hint \(zoo:soup-4p/ppo\): \d+\. \S", out, flags=re.M)
    assert "(zoo:soup-4p/heuristic)" in out
    # a member of another task's env is refused before the game, naming it
    with pytest.raises(CheckpointError, match="'zoo:soup-4p/ppo' cannot play this env"):
        run_play([*SOUP, "--hint", "zoo:soup-4p/ppo"], "q\n")  # 3 seats, not 4
