"""Residual PPO over the heuristic (training/ppo/prior.py): the hint in the observation, the
policy that starts from the prior's play, agents that ask the prior themselves, the config."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402

from primeval.envs.games import make_raw_env  # noqa: E402
from primeval.training.agents import make_heuristic  # noqa: E402
from primeval.training.agents.checkpoint import env_spec, save_model  # noqa: E402
from primeval.training.agents.policy import PolicyAgent  # noqa: E402
from primeval.training.evaluate import play_tournament  # noqa: E402
from primeval.training.ppo.config import ConfigError, load_config  # noqa: E402
from primeval.training.ppo.prior import (  # noqa: E402
    PriorActorCriticPolicy,
    PriorHintEnv,
    make_prior_agent,
)
from primeval.training.ppo.train import train  # noqa: E402

GAMES = [("primordial_soup", 4), ("origin", 3)]


def hinted_env(game: str, players: int, seed: int = 0) -> PriorHintEnv:
    env = PriorHintEnv(make_raw_env(game, players), prior=make_prior_agent("heuristic", game),
                       opponents=make_heuristic(game, seed=1))
    env.reset(seed=seed)
    return env


def model_for(env: PriorHintEnv, game: str, weight: float = 3.0) -> MaskablePPO:
    return MaskablePPO(PriorActorCriticPolicy, env, n_steps=64, batch_size=64, seed=0,
                       device="cpu",
                       policy_kwargs={"net_arch": [16], "prior_weight": weight,
                                      "prior_size": int(env.action_space.n),
                                      "prior_agent": "heuristic", "prior_game": game})


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_the_observation_ends_with_the_heuristics_choice_for_the_learner(game, players):
    env = hinted_env(game, players)
    n = int(env.action_space.n)
    base = int(env.base_observation_space.shape[0])
    assert env.observation_space.shape == (base + n,)
    judge = make_prior_agent("heuristic", game)
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=3)
    for _ in range(60):
        hint = obs[base:]
        assert hint.sum() == 1.0 and obs.dtype == np.float32
        mask = env.action_masks()
        choice = int(np.argmax(hint))
        assert mask[choice]
        seat = env.game.possible_agents.index(env.learner)
        # the heuristic's answer is a function of the state (its fallback aside)
        assert choice == judge.act(None, mask, state=env.game.game_state, seat=seat)
        assert np.array_equal(obs[:base], env.game.obs_encoder.encode(env.game.game_state, seat))
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            assert not obs[base:].any()  # nobody to advise once the game is over
            obs, _ = env.reset()


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_fresh_prior_policy_plays_the_heuristics_move(game, players):
    """With the prior's bonus and a freshly initialised network (logits near 0), the most
    likely action is the heuristic's at every decision, and it is sampled most of the time."""
    env = hinted_env(game, players)
    model = model_for(env, game)
    base = int(env.base_observation_space.shape[0])
    obs, _ = env.reset(seed=5)
    decisions = 0
    for _ in range(80):
        mask = env.action_masks()
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert int(action) == int(np.argmax(obs[base:]))
        obs, _, terminated, truncated, _ = env.step(int(action))
        decisions += 1
        if terminated or truncated:
            obs, _ = env.reset()
    assert decisions == 80
    # the bonus is the logit gap: log p(prior) - log p(other legal) == weight (+ the net's own)
    import torch

    tensor = torch.as_tensor(obs[None])
    dist = model.policy.get_distribution(tensor, action_masks=env.action_masks()[None])
    logp = dist.distribution.logits[0].detach().numpy()
    legal = np.flatnonzero(env.action_masks())
    if legal.size > 1:
        prior = int(np.argmax(obs[base:]))
        other = next(int(a) for a in legal if a != prior)
        assert logp[prior] - logp[other] == pytest.approx(3.0, abs=0.2)


