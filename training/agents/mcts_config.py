"""The settings of :class:`~primeval.training.agents.mcts.MCTSAgent`: :class:`MCTSConfig` and the
spec that builds it (:func:`parse_mcts_spec`).

The spec, as ``primeval evaluate`` and ``play`` take it: ``mcts`` or
``mcts:KEY=VALUE,...`` with keys ``sims`` (simulations per decision, default 200),
``time`` (seconds per decision; with no ``sims`` it is the only budget), ``rollout``
(``random`` | ``heuristic``), ``depth`` (rollout actions before the static evaluation, or
``end``; default 0: the new leaf is judged as it is, no rollout), ``c`` (exploration,
default 1.0), ``eval`` (``rank`` | ``margin``, default ``margin``), ``prior`` (the
heuristic's bias weight, default 10; 0: plain UCT), ``net`` (a network guiding the search,
below), ``batch`` (with ``net``: leaves per forward pass, default 8), ``model`` (how the
tree plays the other seats: ``maxn``, the default, or ``heuristic``, below), ``temp``
(with ``net``: the priors' temperature, default 1) and ``mix`` (with ``net``: the rollout's
share of a leaf's value, default 0). The defaults are the strongest per second
of the settings measured (docs/benchmarks/history.md, "MCTS"): in both games, rollouts of 10
to 40 actions or to the end, random or heuristic, lost to the static evaluation of the leaf,
and plain UCT lost to every heuristic bot at the budgets a tournament affords.
With a ``sims`` budget and a seed the agent is reproducible: one generator, seeded by
:meth:`MCTSAgent.seed`, draws everything.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace

from primeval.training.agents.specs import number, spec_values, whole

__all__ = ["MCTSConfig", "parse_mcts_spec"]

ROLLOUTS = ("random", "heuristic")
EVALS = ("rank", "margin")
MODELS = ("maxn", "heuristic")


@dataclass(frozen=True)
class MCTSConfig:
    """The search's settings (the spec's keys; see the module docstring).

    Attributes:
        sims: Simulations per decision, or ``None`` for a time budget alone.
        time: Seconds per decision, or ``None`` for a count alone.
        rollout: ``"random"`` or ``"heuristic"``.
        depth: Rollout actions before the static evaluation; ``None``: to the end.
        c: The UCB exploration constant (values are in [-1, 1]).
        eval: The static evaluation of a cut rollout, ``"rank"`` or ``"margin"``.
        prior: Weight of the heuristic bot's choice in the tree (0: none).
        net: A network (its JSON, or the folder holding ``network.json``) or a PPO
            checkpoint (``.zip``) guiding the search: PUCT priors and leaf values
            (see "With a network" in :mod:`~primeval.training.agents.mcts`); ``None``: plain search.
        batch: With ``net``: leaves evaluated per forward pass (virtual loss keeps a batch's
            descents apart); 1 is the plain sequential search.
        model: How the tree plays the other seats: ``"maxn"`` (each seat searched for its
            own value) or ``"heuristic"`` (each plays the game's heuristic bot's choice: the
            search plans the acting seat's moves against that opponent model).
        temp: With ``net``: the priors' temperature (each node's priors taken to the power
            ``1 / temp`` and renormalised): above 1 flattens a peaked policy, so the search
            tries the moves it rates low and its values can overrule it.
        mix: With ``net``: the leaf's value is ``(1 - mix)`` times the network's plus
            ``mix`` times a rollout's from the leaf (``rollout``, ``depth``, ``eval`` as
            without a network; AlphaGo's mixed leaf evaluation); 0: the network's alone.
    """

    sims: int | None = 200
    time: float | None = None
    rollout: str = "random"
    depth: int | None = 0
    c: float = 1.0
    eval: str = "margin"
    prior: float = 10.0
    net: str | None = None
    batch: int = 8
    model: str = "maxn"
    temp: float = 1.0
    mix: float = 0.0

    def __post_init__(self) -> None:
        if self.sims is None and self.time is None:
            raise ValueError("mcts needs a budget: sims=N or time=SECONDS")
        if self.sims is not None and (isinstance(self.sims, bool) or self.sims < 1):
            raise ValueError(f"mcts sims must be a whole number >= 1, got {self.sims!r}")
        if self.time is not None and not self.time > 0:
            raise ValueError(f"mcts time must be > 0 seconds, got {self.time!r}")
        if self.rollout not in ROLLOUTS:
            raise ValueError(f"mcts rollout must be one of {', '.join(ROLLOUTS)}, "
                             f"got {self.rollout!r}")
        if self.depth is not None and self.depth < 0:
            raise ValueError(f"mcts depth must be >= 0 or 'end', got {self.depth!r}")
        if not (self.c >= 0 and math.isfinite(self.c)):
            raise ValueError(f"mcts c must be a finite number >= 0, got {self.c!r}")
        if self.eval not in EVALS:
            raise ValueError(f"mcts eval must be one of {', '.join(EVALS)}, got {self.eval!r}")
        if not (self.prior >= 0 and math.isfinite(self.prior)):
            raise ValueError(f"mcts prior must be a finite number >= 0, got {self.prior!r}")
        if isinstance(self.batch, bool) or not isinstance(self.batch, int) or self.batch < 1:
            raise ValueError(f"mcts batch must be a whole number >= 1, got {self.batch!r}")
        if not (self.temp > 0 and math.isfinite(self.temp)):
            raise ValueError(f"mcts temp must be a finite number > 0, got {self.temp!r}")
        if not 0.0 <= self.mix <= 1.0:
            raise ValueError(f"mcts mix must be a number in [0, 1], got {self.mix!r}")
        if self.model not in MODELS:
            raise ValueError(f"mcts model must be one of {', '.join(MODELS)}, "
                             f"got {self.model!r}")
        if self.net is not None:
            if not isinstance(self.net, str) or not self.net:
                raise ValueError(f"mcts net must be a path, got {self.net!r}")
            default = MCTSConfig()
            keys = ("prior",) if self.mix else ("rollout", "depth", "eval", "prior")
            unused = [f"{key}={getattr(self, key)}" for key in keys
                      if getattr(self, key) != getattr(default, key)]
            if unused:
                raise ValueError(f"mcts net: {', '.join(unused)} not used with a network (its "
                                 "value judges the leaf, with mix=M a rollout's too; its "
                                 "policy is the prior); drop them")

    def spec(self) -> str:
        """The spec that builds this config (the keys that differ from the defaults)."""
        default = MCTSConfig()
        parts = []
        for f in fields(self):
            value = getattr(self, f.name)
            if value != getattr(default, f.name):
                parts.append(f"{f.name}={'end' if f.name == 'depth' and value is None else value}")
        return "mcts" + (":" + ",".join(parts) if parts else "")


_PARSERS = {
    "sims": whole,
    "time": number,
    "rollout": lambda key, text: text,
    "depth": lambda key, text: None if text == "end" else whole(key, text),
    "c": number,
    "eval": lambda key, text: text,
    "prior": number,
    "net": lambda key, text: text,
    "batch": whole,
    "model": lambda key, text: text,
    "temp": number,
    "mix": number,
}


def parse_mcts_spec(spec: str) -> MCTSConfig:
    """The config of ``mcts`` or ``mcts:KEY=VALUE,...`` (strict: every key known and once,
    every value valid).

    ``time`` alone is a time budget (no simulation count); ``sims`` and ``time`` together
    stop at whichever comes first.

    Raises:
        ValueError: Not an mcts spec, an unknown or repeated key, or a bad value; the message
            names it and what is allowed.
    """
    name, sep, rest = spec.partition(":")
    if name != "mcts":
        raise ValueError(f"not an mcts spec: {spec!r}")
    if sep and not rest:
        raise ValueError(f"mcts spec {spec!r}: nothing after ':'; use e.g. mcts:sims=200")
    values = spec_values("mcts", spec, rest, _PARSERS)
    if "time" in values and "sims" not in values:
        values["sims"] = None
    try:
        return replace(MCTSConfig(), **values)
    except ValueError as exc:
        raise ValueError(f"mcts spec {spec!r}: {str(exc).removeprefix('mcts ')}") from None
