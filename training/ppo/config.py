"""The SB3 backend's configuration: a YAML file validated into frozen dataclasses by the
shared loader (:mod:`primeval.training.config`: unknown keys refused with a did-you-mean,
wrong types naming the expected one, ``--set key=value`` overrides, shipped configs by
name); the resolved configuration is saved in the run folder. Every field is documented by
the string under it (``primeval train --help-config`` prints them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from primeval.training import config as loader
from primeval.training.agents.prior import PRIOR_AGENTS
from primeval.training.config import ConfigError
from primeval.training.config import positive as _positive

__all__ = ["ConfigError", "TrainConfig", "load_config", "save_config"]


@dataclass(frozen=True)
class OpponentsConfig:
    """Weights of the opponent kinds drawn for each seat and episode."""

    random: float = 1.0
    """Weight of a uniformly random legal player."""
    heuristic: float = 0.0
    """Weight of the game's rule-based bot (``primeval.training.agents.heuristics``)."""
    self_play: float = 0.0
    """Weight of a past snapshot of the policy being trained (random until one exists)."""



@dataclass(frozen=True)
class SchedulePhase:
    """The opponent weights from one step of training on (``league.schedule``)."""

    from_step: int = 0
    """The env step from which these weights replace the ones before."""
    random: float = 0.0
    """Weight of a uniformly random legal player."""
    heuristic: float = 0.0
    """Weight of the game's rule-based bot."""
    self_play: float = 0.0
    """Weight of the policy itself: the one being trained or a past snapshot."""

    def __post_init__(self) -> None:
        _check_weights(self, None)
        if self.from_step < 0:
            raise ConfigError(f"league.schedule: from_step={self.from_step!r}: must be >= 0")


def _check_weights(weights: Any, where: str | None) -> None:
    values = (weights.random, weights.heuristic, weights.self_play)
    if not all(v >= 0 for v in values) or sum(values) <= 0:
        prefix = f"{where}: " if where else ""
        raise ConfigError(f"{prefix}weights must be >= 0 and not all 0, got random="
                          f"{weights.random}, heuristic={weights.heuristic}, "
                          f"self_play={weights.self_play}")


#: The vector envs ``vec_env`` names.
VEC_ENVS = ("dummy", "batched", "vector", "subproc")

#: The ways ``league.pfsp`` weighs the snapshots (see ``primeval.training.ppo.league``).
PFSP_MODES = ("hard", "even", "uniform")


@dataclass(frozen=True)
class LeagueConfig:
    """How self-play opponents are chosen, and how the league is rated."""

    schedule: tuple[SchedulePhase, ...] = field(default=(), metadata={"item": SchedulePhase})
    """Later phases of the opponent weights, in step order: each replaces ``opponents``
    (the weights at step 0) from its ``from_step`` on. Empty: ``opponents`` throughout."""
    current: float = 0.5
    """Share of the self-play draws that are the policy being trained itself (answered in
    batches across games); the rest are past snapshots (``self_play.keep`` latest)."""
    pfsp: str = "hard"
    """How snapshots are weighed (prioritised fictitious self-play, as in AlphaStar's league):
    ``hard``: ``(1 - p)^power``, ``p`` the chance that the learner finishes ahead of that
    snapshot, so the ones it still loses to come most; ``even``: ``(p (1 - p))^power``, the
    ones it is level with; ``uniform``: all alike."""
    pfsp_power: float = 2.0
    """The exponent of ``pfsp``."""
    rating_games: int = 30
    """Games per evaluation between the current policy and members of the league (its
    snapshots, the heuristic, random players) that update everyone's OpenSkill rating."""
    rated: tuple[str, ...] = field(default=(), metadata={"strings": True})
    """More agents to rate in those games, by ``primeval evaluate``'s specs (``mcts``
    agents: ``"mcts:sims=25"``): reference points on the rating scale, never training
    opponents."""

    def __post_init__(self) -> None:
        steps = [phase.from_step for phase in self.schedule]
        if steps != sorted(steps):
            raise ConfigError(f"schedule: from_step must increase, got {steps}")
        if not 0 <= self.current <= 1:
            raise ConfigError(f"current={self.current!r}: must be in [0, 1]")
        if self.pfsp not in PFSP_MODES:
            raise ConfigError(f"pfsp={self.pfsp!r}: allowed {', '.join(PFSP_MODES)}")
        if not self.pfsp_power >= 0:
            raise ConfigError(f"pfsp_power={self.pfsp_power!r}: must be >= 0")
        if self.rating_games < 0:
            raise ConfigError(f"rating_games={self.rating_games!r}: must be >= 0")
        for spec in self.rated:
            if not isinstance(spec, str) or not (spec == "mcts" or spec.startswith("mcts:")):
                raise ConfigError(f"rated: {spec!r} is not an mcts agent spec (such as "
                                  "'mcts:sims=25'); random and the heuristic are rated anyway")
            from primeval.training.agents.mcts import parse_mcts_spec

            try:
                parse_mcts_spec(spec)
            except ValueError as exc:
                raise ConfigError(f"rated: {exc}") from None
        if len(set(self.rated)) != len(self.rated):
            raise ConfigError(f"rated: {list(self.rated)} names an agent twice")