def test_a_saved_prior_model_plays_as_an_agent_that_asks_the_heuristic(tmp_path):
    game, players = "origin", 3
    env = hinted_env(game, players)
    path = tmp_path / "prior.zip"
    save_model(model_for(env, game), path, env_spec(game, players))
    agent = PolicyAgent(path)
    assert agent.prior is not None and agent.prior_size == env.action_space.n
    raw = make_raw_env(game, players)
    agent.check_spaces(raw.observation_space(raw.possible_agents[0])["observation"],
                       raw.action_space(raw.possible_agents[0]))
    raw.reset(seed=2)
    name = raw.agent_selection
    obs = raw.observe(name)["observation"]
    mask = raw.action_mask(name)
    with pytest.raises(ValueError, match="prior 'heuristic'.*state= and seat="):
        agent.act(obs, mask)
    seat = raw.possible_agents.index(name)
    heuristic = make_heuristic(game)
    assert agent.act(obs, mask, state=raw.game_state, seat=seat) == heuristic.act(
        None, mask, state=raw.game_state, seat=seat)
    batch = agent.act_batch(obs[None], np.asarray(mask, dtype=bool)[None],
                            states=[raw.game_state], seats=[seat])
    assert batch.tolist() == [agent.act(obs, mask, state=raw.game_state, seat=seat)]
    # an untrained prior policy is the heuristic: a tournament plays the very same games
    results = play_tournament(game, players, [agent, make_heuristic(game, 1),
                                              make_heuristic(game, 2)],
                              ["prior", "h1", "h2"], games=6, seed=0)
    same = play_tournament(game, players, [make_heuristic(game, 0), make_heuristic(game, 1),
                                           make_heuristic(game, 2)],
                           ["h0", "h1", "h2"], games=6, seed=0)
    assert [r.scores for r in results] == [r.scores for r in same]


def test_prior_config_errors_name_the_key():
    with pytest.raises(ConfigError, match="agent='mcts'"):
        load_config(None, **{"prior.agent": "mcts"})
    with pytest.raises(ConfigError, match="weight"):
        load_config(None, **{"prior.agent": "heuristic", "prior.weight": 0})
    with pytest.raises(ConfigError, match="pretrain.games: 0"):
        load_config(None, **{"prior.agent": "heuristic", "pretrain.games": 10})
    with pytest.raises(ConfigError, match="network.policy: primeval"):
        load_config(None, **{"prior.agent": "heuristic", "network.policy": "sb3"})
    assert load_config(None).prior.agent == "none"


@pytest.mark.slow
def test_a_tiny_prior_run_with_self_play_end_to_end(tmp_path):
    """Training with the prior, self-play opponents that are prior policies themselves
    (batched, from snapshots on disk), evaluation and the final table."""
    run = tmp_path / "run"
    config = load_config(
        "configs/origin/default.yaml",
        **{"total_steps": 1024, "n_envs": 2, "vec_env": "batched", "ppo.n_steps": 256,
           "ppo.batch_size": 256, "ppo.n_epochs": 1, "checkpoint_every": 512,
           "eval.every": 512, "eval.games": 2, "eval.final_games": 3,
           "select.games": 2, "network.net_arch": [16], "torch_threads": 1,
           "self_play.snapshot_every": 256,
           "opponents.random": 0.0, "opponents.heuristic": 0.5, "opponents.self_play": 0.5,
           "league.rating_games": 2, "prior.agent": "heuristic"})
    final = train(config, run, progress=False)
    assert {"win_rate_vs_heuristic", "win_rate_heuristic_vs_random"} <= set(final)
    agent = PolicyAgent(run / "model.zip")
    assert isinstance(agent.model.policy, PriorActorCriticPolicy)
    assert agent.prior is not None
    assert 0 < abs(agent.model.policy.prior_weight - 5.0) < 0.5  # the default's 5, learnt
    assert load_config(run / "config.yaml").prior.agent == "heuristic"
    assert any((run / "snapshots").glob("*.zip"))
