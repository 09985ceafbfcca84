"""The MCTS agent (training/agents/mcts.py): its spec, legal play to the end of both games,
no reading of hidden cards, the right move in small games, and reproducibility."""

from __future__ import annotations

import io

import numpy as np
import pytest

from primeval.envs.core.chance import roll_die
from primeval.envs.games import GAMES
from primeval.training.agents import AGENT_SPECS, make_agent
from primeval.training.agents.mcts import MCTSAgent, MCTSConfig, parse_mcts_spec
from primeval.training.cli import build_parser, main
from primeval.training.evaluate import tournament
from primeval.training.play import play_cli
from tests.helpers import mid_game

# -- the spec -------------------------------------------------------------------------------


def test_the_bare_spec_is_the_defaults():
    assert parse_mcts_spec("mcts") == MCTSConfig()
    assert "mcts[:KEY=VALUE,...]" in AGENT_SPECS


def test_a_spec_sets_every_key():
    config = parse_mcts_spec("mcts:sims=50,time=0.5,rollout=heuristic,depth=end,c=0.7,"
                             "eval=margin,prior=2")
    assert config == MCTSConfig(sims=50, time=0.5, rollout="heuristic", depth=None, c=0.7,
                                eval="margin", prior=2.0)
    assert parse_mcts_spec(config.spec()) == config


def test_time_alone_is_a_time_budget():
    config = parse_mcts_spec("mcts:time=0.25")
    assert config.sims is None and config.time == 0.25


def test_the_agent_is_named_by_its_spec():
    agent = make_agent("mcts:sims=30,depth=10", "origin", seed=0)
    assert isinstance(agent, MCTSAgent)
    assert agent.name == "mcts:sims=30,depth=10"
    assert not agent.uses_observation


@pytest.mark.parametrize(("spec", "words"), [
    ("mcts:simz=5", ["unknown key 'simz'", "sims, time, rollout, depth, c, eval, prior"]),
    ("mcts:sims=lots", ["sims must be a whole number", "'lots'"]),
    ("mcts:sims=0", ["sims must be a whole number >= 1"]),
    ("mcts:sims=1.5", ["sims must be a whole number"]),
    ("mcts:time=-1", ["time must be > 0"]),
    ("mcts:time=nan", ["time must be a finite number"]),
    ("mcts:rollout=greedy", ["rollout must be one of random, heuristic", "'greedy'"]),
    ("mcts:depth=-2", ["depth must be >= 0 or 'end'"]),
    ("mcts:depth=deep", ["depth must be a whole number"]),
    ("mcts:c=-0.1", ["c must be a finite number >= 0"]),
    ("mcts:eval=win", ["eval must be one of rank, margin"]),
    ("mcts:prior=-1", ["prior must be a finite number >= 0"]),
    ("mcts:sims=5,sims=6", ["sims is given twice"]),
    ("mcts:sims", ["sims needs a value"]),
    ("mcts:sims=", ["sims needs a value"]),
    ("mcts:", ["nothing after ':'"]),
])
def test_a_bad_spec_names_the_key_and_the_value(spec, words):
    with pytest.raises(ValueError) as info:
        parse_mcts_spec(spec)
    for word in words:
        assert word in str(info.value)
    assert spec in str(info.value)


def test_the_cli_reports_a_bad_spec(capsys):
    code = main(["evaluate", "--game", "origin", "--games", "1", "--quiet",
                 "--agents", "mcts:sims=x", "random", "random"])
    assert code == 2
    assert "sims must be a whole number, got 'x'" in capsys.readouterr().err


# -- legal play to the end, through tournaments ----------------------------------------------


@pytest.mark.parametrize("game", sorted(GAMES))
def test_it_plays_legal_games_to_the_end(game):
    n = GAMES[game].default_players
    results = tournament(game, n, ["mcts:sims=4,depth=4"] + ["random"] * (n - 1), games=1,
                         seed=3)
    assert results[0].games == 1
    assert len(results[0].scores) == 1


