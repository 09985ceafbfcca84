"""MCTS guided by a network (``mcts:net=``, training/agents/mcts.py): the spec, priors and
values reaching the tree, max-n backups, batching, blindness to hidden cards, and a PPO
checkpoint standing in for a network."""

from __future__ import annotations

import numpy as np
import pytest

from primeval.training.agents import make_agent
from primeval.training.agents.checkpoint import env_spec
from primeval.training.agents.mcts import MCTSAgent, MCTSConfig, parse_mcts_spec
from primeval.training.expert.network import NetworkError, PolicyValueNetwork
from tests.helpers import mid_game
from tests.training.agents.test_mcts import _hidden_variant, _statistics

# -- the spec -------------------------------------------------------------------------------


def test_net_and_batch_are_keys_of_the_spec():
    config = parse_mcts_spec("mcts:sims=50,net=runs/x/network.json,batch=4,c=1.5")
    assert config == MCTSConfig(sims=50, net="runs/x/network.json", batch=4, c=1.5)
    assert parse_mcts_spec(config.spec()) == config


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("mcts:batch=0", "batch must be a whole number >= 1"),
        ("mcts:net=a.json,depth=5", "depth=5 not used with a network"),
        ("mcts:net=a.json,rollout=heuristic", "rollout=heuristic not used with a network"),
        ("mcts:net=a.json,prior=2", "prior=2.0 not used with a network"),
        ("mcts:net", "net needs a value"),
    ],
)
def test_bad_net_specs_are_named(spec, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        parse_mcts_spec(spec)


def test_a_missing_or_mismatched_network_is_named(tmp_path):
    with pytest.raises(NetworkError, match="does not exist"):
        make_agent(f"mcts:net={tmp_path / 'none.json'}", "origin")
    PolicyValueNetwork(env_spec("origin", 3), hidden=(8,)).save(tmp_path / "o.json")
    with pytest.raises(ValueError, match="the network plays origin, not primordial_soup"):
        make_agent(f"mcts:net={tmp_path / 'o.json'}", "primordial_soup")
    env = mid_game("origin", seed=1, steps=10)
    agent = MCTSAgent("origin", f"mcts:sims=2,net={tmp_path / 'o.json'}", seed=0)
    other = PolicyValueNetwork(env_spec("origin", 2), hidden=(8,))
    agent.evaluator = other
    with pytest.raises(NetworkError, match="plays 2 players, this game has 3"):
        agent.act(None, env.rules.legal_mask(env.game_state), state=env.game_state)


# -- priors and values reach the tree --------------------------------------------------------


class _Fixed:
    """An evaluator with fixed answers: ``prior(state, legal)`` and ``value(state)``."""

    def __init__(self, num_actions, prior=None, value=None, players=3):
        self.num_actions, self.prior, self.value, self.players = (
            num_actions,
            prior,
            value,
            players,
        )
        self.calls = []

    def check_env(self, game, players):
        pass

    def evaluate_states(self, rules, states, seats):
        self.calls.append(len(states))
        priors, values = [], []
        for s in states:
            mask = rules.legal_mask(s).astype(bool)
            p = np.where(mask, 1.0, 0.0) if self.prior is None else self.prior(s, mask)
            priors.append(p / p.sum())
            values.append(np.zeros(self.players) if self.value is None else self.value(s))
        return np.array(priors), np.array(values)


def _branching_state(game, seed=1):
    env = mid_game(game, seed=seed, steps=30)
    rules, rng = env.rules, np.random.default_rng(0)
    state = env.game_state
    while rules.legal_mask(state).sum() < 3:
        state = rules.apply(state, int(np.flatnonzero(rules.legal_mask(state))[0]), rng)
    return rules, state


@pytest.mark.parametrize("game", ["primordial_soup", "origin"])
def test_the_priors_reach_the_tree(game):
    """A network putting all its prior on one legal action (the last) makes the search try
    it first and visit it most at a low budget."""
    rules, state = _branching_state(game)
    legal = np.flatnonzero(rules.legal_mask(state))
    target = int(legal[-1])

    def prior(s, mask):
        p = np.zeros(mask.size)
        p[target if mask[target] else np.flatnonzero(mask)[0]] = 1.0
        return p

    fixed = _Fixed(rules.layout.n, prior=prior)
    agent = MCTSAgent(game, "mcts:sims=12,batch=1", rules=rules, seed=0, evaluator=fixed)
    root = agent.search(rules, state, rules.current_player(state))
    assert next(iter(root.actions)) == target
    visits = {a: child.n for a, child in root.actions.items()}
    assert max(visits, key=visits.get) == target
    uniform = MCTSAgent(
        game, "mcts:sims=12,batch=1", rules=rules, seed=0, evaluator=_Fixed(rules.layout.n)
    )
    root = uniform.search(rules, state, rules.current_player(state))
    assert next(iter(root.actions)) == int(legal[0])  # without the prior: the first legal


class _TreeState:
    def __init__(self, history=()):
        self.num_players = 3
        self.history = tuple(history)

    def copy(self):
        return _TreeState(self.history)


class _TreeGame:
    """Three players in turn pick one of three actions; the game ends after three picks
    with no points to anyone (only the network's values tell the choices apart)."""

    num_players = 3

    def current_player(self, s):
        return len(s.history) if len(s.history) < 3 else -1

    def is_terminal(self, s):
        return len(s.history) >= 3

    def legal_mask(self, s):
        return np.full(3, not self.is_terminal(s), dtype=bool)

    def scores(self, s):
        return [0.0, 0.0, 0.0]

    def transition(self, s, action, rng, mask=None):
        new = _TreeState((*s.history, action))
        return new, self.legal_mask(new)

    def apply(self, s, action, rng):
        return self.transition(s, action, rng)[0]

    def sample_determinization(self, s, observer, rng):
        return s.copy()


def test_the_values_reach_the_tree_and_each_seat_picks_by_its_own_entry():
    """Max-n: the network says (after player 0's pick) that action 2 is best for seat 0;
    then that player 1's pick 1 is best for seat 1 but worst for seat 0. Seat 0's root
    takes 2, and at seat 1's node the search prefers 1, by seat 1's entry."""
    game = _TreeGame()

    def value(s):
        if len(s.history) == 1:
            return (
                np.array([0.8, -0.4, -0.4]) if s.history[0] == 2 else np.array([-0.5, 0.25, 0.25])
            )
        if len(s.history) == 2:
            base = [0.8, -0.4, -0.4] if s.history[0] == 2 else [-0.5, 0.25, 0.25]
            if s.history[1] == 1:
                return np.array([base[0] - 0.3, base[1] + 0.6, base[2] - 0.3])
            return np.array(base)
        return np.zeros(3)

    agent = MCTSAgent(
        "origin",
        "mcts:sims=200,batch=1,c=1.0",
        rules=game,
        seed=0,
        evaluator=_Fixed(3, value=value),
    )
    root = agent.search(game, _TreeState(), 0)
    assert agent.act(None, np.ones(3, dtype=np.int8), state=_TreeState()) == 2
    node = root.actions[2]
    visits = {a: c.n for a, c in node.actions.items()}
    assert max(visits, key=visits.get) == 1
    # the opposite values turn seat 0 away from action 2
    flipped = MCTSAgent(
        "origin",
        "mcts:sims=200,batch=1",
        rules=game,
        seed=0,
        evaluator=_Fixed(3, value=lambda s: -value(s)),
    )
    assert flipped.act(None, np.ones(3, dtype=np.int8), state=_TreeState()) != 2


def test_a_batch_evaluates_several_leaves_per_forward_pass():
    rules, state = _branching_state("primordial_soup")
    fixed = _Fixed(rules.layout.n)
    agent = MCTSAgent(
        "primordial_soup", "mcts:sims=33,batch=8", rules=rules, seed=0, evaluator=fixed
    )
    root = agent.search(rules, state, rules.current_player(state))
    assert root.n == 33 and agent.last_simulations == 33
    assert fixed.calls[0] == 1  # the root alone, then batches of up to 8 leaves
    assert max(fixed.calls) > 1 and len(fixed.calls) < 33
    assert all(child.n >= 0 for child in root.actions.values())
    assert sum(child.n for child in root.actions.values()) == root.n - 1  # no virtual loss left


# -- with a real network ---------------------------------------------------------------------


def test_origin_search_with_a_network_depends_only_on_what_the_player_sees():
    """Two states equal for the acting player, with other hidden hands and deck orders, get
    the same root statistics with a network: the network reads only the observation of the
    determinized state (sampled hidden cards), never the real ones."""
    env = mid_game("origin", seed=2, steps=60)
    rules, rng = env.rules, np.random.default_rng(5)
    network = PolicyValueNetwork(env_spec("origin", 3), hidden=(32,), seed=3)
    state, compared = env.game_state, 0
    while compared < 3 and not rules.is_terminal(state):
        mask = rules.legal_mask(state)
        me = rules.current_player(state)
        variant, swapped = _hidden_variant(rules, state, me)
        if mask.sum() > 1 and (swapped or variant.decks != state.decks):
            roots = [
                MCTSAgent("origin", "mcts:sims=24,batch=4", seed=11, evaluator=network).search(
                    rules, s, me
                )
                for s in (state, variant)
            ]
            assert _statistics(roots[0]) == _statistics(roots[1])
            assert roots[0].n == 24
            compared += 1
        legal = np.flatnonzero(mask)
        state = rules.apply(state, int(legal[rng.integers(legal.size)]), rng)
    assert compared == 3


@pytest.mark.parametrize("game", ["primordial_soup", "origin"])
def test_a_network_search_plays_legal_games_and_is_reproducible(tmp_path, game):
    from primeval.training.evaluate import tournament

    n = 3
    PolicyValueNetwork(env_spec(game, n), hidden=(16,)).save(tmp_path / "net.json")
    spec = f"mcts:sims=6,batch=3,net={tmp_path / 'net.json'}"
    runs = [tournament(game, n, [spec, "random", "random"], games=1, seed=2) for _ in range(2)]
    assert runs[0][0].games == 1
    assert runs[0][0].scores == runs[1][0].scores


def test_a_ppo_checkpoint_serves_as_the_network(tmp_path):
    """A ``ppo:`` zip as ``net=``: its masked policy as priors, its value head per seat."""
    from sb3_contrib import MaskablePPO

    from primeval.envs.games import make_raw_env
    from primeval.training.agents.checkpoint import save_model
    from primeval.wrappers.single_agent import SingleAgentEnv

    env = SingleAgentEnv(make_raw_env("primordial_soup", 3))
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=16,
        batch_size=16,
        seed=0,
        policy_kwargs={"net_arch": [16]},
        device="cpu",
    )
    save_model(model, tmp_path / "model.zip", env_spec("primordial_soup", 3))
    agent = make_agent(
        f"mcts:sims=6,batch=2,net={tmp_path / 'model.zip'}", "primordial_soup", seed=0
    )
    rules, state = _branching_state("primordial_soup")
    priors, values = agent.evaluator.evaluate_states(rules, [state], [1])
    mask = rules.legal_mask(state).astype(bool)
    assert priors[0][~mask].sum() == 0 and priors[0].sum() == pytest.approx(1, abs=1e-5)
    assert values.shape == (1, 3) and np.all(np.abs(values) <= 1)
    assert agent.act(None, mask, state=state) in np.flatnonzero(mask)


