"""What a network needs to know about the soup to score actions by space.

A structured policy (``network.policy: structured``, :mod:`primeval.training.ppo.structured`)
reads the ``"graph"`` observation as space rows, an adjacency and global features, and scores
every action that names a space from that space's row. This module says, in plain JSON-able
data, which space each action id names; the policy knows nothing of Primordial Soup itself.

The actions that name a space are ``place_amoeba`` (amoeba number ``i + 1`` onto space ``j``:
setup and cell division), a kind of its own per amoeba number (``place_amoeba_1`` ..
``place_amoeba_7``) so that the numbers keep scores of their own. Every other action names
no space of the board by its id alone: a move's direction and an attack name a direction or
an amoeba, whose space the state decides (the observation shows it: the ``acting_space``,
``frame_space`` and ``frame_dest`` columns); they are scored from the whole board.
"""

from __future__ import annotations

from typing import Any

from primeval.envs.core.structure import graph_structure as core_structure
from primeval.envs.primordial_soup.actions import LAYOUT, MAX_AMOEBAS

#: The segment whose index ``(amoeba, space)`` names a space.
SPACE_SEGMENT = "place_amoeba"
#: The kinds of a structure: one per amoeba number.
KINDS: tuple[str, ...] = tuple(f"place_amoeba_{i + 1}" for i in range(MAX_AMOEBAS))


def action_entities(layout: Any = LAYOUT) -> list[tuple[str, tuple[int, ...]]]:
    """Per action id, ``(kind, spaces)``: ``(place_amoeba_<n>, (space,))`` for a placement,
    ``(segment, ())`` for an action that names no space."""
    out: list[tuple[str, tuple[int, ...]]] = []
    for action in range(layout.n):
        segment, index = layout.decode(action)
        if segment == SPACE_SEGMENT:
            amoeba, space = index
            out.append((KINDS[int(amoeba)], (int(space),)))
        else:
            out.append((segment, ()))
    return out


def graph_structure(encoder: Any) -> dict[str, Any]:
    """The structure of the ``"graph"`` encoder's observations and of the actions
    (:func:`primeval.envs.core.structure.graph_structure` says what each key holds): the soup
    spaces are the entities, the kinds :data:`KINDS`."""
    return core_structure(
        encoder.num_spaces,
        encoder.num_node_features,
        encoder.num_global_features,
        KINDS,
        action_entities(LAYOUT),
    )


__all__ = ["KINDS", "SPACE_SEGMENT", "action_entities", "graph_structure"]