def test_rollouts_plain_uct_and_a_time_budget_play_too():
    results = tournament("origin", 3, ["mcts:time=0.002,rollout=heuristic,depth=3",
                                       "mcts:sims=3,depth=end,eval=rank,prior=0",
                                       "heuristic"],
                         games=1, seed=4)
    assert [r.games for r in results] == [1, 1, 1]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_prior_tries_the_heuristic_choice_first(game):
    env = mid_game(game, seed=1, steps=30)
    rules, rng = env.rules, np.random.default_rng(0)
    state = env.game_state
    while rules.legal_mask(state).sum() < 3:
        state = rules.apply(state, int(np.flatnonzero(rules.legal_mask(state))[0]), rng)
    agent = MCTSAgent(game, "mcts:sims=1", seed=0)
    root = agent.search(rules, state, rules.current_player(state))
    bot = make_agent("heuristic", game, seed=0)
    assert list(root.actions) == [root.hint]
    assert root.hint == bot.act(None, rules.legal_mask(state), state=state)


# -- reproducible, and blind to what the player cannot see ---------------------------------


def _moves(game: str, spec: str, seed: int, positions: int = 4) -> list[int]:
    """The agent's moves at a few positions of a seeded random game."""
    env = mid_game(game, seed=1, steps=30)
    rules, rng = env.rules, np.random.default_rng(0)
    agent = MCTSAgent(game, spec, seed=seed)
    state, moves = env.game_state, []
    while len(moves) < positions:
        mask = rules.legal_mask(state)
        if mask.sum() > 1:
            moves.append(agent.act(None, mask, state=state))
        legal = np.flatnonzero(mask)
        state = rules.apply(state, int(legal[rng.integers(legal.size)]), rng)
    return moves


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_same_seed_gives_the_same_moves(game):
    assert _moves(game, "mcts:sims=20,depth=5", 7) == _moves(game, "mcts:sims=20,depth=5", 7)


def _statistics(root) -> dict[int, tuple[int, list[float]]]:
    return {a: (child.n, [round(w, 9) for w in child.w]) for a, child in root.actions.items()}


def _hidden_variant(rules, state, observer):
    """``state`` with the other players' hands swapped where they hold a card of the same
    colour, and the decks reversed: the same for ``observer``, other hidden cards."""
    other = state.copy()
    colour = [card.colour for card in rules.data.cards]
    a, b = [p for p in range(rules.num_players) if p != observer][:2]
    swapped = 0
    for i, ca in enumerate(other.hands[a]):
        for j, cb in enumerate(other.hands[b]):
            if ca != cb and colour[ca] == colour[cb]:
                other.hands[a][i], other.hands[b][j] = cb, ca
                swapped += 1
                break
    other.decks = [list(reversed(deck)) for deck in other.decks]
    return other, swapped


def test_origin_search_depends_only_on_what_the_player_sees():
    """Information-set MCTS: two states equal in everything the acting player sees but with
    other hidden hands and deck orders get the same search (the same visits and values at the
    root, so the same move) for the same seed: the search reads the state only through
    ``sample_determinization``."""
    env = mid_game("origin", seed=2, steps=60)
    rules, rng = env.rules, np.random.default_rng(5)
    encoder = env.obs_encoder
    state, compared = env.game_state, 0
    while compared < 4 and not rules.is_terminal(state):
        mask = rules.legal_mask(state)
        me = rules.current_player(state)
        variant, swapped = _hidden_variant(rules, state, me)
        if mask.sum() > 1 and (swapped or variant.decks != state.decks):
            np.testing.assert_array_equal(encoder.encode(variant, me), encoder.encode(state, me))
            assert variant.to_dict() != state.to_dict()
            roots = [MCTSAgent("origin", "mcts:sims=30,depth=8", seed=11).search(rules, s, me)
                     for s in (state, variant)]
            assert _statistics(roots[0]) == _statistics(roots[1])
            compared += 1
        legal = np.flatnonzero(mask)
        state = rules.apply(state, int(legal[rng.integers(legal.size)]), rng)
    assert compared == 4