def test_root_noise_mixes_into_the_root_priors_only():
    rules, state = _branching_state("primordial_soup")
    network = PolicyValueNetwork(env_spec("primordial_soup", 3), hidden=(16,), seed=0)
    me = rules.current_player(state)
    plain = MCTSAgent(
        "primordial_soup", "mcts:sims=4,batch=1", rules=rules, seed=0, evaluator=network
    ).search(rules, state, me)
    agent = MCTSAgent(
        "primordial_soup", "mcts:sims=4,batch=1", rules=rules, seed=0, evaluator=network
    )
    agent.root_noise = (0.3, 0.25)
    noisy = agent.search(rules, state, me)
    mask = rules.legal_mask(state).astype(bool)
    assert noisy.priors.sum() == pytest.approx(1, abs=1e-6)
    assert not noisy.priors[~mask].any()
    assert not np.allclose(noisy.priors, plain.priors)
    child = next(iter(noisy.actions.values()))
    twin = plain.actions.get(next(iter(noisy.actions)))
    if child.priors is not None and twin is not None and twin.priors is not None:
        np.testing.assert_allclose(child.priors, twin.priors)  # below the root: untouched


def test_the_cli_names_a_missing_network(tmp_path, capsys):
    from primeval.training.cli import main

    code = main(
        [
            "evaluate",
            "--game",
            "origin",
            "--games",
            "1",
            "--quiet",
            "--agents",
            f"mcts:sims=2,net={tmp_path / 'none.json'}",
            "random",
            "random",
        ]
    )
    assert code == 2
    assert "none.json does not exist" in capsys.readouterr().err


