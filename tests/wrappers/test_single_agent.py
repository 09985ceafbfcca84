"""The single-agent Gymnasium view (wrappers/single_agent.py)."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from primeval.envs import origin_v0, primordial_soup_v1
from primeval.envs.core.agents import RandomAgent, agent_action
from primeval.envs.games import GAMES
from primeval.wrappers.single_agent import SingleAgentEnv

CASES = [(GAMES[name], n) for name in GAMES for n in sorted(GAMES[name].player_counts, reverse=True)[:2]]


class Recorder:
    """An opponent that records every call and plays the first legal action."""

    name = "recorder"

    def __init__(self) -> None:
        self.calls = []

    def act(self, observation, action_mask, *, state=None, seat=None):
        self.calls.append((seat, state.stack[-1]["player"] if state.stack else None))
        return int(np.flatnonzero(action_mask)[0])


@pytest.mark.parametrize(("game", "players"), CASES)
def test_gymnasium_check_env(game, players):
    """gymnasium.utils.env_checker.check_env passes."""
    check_env(SingleAgentEnv(game.env(num_players=players)), skip_render_check=True)


def test_sb3_check_env():
    """Stable-Baselines3's check_env passes."""
    pytest.importorskip("stable_baselines3")  # the train extra; not in make test-compat
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    sb3_check_env(SingleAgentEnv(primordial_soup_v1.env(num_players=4)), warn=True)


def play(env, seed=0):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps = 0.0, 0
    while True:
        mask = env.action_masks()
        assert mask.any() and env.observation_space.contains(obs)
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += reward
        steps += 1
        if terminated or truncated:
            return total, steps, info


@pytest.mark.parametrize(("game", "players"), CASES)
def test_reward_is_the_learners_final_rank_reward(game, players):
    """The episode return is the learner's rank reward: +1 for a win, -1 for last."""
    env = SingleAgentEnv(game.raw_env(num_players=players))
    for seed in range(3):
        total, steps, info = play(env, seed)
        expected = 1 - 2 * (info["rank"] - 1) / (players - 1)
        assert total == pytest.approx(expected)
        assert steps > 5


def test_seat_is_random_per_episode_and_can_be_fixed():
    """Seats rotate across episodes by default; learner_seat fixes it."""
    env = SingleAgentEnv(primordial_soup_v1.raw_env(num_players=4))
    seats = {env.reset(seed=s)[1]["seat"] for s in range(20)}
    assert seats == {0, 1, 2, 3}
    fixed = SingleAgentEnv(primordial_soup_v1.raw_env(num_players=4), learner_seat=2)
    assert {fixed.reset(seed=s)[1]["seat"] for s in range(5)} == {2}


def test_opponents_act_only_on_their_turns():
    """Opponents are called only for their own seats' decisions, never the learner's."""
    rec = Recorder()
    env = SingleAgentEnv(primordial_soup_v1.raw_env(num_players=4), opponents=rec)
    play(env, seed=1)
    seat = env.game.possible_agents.index(env.learner)
    assert rec.calls and all(s == p and s != seat for s, p in rec.calls)


def test_only_opponents_that_read_observations_get_one():
    """``uses_observation = False`` (random and rule-based agents) spares the encoding: such an
    opponent gets ``None``; any other gets the encoded observation of its own seat."""

    class Observer(Recorder):
        def __init__(self) -> None:
            super().__init__()
            self.seen = []

        def act(self, observation, action_mask, *, state=None, seat=None):
            self.seen.append(observation)
            return super().act(observation, action_mask, state=state, seat=seat)

    class MaskOnly(Observer):
        uses_observation = False

    for opponent in (MaskOnly(), Observer()):
        env = SingleAgentEnv(primordial_soup_v1.raw_env(num_players=3), opponents=opponent)
        play(env, seed=2)
        assert opponent.seen
        if isinstance(opponent, MaskOnly):
            assert all(obs is None for obs in opponent.seen)
        else:
            assert all(env.observation_space.contains(obs) for obs in opponent.seen)


