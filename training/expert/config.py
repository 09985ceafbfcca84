"""Expert iteration's configuration (``algo: expert``): a YAML file validated into frozen
dataclasses by the shared loader (:mod:`primeval.training.config`), every field documented
by the string under it (``primeval train --algo expert --help-config`` prints them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from primeval.training import config as loader
from primeval.training.config import ConfigError
from primeval.training.config import positive as _positive

__all__ = ["ALGO", "ExpertConfig", "load_expert_config"]

#: The ``algo`` of an expert-iteration config.
ALGO = "expert"


@dataclass(frozen=True)
class NetworkSection:
    """The policy-value network (:mod:`primeval.training.expert.network`)."""

    hidden: tuple[int, ...] = (256, 256)
    """Widths of the MLP trunk's layers (``policy: structured``: of the globals' MLP)."""
    policy: str = "mlp"
    """``mlp``: an MLP over the flat observation. ``structured``: the structured policy's
    body (message passing over the map's territories, one logit per territory action from
    that territory's embedding; docs/learning.md, "A network that reads the map") with a
    value per seat; it needs an encoder that describes its observation (Origin's
    ``graph``)."""
    entity_hidden: int = 64
    """``structured``: width of a territory's embedding."""
    rounds: int = 3
    """``structured``: rounds of message passing."""
    head_hidden: int = 32
    """``structured``: width of the per-kind MLPs that score territory actions."""

    def __post_init__(self) -> None:
        if self.policy not in ("mlp", "structured"):
            raise ConfigError(f"network.policy={self.policy!r}: must be 'mlp' or 'structured'")
        _positive(self, "entity_hidden", "head_hidden")
        if self.rounds < 0:
            raise ConfigError(f"network.rounds={self.rounds!r}: must be >= 0")

    def structured(self) -> dict[str, int] | None:
        """The network's ``structured`` argument (None for the MLP)."""
        if self.policy != "structured":
            return None
        return {"entity_hidden": int(self.entity_hidden), "rounds": int(self.rounds),
                "head_hidden": int(self.head_hidden)}


@dataclass(frozen=True)
class SearchSection:
    """The network-guided search that plays the self-play games (``mcts:net=``)."""

    sims: int = 48
    """Simulations per decision."""
    c: float = 1.5
    """PUCT exploration constant."""
    batch: int = 8
    """Leaves evaluated per forward pass (virtual loss)."""
    noise_alpha: float = 0.3
    """Dirichlet noise at the root: its concentration."""
    noise_fraction: float = 0.25
    """Dirichlet noise at the root: its share of the priors (0: none)."""
    sample_moves: int = 30
    """Each seat's first decisions of a game are drawn from the visit counts (exploration);
    later ones take the most visited action."""

    def __post_init__(self) -> None:
        _positive(self, "sims", "c", "batch", "noise_alpha")
        if not 0 <= self.noise_fraction <= 1:
            raise ConfigError(f"search.noise_fraction={self.noise_fraction!r}: must be in [0, 1]")
        if self.sample_moves < 0:
            raise ConfigError(f"search.sample_moves={self.sample_moves!r}: must be >= 0")


@dataclass(frozen=True)
class LeagueSection:
    """Who sits in the other seats of a self-play game (weights, drawn per seat and game;
    seat 0 of every game is the current network with search)."""

    current: float = 0.6
    """Weight of the current network with search (its decisions are recorded too)."""
    snapshots: float = 0.2
    """Weight of a past snapshot with search (the current one until a snapshot exists)."""
    heuristic: float = 0.2
    """Weight of the game's rule-based bot."""
    snapshot_every: int = 2
    """Iterations between snapshots of the network."""
    keep: int = 5
    """Snapshots kept in the league (the newest)."""

    def __post_init__(self) -> None:
        weights = (self.current, self.snapshots, self.heuristic)
        if not all(w >= 0 for w in weights) or sum(weights) <= 0:
            raise ConfigError(f"league: weights must be >= 0 and not all 0, got {weights}")
        _positive(self, "snapshot_every", "keep")


@dataclass(frozen=True)
class LearnSection:
    """The learner: cross-entropy of the policy towards the visit counts, mean squared error
    of the value vector towards every seat's final rank reward."""

    learning_rate: float = 1e-3
    """Adam's learning rate."""
    weight_decay: float = 1e-4
    """Adam's weight decay (L2)."""
    batch_size: int = 256
    """Positions per gradient step."""
    steps: int = 200
    """Gradient steps per iteration."""
    buffer: int = 60_000
    """Replay buffer: the newest positions kept."""
    value_weight: float = 1.0
    """Weight of the value loss beside the policy loss."""
    target_temperature: float = 1.0
    """The policy target of a searched decision is the root's visit counts raised to
    ``1 / target_temperature``, normalised: 1 is the visit distribution itself (AlphaZero's
    target); below 1 sharpens it towards the most visited action (few simulations spread
    over many legal actions give flat targets, which flatten a sharp policy)."""

    def __post_init__(self) -> None:
        _positive(self, "learning_rate", "batch_size", "steps", "buffer", "target_temperature")
        if self.weight_decay < 0 or self.value_weight < 0:
            raise ConfigError("learn.weight_decay and learn.value_weight must be >= 0")


@dataclass(frozen=True)
class EvalSection:
    """Evaluations against the heuristic bots (seat-rotated, Wilson 95% intervals)."""

    every: int = 2
    """Iterations between evaluations of the raw policy (0: none during training)."""
    games: int = 40
    """Games of each evaluation during training."""
    final_games: int = 200
    """Games of each row of the final table (raw policy; with search)."""
    sims: int = 48
    """Simulations per decision of the final table's "with search" row."""

    def __post_init__(self) -> None:
        if self.every < 0:
            raise ConfigError(f"eval.every={self.every!r}: must be >= 0")
        _positive(self, "games", "final_games", "sims")


@dataclass(frozen=True)
class TeacherSection:
    """A warm start before the first iteration: the network learns a trained PPO agent's
    play. The teacher plays ``games`` games against the heuristic bots (its seat rotated, its
    most likely action); at every decision with a choice, of every seat, the network's policy
    learns the teacher's policy at that position and its value every seat's final rank
    reward; ``steps`` Adam steps over those positions, then the iterations begin. Off while
    ``checkpoint`` is empty."""

    checkpoint: str = ""
    """The teacher: a MaskablePPO checkpoint (``model.zip``, or a zoo member such as
    ``zoo:soup-4p/ppo``) of the same game and players (any encoder; a residual agent reads
    its prior as it plays)."""
    games: int = 200
    """Games the teacher plays against the heuristic bots (shared among the workers)."""
    steps: int = 4000
    """Adam steps (``learn``'s batch size, learning rate and value weight) on the teacher's
    positions."""
    positions: int = 0
    """Positions kept per game, drawn at random (0: every decision with a choice, about 250
    a game in 4-player Primordial Soup). A game's positions share one result, so a value
    learnt from few games memorises them: fewer positions from more games judge better."""
    holdout: float = 0.1
    """Share of the teacher's games kept out of the learning: the losses on them (and the
    value's R^2) are reported, so a value that memorised its games shows."""

    def __post_init__(self) -> None:
        _positive(self, "games", "steps")
        if self.positions < 0:
            raise ConfigError(f"teacher.positions={self.positions!r}: must be >= 0")
        if not 0 <= self.holdout < 1:
            raise ConfigError(f"teacher.holdout={self.holdout!r}: must be in [0, 1)")


@dataclass(frozen=True)
class ExpertConfig:
    """Expert iteration: the network-guided search plays, the network learns its visits and
    the games' outcomes (:mod:`primeval.training.expert.train`)."""

    algo: str = ALGO
    """The learner: ``expert`` (this config; ``primeval train`` dispatches on it)."""
    game: str = "primordial_soup"
    """The game of the catalogue."""
    players: int = 4
    """Seats."""
    encoder: str = "flat"
    """The network's observation encoder."""
    env: dict[str, Any] = field(default_factory=dict)
    """Rules config overrides passed to the env (fields of the game's config class)."""
    seed: int = 0
    """Seed of everything: the root of the run's ``SeedSequence`` (games by iteration and
    number, league draws, the network's initialisation, evaluations)."""
    iterations: int = 20
    """Iterations: self-play games, then learning, then a checkpoint (0: only the teacher's
    warm start, when ``teacher.checkpoint`` names one)."""
    games_per_iteration: int = 8
    """Self-play games per iteration, shared among the workers."""
    workers: int = 2
    """Worker processes playing the games (spawned; 0: in this process)."""
    torch_threads: int = 1
    """Torch threads of the learner and of each worker."""
    network: NetworkSection = field(default_factory=NetworkSection)
    """The network."""
    search: SearchSection = field(default_factory=SearchSection)
    """The self-play search."""
    league: LeagueSection = field(default_factory=LeagueSection)
    """The other seats."""
    learn: LearnSection = field(default_factory=LearnSection)
    """The learner."""
    eval: EvalSection = field(default_factory=EvalSection)
    """The evaluations."""
    teacher: TeacherSection = field(default_factory=TeacherSection)
    """The warm start from a trained PPO agent's play (off by default)."""
    init: str = ""
    """Start from this policy-value network (a ``network.json`` the package saved, e.g. a
    warm-start run's ``RUN/network.json``) instead of a fresh initialisation; its env and
    ``network.hidden`` must be this config's. Empty: a fresh network."""

    def __post_init__(self) -> None:
        if self.algo != ALGO:
            raise ConfigError(f"algo={self.algo!r}: this config is for {ALGO!r}")
        loader.check_env_fields(self, no_files=True)
        _positive(self, "games_per_iteration", "torch_threads")
        if self.iterations < 0 or (self.iterations == 0 and not self.teacher.checkpoint):
            raise ConfigError(
                f"iterations={self.iterations!r}: must be > 0 (or 0 with a "
                "teacher.checkpoint: the warm start alone)"
            )
        if self.workers < 0:
            raise ConfigError(f"workers={self.workers!r}: must be >= 0")
        if self.network.policy == "structured":  # the encoder must describe its rows
            from primeval.training.ppo.model import env_structure

            env_structure(self)
        if self.init and self.teacher.checkpoint:
            raise ConfigError(
                f"init={self.init!r} and teacher.checkpoint={self.teacher.checkpoint!r}: "
                "a run starts from one of them, not both"
            )


def load_expert_config(path: str | Path | Any | None = None, **overrides: Any) -> ExpertConfig:
    """Read an expert-iteration YAML config (a path, a shipped name such as
    ``primordial_soup/expert``, or ``None`` for the defaults) with dotted overrides."""
    return loader.load(ExpertConfig, path, overrides)


def config_algo(source: str | Path | Any) -> str | None:
    """The ``algo`` a YAML config names (``None``: none, a PPO config)."""
    algo = loader.read(source).get("algo")
    return None if algo is None else str(algo)
