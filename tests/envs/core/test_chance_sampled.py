"""``ExplicitChance.apply_chance_sampled`` (envs/core/chance.py): the rest of a transition's
chance sampled in one run of the rules gives what walking its chance nodes one
``apply_chance`` at a time gives (the reference), and MCTS, which walks chance that way,
searches the same trees with it."""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs.core.chance import ChanceNode, ExplicitChance
from primeval.envs.games import GAMES
from primeval.training.agents.mcts import MCTSAgent
from tests.helpers import mid_game

GAME_NAMES = sorted(GAMES)


def _stepwise(chance, node, outcome, rng):
    """The reference: ``apply_chance`` of ``outcome``, then of an outcome sampled at each
    chance node met, one node at a time."""
    walk = [(outcome, chance.apply_chance(node, outcome))]
    while isinstance(walk[-1][1], ChanceNode):
        drawn = walk[-1][1].event.sample(rng)
        walk.append((drawn, chance.apply_chance(walk[-1][1], drawn)))
    return walk


def _chance_nodes(game, seed, wanted):
    """Chance nodes of explicit-chance games with uniform random choices and outcomes (the
    setup's first among them), until ``wanted`` are found."""
    chance = ExplicitChance(GAMES[game].raw_env().rules)
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < wanted:
        state = chance.initial_state()
        while not chance.is_terminal(state) and len(found) < wanted:
            if isinstance(state, ChanceNode):
                found.append(state)
                state = chance.apply_chance(state, chance.sample_chance(state, rng))
            else:
                legal = np.flatnonzero(chance.rules.legal_mask(state))
                state = chance.apply(state, int(legal[rng.integers(legal.size)]))
    return chance, found


@pytest.mark.parametrize("game", GAME_NAMES)
def test_one_run_gives_the_walk_of_the_chance_nodes(game):
    chance, nodes = _chance_nodes(game, seed=3, wanted=150)
    assert any(node.action is None for node in nodes)  # the setup's events
    longest = 0
    for i, node in enumerate(nodes):
        outcome = chance.sample_chance(node, np.random.default_rng(i))
        fast_rng, ref_rng = np.random.default_rng([i, 1]), np.random.default_rng([i, 1])
        fast = chance.apply_chance_sampled(node, outcome, fast_rng)
        ref = _stepwise(chance, node, outcome, ref_rng)
        assert [o for o, _ in fast] == [o for o, _ in ref]
        for (_, a), (_, b) in zip(fast, ref, strict=True):
            assert type(a) is type(b) and a == b
        assert not isinstance(fast[-1][1], ChanceNode)
        assert fast_rng.bit_generator.state == ref_rng.bit_generator.state
        longest = max(longest, len(fast))
    # Origin's shuffles are many events in one transition; Primordial Soup's dice one or two.
    assert longest > (10 if game == "origin" else 1)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_one_run_gives_the_action_and_the_walk_after_it(game):
    """``apply_sampled(state, action)``: ``apply``, then the walk of every chance node met,
    as the reference gives them, over the states of explicit-chance games."""
    chance, nodes = _chance_nodes(game, seed=4, wanted=250)  # Origin's setup: the first 60
    transitions = {(id(n.state), n.action): n for n in nodes if n.action is not None}
    met = 0
    for i, node in enumerate(transitions.values()):
        state = node.state
        legal = np.flatnonzero(chance.rules.legal_mask(state))
        for action in sorted({node.action, *legal[:3].tolist()}):
            fast_rng, ref_rng = np.random.default_rng([i, 2]), np.random.default_rng([i, 2])
            fast = chance.apply_sampled(state, int(action), fast_rng)
            first = chance.apply(state, int(action))
            ref = [(None, first)]
            if isinstance(first, ChanceNode):
                ref += _stepwise(chance, first, first.event.sample(ref_rng), ref_rng)
                met += 1
            assert [o for o, _ in fast] == [o for o, _ in ref]
            for (_, a), (_, b) in zip(fast, ref, strict=True):
                assert type(a) is type(b) and a == b
            assert fast_rng.bit_generator.state == ref_rng.bit_generator.state
    assert met > 10


