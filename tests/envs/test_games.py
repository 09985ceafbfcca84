"""The catalogue of games (envs/games.py) agrees with the games themselves."""

from __future__ import annotations

import importlib

import pytest

from primeval.envs.games import GAMES, get_game, make_raw_env

NAMES = sorted(GAMES)


@pytest.mark.parametrize("name", NAMES)
def test_the_entry_names_the_game_s_own_module_encoders_and_version(name):
    game = GAMES[name]
    env = game.raw_env()
    assert env.metadata["name"] == game.env_name
    assert env.rules.name == name
    assert len(env.possible_agents) == game.default_players
    encoders = importlib.import_module(f"primeval.envs.{name}.encoders").ENCODERS
    assert tuple(encoders) == game.encoders
    assert env.obs_encoder.name == game.encoders[0]  # the default encoder is listed first


@pytest.mark.parametrize("name", NAMES)
def test_the_player_counts_are_the_ones_the_rules_accept(name):
    game = GAMES[name]
    for n in range(1, 7):
        if n in game.player_counts:
            assert len(game.env(num_players=n).possible_agents) == n
        else:
            with pytest.raises(ValueError, match="num_players"):
                game.raw_env(num_players=n)


def test_an_unknown_game_is_refused_with_the_list_of_games():
    with pytest.raises(ValueError, match="unknown game 'chess'; games: primordial_soup, origin"):
        get_game("chess")
    with pytest.raises(ValueError, match="unknown game"):
        make_raw_env("chess", 2)


@pytest.mark.parametrize("name", NAMES)
def test_default_rules_are_the_raw_env_s_built_once_and_the_agents_share_them(name):
    from primeval.training.agents.heuristics import heuristic_class
    from primeval.training.agents.mcts import MCTSAgent

    game = GAMES[name]
    for n in game.player_counts:
        rules = game.default_rules(n)
        assert rules is game.default_rules(n)  # built once
        assert type(rules) is type(game.raw_env(num_players=n).rules)
        assert rules.config == game.raw_env(num_players=n).rules.config
    state = game.raw_env().rules.initial_state(__import__("numpy").random.default_rng(0))
    assert game.default_rules() is game.default_rules(game.default_players)
    assert MCTSAgent(name, "mcts:sims=2", seed=0).rules_for(state) is game.default_rules()
    assert heuristic_class(name)(seed=0)._rules_for(state) is game.default_rules()
