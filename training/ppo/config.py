"""Training configuration: a YAML file validated into frozen dataclasses.

Unknown keys and wrong types are refused with a message naming the key and what is allowed.
Command-line flags override the file; the resolved configuration is saved in the run folder.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import yaml

from primeval.envs.games import GAMES


class ConfigError(ValueError):
    """A training configuration is invalid; the message names the key."""


@dataclass(frozen=True)
class OpponentsConfig:
    """Weights of the opponent kinds drawn for each seat and episode."""

    random: float = 1.0
    heuristic: float = 0.0
    self_play: float = 0.0


def _positive(config: Any, *names: str) -> None:
    """Refuse a value that is not > 0 (NaN included) in any of the named fields."""
    for name in names:
        value = getattr(config, name)
        if not value > 0:
            raise ConfigError(f"{name}={value!r}: must be > 0")


@dataclass(frozen=True)
class SelfPlayConfig:
    snapshot_every: int = 100_000
    keep: int = 5

    def __post_init__(self) -> None:
        _positive(self, "snapshot_every", "keep")


@dataclass(frozen=True)
class EvalConfig:
    every: int = 100_000
    games: int = 40
    final_games: int = 400

    def __post_init__(self) -> None:
        _positive(self, "every", "games", "final_games")


#: The names ``network.policy`` accepts (``primeval.training.ppo.masking.POLICIES`` maps each to
#: its policy class; named here so that checking a config needs no torch)
POLICY_NAMES = ("primeval", "sb3")


@dataclass(frozen=True)
class NetworkConfig:
    """The policy and value networks.

    Attributes:
        net_arch: Hidden layer sizes (the same for the policy and the value network).
        activation: ``tanh`` or ``relu``.
        policy: ``primeval``: :class:`~primeval.training.ppo.masking.MaskedActorCriticPolicy`
            (sb3-contrib's policy with its masked distribution computed once; faster, same
            distribution); ``sb3``: sb3-contrib's ``"MlpPolicy"`` itself.
    """

    net_arch: tuple[int, ...] = (256, 256)
    activation: str = "tanh"
    policy: str = "primeval"


@dataclass(frozen=True)
class PPOConfig:
    learning_rate: float = 3e-4
    n_steps: int = 256
    batch_size: int = 512
    n_epochs: int = 4
    gamma: float = 0.999
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5

    def __post_init__(self) -> None:
        _positive(self, "learning_rate", "n_steps", "batch_size", "n_epochs", "clip_range",
                  "max_grad_norm")
        if not 0 < self.gamma <= 1:
            raise ConfigError(f"gamma={self.gamma!r}: must be in (0, 1]")
        if not 0 <= self.gae_lambda <= 1:
            raise ConfigError(f"gae_lambda={self.gae_lambda!r}: must be in [0, 1]")
        for name in ("ent_coef", "vf_coef"):
            if not getattr(self, name) >= 0:
                raise ConfigError(f"{name}={getattr(self, name)!r}: must be >= 0")


@dataclass(frozen=True)
class TrainConfig:
    """Everything one training run needs.

    Attributes:
        game: ``primordial_soup`` or ``origin``.
        players: Player count.
        encoder: Observation encoder name.
        env: Rules config overrides passed to the env.
        total_steps: Environment steps (learner decisions) to train for.
        n_envs: Parallel environments.
        vec_env: ``dummy`` (one process) or ``subproc``.
        seed: Seed of everything.
        shaping: Coefficient of potential-based reward shaping on the score lead
            (own score minus the opponents' mean); 0 trains on the final rank alone.
        checkpoint_every: Steps between checkpoints, each taken at the next rollout boundary
            (``--resume`` continues from the last).
        torch_threads: Torch threads for the PPO updates; rollouts use one
            (:mod:`primeval.training.ppo.torch_runtime`).
        opponents, self_play, eval, network, ppo: See the sub-configs.
    """

    game: str = "primordial_soup"
    players: int = 4
    encoder: str = "flat"
    env: dict[str, Any] = field(default_factory=dict)
    total_steps: int = 200_000
    n_envs: int = 8
    vec_env: str = "dummy"
    seed: int = 0
    shaping: float = 0.0
    checkpoint_every: int = 50_000
    torch_threads: int = 2
    opponents: OpponentsConfig = OpponentsConfig()
    self_play: SelfPlayConfig = SelfPlayConfig()
    eval: EvalConfig = EvalConfig()
    network: NetworkConfig = NetworkConfig()
    ppo: PPOConfig = PPOConfig()

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise ConfigError(f"game={self.game!r}: allowed {sorted(GAMES)}")
        game = GAMES[self.game]
        if self.players not in game.player_counts:
            raise ConfigError(f"players={self.players!r}: {self.game} allows "
                              f"{game.player_counts}")
        if self.encoder not in game.encoders:
            raise ConfigError(f"encoder={self.encoder!r}: {self.game} allows "
                              f"{game.encoders}")
        if self.vec_env not in ("dummy", "subproc"):
            raise ConfigError(f"vec_env={self.vec_env!r}: allowed 'dummy', 'subproc'")
        _positive(self, "total_steps", "n_envs", "checkpoint_every", "torch_threads")
        if self.seed < 0:
            raise ConfigError(f"seed={self.seed!r}: must be >= 0")
        o = self.opponents
        if min(o.random, o.heuristic, o.self_play) < 0 or o.random + o.heuristic + o.self_play <= 0:
            raise ConfigError("opponents: weights must be >= 0 and not all 0")
        if self.network.activation not in ("tanh", "relu"):
            raise ConfigError(f"network.activation={self.network.activation!r}: "
                              "allowed 'tanh', 'relu'")
        if self.network.policy not in POLICY_NAMES:
            raise ConfigError(f"network.policy={self.network.policy!r}: allowed "
                              + ", ".join(map(repr, POLICY_NAMES)))
        if self.env:  # the env's own checks name a bad field or value
            from primeval.envs.games import make_raw_env

            try:
                make_raw_env(self.game, self.players, obs_encoder=self.encoder, **self.env)
            except (ValueError, TypeError) as exc:
                raise ConfigError(f"env: {exc}") from None

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["network"]["net_arch"] = list(self.network.net_arch)
        return d


def _build(cls, data: Any, where: str):
    """Build a config dataclass from a mapping, checking keys and value types."""
    prefix = f"{where}: " if where else ""
    if not isinstance(data, dict):
        raise ConfigError(f"{prefix}expected a mapping, got {type(data).__name__}")
    known = {f.name: f for f in fields(cls)}
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ConfigError(f"{prefix}unknown key(s) {unknown}; allowed: {sorted(known)}")
    kwargs = {}
    for name, value in data.items():
        key = f"{where}.{name}" if where else name
        default = getattr(cls(), name)
        if dataclasses.is_dataclass(default):
            kwargs[name] = _build(type(default), value, key)
        else:
            kwargs[name] = _coerce(key, value, default)
    try:
        return cls(**kwargs)
    except ConfigError as exc:
        raise ConfigError(f"{prefix}{exc}") from None


def _coerce(key: str, value: Any, default: Any) -> Any:
    """Check a value against the type of its default (ints are accepted for floats)."""
    if isinstance(default, tuple):
        if isinstance(value, list | tuple) and all(
                isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value):
            return tuple(value)
        raise ConfigError(f"{key}: expected a list of positive ints, got {value!r}")
    kind = type(default)
    accepted = (int, float) if kind is float else (kind,)
    if isinstance(value, accepted) and (kind is bool or not isinstance(value, bool)):
        return float(value) if kind is float else value
    raise ConfigError(f"{key}: expected {kind.__name__}, got {value!r} "
                      f"({type(value).__name__})")


def load_config(path: str | Path | None = None, **overrides: Any) -> TrainConfig:
    """Read a YAML config (or the defaults) and apply dotted overrides
    (``{"ppo.learning_rate": 1e-4, "total_steps": 1000}``)."""
    data: dict[str, Any] = {}
    if path is not None:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"cannot read config {path}: {exc}") from None
        try:
            data = yaml.safe_load(text) or {}
        except yaml.YAMLError as exc:
            raise ConfigError(f"{path}: not valid YAML: {exc}") from None
        if not isinstance(data, dict):
            raise ConfigError(f"{path}: expected a mapping at the top level")
    for dotted, value in overrides.items():
        if value is None:
            continue
        node = data
        parts = dotted.split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    try:
        return _build(TrainConfig, data, "")
    except ConfigError as exc:
        raise ConfigError(f"{path or 'config'}: {exc}") from None


def save_config(config: TrainConfig, path: str | Path) -> None:
    Path(path).write_text(yaml.safe_dump(config.to_dict(), sort_keys=False), encoding="utf-8")