@pytest.mark.parametrize("game", GAME_NAMES)
def test_given_the_mask_it_gives_the_walk_and_the_mask_reached(game):
    """``transition_sampled(state, action, rng, mask)``: ``apply_sampled``'s walk, and the
    legal mask of its last state, as the rules work it out."""
    chance, nodes = _chance_nodes(game, seed=5, wanted=120)
    checked = 0
    for i, node in enumerate(n for n in nodes if n.action is not None):
        state, action = node.state, node.action
        mask = chance.rules.legal_mask(state)
        fast_rng, ref_rng = np.random.default_rng([i, 3]), np.random.default_rng([i, 3])
        walk, end_mask = chance.transition_sampled(state, action, fast_rng, mask.copy())
        ref = chance.apply_sampled(state, action, ref_rng)
        assert [o for o, _ in walk] == [o for o, _ in ref]
        assert all(a == b for (_, a), (_, b) in zip(walk, ref, strict=True))
        np.testing.assert_array_equal(end_mask, chance.rules.computed_legal_mask(walk[-1][1]))
        assert fast_rng.bit_generator.state == ref_rng.bit_generator.state
        checked += 1
    assert checked > 5
    with pytest.raises(ValueError, match="use apply_chance_sampled"):
        chance.transition_sampled(nodes[0], 0, np.random.default_rng(0), mask)


def test_the_node_it_is_given_is_checked():
    chance, nodes = _chance_nodes("primordial_soup", seed=0, wanted=1)
    node = nodes[0]
    with pytest.raises(ValueError, match="not a chance node"):
        chance.apply_chance_sampled(chance.rules.initial_state(np.random.default_rng(0)), 0,
                                    np.random.default_rng(0))
    with pytest.raises(ValueError, match="use apply_chance_sampled"):
        chance.apply_sampled(node, 0, np.random.default_rng(0))
    impossible = max(node.event.outcomes) + 1
    with pytest.raises(ValueError, match=f"outcome {impossible} is not possible"):
        chance.apply_chance_sampled(node, impossible, np.random.default_rng(0))


def _tree(node):
    """A search tree's statistics, children by action and by chance outcome, recursively."""
    return (node.n, [round(w, 9) for w in node.w], node.avail,
            {a: _tree(c) for a, c in sorted(node.actions.items())},
            {o: _tree(c) for o, c in sorted(node.outcomes.items())})


def _counted(method, walks):
    """``method``, noting in ``walks`` the length of each walk it returns (with the end's
    mask, for ``transition_sampled``)."""
    def counted(self, *args):
        out = method(self, *args)
        walks.append(len(out[0] if isinstance(out, tuple) else out))
        return out
    return counted


#: Positions (mid_game's seed, steps) whose searches meet chance: Primordial Soup's dice
#: and Origin's draws, and at Origin's start its shuffles (many events in one transition).
POSITIONS = {"primordial_soup": ((1, 10), (2, 10), (2, 75)),
             "origin": ((1, 0), (2, 25), (1, 75))}


@pytest.mark.parametrize("game,spec", [
    ("primordial_soup", "mcts:sims=60"),             # the tree keeps states (no hidden cards)
    ("primordial_soup", "mcts:sims=40,depth=end"),
    ("origin", "mcts:sims=60"),                      # determinized: no states kept
    ("origin", "mcts:sims=40,depth=end,prior=0"),
])
def test_mcts_searches_the_trees_the_stepwise_walk_searches(game, spec, monkeypatch):
    walks = []
    for name in ("apply_sampled", "transition_sampled", "apply_chance_sampled"):
        monkeypatch.setattr(ExplicitChance, name, _counted(getattr(ExplicitChance, name), walks))
    for seed, steps in POSITIONS[game]:
        env = mid_game(game, seed=seed, steps=steps)
        rules, state = env.rules, env.game_state
        me = rules.current_player(state)
        roots = []
        for stepwise in (False, True):
            agent = MCTSAgent(game, spec, seed=seed)
            agent.sampled_chance = not stepwise
            roots.append(agent.search(rules, state, me))
        assert roots[0].actions and _tree(roots[0]) == _tree(roots[1])
    assert walks and (game != "origin" or max(walks) > 10)
