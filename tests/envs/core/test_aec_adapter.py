"""TurnBasedAECEnv with a tiny fake game, plus final rewards and the encoder factory.

The fake game is Nim for 2-3 players: a seeded pile of 3-9 stones, a seeded first player; on
your turn take 1 or 2 stones; taking 1 as the first move of your turn earns one bonus move
(so an agent can act twice in a row); whoever takes the last stone wins (score 1, others 0).
"""

from __future__ import annotations

import copy
import pickle
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.wrappers import (
    AssertOutOfBoundsWrapper,
    OrderEnforcingWrapper,
    TerminateIllegalWrapper,
)

from primeval.envs.core import (
    ActionLayout,
    FeatureBuilder,
    IllegalActionError,
    InvalidActionTypeError,
    TurnBasedAECEnv,
    make_encoder,
    rank_rewards,
    reward_for_mode,
)

# -- the fake game -----------------------------------------------------------------------


@dataclass(frozen=True)
class NimState:
    pile: int
    to_act: int  # seat, -1 once the game is over
    bonus: bool  # the player to act is on its bonus move
    winner: int = -1


class NimRules:
    """Rules of the fake Nim; matches the ``GameRules`` protocol."""

    name = "nim"

    def __init__(self, num_players: int = 2, min_pile: int = 3, max_pile: int = 9) -> None:
        self.num_players = num_players
        self.min_pile = min_pile
        self.max_pile = max_pile
        self.layout = ActionLayout(
            [("take", 2, "take 1 or 2 stones")],
            labels={"take": lambda i: f"take {i + 1} stone" + ("s" if i else "")},
        )

    def initial_state(self, rng: np.random.Generator) -> NimState:
        pile = int(rng.integers(self.min_pile, self.max_pile + 1))
        return NimState(pile=pile, to_act=int(rng.integers(self.num_players)), bonus=False)

    def current_player(self, state: NimState) -> int:
        return state.to_act

    def legal_mask(self, state: NimState) -> np.ndarray:
        mask = self.layout.empty_mask()
        if not self.is_terminal(state):
            mask[: min(state.pile, 2)] = True
        return mask

    def apply(self, state: NimState, action: int, rng: np.random.Generator) -> NimState:
        if self.is_terminal(state) or action + 1 > state.pile:
            raise IllegalActionError(f"illegal {self.action_to_str(state, action)}")
        take = action + 1
        pile = state.pile - take
        if pile == 0:
            return NimState(pile=0, to_act=-1, bonus=False, winner=state.to_act)
        if take == 1 and not state.bonus:
            return replace(state, pile=pile, bonus=True)
        return NimState(pile=pile, to_act=(state.to_act + 1) % self.num_players, bonus=False)

    def is_terminal(self, state: NimState) -> bool:
        return state.winner >= 0

    def scores(self, state: NimState) -> list[float]:
        return [1.0 if seat == state.winner else 0.0 for seat in range(self.num_players)]

    def phase_name(self, state: NimState) -> str:
        if self.is_terminal(state):
            return "game_over"
        return "bonus_take" if state.bonus else "take"

    def action_to_str(self, state: NimState, action: int) -> str:
        return self.layout.describe(action)


class NimView:
    """The fake Nim's view; matches the ``GameView`` protocol (text only, no picture)."""

    render_modes = ("human", "ansi")

    def __init__(self, rules: NimRules) -> None:
        self.rules = rules

    def to_text(self, state: NimState, viewer: int | None = None) -> str:
        return f"pile {state.pile}, {self.rules.phase_name(state)}, to act: {state.to_act}"

    def describe_decision(self, state: NimState, viewer: int | None = None) -> str:
        return f"player_{state.to_act} takes 1 or 2 stones"

    def action_name(self, state: NimState, action: int, viewer: int | None = None) -> str:
        return self.rules.action_to_str(state, action)


