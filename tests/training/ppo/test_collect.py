"""``collect: rollout`` (training/ppo/collect.py): every process plays its games for a whole
rollout with its own copy of the policy; the parts play the very games, record what the
policy chose and valued, and SB3 learns from them as from its own rollouts."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import torch as th  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402

from primeval.training.agents.policy import PolicyAgent  # noqa: E402
from primeval.training.ppo.collect import (  # noqa: E402
    RolloutPartsPPO,
    build_policy,
    policy_spec,
)
from primeval.training.ppo.config import ConfigError, load_config  # noqa: E402
from primeval.training.ppo.masking import MaskedActorCriticPolicy  # noqa: E402
from primeval.training.ppo.train import train  # noqa: E402
from primeval.training.ppo.vec_env import GamesVecEnv  # noqa: E402

from .test_games_vec_env import SeededGame  # noqa: E402


def _policy(vec, seed: int = 0) -> MaskedActorCriticPolicy:
    th.manual_seed(seed)
    policy = MaskedActorCriticPolicy(vec.observation_space, vec.action_space, lambda _: 3e-4,
                                     net_arch=[32])
    policy.set_training_mode(False)
    return policy


@pytest.mark.parametrize("game", ["origin", "primordial_soup"])
def test_the_parts_play_the_games_and_record_the_policys_choices(game):
    """Two processes' parts of a rollout: stepping the same games in one process with the
    rollout's actions gives its observations, masks, rewards, dones and ended games; every
    action is legal; the values and log-probabilities are the policy's own for them."""
    fns = [SeededGame(game, s) for s in (3, 4, 5, 6, 7)]
    n_steps = 150
    vec = GamesVecEnv(fns, workers=2, collect="rollout", collect_seed=5)
    try:
        vec.seed(11)
        first = vec.reset()
        policy = _policy(vec)
        part = vec.collect_rollout(policy, n_steps, start=0)
        # the games go on from the rollout's last row
        assert np.array_equal(vec._obs, part.obs[-1])
    finally:
        vec.close()
    assert np.array_equal(part.obs[0], first)
    assert part.actions.shape == (n_steps, 5) and part.obs.shape[:2] == (n_steps + 1, 5)
    assert part.masks[:-1].reshape(-1, part.masks.shape[-1])[
        np.arange(n_steps * 5), part.actions.reshape(-1)].all()
    ref = GamesVecEnv(fns)
    ref.seed(11)
    assert np.array_equal(ref.reset(), first)
    ended = 0
    for t in range(n_steps):
        obs, rewards, dones, infos = ref.step(part.actions[t])
        assert np.array_equal(obs, part.obs[t + 1]) and np.array_equal(rewards, part.rewards[t])
        assert np.array_equal(dones, part.dones[t])
        assert np.array_equal(ref.action_masks(), part.masks[t + 1])
        assert set(np.flatnonzero(dones)) == set(part.ended[t])
        for i in part.ended[t]:
            ended += 1
            assert np.array_equal(infos[i]["terminal_observation"],
                                  part.ended[t][i]["terminal_observation"])
    ref.close()
    assert ended > 0
    with th.no_grad():
        values, log_prob, _ = policy.evaluate_actions(
            th.as_tensor(part.obs[:-1].reshape(n_steps * 5, -1)),
            th.as_tensor(part.actions.reshape(-1)),
            action_masks=part.masks[:-1].reshape(n_steps * 5, -1))
    np.testing.assert_allclose(values.numpy().reshape(n_steps, 5), part.values, rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(log_prob.numpy().reshape(n_steps, 5), part.log_probs,
                               rtol=1e-5, atol=1e-5)


def test_a_rollouts_actions_are_drawn_from_seeded_generators():
    """The same games, policy and seeds draw the same actions (whatever the global torch
    generator holds, which the parts leave as it was); another collect seed, others."""
    fns = [SeededGame("primordial_soup", s) for s in (3, 4, 5, 6)]
    actions = []
    for collect_seed, noise in ((5, 0), (5, 1), (6, 0)):
        vec = GamesVecEnv(fns, workers=2, collect="rollout", collect_seed=collect_seed)
        try:
            vec.seed(1)
            vec.reset()
            policy = _policy(vec)
            th.manual_seed(noise)
            before = th.random.get_rng_state()
            actions.append(vec.collect_rollout(policy, 40, start=2048).actions)
            assert th.equal(th.random.get_rng_state(), before)
        finally:
            vec.close()
    assert np.array_equal(actions[0], actions[1])
    assert not np.array_equal(actions[0], actions[2])


@pytest.mark.parametrize("config", ["origin/default", "origin/structured",
                                    "primordial_soup/default"])
def test_a_copy_of_each_policy_kind_is_built_and_plays_alike(tmp_path, config):
    """The worker's copy of a policy (its class and constructor parameters, as SB3 saves
    them) with the same weights gives the same outputs: the MLP, the residual prior's policy
    (Origin's default) and the structured network."""
    from primeval.training.ppo.league import League
    from primeval.training.ppo.train import make_vec_env, new_model

    config = load_config(f"configs/{config}.yaml", n_envs=2, vec_env="vector")
    vec = make_vec_env(config, League(config, tmp_path))
    try:
        obs = th.as_tensor(vec.reset())
        masks = vec.action_masks()
        policy = new_model(config, vec).policy
        policy.set_training_mode(False)
        copy = build_policy(policy_spec(policy))
        copy.load_state_dict(policy.state_dict())
        with th.no_grad():
            a = policy(obs, action_masks=masks, deterministic=True)
            b = copy(obs, action_masks=masks, deterministic=True)
        for x, y in zip(a, b, strict=True):
            assert th.equal(x, y)
        assert type(copy) is type(policy) and not copy.training
    finally:
        vec.close()


def test_replay_refuses_other_actions():
    """While a rollout is replayed, the actions given must be its own: others are refused,
    naming the step, and the replay stays where it was."""
    fns = [SeededGame("primordial_soup", s) for s in (3, 4)]
    vec = GamesVecEnv(fns, collect="rollout")
    try:
        vec.reset()
        part = vec.collect_rollout(_policy(vec), 3, start=0)
        vec.replay(part)
        vec.step(part.actions[0])
        with pytest.raises(ValueError, match="step 1's actions are not the rollout's"):
            vec.step(part.actions[1] + 1)
        obs, *_ = vec.step(part.actions[1])
        assert np.array_equal(obs, part.obs[2])
        with pytest.raises(RuntimeError, match="while a rollout is being replayed"):
            vec.collect_rollout(_policy(vec), 3, start=0)
    finally:
        vec.close()


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"collect": "turn"}, "collect='turn': allowed 'step', 'rollout'"),
        ({"collect": "rollout", "vec_env": "batched"}, "collect: rollout needs vec_env"),
        ({"workers": 2, "opponents.self_play": 0.5},
         "workers=2 with self-play opponents needs collect: rollout"),
    ],
)
def test_bad_collect_configs_name_the_field(overrides, message):
    with pytest.raises(ConfigError, match=message):
        load_config("configs/primordial_soup/default.yaml", **{"vec_env": "vector",
                                                                 **overrides})


