"""The third game: Pig (``tests/thirdgame``), added to the catalogue by its descriptor alone
(the ``third_game`` fixture), runs through every tool that treats games alike: PettingZoo's
api_test, the fingerprint, fuzz, the benchmark, the OpenSpiel bridge, MCTS, training and
evaluation. Nothing in the package names it; it has no heuristic and no picture."""

from __future__ import annotations

import warnings

import pytest
from pettingzoo.test import api_test, seed_test

from primeval.envs import games
from primeval.envs.games import GAMES, get_game
from tests.thirdgame import GAME as PIG


def test_register_adds_the_descriptor_and_its_undo_takes_it_out():
    assert "pig" not in GAMES  # the real catalogue, outside the fixture
    before = dict(GAMES)
    unregister = games.register(PIG)
    try:
        assert get_game("pig") is PIG and list(GAMES)[-1] == "pig"
        with pytest.raises(ValueError, match="'pig' is already in the catalogue"):
            games.register(PIG)
    finally:
        unregister()
    assert before == GAMES
    with pytest.raises(TypeError, match="GameDescriptor"):
        games.register("pig")
    assert before == GAMES


def test_a_bad_descriptor_is_refused_naming_the_field():
    from dataclasses import replace

    with pytest.raises(ValueError, match="default_players=5"):
        replace(PIG, default_players=5)
    with pytest.raises(ValueError, match="picture and picture_argument"):
        replace(PIG, picture="tests.thirdgame.view")


def test_the_catalogue_derives_ids_and_arguments(third_game):
    assert (third_game.env_name, third_game.aec_id, third_game.gym_id) == (
        "pig_v0",
        "primeval/pig-v0",
        "primeval/Pig-v0",
    )
    assert third_game.env_arguments.startswith("num_players=2 (2|3|4), obs_encoder='flat', ")
    assert third_game.env_arguments.endswith("**PigConfig fields (target)")
    env = third_game.raw_env()
    assert env.metadata["name"] == third_game.env_name and env.rules.name == "pig"
    assert tuple(third_game.load("encoders_module").ENCODERS) == third_game.encoders
    with pytest.raises(ValueError, match="'pig' has no heuristic"):
        third_game.load("heuristic")


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_api_and_seed_tests(third_game, players):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # api_test's notes on Dict spaces
        api_test(third_game.env(players), num_cycles=300)
    seed_test(lambda: third_game.env(players), num_cycles=50)


def test_fingerprint_covers_the_game_and_is_stable(third_game):
    from primeval.envs.testing import fingerprint as fp

    assert ("pig_v0", (2, 3, 4), ("flat",)) in fp.cases()
    assert all(case[0] != "pig_v0" for case in fp.CASES)  # the saved keys: shipped games
    once = fp.fingerprint("pig_v0", 3, "flat", games=3, seed=0)
    assert fp.fingerprint("pig_v0", 3, "flat", games=3, seed=0) == once
    assert fp.fingerprint("pig_v0", 3, "flat", games=3, seed=1) != once


def test_fuzz_checks_every_step(third_game):
    from primeval.envs.testing.fuzz import fuzz

    report = fuzz("pig", 3, games=20, seed=0, illegal_rate=0.2)
    assert report.games == 20 and report.steps > 20 and report.illegal_tried > 0


def test_benchmark_plays_it_and_the_picture_benchmark_says_it_has_none(third_game):
    from primeval.envs.testing import bench, bench_pictures

    run = bench.bench_game("pig", 2, "flat", seconds=0.2)
    assert run["games"] >= 1 and run["decisions_per_game"] > 1
    with pytest.raises(ValueError, match="'pig' has no picture"):
        bench_pictures.bench_pictures("pig", 2, games=1)


