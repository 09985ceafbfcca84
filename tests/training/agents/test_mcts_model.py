"""MCTS with an opponent model (``mcts:model=heuristic``, training/agents/mcts.py): the other
seats play the heuristic bot's choice in the tree, every network leaf is the searcher's own
decision, and the search stays blind to hidden cards."""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs.core.chance import ChanceNode
from primeval.training.agents import make_agent
from primeval.training.agents.checkpoint import env_spec
from primeval.training.agents.heuristics import heuristic_class
from primeval.training.agents.mcts import MCTSAgent, MCTSConfig, parse_mcts_spec
from primeval.training.expert.network import PolicyValueNetwork
from tests.helpers import mid_game
from tests.training.agents.test_mcts import _hidden_variant, _statistics
from tests.training.agents.test_mcts_net import _Fixed


def test_model_is_a_key_of_the_spec():
    config = parse_mcts_spec("mcts:sims=50,model=heuristic")
    assert config == MCTSConfig(sims=50, model="heuristic")
    assert config.spec() == "mcts:sims=50,model=heuristic"
    assert parse_mcts_spec("mcts:net=a.json,model=heuristic").model == "heuristic"
    assert MCTSConfig().model == "maxn"


def test_a_bad_model_is_named():
    with pytest.raises(ValueError, match="model must be one of maxn, heuristic, got 'bot'"):
        parse_mcts_spec("mcts:model=bot")


def _opponent_nodes(rules, root, me):
    """``(node, state)`` of every searched decision node of another seat (Soup's tree keeps
    each node's state)."""
    found, todo = [], [root]
    while todo:
        node = todo.pop()
        todo.extend(node.actions.values())
        todo.extend(node.outcomes.values())
        state = node.state
        if state is None or isinstance(state, ChanceNode) or rules.is_terminal(state):
            continue
        if rules.current_player(state) != me and rules.legal_mask(state).sum() > 1:
            found.append((node, state))
    return found


def _turn_end(game="primordial_soup"):
    """A state of ``game`` where the player to move has a choice and every choice hands
    the game to another player who has one too: the next ply of the tree is the others'."""
    env = mid_game(game, seed=1, steps=20)
    rules, rng = env.rules, np.random.default_rng(0)
    state = env.game_state
    for _ in range(2000):
        mask = rules.legal_mask(state)
        legal = np.flatnonzero(mask)
        me = rules.current_player(state)
        if legal.size > 1:
            nexts = [rules.apply(state, int(a), np.random.default_rng(1)) for a in legal]
            if all(
                not rules.is_terminal(n)
                and rules.current_player(n) != me
                and rules.legal_mask(n).sum() > 1
                for n in nexts
            ):
                return rules, state
        state = rules.apply(state, int(legal[rng.integers(legal.size)]), rng)
        assert not rules.is_terminal(state)
    raise AssertionError("no turn end found")


@pytest.mark.parametrize("net", [False, True])
def test_the_other_seats_play_the_heuristics_choice(net):
    """Every other seat's node with a choice has one child, the heuristic's action there;
    with ``model=maxn`` some have several."""
    rules, state = _turn_end()
    me = rules.current_player(state)
    bot = heuristic_class("primordial_soup")(rules, seed=0)
    budget = "mcts:sims=150,batch=1" if net else "mcts:sims=150"
    evaluator = _Fixed(rules.layout.n, players=rules.num_players) if net else None
    modelled = MCTSAgent(
        "primordial_soup", budget + ",model=heuristic", rules=rules, seed=0, evaluator=evaluator
    )
    nodes = _opponent_nodes(rules, modelled.search(rules, state, me), me)
    assert nodes, "the search reached no other seat's choice"
    for node, s in nodes:
        if node.actions:
            expected = bot.act(None, rules.legal_mask(s), state=s, seat=rules.current_player(s))
            assert list(node.actions) == [expected]
    evaluator = _Fixed(rules.layout.n, players=rules.num_players) if net else None
    maxn = MCTSAgent("primordial_soup", budget, rules=rules, seed=0, evaluator=evaluator)
    nodes = _opponent_nodes(rules, maxn.search(rules, state, me), me)
    assert any(len(node.actions) > 1 for node, _s in nodes)


class _Seats(_Fixed):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = []

    def evaluate_states(self, rules, states, seats):
        self.seats.extend(seats)
        return super().evaluate_states(rules, states, seats)