class NimFlatEncoder:
    """Pile (scaled), who acts relative to me (one-hot), bonus flag."""

    name = "flat"

    def __init__(self, rules: NimRules) -> None:
        self.rules = rules
        self.features = FeatureBuilder([("pile", 1), ("to_act", rules.num_players), ("bonus", 1)])

    def space(self) -> spaces.Box:
        return self.features.box(0.0, 1.0)

    def encode(self, state: NimState, seat: int) -> np.ndarray:
        out = self.features.zeros()
        self.features.write(out, "pile", state.pile / self.rules.max_pile)
        if state.to_act >= 0:
            self.features.view(out, "to_act")[(state.to_act - seat) % self.rules.num_players] = 1
        self.features.write(out, "bonus", float(state.bonus))
        return out


ENCODERS = {"flat": NimFlatEncoder}


class nim_env(TurnBasedAECEnv):  # noqa: N801 - PettingZoo's raw_env naming
    metadata = {"name": "nim_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(
        self, num_players: int = 2, min_pile: int = 3, max_pile: int = 9, **kwargs: Any
    ) -> None:
        rules = NimRules(num_players, min_pile, max_pile)
        super().__init__(rules, make_encoder(ENCODERS, "flat", rules), NimView(rules),
                         **kwargs)


def wrapped_env(**kwargs: Any) -> OrderEnforcingWrapper:
    env = TerminateIllegalWrapper(nim_env(**kwargs), illegal_reward=-1)
    env = AssertOutOfBoundsWrapper(env)
    return OrderEnforcingWrapper(env)


