"""Duplicate games: every seat rotation of the same agents meets the same deal and dice."""

from __future__ import annotations

import json

import numpy as np
import pytest

from primeval.envs.core.chance import ChanceEvent, DuplicateChance
from primeval.envs.games import make_raw_env
from primeval.training import cli
from primeval.training.agents import make_agent
from primeval.training.evaluate import play_game, tournament


class Recording(DuplicateChance):
    """A DuplicateChance that writes down the setup and every draw: ((seat, label), outcome),
    the seat being the context play_game sets (None at the setup)."""

    made: list[Recording] = []

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.draws: list[tuple[tuple, int]] = []
        Recording.made.append(self)

    def draw(self, event: ChanceEvent) -> int:
        outcome = super().draw(event)
        self.draws.append(((self.context, event.label), (outcome, event.outcomes, event.weights)))
        return outcome


def _play(game: str, players: int, specs: list[str], seed: int, monkeypatch) -> tuple:
    """One duplicate game through play_game; the setup's state and the draws."""
    import primeval.envs.core.chance as chance

    monkeypatch.setattr(chance, "DuplicateChance", Recording)
    env = make_raw_env(game, players)
    agents = [make_agent(s, game, seed=10 + i) for i, s in enumerate(specs)]
    play_game(env, agents, seed=seed, duplicate=True)
    source = Recording.made[-1]
    setup = [d for d in source.draws if d[0][0] is None]
    return setup, source.draws


def _by_key(draws: list[tuple[tuple, int]]) -> dict[tuple, list[int]]:
    out: dict[tuple, list[int]] = {}
    for key, outcome in draws:
        out.setdefault(key, []).append(outcome)
    return out


@pytest.mark.parametrize(("game", "players"), [("primordial_soup", 4), ("origin", 3)])
def test_two_rotations_see_the_same_deal_and_the_same_dice(game, players, monkeypatch):
    lineup = ["heuristic", "random"] + ["random"] * (players - 2)
    rotated = lineup[1:] + lineup[:1]
    setup_a, draws_a = _play(game, players, lineup, 7, monkeypatch)
    setup_b, draws_b = _play(game, players, rotated, 7, monkeypatch)
    assert setup_a and setup_a == setup_b  # the same deal, start player and setup
    a, b = _by_key(draws_a), _by_key(draws_b)
    in_play = {key for key in set(a) & set(b) if key[0] is not None}
    assert in_play  # chance during play, in the seats' steps
    compared = 0
    for key in in_play:  # the k-th event of each kind in each seat's steps fell the same,
        for x, y in zip(a[key], b[key], strict=False):  # when it could fall the same ways
            if x[1:] == y[1:]:
                assert x[0] == y[0], key
                compared += 1
    assert compared > 10
    if game == "primordial_soup":  # dice are rolled all game long
        for seat in range(players):
            assert len(a[(seat, "die")]) > 5 and len(b[(seat, "die")]) > 5
    assert draws_a != draws_b  # the players did play otherwise


def test_other_seeds_deal_otherwise(monkeypatch):
    setup_a, _ = _play("origin", 3, ["random"] * 3, 1, monkeypatch)
    setup_b, _ = _play("origin", 3, ["random"] * 3, 2, monkeypatch)
    assert setup_a != setup_b


def test_a_failed_step_leaves_the_source_as_it_was():
    source = DuplicateChance(3)
    for label in ("die", "die", "card"):
        source.draw(ChanceEvent("die", label, (1, 2, 3, 4, 5, 6)))
    source.context = 1
    source.draw(ChanceEvent("die", "die", (1, 2, 3, 4, 5, 6)))
    saved = source.get_state()
    after = [source.draw(ChanceEvent("die", "die", (1, 2, 3, 4, 5, 6))) for _ in range(5)]
    source.context = 2
    source.set_state(saved)
    assert source.context == 1
    assert [source.draw(ChanceEvent("die", "die", (1, 2, 3, 4, 5, 6))) for _ in range(5)] == after


def test_weighted_events_follow_their_weights():
    source = DuplicateChance(0)
    event = ChanceEvent("pick", "tile", (0, 1, 2), (0, 3, 1))
    outcomes = [source.draw(event) for _ in range(4000)]
    assert 0 not in outcomes
    assert abs(np.mean(np.asarray(outcomes) == 1) - 0.75) < 0.03


