"""``evaluate --seeds K`` (independent evaluation seeds, each reported and pooled), agents
named by zoo member or network whose env is inferred, and torch on one thread while a
tournament plays."""

from __future__ import annotations

import json

import pytest

from primeval.training import cli
from primeval.training.agents import make_agent
from primeval.training.agents.checkpoint import env_spec, infer_env
from primeval.training.evaluate import (
    SEED_STRIDE,
    AgentResult,
    agent_from_spec,
    evaluation_seeds,
    pool_results,
    tournament,
    zoo_env_spec,
    zoo_spec,
)


def test_evaluation_seeds_are_strided_and_counted():
    assert evaluation_seeds(7, 3) == [7, 7 + SEED_STRIDE, 7 + 2 * SEED_STRIDE]
    for bad in (0, -1, True, 2.0):
        with pytest.raises(ValueError, match="seeds must be a whole number"):
            evaluation_seeds(0, bad)


def test_pooled_results_add_every_seeds_games():
    per_seed = [
        tournament("primordial_soup", 3, ["heuristic", "random", "random"], 6, seed=s)
        for s in evaluation_seeds(0, 2)
    ]
    pooled = pool_results(per_seed)
    for i, res in enumerate(pooled):
        assert res.games == 12
        assert res.wins == per_seed[0][i].wins + per_seed[1][i].wins
        assert res.ranks == per_seed[0][i].ranks + per_seed[1][i].ranks
    # the pooled interval is narrower than either seed's, around the pooled rate
    lo, hi = pooled[0].win_interval()
    assert all(hi - lo < r[0].win_interval()[1] - r[0].win_interval()[0] for r in per_seed)
    # ratings re-rated over all 12 games: more games, less uncertainty
    assert pooled[0].rating_sigma < min(r[0].rating_sigma for r in per_seed)


def test_pooled_summaries_give_the_pool_of_their_games():
    """``AgentResult.pooled``: reports' summary rows (as held-out JSON keeps them) pooled to
    what pooling the results themselves gives: the games, wins and interval."""
    per_seed = [
        tournament("primordial_soup", 3, ["heuristic", "random", "random"], 6, seed=s)
        for s in evaluation_seeds(0, 2)
    ]
    whole = pool_results(per_seed)[0]
    rows = AgentResult.pooled([r[0].summary() for r in per_seed])
    assert (rows.games, rows.name) == (12, "pooled")
    assert rows.wins == pytest.approx(whole.wins)
    assert rows.win_interval() == pytest.approx(whole.win_interval())


def test_pooling_different_agents_is_refused():
    with pytest.raises(ValueError, match="same agents in the same order"):
        pool_results([[AgentResult("a")], [AgentResult("b")]])


def test_the_cli_reports_each_seed_and_the_pool(tmp_path, capsys):
    out, record = tmp_path / "eval.json", tmp_path / "games.jsonl"
    code = cli.main(["evaluate", "--game", "primordial_soup", "--players", "3", "--agents",
                     "heuristic", "random", "random", "--games", "3", "--seeds", "2",
                     "--seed", "5", "--json", str(out), "--record", str(record), "--quiet"])
    assert code == 0
    text = capsys.readouterr().out
    assert "seed 5\n" in text and f"seed {5 + SEED_STRIDE}\n" in text
    assert f"pooled over 2 seeds (5, {5 + SEED_STRIDE}), 6 games" in text
    data = json.loads(out.read_text())
    assert data["seeds"] == [5, 5 + SEED_STRIDE]
    assert [d["seed"] for d in data["per_seed"]] == data["seeds"]
    assert data["agents"][0]["games"] == 6
    wins = sum(d["agents"][0]["win_rate"] * d["agents"][0]["games"] for d in data["per_seed"])
    assert data["agents"][0]["win_rate"] == pytest.approx(wins / 6)
    games = [json.loads(line) for line in record.read_text().splitlines()]
    assert len(games) == 6  # both seeds' games, appended
    assert {g["seed"] for g in games[3:]} == {5 + SEED_STRIDE + g for g in range(3)}


def test_seeds_must_be_at_least_one(capsys):
    with pytest.raises(SystemExit):
        cli.main(["evaluate", "--agents", "random", "random", "random", "random",
                  "--seeds", "0"])
    assert "--seeds: must be at least 1" in capsys.readouterr().err


def test_a_zoo_member_by_name_plays_and_names_its_env(capsys):
    assert zoo_env_spec("zoo:origin-3p/ppo") == {"game": "origin", "players": 3}
    assert zoo_env_spec("heuristic") is None
    assert zoo_spec("zoo:soup-4p/heuristic") == "heuristic"
    assert zoo_spec("zoo:origin-3p/ppo").startswith("ppo:")
    results = tournament("origin", 3, ["zoo:origin-3p/ppo", "heuristic", "heuristic"], 3)
    assert results[0].name == "zoo:origin-3p/ppo" and results[0].games == 3
    with pytest.raises(ValueError, match="zoo member 'zoo:origin-3p/nobody': task origin-3p"):
        agent_from_spec("zoo:origin-3p/nobody", "origin")
    # the CLI plays the member's game without --game
    assert cli.main(["evaluate", "--agents", "zoo:origin-3p/ppo", "heuristic", "heuristic",
                     "--games", "2", "--quiet"]) == 0
    assert capsys.readouterr().out.startswith("origin, 3 players, 2 games")


def test_a_networks_env_is_inferred_for_net_and_mcts_specs(tmp_path):
    pytest.importorskip("torch")
    from primeval.training.expert.network import PolicyValueNetwork

    path = PolicyValueNetwork(env_spec("origin", 2), hidden=(8,), seed=0).save(tmp_path / "network.json")
    for spec in (f"net:{path}", f"net:{path.parent}", f"mcts:sims=4,net={path}"):
        env, note = infer_env([spec, "heuristic"], None, None, "primordial_soup")
        assert (env["game"], env["players"], note) == ("origin", 2, None), spec


def test_torch_runs_on_one_thread_during_a_tournament_and_is_restored():
    torch = pytest.importorskip("torch")
    seen = []

    class Watcher:
        def act(self, observation, action_mask, **_):
            seen.append(torch.get_num_threads())
            return int(action_mask.nonzero()[0][0])

    from primeval.training.evaluate import play_tournament

    torch.set_num_threads(2)
    play_tournament("primordial_soup", 3, [Watcher(), make_agent("random", "x"),
                                           make_agent("random", "x")],
                    ["w", "r1", "r2"], 1)
    assert seen and set(seen) == {1}
    assert torch.get_num_threads() == 2