def play_out(env: Any, rng: np.random.Generator) -> list[tuple[str, int | None]]:
    """Plays random legal moves until every agent has left; returns (agent, action) pairs."""
    history = []
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        action = (
            None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
        history.append((agent, action))
        env.step(action)
    return history


def state_at_pile_one(num_players: int = 2) -> nim_env:
    env = nim_env(num_players, min_pile=1, max_pile=1)
    env.reset(seed=3)
    return env


# -- PettingZoo conformance --------------------------------------------------------------


@pytest.mark.parametrize("num_players", [2, 3])
def test_api_test(num_players: int) -> None:
    api_test(nim_env(num_players), num_cycles=200)


@pytest.mark.parametrize("num_players", [2, 3])
def test_api_test_wrapped(num_players: int) -> None:
    api_test(wrapped_env(num_players=num_players), num_cycles=200)


@pytest.mark.parametrize("num_players", [2, 3])
def test_seed_test(num_players: int) -> None:
    seed_test(lambda: nim_env(num_players), num_cycles=200)


def test_same_seed_same_game_and_seeds_matter() -> None:
    games = []
    for seed in [7, 7, 8, 9, 10, 11]:
        env = nim_env(3)
        env.reset(seed=seed)
        games.append((env.game_state, play_out(env, np.random.default_rng(0))))
    assert games[0] == games[1]
    assert len({state for state, _ in games}) > 1


def test_reset_without_seed_continues_the_generator() -> None:
    a, b = nim_env(), nim_env()
    a.reset(seed=1)
    b.reset(seed=1)
    assert [a.reset() or a.game_state for _ in range(5)] == [
        b.reset() or b.game_state for _ in range(5)
    ]


def test_spaces_are_cached_and_hold_observations() -> None:
    env = nim_env(3)
    env.reset(seed=0)
    for agent in env.possible_agents:
        assert env.observation_space(agent) is env.observation_space(agent)
        assert env.action_space(agent) is env.action_space(agent)
        assert env.action_space(agent) == spaces.Discrete(2)
        assert env.observation_space(agent).contains(env.observe(agent))
    assert env.possible_agents == ["player_0", "player_1", "player_2"]


# -- steps, masks, infos -----------------------------------------------------------------


def test_mask_is_zero_for_agents_not_to_act() -> None:
    env = nim_env(3)
    env.reset(seed=0)
    acting = env.agent_selection
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.dtype == np.int8
        if agent == acting:
            assert mask.tolist() == env.rules.legal_mask(env.game_state).astype(int).tolist()
        else:
            assert not mask.any()


def test_action_mask_is_the_observed_mask_without_encoding() -> None:
    env = nim_env(3)
    env.reset(seed=0)
    encoded = []
    encode = env.obs_encoder.encode
    env.obs_encoder.encode = lambda state, seat: encoded.append(seat) or encode(state, seat)
    for _ in range(4):
        for agent in env.agents:
            mask = env.action_mask(agent)
            assert mask.dtype == np.int8
            assert not encoded  # the mask alone encodes nothing
            assert mask.tolist() == env.observe(agent)["action_mask"].tolist()
            as_bool = env.action_mask(agent, dtype=bool)  # sb3-contrib's form, made directly
            assert as_bool.dtype == np.bool_ and as_bool.tolist() == mask.astype(bool).tolist()
            as_bool[:] = True  # a new array: the env's own mask is untouched
            assert env.action_mask(agent).tolist() == mask.tolist()
            encoded.clear()
        env.step(int(np.flatnonzero(env.action_mask(env.agent_selection))[0]))


def test_infos_carry_the_phase_and_an_agent_can_act_twice() -> None:
    env = nim_env(2, min_pile=5, max_pile=5)
    env.reset(seed=0)
    agent = env.agent_selection
    assert all(info == {"phase": "take"} for info in env.infos.values())
    env.step(0)  # take 1: bonus move for the same agent
    assert env.agent_selection == agent
    assert all(info == {"phase": "bonus_take"} for info in env.infos.values())
    env.step(0)
    assert env.agent_selection != agent
    assert env.num_steps == 2


def test_mask_is_computed_once_per_state() -> None:
    env = nim_env()
    env.reset(seed=0)
    calls = []
    legal_mask = env.rules.legal_mask
    env.rules.legal_mask = lambda state: calls.append(state) or legal_mask(state)
    for _ in range(3):
        env.observe(env.agent_selection)
        env.last()
    assert len(calls) == 1
    env.step(0)
    env.observe(env.agent_selection)
    assert len(calls) == 2


def test_illegal_action_raises_and_changes_nothing() -> None:
    env = state_at_pile_one()
    before = (env.game_state, env.agent_selection, env.num_steps, dict(env.rewards))
    rng_before = env._rng.bit_generator.state
    with pytest.raises(IllegalActionError) as info:
        env.step(1)
    message = str(info.value)
    assert "illegal action 1 (take 2 stones)" in message
    assert f"for {env.agent_selection} in phase 'take'" in message
    assert "legal: 0=take 1 stone" in message
    assert (env.game_state, env.agent_selection, env.num_steps, dict(env.rewards)) == before
    assert env._rng.bit_generator.state == rng_before
    env.step(0)  # the game goes on normally
    assert all(env.terminations.values())


@pytest.mark.parametrize("action", [2, -1, 10**6, np.int64(5)])
def test_out_of_range_ids_raise(action: Any) -> None:
    env = nim_env()
    env.reset(seed=0)
    state = env.game_state
    with pytest.raises(IllegalActionError, match=rf"action id {int(action)} out of range \[0, 2\)"):
        env.step(action)
    assert env.game_state is state


@pytest.mark.parametrize(
    "action", [0.0, 1.0, None, True, False, "0", np.float32(0), np.bool_(True), np.array([0])]
)
def test_wrong_action_types_raise_clearly(action: Any) -> None:
    env = nim_env()
    env.reset(seed=0)
    state = env.game_state
    with pytest.raises(InvalidActionTypeError, match=r"action must be an int in \[0, 2\), got"):
        env.step(action)
    with pytest.raises(TypeError, match=type(action).__name__):
        env.step(action)
    assert env.game_state is state


@pytest.mark.parametrize("action", [0, np.int32(0), np.int64(0), np.uint8(0), np.array(0)])
def test_integer_like_actions_are_accepted(action: Any) -> None:
    env = nim_env(min_pile=5, max_pile=5)
    env.reset(seed=0)
    env.step(action)
    assert env.game_state.pile == 4


# -- end of game -------------------------------------------------------------------------


@pytest.mark.parametrize("num_players", [2, 3])
def test_final_rewards_by_rank(num_players: int) -> None:
    env = nim_env(num_players)
    env.reset(seed=4)
    final: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert not truncated and reward != 0
            assert not obs["action_mask"].any() and info == {"phase": "game_over"}
            final[agent] = reward
            env.step(None)
        else:
            assert reward == 0
            env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    winner = f"player_{env.game_state.winner}"
    expected = rank_rewards(env.rules.scores(env.game_state))
    assert final == {f"player_{seat}": r for seat, r in enumerate(expected)}
    assert final[winner] == 1.0
    assert sum(final.values()) == pytest.approx(0.0)
    assert env.agents == []


@pytest.mark.parametrize(("mode", "loser"), [("rank", -0.5), ("win", -0.5), ("score", -1 / 3)])
def test_reward_modes(mode: str, loser: float) -> None:
    env = nim_env(3, min_pile=1, max_pile=1, reward_mode=mode)
    env.reset(seed=3)
    winner = env.agent_selection
    env.step(0)
    assert all(env.terminations.values())
    winner_reward = {"rank": 1.0, "win": 1.0, "score": 2 / 3}[mode]
    for agent, reward in env._cumulative_rewards.items():
        assert reward == pytest.approx(winner_reward if agent == winner else loser)


def test_dead_agents_must_step_with_none() -> None:
    env = state_at_pile_one()
    env.step(0)
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(0)
    env.step(None)
    env.step(None)
    assert env.agents == []
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(None)


def test_truncation_at_max_steps() -> None:
    env = nim_env(2, min_pile=9, max_pile=9, max_steps=3)
    env.reset(seed=0)
    for _ in range(3):
        env.step(0)
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert all(reward == 0 for reward in env._cumulative_rewards.values())
    assert not env.observe(env.agent_selection)["action_mask"].any()
    while env.agents:
        env.step(None)


def test_illegal_action_through_wrappers_ends_game_with_minus_one() -> None:
    env = wrapped_env(num_players=3, min_pile=1, max_pile=1)
    env.reset(seed=3)
    offender = env.agent_selection
    env.step(1)  # take 2 from a pile of 1
    assert all(env.terminations.values())
    results = {}
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        assert terminated or truncated
        results[agent] = reward
        env.step(None)
    assert results == {a: (-1 if a == offender else 0) for a in env.possible_agents}


def test_out_of_bounds_through_wrappers_asserts() -> None:
    env = wrapped_env()
    env.reset(seed=0)
    with pytest.raises(AssertionError, match="not in action space"):
        env.step(5)


# -- copies, render, construction --------------------------------------------------------


@pytest.mark.parametrize("clone", [copy.deepcopy, lambda env: pickle.loads(pickle.dumps(env))])
def test_copies_keep_the_game_in_progress(clone: Any) -> None:
    env = nim_env(3, min_pile=9, max_pile=9)
    env.reset(seed=5)
    env.step(0)
    env.step(1)
    twin = clone(env)
    assert twin.game_state == env.game_state
    assert twin.agent_selection == env.agent_selection and twin.num_steps == env.num_steps
    assert twin.observe(twin.agent_selection)["action_mask"].tolist() == (
        env.observe(env.agent_selection)["action_mask"].tolist()
    )
    assert play_out(twin, np.random.default_rng(1)) == play_out(env, np.random.default_rng(1))
    assert twin._cumulative_rewards == env._cumulative_rewards
    env.reset()  # the generator was copied too
    twin.reset()
    assert twin.game_state == env.game_state


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    env = nim_env(render_mode="ansi", min_pile=4, max_pile=4)
    env.reset(seed=0)
    assert env.render() == f"pile 4, take, to act: {env.game_state.to_act}"

    human = nim_env(render_mode="human", min_pile=4, max_pile=4)
    human.reset(seed=0)
    human.step(0)
    assert "pile 3, bonus_take" in capsys.readouterr().out

    silent = nim_env()
    silent.reset(seed=0)
    with pytest.warns(UserWarning, match="without specifying any render mode"):
        assert silent.render() is None
    silent.close()


def test_metadata_from_class_or_argument() -> None:
    env = nim_env()
    assert env.metadata["name"] == "nim_v0" and str(env) == "nim_v0"
    rules = NimRules()
    plain = TurnBasedAECEnv(rules, NimFlatEncoder(rules), NimView(rules),
                            metadata={"render_fps": 1})
    assert plain.metadata == {
        "name": "nim",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
        "render_fps": 1,
    }
    override = nim_env(metadata={"name": "nim_v1"})
    assert override.metadata["name"] == "nim_v1"
    assert "render_modes" in override.metadata


def test_constructor_validation() -> None:
    with pytest.raises(ValueError, match="unknown reward mode 'elo'; allowed: rank, win, score"):
        nim_env(reward_mode="elo")
    with pytest.raises(ValueError, match="unknown render_mode 'rgb_array'"):
        nim_env(render_mode="rgb_array")
    with pytest.raises(ValueError, match="max_steps must be a positive int"):
        nim_env(max_steps=0)
    with pytest.raises(TypeError, match="obs_encoder must be an encoder"):
        TurnBasedAECEnv(NimRules(), "flat", NimView(NimRules()))
    rules = NimRules()
    with pytest.raises(TypeError, match="view must be a view with render_modes, to_text"):
        TurnBasedAECEnv(rules, NimFlatEncoder(rules), rules)  # the rules are not a view


# -- rewards and encoder factory ---------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        ([], []),
        ([5], [0.0]),
        ([1, 2], [-1.0, 1.0]),
        ([3, 3], [0.0, 0.0]),
        ([10, 30, 20], [-1.0, 1.0, 0.0]),
        ([2, 9, 4, 7], [-1.0, 1.0, -1 / 3, 1 / 3]),
        ([3, 9, 9, 1], [-1 / 3, 2 / 3, 2 / 3, -1.0]),
        ([1, 0, 0, 0], [1.0, -1 / 3, -1 / 3, -1 / 3]),
        ([4, 4, 4, 4], [0.0, 0.0, 0.0, 0.0]),
    ],
)
def test_rank_rewards(scores: list[float], expected: list[float]) -> None:
    assert rank_rewards(scores) == pytest.approx(expected)