@dataclass(frozen=True)
class PretrainConfig:
    """Imitation of the heuristic before PPO (``primeval.training.ppo.imitation``)."""

    games: int = 0
    """Games of heuristic bots whose decisions the policy imitates first (0: none)."""
    epochs: int = 4
    """Passes over those decisions."""
    batch_size: int = 512
    """Minibatch size."""
    learning_rate: float = 1e-3
    """Adam's step size for the imitation."""

    def __post_init__(self) -> None:
        if self.games < 0:
            raise ConfigError(f"games={self.games!r}: must be >= 0")
        _positive(self, "epochs", "batch_size", "learning_rate")



@dataclass(frozen=True)
class PriorConfig:
    """Residual PPO over a prior (``primeval.training.ppo.prior``): the policy's logits add
    ``weight`` to the prior agent's choice, so training starts from the prior's play."""

    agent: str = "none"
    """``none`` (the policy learns alone) or ``heuristic`` (the game's rule-based bot, asked
    at every decision the trained agent takes, also when it is evaluated)."""
    weight: float = 3.0
    """The logit bonus of the prior's choice (at the start, if ``trainable``)."""
    trainable: bool = False
    """Learn the bonus too (one parameter, trained by PPO with the networks)."""

    def __post_init__(self) -> None:
        if self.agent not in PRIOR_AGENTS:
            raise ConfigError(f"agent={self.agent!r}: allowed "
                              + ", ".join(map(repr, PRIOR_AGENTS)))
        _positive(self, "weight")


@dataclass(frozen=True)
class SelfPlayConfig:
    """The snapshots of the policy that self-play opponents are drawn from."""

    snapshot_every: int = 100_000
    """Env steps between snapshots (``runs/NAME/snapshots/step_<N>.zip``)."""
    keep: int = 5
    """How many of the latest snapshots opponents are drawn from."""

    def __post_init__(self) -> None:
        _positive(self, "snapshot_every", "keep")


@dataclass(frozen=True)
class EvalConfig:
    """The evaluations during and after training (seat-rotated, against random players and
    against the heuristic; ``metrics.csv`` and ``learning_curve.png`` in the run folder)."""

    every: int = 100_000
    """Env steps between evaluations during training."""
    games: int = 40
    """Games per opponent kind in each evaluation during training."""
    final_games: int = 400
    """Games per opponent kind in the evaluation after training."""

    def __post_init__(self) -> None:
        _positive(self, "every", "games", "final_games")


@dataclass(frozen=True)
class SelectConfig:
    """Which of the run's policies becomes ``model.zip``
    (:mod:`~primeval.training.ppo.select`): the final one, or an earlier snapshot that won
    more often against the heuristic bots in games at the run's selection seeds."""

    snapshots: int = 0
    """How many of the newest snapshots taken before the end (at the evaluations) to
    compare with the final policy; 0: ``model.zip`` is the final policy."""
    games: int = 400
    """Seat-rotated games against the heuristic bots per candidate (the same games for
    each, other than the final evaluation's)."""
    average: int = 0
    """Also offer the mean of the weights of the last ``average`` policies (the final one
    and the ``average - 1`` newest snapshots before it: stochastic weight averaging over
    the run's snapshots) as one more candidate, written to ``average.zip``; 0: none."""

    def __post_init__(self) -> None:
        if not isinstance(self.snapshots, int) or isinstance(self.snapshots, bool) \
                or self.snapshots < 0:
            raise ConfigError(f"select.snapshots={self.snapshots!r}: must be an int >= 0")
        if not isinstance(self.average, int) or isinstance(self.average, bool) \
                or self.average < 0 or self.average == 1:
            raise ConfigError(f"select.average={self.average!r}: must be 0 (none) or an int "
                              ">= 2 (the policies averaged, the final one included)")
        _positive(self, "games")