def test_self_play_is_allowed_with_parts():
    for workers in (1, 2):
        config = load_config("configs/origin/default.yaml", workers=workers,
                             collect="rollout")
        assert config.uses_self_play and config.workers == workers


def test_a_workers_copy_plays_the_self_play_seats_from_the_leagues_members(tmp_path):
    """With self-play opponents, a worker's copy of the policy plays its games' self-play
    seats and its league follows this process's (its snapshots and the counts PFSP draws
    them by, sent with the weights at every rollout): each part of two rollouts, the policy
    and the league changed between them, is what one process plays over the same games with
    a league like this one and the same policy, step by step. (A policy opponent answers all
    the games of its process, its draws in their order, so the reference steps each part's
    games alone.)"""
    from primeval.training.agents.checkpoint import save_model
    from primeval.training.ppo.league import League
    from primeval.training.ppo.train import (
        config_env_spec,
        make_training_env,
        make_vec_env,
        new_model,
    )
    from primeval.training.ppo.vec_env import LeagueStep

    config = load_config("configs/primordial_soup/default.yaml", **{
        "n_envs": 4, "vec_env": "vector", "workers": 2, "collect": "rollout",
        "network.net_arch": [16], "league.current": 0.5, "league.schedule": [],
        "opponents": {"random": 0.0, "heuristic": 0.2, "self_play": 0.8}})
    league = League(config, tmp_path)
    (tmp_path / "snapshots").mkdir()

    def snapshot_and_move_on(model, step: int) -> None:
        path = tmp_path / "snapshots" / f"step_{step}.zip"
        save_model(model, path, config_env_spec(config))
        league.add_snapshot(step, path)
        league.members[f"step_{step}"].games += 9 + step % 5
        league.members[f"step_{step}"].behind += 2.0
        with th.no_grad():
            for param in model.policy.parameters():
                param.add_(0.3 * th.randn_like(param))

    vec = make_vec_env(config, league)  # the workers' leagues: copies of this empty one
    n_steps, starts = 150, (4096, 8192)
    refs, mirrors = [], []
    try:
        model = new_model(config, vec)
        snapshot_and_move_on(model, 0)
        league.set_current(PolicyAgent.from_model(model, deterministic=False, seed=0))
        vec.share_policy(model.policy)
        vec.seed(11)
        first = vec.reset()
        for sl in vec.slices:
            mirror = League(config, tmp_path)
            mirror.follow(league.to_dict())
            mirror.set_current(PolicyAgent.from_model(model, deterministic=False, seed=1))
            fns = [make_training_env(config, i, mirror) for i in range(config.n_envs)][sl]
            refs.append((sl, GamesVecEnv(fns, sync=LeagueStep(mirror))))
            mirrors.append(mirror)
            refs[-1][1].seed(11 + sl.start)
            assert np.array_equal(refs[-1][1].reset(), first[sl])
        assert len(refs) == 2
        seen = set()
        for start in starts:
            if start != starts[0]:
                snapshot_and_move_on(model, start)
                for mirror in mirrors:
                    mirror.follow(league.to_dict())
            part = vec.collect_rollout(model.policy, n_steps, start=start)
            for (sl, ref), mirror in zip(refs, mirrors, strict=True):
                for t in range(n_steps):
                    mirror.step = start + t * config.n_envs
                    obs, rewards, dones, infos = ref.step(part.actions[t, sl])
                    assert np.array_equal(obs, part.obs[t + 1, sl]), (start, sl, t)
                    assert np.array_equal(rewards, part.rewards[t, sl])
                    assert np.array_equal(ref.action_masks(), part.masks[t + 1, sl])
                    for i in np.flatnonzero(dones):
                        names = part.ended[t][sl.start + int(i)]["opponents"]
                        assert names == infos[i]["opponents"]
                        seen.update((sl.start, start, name) for name in names.values())
    finally:
        vec.close()
        for _sl, ref in refs:
            ref.close()
    # the worker's games (from game 2 on) met the policy and its snapshots
    assert {(2, 4096, "current"), (2, 4096, "step_0"), (2, 8192, "current")} <= seen


