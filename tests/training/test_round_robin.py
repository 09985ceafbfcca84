"""primeval league: a round robin among any agents, with OpenSkill ratings and a
leaderboard (Markdown and JSON)."""

from __future__ import annotations

import json
from itertools import combinations

import pytest

import primeval.training.evaluate as evaluate
from primeval.training import cli
from primeval.training.evaluate import leaderboard, round_robin


def test_every_lineup_is_played_and_every_agent_takes_every_seat(monkeypatch):
    seen = []
    play = evaluate.play_game

    def spy(env, seat_agents, seed, actions=None, duplicate=False):
        seen.append(tuple(id(a) for a in seat_agents))
        return play(env, seat_agents, seed, actions, duplicate)

    monkeypatch.setattr(evaluate, "play_game", spy)
    specs = ["random", "random", "heuristic", "random"]
    results = round_robin("origin", specs, games=24, seed=0, num_players=3)
    assert [r.games for r in results] == [18, 18, 18, 18]  # 24 games x 3 seats / 4 agents
    lineups = {frozenset(s) for s in seen}
    assert len(lineups) == len(list(combinations(range(4), 3)))
    ids = {i for game in seen for i in game}
    for agent in ids:  # each agent in every seat
        assert {game.index(agent) for game in seen if agent in game} == {0, 1, 2}


def test_the_heuristic_is_rated_above_random_players():
    results = round_robin("primordial_soup", ["heuristic", "random", "random", "random",
                                              "random"], games=20, seed=1)
    by_name = {r.name: r for r in results}
    assert by_name["heuristic"].rating_mu > max(r.rating_mu for r in results
                                                if r.name.startswith("random"))
    table = leaderboard(results).splitlines()
    assert table[2].startswith("| 1 | heuristic |")  # best first
    assert len(table) == 2 + 5


def test_too_few_agents_is_refused_naming_the_count():
    with pytest.raises(ValueError, match="needs at least 4 agents, got 2"):
        round_robin("primordial_soup", ["heuristic", "random"], games=2)


def test_the_command_writes_the_leaderboard(tmp_path, capsys):
    out_json, out_md = tmp_path / "board.json", tmp_path / "board.md"
    assert cli.main(["league", "heuristic", "random", "random", "--game", "origin",
                     "--games", "6", "--quiet", "--json", str(out_json), "--markdown",
                     str(out_md)]) == 0
    printed = capsys.readouterr().out
    assert "| rank | agent |" in printed and out_md.read_text() in printed
    board = json.loads(out_json.read_text())
    assert board["game"] == "origin" and len(board["leaderboard"]) == 3
    ordinals = [a["rating"]["ordinal"] for a in board["leaderboard"]]
    assert ordinals == sorted(ordinals, reverse=True)


@pytest.mark.parametrize("command", [
    ["evaluate", "--agents", "random", "random", "random", "random"],
    ["league", "random", "random"],
    ["fuzz"],
])
@pytest.mark.parametrize("games", ["0", "-3", "many"])
def test_a_games_count_below_one_is_refused_before_anything_plays(command, games, capsys):
    """``--games 0`` once printed a table of nan; now argparse refuses it, naming the flag."""
    with pytest.raises(SystemExit) as exit_info:
        cli.main([*command, "--games", games])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "--games" in err and ("at least 1" in err or "whole number" in err)