def test_a_single_legal_action_is_answered_without_search():
    env = mid_game("primordial_soup", seed=1, steps=10)
    agent = MCTSAgent("primordial_soup", "mcts:sims=50", seed=0)
    mask = np.zeros(env.rules.layout.n, dtype=np.int8)
    mask[3] = 1
    assert agent.act(None, mask, state=env.game_state) == 3
    assert agent.searches == 0


def test_it_needs_the_state():
    agent = MCTSAgent("origin", seed=0)
    with pytest.raises(ValueError, match="needs the rules state"):
        agent.act(None, np.ones(4, dtype=np.int8))


# -- the right move in small games ----------------------------------------------------------


class _State:
    def __init__(self, num_players=3, history=(), points=None):
        self.num_players = num_players
        self.history = tuple(history)
        self.points = list(points or [0.0] * num_players)

    def copy(self):
        return _State(self.num_players, self.history, self.points)


class _TinyGame:
    """A toy game on the rules API, three players.

    Player 0 picks ``safe`` (0: they score 2) or ``gamble`` (1: a die; a 6 scores them 10,
    else the others score 3) or ``offer`` (2: player 1 then picks who scores 5, themself or
    player 0). Safe is best: the gamble wins one time in six, and player 1, picking for
    themself, never gives player 0 the points.
    """

    def __init__(self):
        self.num_players = 3

    def initial_state(self):
        return _State()

    def current_player(self, state):
        if not state.history:
            return 0
        if state.history == (2,):
            return 1
        return -1

    def is_terminal(self, state):
        return self.current_player(state) == -1

    def legal_mask(self, state):
        mask = np.zeros(3, dtype=bool)
        if not self.is_terminal(state):
            mask[: 3 if not state.history else 2] = True
        return mask

    def scores(self, state):
        return list(state.points)

    def transition(self, state, action, rng, mask=None):
        new = state.copy()
        if not state.history:
            if action == 0:
                new.points[0] += 2
            elif action == 1:
                if roll_die(rng) == 6:
                    new.points[0] += 10
                else:
                    new.points[1] += 3
                    new.points[2] += 3
        else:
            new.points[1 if action == 0 else 0] += 5
        new.history = (*state.history, action)
        return new, self.legal_mask(new)

    def apply(self, state, action, rng):
        return self.transition(state, action, rng)[0]

    def sample_determinization(self, state, observer, rng):
        return state.copy()


def test_it_takes_the_sure_points_over_a_gamble_and_a_bad_offer():
    game = _TinyGame()
    agent = MCTSAgent("origin", "mcts:sims=300,depth=end,prior=0", rules=game, seed=0)
    state = game.initial_state()
    assert agent.act(None, game.legal_mask(state), state=state) == 0
    root = agent.search(game, state, 0)
    gamble = root.actions[1]  # a chance node: one child per die face drawn
    assert len(gamble.outcomes) > 1 and set(gamble.outcomes) <= {1, 2, 3, 4, 5, 6}
    assert sum(child.n for child in gamble.outcomes.values()) == gamble.n
    assert root.actions[2].actions[0].n > root.actions[2].actions[1].n  # player 1's choice



def test_rules_for_another_player_count_are_refused():
    env = mid_game("origin", seed=1, steps=10)
    other = GAMES["origin"].raw_env(num_players=2).rules
    agent = MCTSAgent("origin", "mcts:sims=2", rules=other, seed=0)
    mask = np.ones(env.rules.layout.n, dtype=np.int8)
    with pytest.raises(ValueError, match="rules for 2 players but the state has 3"):
        agent.act(None, mask, state=env.game_state)


def test_play_takes_mcts_opponents():
    args = build_parser().parse_args(["play", "--game", "origin", "--players", "3",
                                          "--opponents", "mcts:sims=3", "--seed", "0"])
    stdout = io.StringIO()
    assert play_cli(args, stdin=io.StringIO("1\n" * 6 + "q\n"), stdout=stdout) == 0
    assert stdout.getvalue().rstrip().endswith("\nquit")
    assert "player_1 (mcts:sims=3)" in stdout.getvalue()