@pytest.mark.slow
def test_origins_default_trains_with_self_play_in_parts(tmp_path):
    """Origin's default config (the residual prior, self-play opponents and snapshots) runs
    end to end on two processes collecting in parts: the league saves its snapshots, and
    the games that met them, in both processes, are counted."""
    import json

    config = load_config("configs/origin/default.yaml", **{
        "total_steps": 1024, "n_envs": 4, "workers": 2, "collect": "rollout",
        "ppo.n_steps": 64, "ppo.batch_size": 128, "ppo.n_epochs": 1, "network.net_arch": [16],
        "eval.every": 10**9, "eval.games": 1, "eval.final_games": 2, "select.games": 2,
        "league.rating_games": 0, "torch_threads": 1, "self_play.snapshot_every": 256,
        "opponents": {"random": 0.0, "heuristic": 0.2, "self_play": 0.8}})
    train(config, tmp_path, progress=False)
    league = json.loads((tmp_path / "league.json").read_text())
    snapshots = [m for m in league["members"] if m["path"] is not None]
    assert len(snapshots) >= 3 and sum(m["games"] for m in snapshots) > 0
    assert type(PolicyAgent(tmp_path / "model.zip").model) is MaskablePPO


def test_the_vec_env_refuses_an_unknown_collect():
    with pytest.raises(ValueError, match="collect='turn': allowed 'step', 'rollout'"):
        GamesVecEnv([SeededGame("primordial_soup", 1)], collect="turn")


