"""Damaged position specs at every decision (issue 26, "positions from every decision
kind"): a spec written by ``position_to_dict`` at an interrupt or a sub-decision, with one
entry of its ``decision`` or ``waiting`` replaced by junk or left out, builds or is refused
with a ``PositionError``; nothing else escapes, and a refused spec leaves the spec as it
was."""

from __future__ import annotations

import copy
import json
import random

import numpy as np
import pytest

from primeval.envs.core.position import PositionError
from primeval.envs.origin import position as origin_position
from primeval.envs.origin.rules import OriginRules
from primeval.envs.primordial_soup import position as soup_position
from primeval.envs.primordial_soup.rules import PrimordialSoupRules

JUNK = [
    None,
    -1,
    0,
    1,
    2,
    7,
    99,
    10**12,
    "x",
    "W",
    "R",
    "AF1",
    "O1",
    [],
    [1],
    [[0, 1]],
    {},
    {"R": 1},
    True,
    False,
    1.5,
    "player_1",
    "kind",
]
GAMES = {
    "primordial_soup": (lambda: PrimordialSoupRules(num_players=3), soup_position),
    "origin": (lambda: OriginRules(num_players=3), origin_position),
}


def interrupt_specs(rules, module, seed: int, count: int) -> list[dict]:
    """Specs of states away from the short form (a ``waiting`` list or a sub-decision)."""
    rng, choices = np.random.default_rng(seed), np.random.default_rng([seed, 1])
    state, found = rules.initial_state(rng), []
    while not rules.is_terminal(state) and len(found) < count:
        spec = module.position_to_dict(rules, state)
        if "waiting" in spec or spec["decision"]["kind"] not in ("move", "feed", "turn"):
            found.append(json.loads(json.dumps(spec)))
        state = rules.apply(state, int(choices.choice(rules.legal_actions(state))), rng)
    return found


def paths(tree, path=()):
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield from paths(value, (*path, key))
    elif isinstance(tree, list):
        for i, value in enumerate(tree):
            yield from paths(value, (*path, i))
    if path:
        yield path


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_damaged_frame_builds_or_is_refused_with_a_position_error(game):
    make, module = GAMES[game]
    rules = make()
    pick = random.Random(0)
    specs = interrupt_specs(rules, module, seed=0, count=40)
    assert len(specs) == 40
    refused = 0
    for spec in specs:
        where = [p for p in paths(spec) if p[0] in ("decision", "waiting")]
        for _ in range(10):
            damaged = copy.deepcopy(spec)
            path = pick.choice(where)
            parent = damaged
            for key in path[:-1]:
                parent = parent[key]
            if isinstance(parent, dict) and pick.random() < 0.2:
                del parent[path[-1]]
            else:
                parent[path[-1]] = pick.choice(JUNK)
            kept = copy.deepcopy(damaged)
            try:
                module.build_position(rules, damaged)
            except PositionError:
                refused += 1
            assert damaged == kept
    assert refused > 100  # most damage is refused, each time by name
