"""What a network needs to know about Origin's map to score actions by territory.

A structured policy (``network.policy: structured``, :mod:`primeval.training.ppo.structured`)
reads the ``"graph"`` observation as territory rows, an adjacency and global features, and
scores every action that names a place on the map from that place's rows. This module says,
in plain JSON-able data, where those parts lie in the observation and which territory each
action id names; the policy knows nothing of Origin itself.

The actions that name territories (segments of :func:`~primeval.envs.origin.actions.
build_layout`):

* ``evolve_at``, ``migrate_from``, ``migrate_to``, ``swap_from``, ``swap_onto``,
  ``choose_territory`` (the territory a card targets): their index is a territory;
* ``choose_strait``: a strait token, named by the two territories its strait joins.

Every other action (a pawn, a card, a tile slot, a deck, a player, a column, ``pass``) names
no territory and is scored from the whole board.
"""

from __future__ import annotations

from typing import Any

from primeval.envs.core.structure import graph_structure as core_structure

#: Segments whose index is a territory, in the order of the ``kinds`` of a structure.
TERRITORY_SEGMENTS: tuple[str, ...] = (
    "evolve_at",
    "migrate_from",
    "migrate_to",
    "swap_from",
    "swap_onto",
    "choose_territory",
)
#: Segments whose index is a strait (named by its two end territories).
STRAIT_SEGMENTS: tuple[str, ...] = ("choose_strait",)


def action_entities(rules: Any) -> list[tuple[str, tuple[int, ...]]]:
    """Per action id, ``(segment, territories)``: the territories (indices into
    ``rules.data.world.territories``) the action names, ``()`` for an action that names none,
    one territory for a territory segment, both ends for a strait."""
    layout, world = rules.layout, rules.data.world
    out: list[tuple[str, tuple[int, ...]]] = []
    for action in range(layout.n):
        segment, index = layout.decode(action)
        if segment in TERRITORY_SEGMENTS:
            out.append((segment, (int(index),)))
        elif segment in STRAIT_SEGMENTS:
            a, b = world.straits[int(index)]
            out.append((segment, (int(a), int(b))))
        else:
            out.append((segment, ()))
    return out


def graph_structure(encoder: Any) -> dict[str, Any]:
    """The structure of the ``"graph"`` encoder's observations and of the actions, as JSON-able
    data (what a structured policy is built from and saves in its checkpoint;
    :func:`primeval.envs.core.structure.graph_structure` says what each key holds): the
    territories are the entities, the kinds :data:`TERRITORY_SEGMENTS` then
    :data:`STRAIT_SEGMENTS`, and a strait action names both its ends."""
    return core_structure(
        encoder.num_territories,
        encoder.num_node_features,
        encoder.num_global_features,
        TERRITORY_SEGMENTS + STRAIT_SEGMENTS,
        action_entities(encoder.feature_set.rules),
    )


__all__ = ["STRAIT_SEGMENTS", "TERRITORY_SEGMENTS", "action_entities", "graph_structure"]