def test_temp_flattens_the_priors_so_the_search_tries_low_rated_moves():
    """A network that puts 0.99 on one action: at ``temp=1`` the search spends every visit
    there; at ``temp=10`` it tries the others too."""
    assert parse_mcts_spec("mcts:net=a.json,temp=3").temp == 3.0
    with pytest.raises(ValueError, match="temp must be a finite number > 0"):
        parse_mcts_spec("mcts:temp=0")
    rules, state = _branching_state("primordial_soup")
    me = rules.current_player(state)
    legal = np.flatnonzero(rules.legal_mask(state))
    target = int(legal[0])

    def prior(s, mask):
        p = np.where(mask, 0.01 / max(mask.sum() - 1, 1), 0.0)
        p[target if mask[target] else np.flatnonzero(mask)[0]] = 0.99
        return p

    visited = {}
    for temp in (1, 10):
        fixed = _Fixed(rules.layout.n, prior=prior, players=rules.num_players)
        agent = MCTSAgent(
            "primordial_soup",
            f"mcts:sims=20,batch=1,temp={temp}",
            rules=rules,
            seed=0,
            evaluator=fixed,
        )
        root = agent.search(rules, state, me)
        visited[temp] = sorted(a for a, child in root.actions.items() if child.n)
    assert visited[1] == [target]
    assert len(visited[10]) > 1 and target in visited[10]


