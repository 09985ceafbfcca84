"""The rollout search (``rollouts:net=``, training/agents/rollouts.py): the spec, the
network's candidates, paired rollouts, the switching rule, blindness to hidden cards, and
reproducible legal games in both games."""

from __future__ import annotations

import re

import numpy as np
import pytest

from primeval.training.agents import AGENT_SPECS, make_agent
from primeval.training.agents.checkpoint import env_spec
from primeval.training.agents.rollouts import (
    RolloutSearchAgent,
    RolloutSearchConfig,
    parse_rollouts_spec,
)
from primeval.training.expert.network import NetworkError, PolicyValueNetwork
from tests.helpers import mid_game
from tests.training.agents.test_mcts import _hidden_variant

# -- the spec -------------------------------------------------------------------------------


def test_the_spec_round_trips_and_has_defaults():
    assert "rollouts:net=PATH[,KEY=VALUE,...]" in AGENT_SPECS
    config = parse_rollouts_spec("rollouts:net=a.zip")
    assert config == RolloutSearchConfig(net="a.zip", k=3, n=16, depth=80, z=1.0)
    assert config.spec() == "rollouts:net=a.zip"
    other = parse_rollouts_spec("rollouts:net=a.zip,k=4,n=8,depth=end,z=0")
    assert other == RolloutSearchConfig(net="a.zip", k=4, n=8, depth=None, z=0.0)
    assert parse_rollouts_spec(other.spec()) == other
    second = parse_rollouts_spec("rollouts:net=a.zip,confirm=64")
    assert second == RolloutSearchConfig(net="a.zip", confirm=64)
    assert second.spec() == "rollouts:net=a.zip,confirm=64"


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("rollouts:k=3", "needs a network: rollouts:net=PATH"),
        ("rollouts:", "needs a network"),
        ("rollouts:net=a.zip,k=1", "k must be a whole number >= 2, got 1"),
        ("rollouts:net=a.zip,n=1", "n must be a whole number >= 2, got 1"),
        ("rollouts:net=a.zip,n=two", "n must be a whole number, got 'two'"),
        ("rollouts:net=a.zip,depth=-1", "depth must be a whole number >= 0 or 'end'"),
        ("rollouts:net=a.zip,z=-1", "z must be a finite number >= 0"),
        ("rollouts:net=a.zip,z=nan", "z must be a finite number, got 'nan'"),
        ("rollouts:net=a.zip,confirm=1", "confirm must be 0 (no second look) or a whole "
                                         "number >= 2, got 1"),
        ("rollouts:net=a.zip,confirm=-2", "confirm must be 0"),
        ("rollouts:net=a.zip,sims=3", "unknown key 'sims'; keys: net, k, n, depth, z, confirm"),
        ("rollouts:net=a.zip,k=3,k=4", "k is given twice"),
        ("rollouts:net=a.zip,k", "k needs a value"),
    ],
)
def test_bad_specs_are_named(spec, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        parse_rollouts_spec(spec)


def test_a_missing_or_mismatched_network_is_named(tmp_path):
    with pytest.raises(NetworkError, match="does not exist"):
        make_agent(f"rollouts:net={tmp_path / 'none.json'}", "origin")
    PolicyValueNetwork(env_spec("origin", 3), hidden=(8,)).save(tmp_path / "o.json")
    with pytest.raises(ValueError, match="the network plays origin, not primordial_soup"):
        make_agent(f"rollouts:net={tmp_path / 'o.json'}", "primordial_soup")
    agent = make_agent(f"rollouts:net={tmp_path / 'o.json'}", "origin", seed=0)
    with pytest.raises(ValueError, match="needs the rules state"):
        agent.act(None, np.ones(4, dtype=np.int8))
    with pytest.raises(NetworkError, match="plays 3 players, this game has 2"):
        agent.check_env_spec({"game": "origin", "players": 2})


# -- what the search does --------------------------------------------------------------------


def _agent(game: str, spec: str = "n=4,depth=3", players: int = 3, seed: int = 0):
    network = PolicyValueNetwork(env_spec(game, players), hidden=(16,), seed=3)
    return RolloutSearchAgent(game, f"rollouts:net=memory,{spec}", seed=seed,
                              evaluator=network), network


def _branching(game: str, seed: int = 1):
    env = mid_game(game, seed=seed, steps=30)
    rules, state, rng = env.rules, env.game_state, np.random.default_rng(seed)
    while np.count_nonzero(rules.legal_mask(state)) < 4:
        legal = np.flatnonzero(rules.legal_mask(state))
        state = rules.apply(state, int(legal[rng.integers(legal.size)]), rng)
    return rules, state


@pytest.mark.parametrize("game", ["primordial_soup", "origin"])
def test_the_candidates_are_the_networks_likeliest_legal_moves(game):
    agent, network = _agent(game, "k=3")
    rules, state = _branching(game)
    me = rules.current_player(state)
    legal = np.flatnonzero(rules.legal_mask(state))
    candidates = agent.candidates(rules, state, me, legal)
    shown = rules.sample_determinization(state, me, np.random.default_rng(0))
    priors, _ = network.evaluate_states(rules, [shown], [me])
    ranked = sorted(legal.tolist(), key=lambda a: (-priors[0][a], a))
    assert candidates == ranked[:3]


@pytest.mark.parametrize("game", ["primordial_soup", "origin"])
def test_every_candidate_meets_the_same_deals_and_seeds(game):
    """The same move twice in the candidate list gets the same value in every pair: each
    pair plays its candidates from one deal with one seed (common random numbers), while
    the pairs differ from each other."""
    agent, _ = _agent(game, "n=6,depth=60")
    rules, state = _branching(game)
    me = rules.current_player(state)
    a, b = np.flatnonzero(rules.legal_mask(state))[:2].tolist()
    values = agent.paired_values(rules, state, me, [a, b, a])
    assert values.shape == (6, 3)
    np.testing.assert_array_equal(values[:, 0], values[:, 2])
    assert len(set(values[:, 0].round(9))) > 1 or len(set(values[:, 1].round(9))) > 1
    assert agent.rollouts == 18


def test_the_networks_choice_stays_unless_another_is_clearly_better():
    agent, _ = _agent("origin", "z=1")
    same = np.array([[0.5, 0.5, 0.5]] * 4)
    assert agent.choose(same) == 0  # a tie keeps the network's move
    better = np.array([[0.0, 0.2, 0.1], [0.1, 0.3, 0.1], [0.0, 0.2, 0.2], [0.2, 0.4, 0.1]])
    assert agent.choose(better) == 1  # +0.2 in every pair: far above one standard error
    noisy = np.array([[0.0, 0.9, 0.0], [0.5, 0.0, 0.5], [0.0, 0.1, 0.0], [0.5, 0.0, 0.5]])
    assert agent.choose(noisy) == 0  # a mean of +0.0 and wide spread: not enough
    worse = -better
    assert agent.choose(worse) == 0
    eager, _ = _agent("origin", "z=0")
    slight = np.array([[0.0, 0.03, 0.0], [0.0, -0.02, 0.0], [0.0, 0.01, 0.0], [0.0, -0.01, 0.0]])
    assert eager.choose(slight) == 1 and agent.choose(slight) == 0


@pytest.mark.parametrize("game", ["primordial_soup", "origin"])
def test_a_switch_is_played_only_if_a_second_look_keeps_it(game):
    """With ``confirm=N``, where the first search leaves the network's move, a second search
    of N pairs from the second generator judges the same candidates, and its choice is what
    is played; the first search draws exactly what it draws without a second look."""
    rules, state = _branching(game)
    rng = np.random.default_rng(4)
    looked = 0
    for _ in range(40):
        if rules.is_terminal(state):
            break
        mask = rules.legal_mask(state)
        me = rules.current_player(state)
        legal = np.flatnonzero(mask)
        if legal.size > 1:
            agent, _ = _agent(game, "n=3,depth=4,z=0,confirm=5", seed=7)
            plain, _ = _agent(game, "n=3,depth=4,z=0", seed=7)
            manual, _ = _agent(game, "n=3,depth=4,z=0", seed=7)
            candidates = manual.candidates(rules, state, me, legal)
            first = manual.choose(manual.paired_values(rules, state, me, candidates))
            expected = candidates[first]
            if first != 0:
                second = manual.paired_values(rules, state, me, candidates, n=5,
                                              rng=np.random.default_rng(
                                                  np.random.SeedSequence(7).spawn(1)[0]))
                assert second.shape == (5, len(candidates))
                expected = candidates[manual.choose(second)]
            assert agent.act(None, mask, state=state, seat=me) == expected
            assert plain.act(None, mask, state=state, seat=me) == candidates[first]
            assert agent.second_looks == int(first != 0) == agent.stats()["second_looks"]
            assert agent.rollouts == plain.rollouts + 5 * len(candidates) * (first != 0)
            assert agent.rng.bit_generator.state == plain.rng.bit_generator.state
            looked += first != 0
        state = rules.apply(state, int(legal[rng.integers(legal.size)]), rng)
    assert looked >= 2  # z=0 switches often: the second look was exercised


def test_origin_search_depends_only_on_what_the_player_sees():
    """Two states equal in everything the acting player sees, with other hidden hands and
    deck orders, get the same candidates, the same rollout values and the same move for the
    same seed: the state is read only through ``sample_determinization``."""
    env = mid_game("origin", seed=2, steps=60)
    rules, rng = env.rules, np.random.default_rng(5)
    state, compared = env.game_state, 0
    while compared < 3 and not rules.is_terminal(state):
        mask = rules.legal_mask(state)
        me = rules.current_player(state)
        variant, swapped = _hidden_variant(rules, state, me)
        if mask.sum() > 2 and (swapped or variant.decks != state.decks):
            assert variant.to_dict() != state.to_dict()
            seen = []
            for s in (state, variant):
                agent, _ = _agent("origin", "n=4,depth=6", seed=11)
                legal = np.flatnonzero(mask)
                candidates = agent.candidates(rules, s, me, legal)
                seen.append((candidates, agent.paired_values(rules, s, me, candidates)))
            assert seen[0][0] == seen[1][0]
            np.testing.assert_array_equal(seen[0][1], seen[1][1])
            compared += 1
        legal = np.flatnonzero(mask)
        state = rules.apply(state, int(legal[rng.integers(legal.size)]), rng)
    assert compared == 3


@pytest.mark.parametrize("game", ["primordial_soup", "origin"])
def test_it_plays_legal_reproducible_games(tmp_path, game):
    from primeval.training.evaluate import tournament

    n = 3
    PolicyValueNetwork(env_spec(game, n), hidden=(16,)).save(tmp_path / "net.json")
    spec = f"rollouts:net={tmp_path / 'net.json'},k=2,n=2,depth=2"
    runs = [tournament(game, n, [spec, "heuristic", "random"], games=1, seed=2)
            for _ in range(2)]
    assert runs[0][0].games == 1
    assert runs[0][0].scores == runs[1][0].scores


def test_a_single_legal_action_is_answered_without_search():
    agent, _ = _agent("primordial_soup")
    env = mid_game("primordial_soup", seed=1, steps=10)
    mask = np.zeros(env.rules.layout.n, dtype=np.int8)
    mask[3] = 1
    assert agent.act(None, mask, state=env.game_state) == 3
    assert agent.decisions == 0 and agent.rollouts == 0
