"""The OpenSpiel bridge takes rule variants as game parameters and starts from built
positions (issue 26 item 11)."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import primeval.wrappers.openspiel as bridge  # noqa: E402
from primeval.envs.core.position import PositionError  # noqa: E402
from primeval.envs.games import GAMES  # noqa: E402
from primeval.envs.primordial_soup.position import build_position  # noqa: E402

BUY = {
    "round": 2,
    "decision": {"kind": "buy", "player": 1},
    "players": [{"bp": 3}, {"bp": 9, "genes": ["speed"]}, {"bp": 2}],
}


@pytest.mark.parametrize("game", list(GAMES))
def test_every_plain_config_field_is_a_parameter_with_its_default(game):
    import dataclasses

    config = GAMES[game].load("config")
    params = pyspiel.load_game(f"python_primeval_{game}").get_parameters()
    for field in dataclasses.fields(config):
        plain = isinstance(field.default, bool | int | float | str)
        if field.name == "num_players" or field.name.endswith("_file") or not plain:
            assert field.name not in params, field.name
        else:
            assert params[field.name] == field.default, field.name
    assert params["position"] == ""


def test_a_variant_reaches_the_rules_and_passes_random_sim_test():
    game = pyspiel.load_game(
        "python_primeval_primordial_soup(players=3,board_layout=B,start_bp=6,six_allows_stay=false)"
    )
    config = game._core.rules.config
    assert (config.board_layout, config.start_bp, config.six_allows_stay) == ("B", 6, False)
    assert game.rule_parameters()["board_layout"] == "B"
    default = pyspiel.load_game("python_primeval_primordial_soup(players=3)")
    assert default._core.rules.config.board_layout == "A"
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_origin_variant():
    game = bridge.load_game("origin", 2, score_tiebreak=False)
    assert game._core.rules.config.score_tiebreak is False
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_a_bad_variant_is_refused_naming_it():
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'board_layot'"):
        pyspiel.load_game("python_primeval_primordial_soup(board_layot=B)")
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'map_file'"):
        pyspiel.load_game("python_primeval_origin(map_file=/etc/passwd)")
    with pytest.raises(Exception, match="board_layout"):
        pyspiel.load_game("python_primeval_primordial_soup(board_layout=Z)")
    with pytest.raises(ValueError, match="parameter start_bp must be a int"):
        bridge.game_class("primordial_soup")({"start_bp": "many"})


def test_a_position_parameter_starts_the_game_there():
    rules = bridge.load_game("primordial_soup", 3)._core.rules
    expected = build_position(rules, BUY)
    game = pyspiel.load_game(
        "python_primeval_primordial_soup", {"players": 3, "position": json.dumps(BUY)}
    )
    state = game.new_initial_state()
    assert state.rules_state == expected
    assert state.current_player() == 1
    assert state.legal_actions() == np.flatnonzero(rules.legal_mask(expected)).tolist()
    # a variant and a position together; random play from the position to the end
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    clone = pickle.loads(pickle.dumps(state))
    assert clone.rules_state == expected


def test_new_initial_state_from_a_spec_or_a_state():
    game = bridge.load_game("primordial_soup", 3)
    rules = game._core.rules
    from_spec = game.new_initial_state_from(BUY)
    assert from_spec.rules_state == build_position(rules, BUY)
    built = build_position(rules, BUY)
    from_state = game.new_initial_state_from(built)
    assert from_state.rules_state == built and from_state.current_player() == 1
    assert str(from_state) == str(from_spec)
    action = from_state.legal_actions()[-1]
    from_state.apply_action(action)  # plays on; the caller's state is not changed
    assert built == build_position(rules, BUY)
    assert game.new_initial_state().is_chance_node()  # the setup, as before


def test_a_bad_position_is_refused_naming_the_entry():
    game = bridge.load_game("primordial_soup", 3)
    with pytest.raises(PositionError, match="unknown gene 'sped'"):
        game.new_initial_state_from({**BUY, "players": [{}, {"genes": ["sped"]}, {}]})
    with pytest.raises(TypeError, match="a position is a spec .dict. or a GameState"):
        game.new_initial_state_from([1, 2])
    origin = bridge.load_game("origin", 3)
    with pytest.raises(TypeError, match="got GameState"):
        origin.new_initial_state_from(build_position(game._core.rules, BUY))
    with pytest.raises(Exception, match="not JSON text"):
        pyspiel.load_game("python_primeval_primordial_soup", {"position": "{buy"})
    with pytest.raises(Exception, match="not base64 of JSON text"):
        pyspiel.load_game("python_primeval_primordial_soup", {"position": "b64:%%%"})


def test_the_position_survives_the_game_string():
    text = bridge.position_parameter(BUY)
    assert text.startswith("b64:") and not set(text) & set(",()= ")
    assert bridge.read_position_parameter(text) == BUY
    game = pyspiel.load_game(
        "python_primeval_primordial_soup", {"players": 3, "position": json.dumps(BUY)}
    )
    assert f"position={text}" in str(game)  # stored in the comma-free form
    again = pyspiel.load_game(str(game))
    assert again.new_initial_state().rules_state == game.new_initial_state().rules_state
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    restored_game, restored = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state)
    )
    assert restored.rules_state == state.rules_state