def test_mix_is_a_key_of_the_spec_and_takes_the_rollout_keys():
    config = parse_mcts_spec("mcts:net=a.json,mix=0.5,rollout=heuristic,depth=20,eval=rank")
    assert (config.mix, config.rollout, config.depth, config.eval) == (0.5, "heuristic", 20, "rank")
    assert parse_mcts_spec(config.spec()) == config
    with pytest.raises(ValueError, match=r"mix must be a number in \[0, 1\]"):
        parse_mcts_spec("mcts:net=a.json,mix=1.5")
    with pytest.raises(ValueError, match="prior=2.0 not used with a network"):
        parse_mcts_spec("mcts:net=a.json,mix=0.5,prior=2")


@pytest.mark.parametrize("game", ["primordial_soup", "origin"])
def test_mix_values_the_leaves_by_the_network_and_a_rollout(game):
    """``mix=1``: the leaves' values are the rollouts' alone (two networks with opposite
    values build the same tree); ``mix=0``: the network's alone (they build different
    trees); ``mix=0.5``: half of each (a network worth +1 to every seat moves every
    backed-up mean up by a half against one worth 0)."""
    rules, state = _branching_state(game)
    me = rules.current_player(state)
    n = rules.num_players

    def tree(mix, worth):
        fixed = _Fixed(rules.layout.n, value=lambda s: np.full(n, worth), players=n)
        agent = MCTSAgent(game, f"mcts:sims=30,batch=1,mix={mix},rollout=random,depth=4",
                          rules=rules, seed=0, evaluator=fixed)
        root = agent.search(rules, state, me)
        return {a: (c.n, round(c.w[me], 9)) for a, c in root.actions.items()}, root

    assert tree(1.0, 1.0)[0] == tree(1.0, -1.0)[0]
    assert tree(0.0, 1.0)[0] != tree(0.0, -1.0)[0]
    # at mix=0.5 the same descents (a constant network shifts every value alike, so PUCT
    # chooses the same), every leaf's value up by exactly a half
    (up, root_up), (flat, root_flat) = tree(0.5, 1.0), tree(0.5, 0.0)
    assert {a: c[0] for a, c in up.items()} == {a: c[0] for a, c in flat.items()}
    # every visit's value is a leaf's (mid-game, 30 simulations end no game here)
    assert root_up.w[me] - root_flat.w[me] == pytest.approx(0.5 * root_up.n)