def test_agent_action_gives_the_seat_its_mask_state_and_observation_if_read():
    """``agent_action`` (used by SingleAgentEnv and evaluate's game loop): the acting seat's
    mask, the rules state and the seat number; the observation only to agents that read it."""
    game = origin_v0.raw_env(num_players=3)
    game.reset(seed=4)
    name = game.agent_selection
    calls = []

    class Reader:
        def act(self, observation, action_mask, *, state=None, seat=None):
            calls.append((observation, action_mask, state, seat))
            return int(np.flatnonzero(action_mask)[0])

    class MaskReader(Reader):
        uses_observation = False

    for agent in (Reader(), MaskReader()):
        action = agent_action(agent, game, name)
        observation, mask, state, seat = calls[-1]
        assert action == int(np.flatnonzero(game.action_mask(name))[0])
        assert np.array_equal(mask, game.action_mask(name))
        assert state is game.game_state and seat == game.possible_agents.index(name)
        if isinstance(agent, MaskReader):
            assert observation is None
        else:
            assert np.array_equal(observation, game.observe(name)["observation"])


def test_random_agent_is_the_default_opponent_and_refuses_an_empty_mask():
    """``RandomAgent`` is the wrapper's default opponent, seeded at construction or per
    episode; the same seed gives the same choices; a mask with nothing legal is an error."""
    assert isinstance(SingleAgentEnv(primordial_soup_v1.raw_env()).opponents, RandomAgent)
    mask = np.zeros(20, dtype=np.int8)
    mask[[2, 5, 11, 17]] = 1
    seeded = RandomAgent(7)
    later = RandomAgent()
    later.seed(7)
    assert [later.act(None, mask) for _ in range(10)] == [
        seeded.act(None, mask) for _ in range(10)]
    picks = {RandomAgent(s).act(None, mask) for s in range(40)}
    assert picks == {2, 5, 11, 17}
    with pytest.raises(ValueError, match="RandomAgent.act: the action mask has no legal"):
        RandomAgent(0).act(None, np.zeros(20, dtype=np.int8))


def test_opponent_pool_is_sampled_per_seat():
    """A list of opponents is a pool: each seat draws one per episode."""
    a, b = Recorder(), Recorder()
    env = SingleAgentEnv(primordial_soup_v1.raw_env(num_players=4), opponents=[a, b])
    for s in range(6):
        play(env, seed=s)
    assert a.calls and b.calls


def test_shaping_adds_the_change_of_the_score_lead():
    """With shaping the return is the rank reward plus shaping x (final lead - initial)."""
    env = SingleAgentEnv(primordial_soup_v1.raw_env(num_players=4), opponents=RandomAgent(3),
                         shaping=0.1, learner_seat=0)
    env.reset(seed=4)
    start = env.game.rules.scores(env.game.game_state)
    start_lead = start[0] - sum(start[1:]) / 3
    total, _, info = play(env, seed=4)
    scores = info["scores"]
    lead = scores[0] - sum(scores[1:]) / 3
    rank_reward = 1 - 2 * (info["rank"] - 1) / 3
    assert total == pytest.approx(rank_reward + 0.1 * (lead - start_lead), abs=1e-6)


def test_shaping_on_own_score_leaves_the_others_out():
    """``shaping_others=0``: the shaped part is the change of the learner's own score."""
    env = SingleAgentEnv(primordial_soup_v1.raw_env(num_players=4), opponents=RandomAgent(3),
                         shaping=0.1, learner_seat=0, shaping_others=0.0)
    env.reset(seed=4)
    start = env.game.rules.scores(env.game.game_state)
    total, _, info = play(env, seed=4)
    rank_reward = 1 - 2 * (info["rank"] - 1) / 3
    assert total == pytest.approx(rank_reward + 0.1 * (info["scores"][0] - start[0]), abs=1e-6)
    others_gain = sum(info["scores"][1:]) - sum(start[1:])
    assert others_gain > 0  # so the lead's shaping would have given another return
    with pytest.raises(ValueError, match="shaping_others=nan: must be a finite number"):
        SingleAgentEnv(primordial_soup_v1.raw_env(), shaping=0.1, shaping_others=float("nan"))


def _weighted_lead(env, weights):
    points = env.game.rules.points_by_source(env.game.game_state)
    return sum(w * (points[0][s] - sum(p[s] for p in points[1:]) / 2)
               for s, w in weights.items())