def test_openspiel_bridge(third_game):
    pyspiel = pytest.importorskip("pyspiel")
    from primeval.wrappers import openspiel

    game = openspiel.load_game("pig", 3)
    assert game.get_type().short_name == "python_primeval_pig"
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert game.max_chance_outcomes() == 7 and game.num_distinct_actions() == 2
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_mcts_plays_and_a_heuristic_is_refused_clearly(third_game):
    from primeval.training.agents import RandomAgent, make_agent, make_heuristic
    from primeval.training.agents.heuristics import HEURISTICS, NoHeuristicError
    from primeval.training.evaluate import tournament

    results = tournament("pig", 2, ["mcts:sims=16", "random"], games=4, seed=0)
    assert [r.games for r in results] == [4, 4]
    assert sum(r.wins for r in results) == pytest.approx(4)  # one winner a game
    with pytest.raises(ValueError, match="rollout=heuristic: game 'pig' has no heuristic"):
        make_agent("mcts:sims=4,rollout=heuristic", "pig")
    with pytest.raises(ValueError, match="prior=5.0: game 'pig' has no heuristic"):
        make_agent("mcts:sims=4,prior=5", "pig")
    assert make_agent("mcts:sims=4", "pig").config.prior == 0  # no hint without a heuristic
    with pytest.raises(NoHeuristicError, match="use 'random' or 'mcts'"):
        make_agent("heuristic", "pig")
    assert "pig" not in HEURISTICS and "origin" in HEURISTICS
    with pytest.warns(UserWarning, match="'pig' has no heuristic agent"):
        assert isinstance(make_heuristic("pig", seed=0), RandomAgent)


@pytest.mark.slow
def test_train_a_few_hundred_steps_then_evaluate(third_game, tmp_path):
    pytest.importorskip("sb3_contrib")
    from primeval.training.evaluate import tournament
    from primeval.training.ppo.config import load_config
    from primeval.training.ppo.train import train

    config = load_config(
        None,
        game="pig",
        players=2,
        encoder="flat",
        total_steps=256,
        n_envs=1,
        **{
            "ppo.n_steps": 128,
            "ppo.batch_size": 64,
            "ppo.n_epochs": 1,
            "checkpoint_every": 128,
            "eval.every": 128,
            "eval.games": 2,
            "eval.final_games": 4,
            "league.rating_games": 2,
            "network.net_arch": [16],
            "torch_threads": 1,
        },
    )
    with pytest.warns(UserWarning, match="no heuristic agent"):
        final = train(config, tmp_path / "run", progress=False)
    assert final["game"] == "pig" and final["total_steps"] >= 256
    assert 0.0 <= final["win_rate_vs_random"] <= 1.0
    results = tournament(
        "pig", 2, [f"ppo:{tmp_path / 'run' / 'model.zip'}", "random"], games=4, seed=0
    )
    assert results[0].name.startswith("ppo") and [r.games for r in results] == [4, 4]


def test_cross_game_tests_list_it_and_skip_what_it_lacks_saying_so(third_game):
    """The catalogue's cross-game parameters include the game; a test that needs what the
    game has not (rules reference page, rules package to check) is skipped with a reason."""
    from tests.helpers import catalogue_games

    (pig,) = [p for p in catalogue_games("docs", "no rules reference page") if p.id == "pig"]
    (skip,) = pig.marks
    assert skip.name == "skip"
    assert skip.kwargs["reason"] == ("pig: no rules reference page (its descriptor's docs is None)")
    others = [p for p in catalogue_games("docs", "no rules reference page") if p.id != "pig"]
    assert others and not any(p.marks for p in others)
    assert [p.id for p in catalogue_games()][-1] == "pig"


def test_the_add_a_game_page_names_the_example_s_files():
    """docs/add-a-game.md's worked example: every file it names under tests/thirdgame/
    exists, and every module of the example is named; the package files it names for each
    step are the ones the shipped games have."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    text = (root / "docs" / "add-a-game.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(tests/thirdgame/[\w/]+\.py)`", text))
    example = {str(p.relative_to(root)) for p in (root / "tests" / "thirdgame").glob("*.py")}
    assert named == example
    for name in GAMES:  # the shipped games have the files each step names
        for step in (
            "envs/{g}/__init__.py",
            "envs/{g}/encoders.py",
            "envs/{g}/view.py",
            "envs/{g}/env.py",
            "envs/{g}/rules/",
            "configs/{g}/default.yaml",
        ):
            assert step.replace("{g}", "mygame") in text
            assert (root / step.format(g=name)).exists(), step.format(g=name)
