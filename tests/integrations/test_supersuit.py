"""SuperSuit's wrappers over both games: which keep the action mask in step with the game
(docs/integrations.md's table; each row is a test here). Skipped without SuperSuit;
``make test`` installs it (the ``integrations`` extra).

SuperSuit's observation wrappers take only Box observations, so they need
``observation_form="box"``, where the mask is in ``infos[agent]["action_mask"]``, which they
pass through untouched. A wrapper is *mask-safe* when a random game whose actions are drawn
from the mask it shows never makes an illegal move.
"""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest
from pettingzoo.test import api_test

ss = pytest.importorskip("supersuit")

from primeval.envs import origin_v0, primordial_soup_v1  # noqa: E402

GAMES = {"origin": (origin_v0, 2), "primordial_soup": (primordial_soup_v1, 3)}
MAX_STEPS = 120  # agent steps per checked game: enough for every kind of decision to come


def make(game: str, **kwargs):
    module, players = GAMES[game]
    return module.env(num_players=players, max_steps=MAX_STEPS, **kwargs)


def play(env, seed: int = 0) -> str:
    """One random game through ``env``, each action drawn from the mask the wrappers show
    (the observation's, or the info's): ``"legal"`` when it ended by the rules or at
    ``MAX_STEPS``, ``"illegal"`` when an illegal move ended it."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in env.agent_iter():
        obs, _, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        mask = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    raw = env.unwrapped
    legal = raw.rules.is_terminal(raw.game_state) or raw.num_steps >= MAX_STEPS
    return "legal" if legal else "illegal"


def quiet_api_test(env) -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        api_test(env, num_cycles=20)


#: Wrappers that take the Box observation (``observation_form="box"``) and leave the mask in
#: the infos as the game set it: mask-safe. Each checked on one game (both are covered).
BOX_SAFE = {
    "dtype_v0": ("origin", lambda env: ss.dtype_v0(env, np.float64)),
    "flatten_v0": ("primordial_soup", ss.flatten_v0),
    "reshape_v0": ("origin", lambda env: ss.reshape_v0(
        env, (1, *env.observation_space("player_0").shape))),
    "normalize_obs_v0": ("primordial_soup", lambda env: ss.normalize_obs_v0(env, -1.0, 1.0)),
    "frame_stack_v1": ("origin", lambda env: ss.frame_stack_v1(env, 2)),
    "max_observation_v0": ("primordial_soup", lambda env: ss.max_observation_v0(env, 2)),
    # Its indicator is the Box's largest bound, its space's the smallest: alike only when
    # every bound is the same, as in Origin's [0, 1] (normalize_obs_v0 first otherwise).
    "agent_indicator_v0": ("origin", ss.agent_indicator_v0),
    "pad_observations_v0": ("primordial_soup", ss.pad_observations_v0),
    "observation_lambda_v0": ("origin", lambda env: ss.observation_lambda_v0(
        env, lambda obs, space: obs[:100])),
    # With the mask in the infos it stays current: only the observation lags.
    "delay_observations_v0": ("primordial_soup", lambda env: ss.delay_observations_v0(env, 1)),
}
#: Wrappers of rewards or actions, mask-safe in either form (actions pass unchanged).
ANY_FORM_SAFE = {
    "clip_reward_v0": ("origin", lambda env: ss.clip_reward_v0(env, -0.5, 0.5)),
    "reward_lambda_v0": ("primordial_soup", lambda env: ss.reward_lambda_v0(env, lambda r: 2 * r)),
    "action_lambda_v1": ("origin", lambda env: ss.action_lambda_v1(
        env, lambda action, space: action, lambda space: space)),
    "pad_action_space_v0": ("primordial_soup", ss.pad_action_space_v0),
}


@pytest.mark.parametrize("name", list(BOX_SAFE))
def test_box_observation_wrappers_are_mask_safe(name):
    """api_test passes and a masked random game through the wrapper stays legal."""
    game, wrap = BOX_SAFE[name]
    quiet_api_test(wrap(make(game, observation_form="box")))
    assert play(wrap(make(game, observation_form="box")), seed=1) == "legal"


@pytest.mark.parametrize("form", ["dict", "box"])
@pytest.mark.parametrize("name", list(ANY_FORM_SAFE))
def test_reward_and_action_wrappers_are_mask_safe(name, form):
    game, wrap = ANY_FORM_SAFE[name]
    quiet_api_test(wrap(make(game, observation_form=form)))
    assert play(wrap(make(game, observation_form=form)), seed=2) == "legal"


def test_agent_indicator_after_normalize_obs_fits_its_space():
    """Primordial Soup's bounds differ piece by piece; after normalize_obs_v0 they are all
    1, and agent_indicator_v0's observations lie in its space (api_test checks it)."""
    env = make("primordial_soup", observation_form="box")
    quiet_api_test(ss.agent_indicator_v0(ss.normalize_obs_v0(env)))


