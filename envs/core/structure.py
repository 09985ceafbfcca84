"""What a structured policy needs to know of a game's ``"graph"`` observation, as JSON-able data.

A game's ``"graph"`` encoder lays one observation out as ``[nodes: T x F | adjacency: T x T |
globals: G]`` (``T`` entities: Origin's territories, Primordial Soup's spaces) and says, per
action id, which entities the action names (``encoder.structure()``). A structured policy
(``network.policy: structured``, :mod:`primeval.training.ppo.structured`) is built from that
alone and saves it with its weights; it knows nothing of either game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["GraphLayout", "graph_structure"]


class GraphLayout:
    """What the ``"graph"`` encoders of both games share: the split of an observation into its
    three parts and the view of a piece by name. A subclass sets ``num_entities`` (``T``),
    ``num_node_features`` (``F``), ``size``, ``node_columns`` (node piece name -> slice of
    node columns) and ``global_features`` (the globals' ``FeatureBuilder``)."""

    num_entities: int
    num_node_features: int
    size: int
    node_columns: dict[str, slice]
    global_features: Any

    def split(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(nodes (T, F), adjacency (T, T), globals (G,))`` views of an observation.

        Raises:
            ValueError: ``obs`` is not shaped ``(size,)``.
        """
        obs = np.asarray(obs)
        if obs.shape != (self.size,):
            raise ValueError(f"graph observation must have shape ({self.size},), got {obs.shape}")
        t, f = self.num_entities, self.num_node_features
        nodes_stop = t * f
        nodes = obs[:nodes_stop].reshape(t, f)
        adjacency = obs[nodes_stop : nodes_stop + t * t].reshape(t, t)
        return nodes, adjacency, obs[nodes_stop + t * t :]

    def view(self, obs: np.ndarray, name: str) -> np.ndarray:
        """A node piece ``(T, channels)`` or a global piece of an observation."""
        nodes, _, globals_ = self.split(obs)
        if name in self.node_columns:
            return nodes[:, self.node_columns[name]]
        return self.global_features.view(globals_, name)


def graph_structure(
    entities: int,
    entity_features: int,
    num_globals: int,
    kinds: Sequence[str],
    actions: Sequence[tuple[str, tuple[int, ...]]],
) -> dict[str, Any]:
    """The structure of a ``[nodes | adjacency | globals]`` observation and of the actions:

    * ``entities`` (``T``), ``entity_features`` (``F``), ``globals`` (``G``): the sizes;
    * ``nodes``, ``adjacency``, ``global_features``: ``[start, stop)`` of each part in the
      observation vector (``T x F`` row-major, ``T x T``, ``G``);
    * ``kinds``: the names of the actions that name entities (segments of the action layout);
    * ``action_kind``: per action id, its index in ``kinds`` (``-1``: names no entity);
    * ``action_entities``: per action id, ``[a, b]``: the entities it names (``a == b`` for one
      entity; ``[-1, -1]`` for none).

    Args:
        actions: Per action id, ``(segment, entities)``: its segment's name and the one or
            two entities it names, ``()`` for none. An action naming entities must have its
            segment in ``kinds``.
    """
    kinds = list(kinds)
    nodes_stop = entities * entity_features
    adjacency_stop = nodes_stop + entities * entities
    action_kind: list[int] = []
    action_entities: list[list[int]] = []
    for segment, named in actions:
        if named:
            action_kind.append(kinds.index(segment))
            action_entities.append([int(named[0]), int(named[-1])])
        else:
            action_kind.append(-1)
            action_entities.append([-1, -1])
    return {
        "entities": int(entities),
        "entity_features": int(entity_features),
        "globals": int(num_globals),
        "nodes": [0, nodes_stop],
        "adjacency": [nodes_stop, adjacency_stop],
        "global_features": [adjacency_stop, adjacency_stop + num_globals],
        "kinds": kinds,
        "action_kind": action_kind,
        "action_entities": action_entities,
    }
