"""MaskedActorCriticPolicy: sb3-contrib's masked policy with its distribution computed once.

Its log-probabilities, entropies, most likely actions and their gradients must be
sb3-contrib's; its samples must follow the same probabilities and never pick a masked action;
its networks must be the default MlpPolicy's, and its checkpoints must load."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import torch  # noqa: E402
from gymnasium import spaces  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.distributions import (  # noqa: E402
    MaskableCategoricalDistribution,
)

from primeval.envs import origin_v0, primordial_soup_v1  # noqa: E402
from primeval.training.agents.checkpoint import env_spec, save_model  # noqa: E402
from primeval.training.agents.policy import PolicyAgent  # noqa: E402
from primeval.training.ppo.masking import (  # noqa: E402
    MaskedActorCriticPolicy,
    MaskedCategoricalDistribution,
)
from primeval.wrappers.single_agent import SingleAgentEnv  # noqa: E402

ACTIONS = 40


def _logits_and_masks(rows: int, seed: int) -> tuple[torch.Tensor, np.ndarray]:
    """Random logits, and masks with every kind of row: one legal action, a few, all of
    them, and (last row) none."""
    g = torch.Generator().manual_seed(seed)
    logits = (torch.randn(rows, ACTIONS, generator=g) * 3).requires_grad_()
    masks = (torch.rand(rows, ACTIONS, generator=g) < 0.2).numpy()
    masks[0] = False
    masks[0, ACTIONS - 1] = True
    masks[1] = True
    masks[-1] = False
    masks[2:-1, 0] = True  # at least one legal action in the others
    return logits, masks


def _both(logits, masks):
    theirs = MaskableCategoricalDistribution(ACTIONS).proba_distribution(logits)
    ours = MaskedCategoricalDistribution(ACTIONS).proba_distribution(logits)
    theirs.apply_masking(masks)
    ours.apply_masking(masks)
    return theirs, ours


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_log_probs_entropy_mode_and_gradients_are_sb3_contribs(seed):
    logits, masks = _logits_and_masks(12, seed)
    theirs, ours = _both(logits, masks)
    g = torch.Generator().manual_seed(seed + 100)
    # a legal action per row (any action in the row with no legal action)
    actions = torch.as_tensor([int(np.flatnonzero(row)[torch.randint(
        int(row.sum()), (1,), generator=g)]) if row.any() else 3 for row in masks])

    # rows with a legal action: sb3-contrib's values (its row without one is degenerate:
    # every logit -1e8 rounds to a log-probability of 0, so its "probabilities" sum to 40)
    some = slice(0, -1)
    assert torch.allclose(ours.log_prob(actions)[some], theirs.log_prob(actions)[some],
                          atol=1e-5)
    assert torch.allclose(ours.entropy()[some], theirs.entropy()[some], atol=1e-5)
    assert torch.equal(ours.mode()[some], theirs.mode()[some])
    probs = ours.distribution.probs
    assert torch.allclose(probs[some], theirs.distribution.probs[some], atol=1e-6)
    assert (probs[some][~torch.as_tensor(masks[some])] == 0).all()
    # the row without a legal action: as if unmasked
    plain = torch.distributions.Categorical(logits=logits[-1])
    assert torch.allclose(probs[-1], plain.probs, atol=1e-6)
    assert ours.entropy()[-1].item() == pytest.approx(plain.entropy().item(), abs=1e-5)

    def grad(d):
        loss = (d.log_prob(actions)[some].sum() - 0.01 * d.entropy()[some].sum())
        return torch.autograd.grad(loss, logits)[0]

    ours_grad, theirs_grad = grad(ours), grad(theirs)
    assert torch.isfinite(ours_grad).all()
    assert torch.allclose(ours_grad, theirs_grad, atol=1e-5)


def test_without_a_mask_it_is_the_plain_categorical():
    logits, _ = _logits_and_masks(6, 5)
    ours = MaskedCategoricalDistribution(ACTIONS).proba_distribution(logits)
    plain = torch.distributions.Categorical(logits=logits)
    actions = torch.arange(6)
    assert torch.allclose(ours.log_prob(actions), plain.log_prob(actions), atol=1e-6)
    assert torch.allclose(ours.entropy(), plain.entropy(), atol=1e-5)
    ours.apply_masking(np.eye(6, ACTIONS, dtype=bool))
    ours.apply_masking(None)  # clearing the mask restores every action
    assert torch.allclose(ours.log_prob(actions), plain.log_prob(actions), atol=1e-6)


def test_samples_follow_the_probabilities_and_skip_masked_actions():
    logits = torch.tensor([[0.0, 2.0, -1.0, 1.0, 0.5, 3.0]] * 4000)
    mask = np.array([True, True, False, True, False, True])
    dist = MaskedCategoricalDistribution(6).proba_distribution(logits)
    dist.apply_masking(np.tile(mask, (4000, 1)))
    torch.manual_seed(0)
    draws = torch.cat([dist.sample() for _ in range(10)]).numpy()
    counts = np.bincount(draws, minlength=6) / draws.size
    expected = np.exp(np.where(mask, logits[0].numpy(), -np.inf))
    expected /= expected.sum()
    assert counts[~mask].sum() == 0
    # 40,000 draws: a standard error below 0.0025 per action
    assert np.abs(counts - expected).max() < 0.01


def test_samples_are_reproducible_from_torchs_seed():
    logits, masks = _logits_and_masks(8, 3)
    dist = MaskedCategoricalDistribution(ACTIONS).proba_distribution(logits.detach())
    dist.apply_masking(masks)
    runs = []
    for _ in range(2):
        torch.manual_seed(42)
        runs.append(torch.stack([dist.sample() for _ in range(20)]))
    assert torch.equal(runs[0], runs[1])
    legal = torch.as_tensor(masks[:-1])
    assert legal.gather(1, runs[0][:, :-1].T).all()  # never a masked action


def _models(env):
    kwargs = {"seed": 3, "device": "cpu", "n_steps": 32, "batch_size": 32, "n_epochs": 1}
    return (MaskablePPO(MaskedActorCriticPolicy, env, **kwargs),
            MaskablePPO("MlpPolicy", env, **kwargs))


@pytest.mark.parametrize("game", ["primordial_soup", "origin"])
def test_policy_has_mlp_policys_network_and_values(game):
    module = {"primordial_soup": primordial_soup_v1, "origin": origin_v0}[game]
    env = SingleAgentEnv(module.raw_env(num_players=3))
    ours, theirs = _models(env)
    assert isinstance(ours.policy.action_dist, MaskedCategoricalDistribution)
    ours_state, theirs_state = ours.policy.state_dict(), theirs.policy.state_dict()
    assert list(ours_state) == list(theirs_state)  # the same layers, same seed: same weights
    assert all(torch.equal(ours_state[k], theirs_state[k]) for k in ours_state)

    obs, _ = env.reset(seed=0)
    observations, masks = [], []
    rng = np.random.default_rng(0)
    for _ in range(16):
        mask = env.action_masks()
        observations.append(obs)
        masks.append(mask)
        obs, _, done, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if done or truncated:
            obs, _ = env.reset()
    obs_t = torch.as_tensor(np.array(observations))
    masks_np = np.array(masks)
    actions = torch.as_tensor([int(np.flatnonzero(m)[-1]) for m in masks_np])
    # masks as the env gives them (bool arrays) and as the rollout buffer does (float tensors)
    for masks_in in (masks_np, torch.as_tensor(masks_np, dtype=torch.float32)):
        with torch.no_grad():
            ours_eval = ours.policy.evaluate_actions(obs_t, actions, action_masks=masks_in)
            theirs_eval = theirs.policy.evaluate_actions(obs_t, actions, action_masks=masks_in)
        for a, b in zip(ours_eval, theirs_eval, strict=True):
            assert torch.allclose(a, b, atol=1e-5)
    for obs_row, mask in zip(observations, masks, strict=True):
        assert (ours.predict(obs_row, action_masks=mask, deterministic=True)[0]
                == theirs.predict(obs_row, action_masks=mask, deterministic=True)[0])


def test_policy_learns_saves_and_loads(tmp_path):
    env = SingleAgentEnv(primordial_soup_v1.raw_env(num_players=3))
    model, _ = _models(env)
    model.learn(64)
    path = tmp_path / "model.zip"
    save_model(model, path, env_spec("primordial_soup", 3))  # SB3's zip and primeval.json
    loaded = MaskablePPO.load(path, device="cpu")  # which SB3 itself still loads
    assert type(loaded.policy) is MaskedActorCriticPolicy
    assert all(torch.equal(a, b) for a, b in zip(model.policy.state_dict().values(),
                                                 loaded.policy.state_dict().values(),
                                                 strict=True))
    game = primordial_soup_v1.env(num_players=3)
    game.reset(seed=1)
    observation = game.last()[0]
    for deterministic in (True, False):
        action = PolicyAgent(path, deterministic=deterministic, seed=0).act(
            observation["observation"], observation["action_mask"])
        assert observation["action_mask"][action]


def test_policies_are_named_as_the_config_names_them():
    from primeval.training.ppo.config import POLICY_NAMES
    from primeval.training.ppo.masking import POLICIES

    assert tuple(POLICIES) == POLICY_NAMES
    assert POLICIES["primeval"] is MaskedActorCriticPolicy and POLICIES["sb3"] == "MlpPolicy"


def test_policy_refuses_an_action_space_that_is_not_discrete():
    with pytest.raises(TypeError, match="Discrete action space"):
        MaskedActorCriticPolicy(spaces.Box(0, 1, (3,)), spaces.MultiDiscrete([2, 3]),
                                lambda _: 3e-4)


def test_a_bfloat16_update_runs_the_layers_in_bfloat16_and_returns_float32():
    """``update_dtype = torch.bfloat16`` (ppo.update_dtype): evaluate_actions' products run in
    bfloat16 (its outputs differ from float32's by bfloat16's rounding, no more), its values,
    log-probabilities and entropies come out in float32, and the gradients reach every
    float32 weight."""
    obs_space = spaces.Box(0.0, 1.0, (50,), np.float32)
    policy = MaskedActorCriticPolicy(obs_space, spaces.Discrete(ACTIONS), lambda _: 3e-4,
                                     net_arch=[64, 64])
    g = torch.Generator().manual_seed(3)
    obs = torch.rand(32, 50, generator=g)
    masks = (torch.rand(32, ACTIONS, generator=g) < 0.3).numpy()
    masks[:, 0] = True
    actions = torch.tensor([np.flatnonzero(row)[-1] for row in masks])
    reference = policy.evaluate_actions(obs, actions, action_masks=masks)
    policy.update_dtype = torch.bfloat16
    lower = policy.evaluate_actions(obs, actions, action_masks=masks)
    for ref, low in zip(reference, lower, strict=True):
        assert low.dtype == torch.float32
        assert not torch.equal(low, ref)  # it did run in bfloat16
        assert torch.allclose(low, ref, atol=0.05, rtol=0.02)
    values, log_prob, entropy = lower
    (values.pow(2).mean() - log_prob.mean() - entropy.mean()).backward()
    for name, weight in policy.named_parameters():
        assert weight.dtype == torch.float32 and weight.grad is not None, name
        assert weight.grad.dtype == torch.float32 and torch.isfinite(weight.grad).all(), name
        assert weight.grad.abs().sum() > 0, name
