"""A policy that reads the map: territory rows, message passing, one score per place.

A flat MLP over Origin's observation must learn every territory's worth separately from its
action index (``docs/learning.md``: imitation reaches 0.86-0.97 on the choices of a pawn or a
card but 0.40-0.60 on *where on the map*). :class:`StructuredActorCriticPolicy` shares its
weights across places instead:

1. the global features (decision context, turn, players, hand) go through an MLP
   (``net_arch``) to ``g``;
2. each entity's row (a territory's features) and ``g`` give its embedding
   ``h_t = act(W_in x_t + U g)``, then ``rounds`` rounds of message passing over the
   adjacency (plain torch, mean over the neighbours, residual):
   ``h <- h + act(W_self h + W_nb (A_norm @ h))``;
3. the context ``c = act(W_c [g, mean_t h_t, max_t h_t])``;
4. an action that names an entity (its ``kind``: evolve at, migrate from, migrate to, ...)
   takes its logit from a small MLP per kind over that entity's embedding and the context:
   ``w_k . act(A_k h_t + B_k c) + b_k`` (an action that names two entities, such as a strait
   by its two ends, averages their ``A_k h``); every other action from a linear head over
   ``c``; masked as every policy of the package is (:mod:`~primeval.training.ppo.masking`);
5. the value from ``act(W_v [g, mean h, max h])``.

What the network knows of the game is one JSON-able ``structure`` (where the entity rows, the
adjacency and the globals lie in the observation; the kind and entities of each action id),
which the game's encoder exposes (``encoder.structure()``, e.g. Origin's ``"graph"``:
:func:`primeval.envs.origin.structure.graph_structure`) and the policy saves with its weights,
so a checkpoint loads without the game's help and without unpickling
(:mod:`~primeval.training.agents.checkpoint`).

Used by ``network.policy: structured`` (``configs/origin/structured.yaml``).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import torch as th
from gymnasium import spaces
from torch import nn

from primeval.training.ppo.masking import MaskedActorCriticPolicy, MaskedCategoricalDistribution

#: Keys of a structure (see :func:`check_structure`).
STRUCTURE_KEYS = (
    "entities",
    "entity_features",
    "globals",
    "nodes",
    "adjacency",
    "global_features",
    "kinds",
    "action_kind",
    "action_entities",
)


def _span(structure: dict[str, Any], key: str, size: int) -> tuple[int, int]:
    value = structure[key]
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ValueError(f"structure[{key!r}] must be [start, stop], got {str(value)[:60]}")
    start, stop = value
    if not 0 <= start <= stop <= size:
        raise ValueError(
            f"structure[{key!r}] = [{start}, {stop}] is not within the observation (size {size})"
        )
    return start, stop


def check_structure(structure: Any, obs_size: int, num_actions: int) -> dict[str, Any]:
    """``structure`` checked against an observation of ``obs_size`` values and ``num_actions``
    actions; returns it.

    A structure (what ``encoder.structure()`` returns) holds ``entities`` (``T``),
    ``entity_features`` (``F``), ``globals`` (``G``); ``nodes``, ``adjacency``,
    ``global_features``: ``[start, stop)`` of the ``T x F`` rows, the ``T x T`` adjacency and
    the ``G`` globals in the observation; ``kinds``: names of the kinds of entity actions;
    ``action_kind``: per action id, its kind's index or ``-1``; ``action_entities``: per action
    id, ``[a, b]`` (the entities it names; ``[-1, -1]`` for none).

    Raises:
        ValueError: A key missing or malformed, or sizes that do not fit (named).
    """
    if not isinstance(structure, dict):
        raise ValueError(f"structure must be a dict, got {type(structure).__name__}")
    missing = [k for k in STRUCTURE_KEYS if k not in structure]
    if missing:
        raise ValueError(f"structure lacks {', '.join(missing)}")
    sizes = {}
    for key in ("entities", "entity_features", "globals"):
        value = structure[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"structure[{key!r}] must be a positive int, got {value!r}")
        sizes[key] = value
    t, f, g = sizes["entities"], sizes["entity_features"], sizes["globals"]
    for key, length in (("nodes", t * f), ("adjacency", t * t), ("global_features", g)):
        start, stop = _span(structure, key, obs_size)
        if stop - start != length:
            raise ValueError(f"structure[{key!r}] spans {stop - start} values, expected {length}")
    kinds = structure["kinds"]
    if (
        not isinstance(kinds, (list, tuple))
        or not kinds
        or not all(isinstance(k, str) for k in kinds)
    ):
        raise ValueError("structure['kinds'] must be a non-empty list of names")
    kind, ents = structure["action_kind"], structure["action_entities"]
    for key, value in (("action_kind", kind), ("action_entities", ents)):
        if not isinstance(value, (list, tuple)) or len(value) != num_actions:
            raise ValueError(
                f"structure[{key!r}] must have one entry per action "
                f"({num_actions}), got "
                f"{len(value) if isinstance(value, (list, tuple)) else value!r}"
            )
    for action, (k, pair) in enumerate(zip(kind, ents, strict=True)):
        if not isinstance(k, int) or not -1 <= k < len(kinds):
            raise ValueError(f"structure['action_kind'][{action}] = {k!r}: not -1 or a kind")
        if (
            not isinstance(pair, (list, tuple))
            or len(pair) != 2
            or not all(isinstance(e, int) and not isinstance(e, bool) for e in pair)
        ):
            raise ValueError(f"structure['action_entities'][{action}] must be [a, b]")
        low = -1 if k == -1 else 0
        high = -1 if k == -1 else t - 1
        if not all(low <= e <= high for e in pair):
            raise ValueError(
                f"structure['action_entities'][{action}] = {list(pair)}: "
                + (
                    "an action of no kind names no entity ([-1, -1])"
                    if k == -1
                    else f"entities are 0..{t - 1}"
                )
            )
    return structure


class StructuredNetwork(nn.Module):
    """The actor's logits and the critic's latent from a structured observation (the module
    SB3 calls the ``mlp_extractor``; its actor output is the logits themselves).

    Args:
        structure: See :func:`check_structure`.
        obs_size, num_actions: The observation's length and the number of actions.
        global_arch: Hidden sizes of the globals' MLP.
        hidden: Width of an entity's embedding.
        rounds: Rounds of message passing.
        head_hidden: Width of the per-kind MLPs that score entity actions.
        activation_fn: The activation class.
    """

    def __init__(
        self,
        structure: dict[str, Any],
        obs_size: int,
        num_actions: int,
        global_arch: list[int],
        hidden: int,
        rounds: int,
        head_hidden: int,
        activation_fn: type[nn.Module],
    ) -> None:
        super().__init__()
        s = check_structure(structure, obs_size, num_actions)
        self.t, self.f, self.g = s["entities"], s["entity_features"], s["globals"]
        self.nodes = slice(*s["nodes"])
        self.adjacency = slice(*s["adjacency"])
        self.globals = slice(*s["global_features"])
        self.act = activation_fn()
        layers: list[nn.Module] = []
        last = self.g
        for width in global_arch:
            layers += [nn.Linear(last, width), activation_fn()]
            last = width
        self.global_net = nn.Sequential(*layers)
        gdim = last
        self.node_in = nn.Linear(self.f, hidden)
        self.global_in = nn.Linear(gdim, hidden, bias=False)
        self.self_w = nn.ModuleList(nn.Linear(hidden, hidden) for _ in range(rounds))
        self.neighbour_w = nn.ModuleList(
            nn.Linear(hidden, hidden, bias=False) for _ in range(rounds)
        )
        pooled = gdim + 2 * hidden
        context = 2 * hidden
        self.context = nn.Linear(pooled, context)
        self.value_context = nn.Linear(pooled, context)
        # entity actions: one small MLP per kind, its first layer split into entity and context
        k = len(s["kinds"])
        self.kinds, self.head_hidden = k, head_hidden
        self.kind_entity = nn.Linear(hidden, k * head_hidden)
        self.kind_context = nn.Linear(context, k * head_hidden, bias=False)
        self.kind_out = nn.Parameter(th.zeros(k, head_hidden))
        self.kind_bias = nn.Parameter(th.zeros(k))
        kind = np.asarray(s["action_kind"], dtype=np.int64)
        ents = np.asarray(s["action_entities"], dtype=np.int64).reshape(-1, 2)
        entity_actions = np.flatnonzero(kind >= 0)
        other_actions = np.flatnonzero(kind < 0)
        self.global_head = nn.Linear(context, max(1, len(other_actions)))
        self.num_other = len(other_actions)
        order = np.concatenate([other_actions, entity_actions])
        self.register_buffer("inverse", th.as_tensor(np.argsort(order)), persistent=False)
        kinds_of = kind[entity_actions]
        self.register_buffer("action_kinds", th.as_tensor(kinds_of), persistent=False)
        self.register_buffer(
            "first", th.as_tensor(ents[entity_actions, 0] * k + kinds_of), persistent=False
        )
        self.register_buffer(
            "second", th.as_tensor(ents[entity_actions, 1] * k + kinds_of), persistent=False
        )
        self.latent_dim_pi = num_actions
        self.latent_dim_vf = context

    def init_heads(self) -> None:
        """Small output weights, so that a fresh policy is near uniform over legal actions
        (as SB3 initialises its ``action_net`` with gain 0.01)."""
        nn.init.orthogonal_(self.global_head.weight, gain=0.01)
        nn.init.zeros_(self.global_head.bias)
        nn.init.normal_(self.kind_out, std=0.01 / np.sqrt(self.head_hidden))
        nn.init.zeros_(self.kind_bias)

    def _trunk(self, obs: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        """The entity embeddings ``(B, T, hidden)`` and the pooled ``[g, mean, max]``."""
        b = obs.shape[0]
        x = obs[:, self.nodes].reshape(b, self.t, self.f)
        adjacency = obs[:, self.adjacency].reshape(b, self.t, self.t)
        adjacency = adjacency / adjacency.sum(-1, keepdim=True).clamp(min=1.0)
        g = self.global_net(obs[:, self.globals])
        h = self.act(self.node_in(x) + self.global_in(g).unsqueeze(1))
        for self_w, neighbour_w in zip(self.self_w, self.neighbour_w, strict=True):
            h = h + self.act(self_w(h) + neighbour_w(adjacency @ h))
        pooled = th.cat([g, h.mean(1), h.amax(1)], dim=-1)
        return h, pooled

    def _logits(self, h: th.Tensor, pooled: th.Tensor) -> th.Tensor:
        b = h.shape[0]
        c = self.act(self.context(pooled))
        by_entity = self.kind_entity(h).reshape(b, self.t * self.kinds, self.head_hidden)
        by_context = self.kind_context(c).reshape(b, self.kinds, self.head_hidden)
        z = 0.5 * (
            by_entity.index_select(1, self.first) + by_entity.index_select(1, self.second)
        ) + by_context.index_select(1, self.action_kinds)
        entity_logits = (self.act(z) * self.kind_out[self.action_kinds]).sum(-1) + self.kind_bias[
            self.action_kinds
        ]
        other_logits = self.global_head(c)[:, : self.num_other]
        return th.cat([other_logits, entity_logits], dim=1).index_select(1, self.inverse)

    def forward(self, features: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        h, pooled = self._trunk(features)
        return self._logits(h, pooled), self.act(self.value_context(pooled))

    def forward_actor(self, features: th.Tensor) -> th.Tensor:
        return self._logits(*self._trunk(features))

    def forward_critic(self, features: th.Tensor) -> th.Tensor:
        return self.act(self.value_context(self._trunk(features)[1]))


class StructuredActorCriticPolicy(MaskedActorCriticPolicy):
    """:class:`MaskedActorCriticPolicy` whose networks are a :class:`StructuredNetwork`
    (see the module docstring).

    Args:
        structure: What the game's encoder says of its observations and actions
            (``encoder.structure()``; checked by :func:`check_structure`); JSON-able, saved
            with the model.
        net_arch: Hidden sizes of the globals' MLP (a list of ints).
        hidden: Width of an entity's embedding.
        rounds: Rounds of message passing over the adjacency.
        head_hidden: Width of the per-kind MLPs scoring entity actions.
        activation_fn: The activation (``torch.nn.ReLU`` in the shipped config).
    """

    def __init__(
        self,
        observation_space: spaces.Space,
        action_space: spaces.Space,
        lr_schedule: Any,
        *args: Any,
        structure: dict[str, Any] | None = None,
        hidden: int = 64,
        rounds: int = 3,
        head_hidden: int = 32,
        **kwargs: Any,
    ) -> None:
        if structure is None:
            raise ValueError(
                "StructuredActorCriticPolicy needs structure= (the encoder's "
                "structure(): see primeval.training.ppo.structured)"
            )
        if not isinstance(observation_space, spaces.Box) or len(observation_space.shape) != 1:
            raise TypeError(
                f"StructuredActorCriticPolicy needs a flat Box observation, got {observation_space}"
            )
        for name, value, low in (
            ("hidden", hidden, 1),
            ("rounds", rounds, 0),
            ("head_hidden", head_hidden, 1),
        ):
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise ValueError(f"{name}={value!r}: must be an int >= {low}")
        net_arch = kwargs.get("net_arch")
        if net_arch is not None and (
            not isinstance(net_arch, (list, tuple))
            or not all(isinstance(w, int) and w > 0 for w in net_arch)
        ):
            raise ValueError(
                f"net_arch={net_arch!r}: the structured policy takes a list of "
                "layer sizes (its globals' MLP)"
            )
        if isinstance(action_space, spaces.Discrete):
            check_structure(structure, int(observation_space.shape[0]), int(action_space.n))
        self.structure = structure
        self.hidden, self.rounds, self.head_hidden = hidden, rounds, head_hidden
        super().__init__(observation_space, action_space, lr_schedule, *args, **kwargs)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data.update(
            structure=self.structure,
            hidden=self.hidden,
            rounds=self.rounds,
            head_hidden=self.head_hidden,
        )
        return data

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = StructuredNetwork(
            self.structure,
            int(self.observation_space.shape[0]),
            int(self.action_space.n),
            list(self.net_arch or []),
            self.hidden,
            self.rounds,
            self.head_hidden,
            self.activation_fn,
        )

    def _build(self, lr_schedule: Any) -> None:
        self.action_dist = MaskedCategoricalDistribution(int(self.action_space.n))
        self._build_mlp_extractor()
        self.action_net = nn.Identity()  # the network's actor output is the logits
        self.value_net = nn.Linear(self.mlp_extractor.latent_dim_vf, 1)
        if self.ortho_init:
            self.mlp_extractor.apply(partial(self.init_weights, gain=np.sqrt(2)))
            self.value_net.apply(partial(self.init_weights, gain=1.0))
        self.mlp_extractor.init_heads()
        self.optimizer = self.optimizer_class(
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs
        )


__all__ = ["STRUCTURE_KEYS", "StructuredActorCriticPolicy", "StructuredNetwork", "check_structure"]
