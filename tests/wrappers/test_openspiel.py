"""The games as OpenSpiel games (``primeval.wrappers.openspiel``, the ``openspiel`` extra):
OpenSpiel's own random simulation test, its MCTS bot, chance outcomes and observations.
Skipped when pyspiel is not installed; ``make test`` installs it."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402

import primeval.wrappers.openspiel  # noqa: E402, F401  (registers the games)
from primeval.envs.core.chance import CHANCE_PLAYER, ExplicitChance  # noqa: E402
from primeval.envs.games import GAMES  # noqa: E402

#: docs/integrations.md's example (run by tests/test_docs.py) adds Origin with 2 players.
CASES = [(name, max(game.player_counts)) for name, game in GAMES.items()]


def load(game: str, players: int, **params):
    args = ",".join(f"{k}={v}" for k, v in {"players": players, **params}.items())
    return pyspiel.load_game(f"python_primeval_{game}({args})")


def random_states(game, seed: int, every: int = 1):
    """Every ``every``-th state of one random game, chance nodes included."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    k = 0
    while not state.is_terminal():
        if k % every == 0:
            yield state
        k += 1
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    yield state


@pytest.mark.parametrize(("game", "players"), CASES)
def test_random_sim_test_passes(game, players):
    """OpenSpiel's random simulation test: legal actions sorted, empty for the other
    players, masks, unique action strings, clones equal, chance sampled from its outcomes,
    observations and information states at every decision and at the end, zero-sum
    returns within the utility bounds, game length within max_game_length."""
    pyspiel.random_sim_test(load(game, players), num_sims=1, serialize=False, verbose=False)


def test_random_sim_test_with_serialization():
    """Pickled states (OpenSpiel's serialization of Python games) come back equal."""
    pyspiel.random_sim_test(load("primordial_soup", 3), num_sims=1, serialize=True,
                            verbose=False)


@pytest.mark.parametrize("game", list(GAMES))
def test_game_type_and_info(game):
    spec = GAMES[game]
    g = load(game, spec.default_players)
    gtype = g.get_type()
    assert gtype.short_name == f"python_primeval_{game}"
    assert gtype.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert gtype.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert gtype.information == (pyspiel.GameType.Information.PERFECT_INFORMATION
                                 if spec.perfect_information
                                 else pyspiel.GameType.Information.IMPERFECT_INFORMATION)
    assert gtype.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (gtype.min_num_players, gtype.max_num_players) == (min(spec.player_counts),
                                                              max(spec.player_counts))
    rules = spec.raw_env(num_players=spec.default_players).rules
    assert g.num_distinct_actions() == rules.layout.n
    assert g.num_players() == spec.default_players
    assert (g.min_utility(), g.max_utility(), g.utility_sum()) == (-1.0, 1.0, 0.0)
    assert g.observation_tensor_shape() == list(spec.raw_env().obs_encoder.space().shape)


def test_load_game_helper_and_bad_players():
    g = primeval.wrappers.openspiel.load_game("origin", 4, obs_encoder="graph")
    assert g.num_players() == 4 and g.get_parameters()["obs_encoder"] == "graph"
    with pytest.raises(Exception, match="players=5"):
        load("origin", 5)


@pytest.mark.parametrize(("game", "players"), [("primordial_soup", 3), ("origin", 3)])
def test_chance_outcomes_are_the_chance_api(game, players):
    """Each chance node lists the chance API's outcomes, probabilities summing to 1, ids
    within max_chance_outcomes; the setup starts with chance."""
    g = load(game, players)
    first = g.new_initial_state()
    assert first.is_chance_node() and first.current_player() == pyspiel.PlayerId.CHANCE
    chance = ExplicitChance(GAMES[game].raw_env(num_players=players).rules)
    assert chance.current_player(chance.initial_state()) == CHANCE_PLAYER
    nodes = 0
    for state in random_states(g, seed=3):
        if not state.is_chance_node():
            continue
        nodes += 1
        outcomes = state.chance_outcomes()
        assert outcomes == sorted(chance.chance_outcomes(state.chance_node))
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert all(0 <= a < g.max_chance_outcomes() for a, _ in outcomes)
        assert state.legal_actions() == [a for a, _ in outcomes]
    assert nodes > 10


@pytest.mark.parametrize("encoder", ["flat", "planes"])
def test_observation_is_the_encoder_view_soup(encoder):
    check_observations("primordial_soup", 3, encoder)


@pytest.mark.parametrize("encoder", ["flat", "graph"])
def test_observation_is_the_encoder_view_origin(encoder):
    check_observations("origin", 3, encoder)


def check_observations(game, players, encoder):
    """observation_tensor(p) and information_state_tensor(p) are the encoder's observation
    for seat p (the env's observe without the mask); the strings are the view for p."""
    g = load(game, players, obs_encoder=encoder)
    env = GAMES[game].raw_env(num_players=players, obs_encoder=encoder)
    shape = env.obs_encoder.space().shape
    checked = 0
    for state in random_states(g, seed=5, every=17):
        if state.rules_state is None:  # the setup, before any state exists
            assert not np.any(state.observation_tensor(0))
            continue
        for p in range(players):
            expected = env.obs_encoder.encode(state.rules_state, p)
            got = np.asarray(state.observation_tensor(p), np.float32).reshape(shape)
            np.testing.assert_array_equal(got, expected)
            np.testing.assert_array_equal(
                np.asarray(state.information_state_tensor(p), np.float32).reshape(shape),
                expected)
            assert state.observation_string(p) == env.view.to_text(state.rules_state, p)
            checked += 1
    assert checked > 10


def test_mcts_bot_plays_a_whole_game():
    """OpenSpiel's MCTSBot with random rollouts (a small budget) plays seat 0 of a 3-player
    Primordial Soup game against random bots to the end: every move legal, zero-sum
    returns. The code of docs/integrations.md's example, which plays Origin."""
    game = pyspiel.load_game("python_primeval_primordial_soup(players=3)")
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=2, evaluator=evaluator,
                         random_state=rng),
            uniform_random.UniformRandomBot(1, rng), uniform_random.UniformRandomBot(2, rng)]
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            player = state.current_player()
            action = bots[player].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            moves += player == 0
    assert moves > 10
    returns = state.returns()
    assert sum(returns) == pytest.approx(0.0) and all(-1.0 <= r <= 1.0 for r in returns)