def _tiny(workers: int, **extra):
    return load_config(
        "configs/primordial_soup/default.yaml",
        **{"total_steps": 512, "n_envs": 4, "vec_env": "vector", "workers": workers,
           "collect": "rollout", "ppo.n_steps": 64, "ppo.batch_size": 128, "ppo.n_epochs": 1,
           "network.net_arch": [16], "eval.every": 10**9, "eval.games": 1,
           "eval.final_games": 3, "select.games": 2, "league.rating_games": 0,
           "torch_threads": 1, **extra})


@pytest.mark.slow
def test_a_rollout_collected_run_is_reproducible(tmp_path):
    """Two runs of one config with ``collect: rollout`` on two processes train byte-equal
    weights, not those of ``collect: step`` (another run); its model loads as MaskablePPO's,
    which the run's settings make collect in parts again (as ``--resume`` does)."""
    from primeval.training.ppo.model import set_unsaved_settings

    for name, config in (("run0", _tiny(2)), ("run1", _tiny(2)),
                         ("step", _tiny(2, collect="step"))):
        train(config, tmp_path / name, progress=False)
    params = {name: PolicyAgent(tmp_path / name / "model.zip").model.policy.state_dict()
              for name in ("run0", "run1", "step")}
    for key in params["run0"]:
        assert np.array_equal(params["run0"][key].numpy(), params["run1"][key].numpy()), key
    assert any(not th.equal(params["run0"][k], params["step"][k]) for k in params["run0"])
    loaded = MaskablePPO.load(tmp_path / "run0" / "model.zip", device="cpu")
    assert type(loaded) is MaskablePPO and loaded.num_timesteps == 512
    set_unsaved_settings(loaded, _tiny(2))
    assert type(loaded) is RolloutPartsPPO


def test_one_part_drawing_from_the_global_generator_trains_sb3s_own_weights(tmp_path):
    """With one process drawing its actions from the global torch generator (as SB3's own
    rollouts do), collecting in parts is MaskablePPO's very run, byte for byte: the parts'
    path (their forward passes, the replay through VecMonitor, the rollout buffer, returns
    and advantages) changes nothing but where the work is done."""
    from stable_baselines3.common.vec_env import VecMonitor

    from primeval.training.ppo.league import League
    from primeval.training.ppo.train import make_vec_env, new_model

    weights = []
    for collect in ("step", "rollout"):
        config = load_config("configs/primordial_soup/default.yaml", **{
            "n_envs": 4, "vec_env": "vector", "collect": collect, "ppo.n_steps": 64,
            "ppo.batch_size": 128, "ppo.n_epochs": 2, "network.net_arch": [16],
            "torch_threads": 1, "shaping": 0.05,
            "league.schedule": [{"from_step": 0, "random": 0.5, "heuristic": 0.5,
                                 "self_play": 0.0}]})
        games = make_vec_env(config, League(config, tmp_path / collect))
        games.collect_seed = None
        vec = VecMonitor(games)
        try:
            model = new_model(config, vec)
            assert type(model) is (RolloutPartsPPO if collect == "rollout" else MaskablePPO)
            model.learn(3 * 4 * 64)
            weights.append(model.policy.state_dict())
            assert len(model.ep_info_buffer) > 0  # games ended, and VecMonitor saw them
        finally:
            vec.close()
    for key in weights[0]:
        assert th.equal(weights[0][key], weights[1][key]), key


def test_a_part_moves_the_league_step_as_training_would():
    """Before step ``t`` of a rollout starting at learner step ``start`` the league's step
    is ``start + t * num_envs`` (what the training callback sets step by step), so the parts'
    new games draw their opponents by the schedule's phase there."""
    from primeval.training.ppo.vec_env import LeagueStep

    class Steps:
        step = 0
        seen: list[int] = []

        def __setattr__(self, name, value):
            if name == "step":
                Steps.seen.append(value)
            object.__setattr__(self, name, value)

    league = Steps()
    vec = GamesVecEnv([SeededGame("primordial_soup", s) for s in (1, 2, 3)],
                      sync=LeagueStep(league), collect="rollout")
    try:
        vec.reset()
        Steps.seen.clear()
        vec.collect_rollout(_policy(vec), 4, start=300)
    finally:
        vec.close()
    assert Steps.seen == [300, 303, 306, 309]
