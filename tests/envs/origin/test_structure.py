"""What Origin tells a structured network (envs/origin/structure.py): which territory each
action id names, and where the graph observation's parts lie."""

from __future__ import annotations

import numpy as np

from primeval.envs.games import make_raw_env
from primeval.envs.origin.encoders import GraphEncoder
from primeval.envs.origin.rules import OriginRules
from primeval.envs.origin.structure import (
    STRAIT_SEGMENTS,
    TERRITORY_SEGMENTS,
    action_entities,
)


def rules(players: int = 3) -> OriginRules:
    return make_raw_env("origin", players).rules


def test_every_action_names_the_territories_its_layout_decodes_to():
    r = rules()
    layout, world = r.layout, r.data.world
    structure = GraphEncoder(r).structure()
    kinds = structure["kinds"]
    assert kinds == [*TERRITORY_SEGMENTS, *STRAIT_SEGMENTS]
    assert len(structure["action_kind"]) == len(structure["action_entities"]) == layout.n
    seen = set()
    for segment in TERRITORY_SEGMENTS:
        for t in range(world.size):
            action = layout.encode(segment, t)
            assert kinds[structure["action_kind"][action]] == segment
            assert structure["action_entities"][action] == [t, t]
            # the action's own name is the territory's
            assert layout.describe(action) == f"{segment}({world.territories[t].id})"
            seen.add(action)
    for k, (a, b) in enumerate(world.straits):
        action = layout.encode("choose_strait", k)
        assert kinds[structure["action_kind"][action]] == "choose_strait"
        assert structure["action_entities"][action] == [a, b] and a != b
        assert {a, b} in [set(pair) for pair in world.straits]
        seen.add(action)
    for action in range(layout.n):
        if action not in seen:
            assert structure["action_kind"][action] == -1, layout.describe(action)
            assert structure["action_entities"][action] == [-1, -1]
            assert layout.decode(action)[0] not in (*TERRITORY_SEGMENTS, *STRAIT_SEGMENTS)
    assert action_entities(r)[layout.encode("pass")] == ("pass", ())


def test_the_structure_locates_the_parts_of_a_graph_observation():
    env = make_raw_env("origin", 3, obs_encoder="graph")
    env.reset(seed=4)
    encoder = env.obs_encoder
    s = encoder.structure()
    obs = env.observe(env.agent_selection)["observation"]
    nodes, adjacency, globals_ = encoder.split(obs)
    t, f = s["entities"], s["entity_features"]
    assert s["globals"] == globals_.size
    assert obs[slice(*s["nodes"])].reshape(t, f).tolist() == nodes.tolist()
    assert obs[slice(*s["adjacency"])].reshape(t, t).tolist() == adjacency.tolist()
    assert obs[slice(*s["global_features"])].tolist() == globals_.tolist()
    assert s["global_features"][1] == obs.size
    world = env.rules.data.world
    for a, neighbours in enumerate(world.neighbours):
        assert set(np.flatnonzero(adjacency[a])) == set(neighbours)


def test_legal_territory_actions_name_territories_the_observation_agrees_with():
    """Along random games: a legal evolve_at or migrate_to names a territory the observer
    sees empty, a legal migrate_from or swap_from one it sees as its own (so the row the
    network scores an action from is the row of the place the rules act on)."""
    env = make_raw_env("origin", 3, obs_encoder="graph")
    encoder = env.obs_encoder
    s = encoder.structure()
    kinds = s["kinds"]
    owner = encoder.node_columns["owner"]
    rng = np.random.default_rng(0)
    checked = {name: 0 for name in ("evolve_at", "migrate_to", "migrate_from", "swap_from")}
    for game in range(3):
        env.reset(seed=game)
        for _ in range(400):
            if all(env.terminations.values()) or all(env.truncations.values()):
                break
            agent = env.agent_selection
            observed = env.observe(agent)
            rows = encoder.split(observed["observation"])[0]
            legal = np.flatnonzero(observed["action_mask"])
            for action in legal:
                k = s["action_kind"][action]
                if k < 0 or kinds[k] not in checked:
                    continue
                t = s["action_entities"][action][0]
                who = rows[t, owner]
                if kinds[k] in ("evolve_at", "migrate_to"):
                    assert who[4] == 1.0, (kinds[k], t)  # empty
                else:
                    assert who[0] == 1.0, (kinds[k], t)  # the observer's own
                checked[kinds[k]] += 1
            env.step(int(rng.choice(legal)))
    assert all(count > 0 for count in checked.values()), checked