def test_shaping_sources_weigh_the_points_by_source():
    """With ``shaping_sources`` the shaped lead weighs each source of Origin's points (a
    source not named weighs 1): the return is the rank reward plus shaping x the change of
    that weighted lead, and the points by source add up to the scores without the
    tie-break."""
    weights = {source: 1.0 for source in origin_v0.raw_env().unwrapped.rules.point_sources}
    weights["tiles"] = 3.0
    env = SingleAgentEnv(origin_v0.raw_env(num_players=3), opponents=RandomAgent(5),
                         shaping=0.2, learner_seat=0, shaping_sources={"tiles": 3})
    assert env.shaping_sources == weights
    env.reset(seed=2)
    start = _weighted_lead(env, weights)
    total, _, info = play(env, seed=2)
    rank_reward = 1 - (info["rank"] - 1)
    assert total == pytest.approx(rank_reward + 0.2 * (_weighted_lead(env, weights) - start),
                                  abs=1e-6)
    tiles = [p["tiles"] for p in env.game.rules.points_by_source(env.game.game_state)]
    assert tiles[0] != sum(tiles[1:]) / 2  # the weight on tiles changed the return
    state = env.game.game_state
    assert [sum(p.values()) + len(state.hands[i]) / 100 for i, p in
            enumerate(env.game.rules.points_by_source(state))] == pytest.approx(info["scores"])


def test_shaping_prospects_count_the_objectives_in_hand_by_progress():
    """``shaping_prospects=w``: the lead gains ``w`` times the learner's points in prospect
    (Origin's objectives in hand by progress); Primordial Soup has none and refuses it."""
    env = SingleAgentEnv(origin_v0.raw_env(num_players=3), opponents=RandomAgent(5),
                         shaping=0.2, learner_seat=0, shaping_prospects=0.5)
    env.reset(seed=6)
    rules = env.game.rules

    def lead():
        scores = rules.scores(env.game.game_state)
        prospect = rules.points_in_prospect(env.game.game_state)[0]
        return scores[0] - sum(scores[1:]) / 2 + 0.5 * prospect

    start = lead()
    rng, total, prospects = np.random.default_rng(6), 0.0, set()
    while True:
        prospects.add(rules.points_in_prospect(env.game.game_state)[0])
        _, reward, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(env.action_masks()))))
        total += reward
        if terminated or truncated:
            break
    assert len(prospects) > 2  # the prospect moved during the game
    rank_reward = 1 - (info["rank"] - 1)
    assert total == pytest.approx(rank_reward + 0.2 * (lead() - start), abs=1e-6)
    with pytest.raises(ValueError, match="primordial_soup counts no points in prospect"):
        SingleAgentEnv(primordial_soup_v1.raw_env(), shaping=0.1, shaping_prospects=1.0)


@pytest.mark.parametrize(
    ("game", "sources", "words"),
    [
        ("origin", {"tile": 2}, "unknown source 'tile'; origin has objectives"),
        ("origin", {"tiles": "2"}, "shaping_sources.tiles='2': must be a finite number"),
        ("origin", {"tiles": float("nan")}, "must be a finite number"),
        ("origin", [("tiles", 2)], "a mapping of source to weight"),
        ("primordial_soup", {"score": 1}, "primordial_soup has no points by source"),
    ],
)
def test_bad_shaping_sources_are_refused(game, sources, words):
    with pytest.raises(ValueError, match=words):
        SingleAgentEnv(GAMES[game].raw_env(), shaping=0.1, shaping_sources=sources)


def test_step_after_the_end_raises():
    env = SingleAgentEnv(primordial_soup_v1.raw_env(num_players=3))
    play(env)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


@pytest.mark.parametrize("vec", ["dummy", "subproc"])
def test_vector_envs_with_masks(vec):
    """Works in DummyVecEnv and SubprocVecEnv; masks come through env_method."""
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    def make(i):
        return lambda: SingleAgentEnv(origin_v0.raw_env(num_players=3))

    cls = DummyVecEnv if vec == "dummy" else SubprocVecEnv
    venv = cls([make(i) for i in range(2)])
    try:
        venv.seed(0)
        venv.reset()
        for _ in range(30):
            masks = np.stack(venv.env_method("action_masks"))
            actions = [int(np.flatnonzero(m)[0]) for m in masks]
            venv.step(np.array(actions))
    finally:
        venv.close()


@pytest.mark.parametrize(
    ("opponents", "words"),
    [
        ("heuristic", "got the string 'heuristic'; build agents from names"),
        ([], "got an empty list"),
        ([RandomAgent(), "random"], "the list holds 'random', which has no act"),
        (3, "got 3"),
    ],
)
def test_what_is_no_opponent_is_refused_at_once(opponents, words):
    with pytest.raises((TypeError, ValueError), match=words):
        SingleAgentEnv(primordial_soup_v1.raw_env(num_players=3), opponents=opponents)
