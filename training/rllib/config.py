"""The RLlib backend's configuration: a YAML file validated into frozen dataclasses, as
:mod:`primeval.training.ppo.config` does for the SB3 one, by the same loader
(:mod:`primeval.training.config`: unknown keys refused with a did-you-mean, wrong types
naming the expected one, ``--set`` overrides, shipped configs by name; the resolved config
is saved in the run folder). Checking a config needs neither ray nor torch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from primeval.training import config as loader
from primeval.training.config import ConfigError
from primeval.training.config import positive as _positive

__all__ = ["ConfigError", "RLlibTrainConfig", "load_rllib_config", "save_rllib_config"]

#: The names ``module`` accepts for the shared policy and the snapshot slots.
SHARED_MODULE = "shared"


def snapshot_module(slot: int) -> str:
    """The module id of self-play snapshot slot ``slot`` (``snapshot_0``, ...)."""
    return f"snapshot_{slot}"


@dataclass(frozen=True)
class SelfPlayConfig:
    """Frozen snapshots of the shared policy as extra RLlib policies (modules).

    Every seat of every game plays the shared policy, and every seat's decisions are learnt
    from, unless the policy-mapping function gives that seat a snapshot: each seat
    independently with probability ``weight``, one seat of each game always staying with the
    shared policy. The ``keep`` snapshot slots are modules ``snapshot_0``, ...; until a slot
    is first filled it holds an untrained network (close to uniform legal play), and from then
    on every ``snapshot_every`` iterations the oldest slot takes the shared weights."""

    weight: float = 0.5
    """Chance that a seat plays a snapshot instead of the shared policy (0: pure self-play
    of the shared policy against itself)."""
    keep: int = 3
    """Snapshot slots (extra policies, never trained)."""
    snapshot_every: int = 5
    """Training iterations between snapshots."""

    def __post_init__(self) -> None:
        if not 0 <= self.weight < 1:
            raise ConfigError(f"weight={self.weight!r}: must be in [0, 1)")
        _positive(self, "keep", "snapshot_every")


@dataclass(frozen=True)
class NetworkConfig:
    """The policy and value networks (RLlib's ``DefaultModelConfig``; separate networks)."""

    net_arch: tuple[int, ...] = (256, 256)
    """Hidden layer sizes (``fcnet_hiddens``)."""
    activation: str = "tanh"
    """``tanh`` or ``relu`` (``fcnet_activation``)."""

    def __post_init__(self) -> None:
        if self.activation not in ("tanh", "relu"):
            raise ConfigError(f"activation={self.activation!r}: allowed 'tanh', 'relu'")


@dataclass(frozen=True)
class PPOConfig:
    """RLlib PPO's settings, passed to ``PPOConfig.training()`` under these names
    (``train_batch_size`` as ``train_batch_size_per_learner``)."""

    lr: float = 3e-4
    """Adam's step size."""
    train_batch_size: int = 4096
    """Env steps (decisions of any seat) sampled per training iteration."""
    minibatch_size: int = 512
    """Minibatch size of the updates."""
    num_epochs: int = 4
    """Passes over each iteration's batch."""
    gamma: float = 0.999
    """Discount; near 1 because the only reward (the final rank) comes at the end."""
    lambda_: float = 0.95
    """GAE's bias-variance trade-off."""
    clip_param: float = 0.2
    """PPO's clipping of the probability ratio."""
    entropy_coeff: float = 0.01
    """Weight of the entropy bonus."""
    vf_loss_coeff: float = 0.5
    """Weight of the value loss."""
    grad_clip: float = 0.5
    """Gradient clipping norm."""

    def __post_init__(self) -> None:
        _positive(self, "lr", "train_batch_size", "minibatch_size", "num_epochs",
                  "clip_param", "grad_clip")
        if self.minibatch_size > self.train_batch_size:
            raise ConfigError(f"minibatch_size={self.minibatch_size!r}: must be <= "
                              f"train_batch_size ({self.train_batch_size})")
        if not 0 < self.gamma <= 1:
            raise ConfigError(f"gamma={self.gamma!r}: must be in (0, 1]")
        if not 0 <= self.lambda_ <= 1:
            raise ConfigError(f"lambda_={self.lambda_!r}: must be in [0, 1]")
        for name in ("entropy_coeff", "vf_loss_coeff"):
            if not getattr(self, name) >= 0:
                raise ConfigError(f"{name}={getattr(self, name)!r}: must be >= 0")


@dataclass(frozen=True)
class EvalConfig:
    """Evaluations of the shared policy (seat-rotated, against random players and against
    the heuristic), as ``primeval evaluate`` plays them."""

    every: int = 0
    """Training iterations between evaluations against random players (0: only at the
    end)."""
    games: int = 40
    """Games of each evaluation during training."""
    final_games: int = 200
    """Games per opponent kind in the evaluation after training (0: none)."""

    def __post_init__(self) -> None:
        for name in ("every", "games", "final_games"):
            if getattr(self, name) < 0:
                raise ConfigError(f"{name}={getattr(self, name)!r}: must be >= 0")


@dataclass(frozen=True)
class RLlibTrainConfig:
    """Everything one RLlib training run needs: the YAML file's top level
    (``configs/<game>/rllib.yaml``)."""

    game: str = "primordial_soup"
    """A game of ``primeval.envs.games.GAMES``."""
    players: int = 4
    """Player count (one of the game's ``player_counts``)."""
    encoder: str = "flat"
    """Observation encoder name (one of the game's ``encoders``)."""
    env: dict[str, Any] = field(default_factory=dict)
    """Rules config overrides passed to the env (fields of the game's config class)."""
    iterations: int = 50
    """Training iterations (each samples ``ppo.train_batch_size`` env steps, then updates)."""
    seed: int = 0
    """The root of the run's ``SeedSequence`` (:mod:`primeval.training.seeding`): its
    ``rllib`` stream seeds RLlib (``debugging(seed=...)``: env runners, env resets, torch),
    its ``evaluation`` and ``final_evaluation`` streams the evaluations."""
    num_env_runners: int = 0
    """Ray actors that sample (``env_runners(num_env_runners=...)``); 0: the driver samples
    itself, between updates."""
    num_envs_per_env_runner: int = 1
    """Games each EnvRunner steps side by side (one forward pass for all of them)."""
    num_cpus_per_env_runner: float = 1.0
    """CPUs Ray reserves for each EnvRunner."""
    address: str = ""
    """The Ray cluster to join (``ray.init(address=...)``): empty starts a local Ray on this
    machine; ``auto`` joins the one ``ray start --head`` started here; ``HOST:6379`` another
    machine's head."""
    checkpoint_every: int = 10
    """Iterations between checkpoints (``checkpoint/``, the Algorithm's, overwritten)."""
    torch_threads: int = 2
    """Torch threads of the driver (the learner's updates)."""
    self_play: SelfPlayConfig = SelfPlayConfig()
    """Snapshots of the shared policy as extra policies."""
    eval: EvalConfig = EvalConfig()
    """Evaluations during and after training."""
    network: NetworkConfig = NetworkConfig()
    """The networks."""
    ppo: PPOConfig = PPOConfig()
    """RLlib PPO's settings."""

    def __post_init__(self) -> None:
        loader.check_env_fields(self)
        _positive(self, "iterations", "num_envs_per_env_runner", "checkpoint_every",
                  "torch_threads")
        for name in ("num_env_runners", "num_cpus_per_env_runner"):
            if getattr(self, name) < 0:
                raise ConfigError(f"{name}={getattr(self, name)!r}: must be >= 0")

    @property
    def module_ids(self) -> list[str]:
        """The RLlib policies (modules): the shared one, then the snapshot slots."""
        return [SHARED_MODULE] + [snapshot_module(i) for i in range(self.self_play.keep)]

    def env_config(self) -> dict[str, Any]:
        """The ``env_config`` RLlib hands :func:`primeval.training.rllib.env.make_env`."""
        return {"game": self.game, "players": self.players, "encoder": self.encoder,
                "env": dict(self.env)}

    def to_dict(self) -> dict[str, Any]:
        return loader.to_dict(self)


def load_rllib_config(path: str | Path | None = None, **overrides: Any) -> RLlibTrainConfig:
    """Read a YAML config (a path, a shipped config's name such as ``origin/rllib``, or
    ``None`` for the defaults) and apply dotted overrides (``{"ppo.lr": 1e-4,
    "iterations": 3}``; ``None`` values are skipped)."""
    return loader.load(RLlibTrainConfig, path, overrides)


def save_rllib_config(config: RLlibTrainConfig, path: str | Path) -> None:
    loader.save(config, path)