def test_play_game_gives_chance_back_to_the_generator():
    env = make_raw_env("primordial_soup", 3)
    agents = [make_agent("random", "primordial_soup", seed=i) for i in range(3)]
    plain = play_game(env, agents, seed=5)
    play_game(env, agents, seed=5, duplicate=True)
    for i, a in enumerate(agents):
        a.seed(i)
    assert play_game(env, agents, seed=5) == plain


def test_tournament_plays_each_seed_in_every_rotation(tmp_path):
    record = tmp_path / "games.jsonl"
    results = tournament(
        "primordial_soup",
        3,
        ["heuristic", "random", "random"],
        6,
        seed=4,
        record=record,
        duplicate=True,
    )
    games = [json.loads(line) for line in record.read_text().splitlines()]
    assert [g["seed"] for g in games] == [4, 4, 4, 5, 5, 5]
    assert all(g["chance"] == "duplicate" for g in games)
    seats = [g["agents"].index("heuristic") for g in games]
    assert sorted(seats[:3]) == [0, 1, 2] and sorted(seats[3:]) == [0, 1, 2]
    assert results[0].games == 6 and len(results[0].win_shares) == 6


def test_evaluate_and_league_take_duplicate(tmp_path, capsys):
    out = tmp_path / "e.json"
    assert (
        cli.main(
            [
                "evaluate",
                "--game",
                "primordial_soup",
                "--players",
                "3",
                "--agents",
                "heuristic",
                "random",
                "random",
                "--games",
                "3",
                "--duplicate",
                "--quiet",
                "--json",
                str(out),
            ]
        )
        == 0
    )
    assert "duplicate" in capsys.readouterr().out
    assert json.loads(out.read_text())["games"] == 3
    assert (
        cli.main(
            [
                "league",
                "heuristic",
                "random",
                "random",
                "--game",
                "primordial_soup",
                "--players",
                "3",
                "--games",
                "3",
                "--duplicate",
                "--quiet",
            ]
        )
        == 0
    )


def test_a_recorded_duplicate_game_replays(tmp_path, capsys):
    record = tmp_path / "games.jsonl"
    tournament(
        "primordial_soup",
        3,
        ["heuristic", "random", "random"],
        3,
        seed=2,
        record=record,
        duplicate=True,
    )
    for index in range(3):
        assert (
            cli.main(["replay", str(record), "--game-index", str(index), "--render", "none"]) == 0
        )
        assert "scores match the record" in capsys.readouterr().out
    line = json.loads(record.read_text().splitlines()[0])
    line["chance"] = "loaded dice"
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(line) + "\n")
    assert cli.main(["replay", str(bad), "--render", "none"]) == 2
    assert "chance must be" in capsys.readouterr().err


def test_a_part_block_is_refused(capsys):
    assert (
        cli.main(
            [
                "evaluate",
                "--game",
                "origin",
                "--players",
                "3",
                "--agents",
                "random",
                "random",
                "random",
                "--games",
                "4",
                "--duplicate",
                "--quiet",
            ]
        )
        == 2
    )
    assert "give a multiple of 3 games, not 4" in capsys.readouterr().err
    assert (
        cli.main(
            [
                "league",
                "random",
                "random",
                "random",
                "--game",
                "origin",
                "--players",
                "3",
                "--games",
                "5",
                "--duplicate",
                "--quiet",
            ]
        )
        == 2
    )


def test_use_chance_refuses_what_is_no_chance_source():
    env = make_raw_env("origin", 2)
    with pytest.raises(TypeError, match="use_chance takes a ChanceSource.*got int"):
        env.unwrapped.use_chance(7)
    env.reset(seed=1)  # still the env's own generator
    env.unwrapped.use_chance(DuplicateChance(1))
    env.reset(seed=1)
    dealt = env.unwrapped.game_state.to_dict()
    env.unwrapped.use_chance(None)
    env.reset(seed=1)
    assert env.unwrapped.game_state.to_dict() != dealt  # the generator deals otherwise


def test_a_script_hands_chance_back_to_the_env_source_not_its_generator():
    """One chance slot: what a script does not fix, the env's source decides (here the
    duplicate source), exactly as with no script at all."""
    dealt = []
    for script in (None, []):
        env = make_raw_env("primordial_soup", 4)
        env.unwrapped.use_chance(DuplicateChance(5))
        if script is not None:
            env.unwrapped.script_chance(script)
        env.reset(seed=1)
        dealt.append(env.unwrapped.game_state.to_dict())
    assert dealt[0] == dealt[1]
    plain = make_raw_env("primordial_soup", 4)
    plain.reset(seed=1)
    assert plain.unwrapped.game_state.to_dict() != dealt[0]  # the generator deals otherwise