def test_all_modes_are_zero_sum_and_respect_order() -> None:
    rng = np.random.default_rng(0)
    for _ in range(200):
        n = int(rng.integers(1, 6))
        scores = rng.integers(0, 4, size=n).tolist()
        for mode in ("rank", "win", "score"):
            rewards = reward_for_mode(mode, scores)
            assert sum(rewards) == pytest.approx(0.0, abs=1e-12)
            for i in range(n):
                for j in range(n):
                    if scores[i] > scores[j]:
                        assert rewards[i] >= rewards[j]
                    if scores[i] == scores[j]:
                        assert rewards[i] == pytest.approx(rewards[j])


def test_win_mode_values() -> None:
    assert reward_for_mode("win", [1, 5, 2]) == pytest.approx([-0.5, 1.0, -0.5])
    assert reward_for_mode("win", [5, 5, 2, 0]) == pytest.approx([1.0, 1.0, -1.0, -1.0])
    assert reward_for_mode("win", [3, 3]) == [0.0, 0.0]
    with pytest.raises(ValueError, match="unknown reward mode 'best'; allowed: rank, win, score"):
        reward_for_mode("best", [1, 2])


def test_make_encoder() -> None:
    rules = NimRules(3)
    encoder = make_encoder(ENCODERS, "flat", rules)
    assert isinstance(encoder, NimFlatEncoder) and encoder.rules is rules
    assert make_encoder(ENCODERS, encoder, rules) is encoder
    with pytest.raises(ValueError, match="unknown observation encoder 'planes'; allowed: 'flat'"):
        make_encoder(ENCODERS, "planes", rules)
    with pytest.raises(TypeError, match="got int"):
        make_encoder(ENCODERS, 3, rules)
