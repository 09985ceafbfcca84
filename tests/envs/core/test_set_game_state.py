"""``set_game_state`` puts a rules state (a built position) into an env, and ``clone(seed)``
gives a copy its own dice (issue 15, "Positions by name")."""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs.core.saved_state import StateError
from primeval.envs.games import GAMES
from primeval.envs.origin.position import build_position as origin_position
from primeval.envs.primordial_soup.actions import MoveChoice
from primeval.envs.primordial_soup.position import build_position as soup_position
from tests.helpers import play_to_the_end

#: Player 2 to buy in phase 3 of round 3 (3 players).
SOUP = {"round": 3, "decision": {"kind": "buy", "player": 2},
        "players": [{"bp": 4, "score": 9}, {"bp": 1, "score": 11},
                    {"bp": 9, "score": 8, "amoebas": {1: 12, 2: 13}}]}
#: Player 1's turn menu, the action not yet taken (3 players).
ORIGIN = {"decision": {"kind": "turn", "player": 1}, "turn": 2,
          "players": [{"pawns": {"AF1": [1, 1, "brown"]}},
                      {"pawns": {"AF6": [1, 2, "black"]}, "hand": ["Y1"]}, {}]}
POSITIONS = {"primordial_soup": (soup_position, SOUP, "new_genes", "buy", "player_2"),
             "origin": (origin_position, ORIGIN, "play", "turn", "player_1")}


def position(game: str, env):
    build, spec, *_ = POSITIONS[game]
    return build(env.unwrapped.rules, spec)


@pytest.mark.parametrize("game", sorted(POSITIONS))
@pytest.mark.parametrize("reset_first", [True, False])
def test_through_env_the_position_sets_agent_infos_and_mask(game, reset_first):
    """Through ``GAMES[game].env()`` (PettingZoo's wrappers): after ``reset()``,
    ``env.unwrapped.set_game_state``; without one, ``env.set_game_state`` (the wrapper's,
    which counts as the reset). Then the agent, infos and mask are the position's, and the
    game plays to its end."""
    env = GAMES[game].env(num_players=3)
    _, _, phase, decision, agent = POSITIONS[game]
    state = position(game, env)
    if reset_first:
        env.reset(seed=0)
        env.last()  # the wrapper keeps this mask; it must not judge the next step
        env.unwrapped.set_game_state(state)
    else:
        env.set_game_state(state, seed=0)
    assert env.agent_selection == agent
    assert env.infos == dict.fromkeys(env.possible_agents, {"phase": phase,
                                                             "decision": decision})
    rules = env.unwrapped.rules
    obs, reward, termination, truncation, info = env.last()
    assert np.array_equal(obs["action_mask"], rules.legal_mask(state).astype(np.int8))
    assert (reward, termination, truncation) == (0.0, False, False)
    for other in env.possible_agents:
        if other != agent:
            assert not env.observe(other)["action_mask"].any()
    # An action legal here but not at the setup is played, not judged by the setup's mask.
    action = int(np.flatnonzero(obs["action_mask"])[-1])
    env.step(action)
    assert not any(env.terminations.values())
    play_to_the_end(env)
    assert all(env.terminations.values())


@pytest.mark.parametrize("game", sorted(POSITIONS))
def test_the_raw_env_takes_a_position_before_any_reset_and_seeds_its_generator(game):
    """Never reset: a generator is made (seeded when asked); the same seed and actions then
    give the same game."""
    finals = []
    for _ in range(2):
        env = GAMES[game].raw_env(num_players=3)
        env.set_game_state(position(game, env), seed=7)
        play_to_the_end(env, seed=1)
        finals.append(env.game_state.to_dict())
    assert finals[0] == finals[1]


def test_the_env_keeps_its_generator_and_copies_the_state():
    env = GAMES["primordial_soup"].raw_env(num_players=3)
    env.reset(seed=5)
    before = env.unwrapped._rng.bit_generator.state
    state = position("primordial_soup", env)
    env.set_game_state(state)
    assert env._rng.bit_generator.state == before
    state.players[2].bp = 0  # the caller's object, not the env's game
    assert env.game_state.players[2].bp == 9
    assert env.num_steps == 0


@pytest.mark.parametrize("game", sorted(POSITIONS))
def test_an_inconsistent_state_is_refused_and_the_env_is_unchanged(game):
    env = GAMES[game].raw_env(num_players=3)
    env.reset(seed=2)
    before = env.get_state()
    state = position(game, env)
    if game == "primordial_soup":
        state.supply[0] += 1
    else:
        state.hands[0].append(state.hands[1][0])
    with pytest.raises(StateError, match="set_game_state: refused"):
        env.set_game_state(state)
    with pytest.raises(StateError, match="set_game_state: refused"):
        env.set_game_state("not a state")
    other = GAMES[game].raw_env(num_players=4)  # another config
    with pytest.raises(StateError, match="the config has 4"):
        other.set_game_state(position(game, env))
    assert env.get_state() == before


def test_a_finished_game_gives_the_final_rewards():
    """A state that is over: every agent terminated, the final rewards in ``last()``."""
    env = GAMES["primordial_soup"].raw_env(num_players=3)
    env.reset(seed=3)
    play_to_the_end(env)
    final = env.game_state
    fresh = GAMES["primordial_soup"].raw_env(num_players=3)
    fresh.set_game_state(final)
    assert all(fresh.terminations.values())
    assert fresh.rewards == env.rewards and sum(fresh.rewards.values()) == pytest.approx(0)
    assert fresh.last()[1] == env.rewards[fresh.agent_selection]


def active_move_dice(env) -> tuple[int, ...]:
    """Player 0's amoeba #1 moves actively with Movement I: two dice are rolled."""
    rules = env.unwrapped.rules
    env.step(rules.layout.encode("move", MoveChoice.ACTIVE_MOVE))
    return env.game_state.dice


def test_clone_shares_the_future_dice_and_clone_with_a_seed_has_its_own():
    """``clone()`` copies the generator: fed the same action, the clone rolls this env's
    dice. ``clone(seed)`` re-seeds it: the same position, dice of its own (the same for the
    same seed)."""
    env = GAMES["primordial_soup"].raw_env(num_players=3)
    state = soup_position(env.rules, {
        "round": 2, "decision": {"kind": "move", "player": 0, "amoeba": 1},
        "players": [{"bp": 5, "genes": ["movement_1"], "amoebas": {1: 7}}, {}, {}]})
    env.set_game_state(state, seed=100)
    same = env.clone()
    reseeded = [env.clone(seed=s) for s in range(5)]
    again = env.clone(seed=3)
    dice = active_move_dice(env)
    assert len(dice) == 2
    assert active_move_dice(same) == dice
    others = [active_move_dice(c) for c in reseeded]
    assert any(d != dice for d in others) and len(set(others)) > 1
    assert active_move_dice(again) == others[3]