@pytest.mark.parametrize("name", ["dtype_v0", "flatten_v0", "normalize_obs_v0",
                                  "frame_stack_v1", "agent_indicator_v0",
                                  "pad_observations_v0"])
def test_observation_wrappers_refuse_the_dict(name):
    """With the default dict observation (the mask inside it) they refuse the space: the
    reason for ``observation_form="box"``."""
    game, wrap = BOX_SAFE[name]
    with pytest.raises((AssertionError, AttributeError)):
        wrap(make(game))


@pytest.mark.parametrize("form", ["dict", "box"])
def test_sticky_actions_are_not_mask_safe(form):
    """sticky_actions_v0 replays an agent's previous action id without looking at the
    mask; in a turn-based game that id is rarely legal again, so the game ends by an illegal
    move (-1 for the agent) in either form."""
    env = ss.sticky_actions_v0(make("origin", observation_form=form), 0.5)
    assert play(env, seed=3) == "illegal"


def test_delay_observations_with_the_dict_is_not_mask_safe():
    """delay_observations_v0 delays the whole dict, mask included: the agent acts on an old
    mask and the game ends by an illegal move (with ``"box"`` the mask, in the infos, stays
    current: see BOX_SAFE)."""
    env = ss.delay_observations_v0(make("primordial_soup"), 1)
    assert play(env, seed=4) == "illegal"


def test_frame_skip_is_not_mask_safe():
    """frame_skip_v0 replays each action over the agent's next turns and keeps infos of its
    own: with ``"box"`` the mask is gone from them; with the dict, random games through it
    end by an illegal move or offer no legal action."""
    env = ss.frame_skip_v0(make("origin", observation_form="box"), 2)
    env.reset(seed=0)
    assert "action_mask" not in env.infos[env.agent_selection]
    outcomes = set()
    for seed in range(3):
        try:
            outcomes.add(play(ss.frame_skip_v0(make("origin"), 2), seed=seed))
        except ValueError:  # the mask shown is all zeros: nothing to draw from
            outcomes.add("no legal action shown")
    assert "legal" not in outcomes


def test_vectorized_aec_envs_keep_each_mask():
    """vectorize_aec_env_v0 (``"box"``): each copy's mask is in ``infos[i]``; masked random
    actions in every copy that is to act stay legal through games and resets."""
    vec = ss.vectorize_aec_env_v0(make("origin", observation_form="box"), 2)
    vec.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(2 * MAX_STEPS):
        _, _, terminations, truncations, _, _, passes, infos = vec.last()
        actions = [0 if passes[i] or terminations[i] or truncations[i]
                   else int(rng.choice(np.flatnonzero(infos[i]["action_mask"])))
                   for i in range(vec.num_envs)]
        for env in vec.envs:  # a finished copy ended by the rules or at MAX_STEPS
            raw = env.unwrapped
            if raw.agents and all(raw.terminations.values()):
                assert raw.rules.is_terminal(raw.game_state) or raw.num_steps >= MAX_STEPS
        vec.step(actions)


def test_docs_example_normalized_and_stacked():
    """docs/integrations.md's example: normalize_obs_v0 then frame_stack_v1 over the box form,
    a masked random game; every move legal, the observation two stacked vectors."""
    env = primordial_soup_v1.env(num_players=3, observation_form="box")
    env = ss.frame_stack_v1(ss.normalize_obs_v0(env, env_min=-1.0, env_max=1.0), 2)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in env.agent_iter(max_iter=200):
        obs, reward, termination, truncation, info = env.last()  # obs: two stacked vectors
        action = None if termination or truncation else int(
            rng.choice(np.flatnonzero(info["action_mask"])))
        env.step(action)
    size = env.unwrapped.obs_encoder.space().shape[0]
    assert obs.shape == env.observation_space("player_0").shape == (2 * size,)
    raw = env.unwrapped  # no illegal move ended the game
    assert raw.rules.is_terminal(raw.game_state) or not any(raw.terminations.values())