#: The names ``network.policy`` accepts (``primeval.training.ppo.masking.POLICIES`` maps each to
#: its policy class; named here so that checking a config needs no torch)
POLICY_NAMES = ("primeval", "sb3")
#: What ``network.policy`` accepts: those, and ``structured``
#: (:class:`~primeval.training.ppo.structured.StructuredActorCriticPolicy`, which
#: ``model.new_model`` builds from the encoder's structure; not one of ``bench --ppo-policy``)
NETWORK_POLICIES = (*POLICY_NAMES, "structured")


@dataclass(frozen=True)
class NetworkConfig:
    """The policy and value networks."""

    net_arch: tuple[int, ...] = (256, 256)
    """Hidden layer sizes (the same for the policy and the value network); with ``policy:
    structured``, of the MLP over the global features."""
    activation: str = "tanh"
    """``tanh`` or ``relu``."""
    policy: str = "primeval"
    """``primeval``: :class:`~primeval.training.ppo.masking.MaskedActorCriticPolicy`
    (sb3-contrib's policy with its masked distribution computed once: the same distribution,
    faster); ``sb3``: sb3-contrib's ``"MlpPolicy"`` itself; ``structured``:
    :class:`~primeval.training.ppo.structured.StructuredActorCriticPolicy` (message passing
    over the map, one logit per place from its embedding; needs an encoder with a
    ``structure()``, such as Origin's ``graph``)."""
    hidden: int = 64
    """``structured`` only: width of a territory's embedding."""
    rounds: int = 3
    """``structured`` only: rounds of message passing over the adjacency."""
    head_hidden: int = 32
    """``structured`` only: width of the per-kind MLPs that score the actions naming a place."""

    def __post_init__(self) -> None:
        _positive(self, "hidden", "head_hidden")
        if not isinstance(self.rounds, int) or isinstance(self.rounds, bool) or self.rounds < 0:
            raise ConfigError(f"rounds={self.rounds!r}: must be an int >= 0")


#: ``ppo.lr_schedule``'s values.
LR_SCHEDULES = ("constant", "linear")

#: ``ppo.update_dtype``'s values.
UPDATE_DTYPES = ("float32", "bfloat16")


@dataclass(frozen=True)
class PPOConfig:
    """MaskablePPO's settings (passed to ``sb3_contrib.MaskablePPO`` under these names)."""

    learning_rate: float = 3e-4
    """Adam's step size."""
    n_steps: int = 256
    """Env steps per env in each rollout (a rollout is ``n_steps * n_envs`` steps)."""
    batch_size: int = 512
    """Minibatch size of the updates."""
    n_epochs: int = 4
    """Passes over each rollout."""
    gamma: float = 0.999
    """Discount; near 1 because the only reward (the final rank) comes at the end."""
    gae_lambda: float = 0.95
    """GAE's bias-variance trade-off."""
    clip_range: float = 0.2
    """PPO's clipping of the probability ratio."""
    ent_coef: float = 0.01
    """Weight of the entropy bonus."""
    vf_coef: float = 0.5
    """Weight of the value loss."""
    max_grad_norm: float = 0.5
    """Gradient clipping norm."""
    lr_schedule: str = "constant"
    """``constant``: ``learning_rate`` throughout; ``linear``: from ``learning_rate`` at step 0
    down to 0 at ``total_steps`` (SB3's progress, as the RL Baselines3 Zoo's ``lin_``
    schedules; a resumed run follows its config's ``total_steps``)."""
    update_dtype: str = "float32"
    """The precision of the update's passes through the network: ``float32``, or
    ``bfloat16`` (its layers' products under torch's CPU autocast, the weights, optimiser and
    log-probabilities in float32; about 1.7x faster a minibatch of the 256x256 MLP on a CPU
    with AVX-512 BF16). The rollout's forward passes stay float32 (a batch of 8 is slower in
    bfloat16). docs/benchmarks/history.md, "the update in bfloat16"."""

    def __post_init__(self) -> None:
        _positive(self, "learning_rate", "n_steps", "batch_size", "n_epochs", "clip_range",
                  "max_grad_norm")
        if self.lr_schedule not in LR_SCHEDULES:
            raise ConfigError(f"lr_schedule={self.lr_schedule!r}: must be one of "
                              f"{', '.join(LR_SCHEDULES)}")
        if self.update_dtype not in UPDATE_DTYPES:
            raise ConfigError(f"update_dtype={self.update_dtype!r}: must be one of "
                              f"{', '.join(UPDATE_DTYPES)}")
        if not 0 < self.gamma <= 1:
            raise ConfigError(f"gamma={self.gamma!r}: must be in (0, 1]")
        if not 0 <= self.gae_lambda <= 1:
            raise ConfigError(f"gae_lambda={self.gae_lambda!r}: must be in [0, 1]")
        for name in ("ent_coef", "vf_coef"):
            if not getattr(self, name) >= 0:
                raise ConfigError(f"{name}={getattr(self, name)!r}: must be >= 0")


