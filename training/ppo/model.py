"""The MaskablePPO model a run trains, built from its config: :func:`new_model` (the network,
the PPO settings, the residual prior, the model's seed) and :func:`set_unsaved_settings` (what a
checkpoint does not keep, given again on ``--resume``). ``primeval train``
(:mod:`primeval.training.ppo.train`), the profile and the bench check all build theirs here,
so that they measure what training runs."""

from __future__ import annotations

from typing import Any

from primeval.envs.games import make_raw_env
from primeval.training.files import quiet_sb3_logger
from primeval.training.seeding import RunSeeds

__all__ = ["LinearToZero", "env_structure", "new_model", "set_unsaved_settings"]


def env_structure(config: Any) -> dict[str, Any]:
    """What the config's encoder says of its observations and actions (``structure()``: the
    entity rows, the adjacency, which entity each action names), for ``network.policy:
    structured``.

    Raises:
        ConfigError: The encoder has no ``structure()``.
    """
    from primeval.training.ppo.config import ConfigError

    env = make_raw_env(config.game, config.players, obs_encoder=config.encoder, **config.env)
    describe = getattr(env.obs_encoder, "structure", None)
    if describe is None:
        raise ConfigError(f"network.policy=structured needs an encoder that describes its "
                          f"structure (a structure() method, as Origin's 'graph' has); "
                          f"{config.game}'s encoder {config.encoder!r} does not")
    return describe()


def new_model(config: Any, vec: Any, *, prior: bool = True,
              tensorboard_log: str | None = None) -> Any:
    """A fresh ``MaskablePPO`` for ``config`` over ``vec``, as ``train`` builds it: the
    config's network and PPO settings, the residual prior's policy when the config has one
    (and ``prior``), the model seed of the run's ``model`` stream. The profile and the bench
    check build theirs here too, so that they measure what training runs."""
    import torch
    from sb3_contrib import MaskablePPO

    from primeval.training.ppo.masking import POLICIES

    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[config.network.activation]
    ppo = config.ppo
    if config.network.policy == "structured":
        from primeval.training.ppo.structured import StructuredActorCriticPolicy

        policy = StructuredActorCriticPolicy
    else:
        policy = POLICIES[config.network.policy]
    policy_kwargs: dict[str, Any] = {"net_arch": list(config.network.net_arch),
                                     "activation_fn": activation}
    if config.network.policy == "structured":
        policy_kwargs.update(structure=env_structure(config), hidden=config.network.hidden,
                             rounds=config.network.rounds,
                             head_hidden=config.network.head_hidden)
    if prior and config.prior.agent != "none":
        from primeval.training.ppo.prior import PriorActorCriticPolicy

        policy = PriorActorCriticPolicy
        policy_kwargs.update(prior_weight=config.prior.weight,
                             prior_trainable=config.prior.trainable,
                             prior_size=int(vec.action_space.n),
                             prior_agent=config.prior.agent, prior_game=config.game)
    model = MaskablePPO(
        policy, vec, learning_rate=ppo.learning_rate,
        n_steps=ppo.n_steps, batch_size=ppo.batch_size, n_epochs=ppo.n_epochs, gamma=ppo.gamma,
        gae_lambda=ppo.gae_lambda, clip_range=ppo.clip_range, ent_coef=ppo.ent_coef,
        vf_coef=ppo.vf_coef, max_grad_norm=ppo.max_grad_norm,
        policy_kwargs=policy_kwargs, tensorboard_log=tensorboard_log,
        seed=RunSeeds(config.seed).spawn("model"), device="cpu", verbose=0,
    )
    if tensorboard_log is None:  # no folder in the temp dir for a model that logs nowhere
        model.set_logger(quiet_sb3_logger())
    set_unsaved_settings(model, config)
    return model


class LinearToZero:
    """``ppo.lr_schedule: linear``: the step size at SB3's ``progress_remaining`` (1 at the
    run's first step, 0 at ``total_steps``; never below 0, for a last rollout past it)."""

    def __init__(self, start: float) -> None:
        self.start = start

    def __call__(self, progress_remaining: float) -> float:
        return self.start * max(0.0, progress_remaining)


def set_unsaved_settings(model: Any, config: Any) -> None:
    """Give ``model`` the config's settings a checkpoint does not keep, on a fresh model and
    on a resumed one alike:

    * ``ppo.lr_schedule`` (a checkpoint keeps its step size, not its schedule). SB3 asks the
      schedule at every update, with the progress of ``learn``'s total, which ``train``
      makes the config's ``total_steps`` also on ``--resume``.
    * ``ppo.update_dtype``: the policy's :attr:`~.masking.MaskedActorCriticPolicy.
      update_dtype` (``None``, float32, is every policy's own default).
    * ``collect: rollout``: the model's class becomes
      :class:`~primeval.training.ppo.collect.RolloutPartsPPO` (MaskablePPO collecting its
      rollouts in parts; it adds no state, so a checkpoint loads as MaskablePPO).
    """
    import torch
    from sb3_contrib import MaskablePPO

    if getattr(config, "collect", "step") == "rollout":
        from primeval.training.ppo.collect import RolloutPartsPPO

        if type(model) is MaskablePPO:
            model.__class__ = RolloutPartsPPO

    if config.ppo.lr_schedule == "linear":
        model.lr_schedule = LinearToZero(config.ppo.learning_rate)
    if config.ppo.update_dtype == "bfloat16":
        model.policy.update_dtype = torch.bfloat16