@pytest.mark.parametrize("game", ["primordial_soup", "origin"])
def test_every_network_leaf_is_the_searchers_own_decision(game):
    rules, state = _turn_end(game)
    me = rules.current_player(state)
    evaluator = _Seats(rules.layout.n, players=rules.num_players)
    agent = MCTSAgent(
        game, "mcts:sims=60,batch=4,model=heuristic", rules=rules, seed=0, evaluator=evaluator
    )
    root = agent.search(rules, state, me)
    assert root.n == 60 and len(evaluator.seats) > 1
    assert set(evaluator.seats) == {me}
    evaluator = _Seats(rules.layout.n, players=rules.num_players)
    MCTSAgent(game, "mcts:sims=60,batch=4", rules=rules, seed=0, evaluator=evaluator).search(
        rules, state, me
    )
    assert len(set(evaluator.seats)) > 1  # max-n values the other seats' leaves too


@pytest.mark.parametrize("net", [False, True])
def test_origin_search_with_the_model_depends_only_on_what_the_player_sees(net):
    """The heuristic answers for the other seats from the determinized state (sampled hidden
    cards), so two states the player cannot tell apart get the same search."""
    env = mid_game("origin", seed=2, steps=60)
    rules, rng = env.rules, np.random.default_rng(5)
    network = PolicyValueNetwork(env_spec("origin", 3), hidden=(16,), seed=3) if net else None
    spec = "mcts:sims=24,batch=4,model=heuristic" if net else "mcts:sims=40,model=heuristic"
    state, compared = env.game_state, 0
    while compared < 3 and not rules.is_terminal(state):
        mask = rules.legal_mask(state)
        me = rules.current_player(state)
        variant, swapped = _hidden_variant(rules, state, me)
        if mask.sum() > 1 and (swapped or variant.decks != state.decks):
            roots = [
                MCTSAgent("origin", spec, seed=11, evaluator=network).search(rules, s, me)
                for s in (state, variant)
            ]
            assert _statistics(roots[0]) == _statistics(roots[1])
            compared += 1
        legal = np.flatnonzero(mask)
        state = rules.apply(state, int(legal[rng.integers(legal.size)]), rng)
    assert compared == 3


@pytest.mark.parametrize("game", ["primordial_soup", "origin"])
def test_a_modelled_search_plays_legal_reproducible_games(game):
    from primeval.training.evaluate import tournament

    spec = "mcts:sims=8,model=heuristic"
    runs = [tournament(game, 3, [spec, "heuristic", "random"], games=1, seed=4) for _ in range(2)]
    assert runs[0][0].games == 1
    assert runs[0][0].scores == runs[1][0].scores


def test_a_game_without_a_heuristic_refuses_the_model(monkeypatch):
    import dataclasses

    from primeval.envs.games import GAMES

    monkeypatch.setitem(GAMES, "origin", dataclasses.replace(GAMES["origin"], heuristic=None))
    with pytest.raises(ValueError, match="model=heuristic: game 'origin' has no heuristic"):
        make_agent("mcts:model=heuristic", "origin")


def test_a_residual_ppo_checkpoint_serves_as_the_network():
    """Origin's shipped agent (residual PPO over the heuristic) as ``net=``: the mover's
    priors and value are the policy's own with the prior's hint, as when it plays; the other
    seats' values come from their observations with a zero hint."""
    import torch

    from primeval.training.agents.policy import PolicyAgent
    from primeval.training.agents.prior import prior_hint, with_hint
    from primeval.training.expert.play import PPOEvaluator

    path = "training/benchmark/zoo_files/origin-3p-ppo.zip"
    evaluator = PPOEvaluator(path)
    assert evaluator.agent.prior is not None
    rules, state = _turn_end("origin")
    seat = rules.current_player(state)
    priors, values = evaluator.evaluate_states(rules, [state], [seat])
    mask = rules.legal_mask(state).astype(bool)
    agent = PolicyAgent(path)
    encoder = evaluator.encoder_for(rules)
    mine = with_hint(encoder.encode(state, seat), prior_hint(agent.prior, state, seat, mask))
    other = (seat + 1) % 3
    theirs = with_hint(encoder.encode(state, other), np.zeros(mask.size, dtype=np.float32))
    policy = agent.model.policy
    with torch.inference_mode():
        tensor, _ = policy.obs_to_tensor(np.stack([mine, theirs]))
        expected = policy.get_distribution(tensor[:1], action_masks=mask[None])
        expected_values = policy.predict_values(tensor).numpy().ravel()
    np.testing.assert_allclose(priors[0], expected.distribution.probs.numpy()[0], atol=1e-6)
    np.testing.assert_allclose(values[0, seat], np.clip(expected_values[0], -1, 1), atol=1e-6)
    np.testing.assert_allclose(values[0, other], np.clip(expected_values[1], -1, 1), atol=1e-6)
    assert priors[0][~mask].sum() == 0
    search = MCTSAgent("origin", f"mcts:sims=8,batch=4,net={path},model=heuristic", seed=0)
    assert search.act(None, mask, state=state) in np.flatnonzero(mask)
