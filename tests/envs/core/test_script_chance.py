"""env.unwrapped.script_chance: the next dice and draws of an env's game, fixed."""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs.games import GAMES
from primeval.envs.primordial_soup.actions import MoveChoice


def _soup():
    return GAMES["primordial_soup"].env()


def test_scripted_start_order_dice_through_the_wrapped_env():
    """primordial_soup.md "Setup": the highest roller chooses a start space first."""
    env = _soup()
    script = env.unwrapped.script_chance([0, 1, 2, 3, 3, 6, 6, 2, 2])
    env.reset(seed=0)
    assert env.agent_selection == "player_2"
    assert env.unwrapped.game_state.environment_card == 0
    assert script.remaining == [] and env.unwrapped._script is None


def _to_first_move(env):
    """Play the setup with the first legal action until an amoeba's move decision."""
    env.reset(seed=3)
    while env.unwrapped.rules.decision_name(env.unwrapped.game_state) != "move":
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))


def test_a_scripted_six_gives_a_free_choice_of_direction():
    """primordial_soup.md: an active move rolls one die; a 6 lets the player choose."""
    env = _soup()
    _to_first_move(env)
    layout = env.unwrapped.rules.layout
    env.unwrapped.script_chance([6])
    env.step(layout.encode("move", MoveChoice.ACTIVE_MOVE))
    state = env.unwrapped.game_state
    assert state.dice == (6,)
    assert env.unwrapped.rules.decision_name(state) == "direction"
    assert len(state.stack[-1]["allowed"]) >= 4


def test_a_scripted_outcome_that_cannot_happen_is_refused_and_changes_nothing():
    env = _soup()
    _to_first_move(env)
    before = env.unwrapped.get_state()
    env.unwrapped.script_chance([7])
    layout = env.unwrapped.rules.layout
    with pytest.raises(ValueError, match=r"chance event 'die': outcome 7 is not possible"):
        env.step(layout.encode("move", MoveChoice.ACTIVE_MOVE))
    assert env.unwrapped.get_state() == before


def test_after_the_script_the_env_s_generator_goes_on():
    a, b = _soup(), _soup()
    for env in (a, b):
        env.unwrapped.script_chance([0])
        env.reset(seed=5)
    assert a.unwrapped.get_state() == b.unwrapped.get_state()
    assert a.unwrapped.game_state.environment_card == 0