@dataclass(frozen=True)
class TrainConfig:
    """Everything one training run needs: the YAML file's top level (``configs/``)."""

    game: str = "primordial_soup"
    """A game of ``primeval.envs.games.GAMES``."""
    players: int = 4
    """Player count (one of the game's ``player_counts``)."""
    encoder: str = "flat"
    """Observation encoder name (one of the game's ``encoders``)."""
    env: dict[str, Any] = field(default_factory=dict)
    """Rules config overrides passed to the env (fields of the game's config class)."""
    total_steps: int = 200_000
    """Environment steps (learner decisions) to train for."""
    n_envs: int = 8
    """Parallel environments."""
    vec_env: str = "dummy"
    """``dummy`` (one process), ``batched`` (one process; policy opponents answer every
    game waiting on them in one forward pass), ``vector`` (the games stepped together as
    arrays, opponents batched, in ``workers`` processes: ``primeval.wrappers.vector``) or
    ``subproc`` (SB3's ``SubprocVecEnv``, one process per env; no self-play; the workers
    follow ``league.schedule`` as ``vector``'s do)."""
    workers: int = 1
    """Processes that step the games with ``vec_env: vector`` (this one and ``workers - 1``
    worker processes, each stepping ``n_envs / workers`` games); more than 1 with
    self-play opponents needs ``collect: rollout`` (see docs/learning.md, "Training throughput")."""
    collect: str = "step"
    """How ``vec_env: vector`` collects a rollout: ``step`` (every step's actions from this
    process, the parts of the games stepped together: any ``workers`` trains the same
    weights) or ``rollout`` (each process plays its games for a whole rollout with its own
    copy of the policy, so no part waits on another's step: faster with ``workers`` > 1,
    and another ``workers`` is another run; with self-play, each worker's copy plays its
    self-play seats and its league follows this process's at every rollout;
    :mod:`primeval.training.ppo.collect`)."""
    seed: int = 0
    """Seed of everything: the root of the run's ``SeedSequence``, whose named streams seed
    the envs, the model (torch), the opponents, evaluations and rating games
    (:mod:`primeval.training.seeding`)."""
    shaping: float = 0.0
    """Coefficient of potential-based reward shaping on the score lead (own score minus the
    opponents' mean); 0 trains on the final rank alone."""
    shaping_sources: dict[str, float] = field(default_factory=dict)
    """Weights of the sources of points in the shaped lead, for a game whose rules give
    points by source (Origin's ``tiles``, ``objectives``, ...; a source not named weighs 1);
    empty: the lead of the scores themselves (``SingleAgentEnv``'s ``shaping_sources``)."""
    shaping_others: float = 1.0
    """Weight of the opponents' mean score in the shaped lead: 1 the lead, 0 the learner's
    own score alone (``SingleAgentEnv``'s ``shaping_others``)."""
    shaping_prospects: float = 0.0
    """Weight of the learner's points in prospect in the shaped lead (Origin: the
    objectives in hand, each by how much of its condition holds; ``SingleAgentEnv``'s
    ``shaping_prospects``); 0 counts only points scored."""
    checkpoint_every: int = 50_000
    """Steps between checkpoints, each taken at the next rollout boundary (``--resume``
    continues from the last)."""
    torch_threads: int = 2
    """Torch threads for the PPO updates; rollouts use one
    (:mod:`primeval.training.ppo.torch_runtime`)."""
    opponents: OpponentsConfig = OpponentsConfig()
    """Who plays the other seats."""
    self_play: SelfPlayConfig = SelfPlayConfig()
    """Snapshots for self-play opponents."""
    league: LeagueConfig = LeagueConfig()
    """The opponent schedule, prioritised self-play and the league's ratings."""
    pretrain: PretrainConfig = PretrainConfig()
    """Imitation of the heuristic before PPO."""
    prior: PriorConfig = PriorConfig()
    """A prior agent whose choice the policy's logits start from (residual PPO)."""
    eval: EvalConfig = EvalConfig()
    """Evaluations during and after training."""
    select: SelectConfig = SelectConfig()
    """Which of the run's policies is shipped as ``model.zip``."""
    network: NetworkConfig = NetworkConfig()
    """The networks."""
    ppo: PPOConfig = PPOConfig()
    """MaskablePPO's settings."""

    def __post_init__(self) -> None:
        loader.check_env_fields(self)
        if self.vec_env not in VEC_ENVS:
            raise ConfigError(f"vec_env={self.vec_env!r}: allowed "
                              + ", ".join(map(repr, VEC_ENVS)))
        _positive(self, "total_steps", "n_envs", "checkpoint_every", "torch_threads",
                  "workers")
        if self.workers > 1 and self.vec_env != "vector":
            raise ConfigError(f"workers={self.workers} needs vec_env: vector (got "
                              f"{self.vec_env!r})")
        if self.collect not in ("step", "rollout"):
            raise ConfigError(f"collect={self.collect!r}: allowed 'step', 'rollout'")
        if self.collect == "rollout" and self.vec_env != "vector":
            raise ConfigError(f"collect: rollout needs vec_env: vector (got "
                              f"{self.vec_env!r})")
        if self.workers > self.n_envs:
            raise ConfigError(f"workers={self.workers}: at most n_envs ({self.n_envs}), "
                              "each worker steps at least one game")
        if self.workers > 1 and self.uses_self_play and self.collect != "rollout":
            raise ConfigError(f"workers={self.workers} with self-play opponents needs "
                              "collect: rollout (each worker then plays its copy of the "
                              "policy, its league following this process's at every "
                              "rollout); or set workers: 1, or self_play: 0 in opponents and "
                              "in every league.schedule phase")
        _check_weights(self.opponents, "opponents")
        self._check_shaping_weights()
        if self.uses_self_play and self.vec_env == "subproc":
            raise ConfigError("vec_env='subproc' with self-play opponents: they share the "
                              "policy in memory; use 'batched' (or 'dummy')")
        if self.ppo.update_dtype != "float32" and self.network.policy == "sb3":
            raise ConfigError(f"ppo.update_dtype={self.ppo.update_dtype!r} needs one of the "
                              "package's policies (network.policy: primeval or structured), "
                              "not sb3-contrib's MlpPolicy")
        if self.network.activation not in ("tanh", "relu"):
            raise ConfigError(f"network.activation={self.network.activation!r}: "
                              "allowed 'tanh', 'relu'")
        if self.network.policy not in NETWORK_POLICIES:
            raise ConfigError(f"network.policy={self.network.policy!r}: allowed "
                              + ", ".join(map(repr, NETWORK_POLICIES)))
        if self.prior.agent != "none" and self.pretrain.games:
            raise ConfigError("prior.agent with pretrain.games: a prior policy already starts "
                              "from the prior's play; set pretrain.games: 0")
        if self.prior.agent != "none" and self.network.policy != "primeval":
            raise ConfigError("prior.agent needs network.policy: primeval (the prior is a "
                              "bias on that policy's logits)")

    def _check_shaping_weights(self) -> None:
        """``shaping_sources``, ``shaping_others`` and ``shaping_prospects``, as the training
        envs will check them (``check_shaping``), against the game's rules."""
        from primeval.envs.games import make_raw_env
        from primeval.wrappers.single_agent import check_shaping

        named = [k for k in ("shaping_sources", "shaping_prospects") if getattr(self, k)]
        if named and not self.shaping > 0:
            raise ConfigError(f"{' and '.join(named)} with shaping={self.shaping!r}: they act "
                              "only on a shaped reward; set shaping > 0")
        rules = (make_raw_env(self.game, self.players, obs_encoder=self.encoder,
                              **self.env).unwrapped.rules if named else None)
        try:
            check_shaping(rules, self.shaping_sources or None, self.shaping_others,
                          self.shaping_prospects)
        except ValueError as exc:
            raise ConfigError(str(exc)) from None

    def to_dict(self) -> dict[str, Any]:
        return loader.to_dict(self)

    @property
    def uses_self_play(self) -> bool:
        """Whether self-play opponents are drawn at any step (``opponents`` or a phase)."""
        return self.opponents.self_play > 0 or any(
            phase.self_play > 0 for phase in self.league.schedule)

    def opponent_weights(self, step: int) -> dict[str, float]:
        """The opponent weights in force at env step ``step`` (``opponents``, then the
        schedule's phases)."""
        weights = self.opponents
        for phase in self.league.schedule:
            if phase.from_step <= step:
                weights = phase
        return {"random": weights.random, "heuristic": weights.heuristic,
                "self_play": weights.self_play}


def load_config(path: str | Path | None = None, **overrides: Any) -> TrainConfig:
    """Read a YAML config (a path, a shipped config's name such as ``origin/default``, or
    ``None`` for the defaults) and apply dotted overrides (``{"ppo.learning_rate": 1e-4,
    "total_steps": 1000}``; ``None`` values are skipped)."""
    return loader.load(TrainConfig, path, overrides)


def save_config(config: TrainConfig, path: str | Path) -> None:
    loader.save(config, path)
