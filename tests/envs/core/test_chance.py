"""Chance events (envs/core/chance.py): explicit chance nodes for planners, scripted dice and
draws, and the ordinary envs' sampling left as it was."""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs.core.chance import (
    CHANCE_PLAYER,
    ChanceEvent,
    ChanceExhaustedError,
    ChanceNode,
    ExplicitChance,
    ScriptedChance,
    pick,
    roll_die,
    shuffle,
)
from primeval.envs.games import GAMES
from primeval.envs.origin.rules.tiles import draw_reserve_tile

GAME_NAMES = sorted(GAMES)


def _rules(game, **kwargs):
    return GAMES[game].raw_env(**kwargs).rules


def _explicit_game(game, seed):
    """An explicit-chance game with uniform random choices and outcomes: every chance node
    met, and the outcomes and actions taken, in order."""
    rules = _rules(game)
    chance = ExplicitChance(rules)
    rng = np.random.default_rng(seed)
    state, nodes, outcomes, actions = chance.initial_state(), [], [], []
    while not chance.is_terminal(state):
        if isinstance(state, ChanceNode):
            assert chance.current_player(state) == CHANCE_PLAYER
            nodes.append(state)
            options = chance.chance_outcomes(state)
            outcome = options[int(rng.integers(len(options)))][0]
            outcomes.append(outcome)
            state = chance.apply_chance(state, outcome)
        else:
            legal = np.flatnonzero(rules.legal_mask(state))
            action = int(legal[rng.integers(legal.size)])
            actions.append(action)
            state = chance.apply(state, action)
    return rules, state, nodes, outcomes, actions


@pytest.mark.parametrize("game", GAME_NAMES)
def test_an_explicit_chance_game_plays_to_the_end_with_probabilities_summing_to_one(game):
    rules, final, nodes, _, _ = _explicit_game(game, seed=0)
    assert rules.is_terminal(final)
    labels = {node.event.label.split(" (")[0] for node in nodes}
    if game == "primordial_soup":
        assert {"die", "environment card"} <= labels
    else:
        assert {"yellow deck", "innovation tiles", "strait tokens", "start player"} <= labels
    for node in nodes:
        options = ExplicitChance(rules).chance_outcomes(node)
        assert len(options) >= 2
        assert sum(p for _, p in options) == pytest.approx(1.0)
        assert all(p > 0 for _, p in options)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_scripting_the_explicit_games_outcomes_replays_the_same_game(game):
    """The chance nodes and a ScriptedChance agree: the outcomes an explicit game took, fed
    to the plain rules as a script, give the same final state."""
    rules, final, _, outcomes, actions = _explicit_game(game, seed=1)
    script = ScriptedChance(outcomes)
    state = rules.initial_state(script)
    for action in actions:
        state = rules.apply(state, action, script)
    assert script.remaining == []
    assert state.to_dict() == final.to_dict()


def _chi_square(counts: dict[int, int], probabilities: list[tuple[int, float]]) -> float:
    total = sum(counts.values())
    return sum((counts.get(o, 0) - p * total) ** 2 / (p * total) for o, p in probabilities)


# The 99.9% quantile of the chi-square distribution by degrees of freedom: a fixed-seed test
# that fails only if the sampled frequencies really differ from the stated probabilities.
CHI2_999 = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52, 10: 29.59, 11: 31.26, 12: 32.91,
            13: 34.53, 14: 36.12, 15: 37.70, 19: 43.82, 23: 49.73}


def test_the_envs_draws_have_the_chance_nodes_probabilities():
    """What the env samples (the rules' chance functions on its numpy generator) against
    what the explicit chance nodes state: Primordial Soup's first two events of the setup
    (the environment card, then a die) and Origin's first shuffle position, 3000 draws each
    from fixed seeds."""
    soup = ExplicitChance(_rules("primordial_soup"))
    card_node = soup.initial_state()
    die_node = soup.apply_chance(card_node, 0)
    assert (card_node.event.label, die_node.event.label) == ("environment card", "die")
    die_probs = soup.chance_outcomes(die_node)
    assert [o for o, _ in die_probs] == [1, 2, 3, 4, 5, 6]
    card_probs = soup.chance_outcomes(card_node)

    origin = ExplicitChance(_rules("origin"))
    node = origin.initial_state()
    while not node.event.label.startswith("yellow deck"):
        node = origin.apply_chance(node, 0)
    deck_probs = origin.chance_outcomes(node)

    rng = np.random.default_rng(0)
    faces, cards, firsts = {}, {}, {}
    for _ in range(3000):
        face = roll_die(rng)
        faces[face] = faces.get(face, 0) + 1
        card = pick(rng, len(card_probs), "environment card")
        cards[card] = cards.get(card, 0) + 1
        first = int(shuffle(rng, len(deck_probs), "yellow deck")[0])
        firsts[first] = firsts.get(first, 0) + 1
    assert _chi_square(faces, die_probs) < CHI2_999[5]
    assert _chi_square(cards, card_probs) < CHI2_999[len(card_probs) - 1]
    assert _chi_square(firsts, deck_probs) < CHI2_999[len(deck_probs) - 1]


def test_the_weighted_tile_draw_matches_the_reserve_counts():
    """Origin's face-down tile: a level drawn with probability count / total."""
    rules = _rules("origin")
    state = rules.initial_state(np.random.default_rng(0))
    reserve = list(state.tile_reserve)
    assert sum(1 for c in reserve if c) >= 3
    script = ScriptedChance([int(np.flatnonzero(reserve)[0])])
    draw_reserve_tile(state.copy(), script)
    (event,) = script.events
    assert list(event.weights) == reserve
    positive = [(o, p) for o, p in event.probabilities() if p > 0]
    counts = {}
    rng = np.random.default_rng(3)
    for _ in range(4000):
        level = draw_reserve_tile(state.copy(), rng)
        counts[level - 1] = counts.get(level - 1, 0) + 1
    assert _chi_square(counts, positive) < CHI2_999[len(positive) - 1]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_explicit_chance_samples_the_same_distribution_as_the_env(game):
    """Over many games, the setup's first event: the env's draw (seeded generators) and the
    explicit node's sampled outcome have the same frequencies as its probabilities."""
    rules = _rules(game)
    chance = ExplicitChance(rules)
    node = chance.initial_state()
    probabilities = chance.chance_outcomes(node)
    rng = np.random.default_rng(11)
    sampled: dict[int, int] = {}
    for _ in range(3000):
        outcome = chance.sample_chance(node, rng)
        sampled[outcome] = sampled.get(outcome, 0) + 1
    assert _chi_square(sampled, probabilities) < CHI2_999[len(probabilities) - 1]


def test_an_impossible_outcome_is_refused_naming_the_event():
    rules = _rules("primordial_soup")
    chance = ExplicitChance(rules)
    die = chance.apply_chance(chance.initial_state(), 0)
    for bad in (0, 7, 2.0, True, "6"):
        with pytest.raises(ValueError, match=r"chance event 'die': outcome .* it may be "
                                             r"\[1, 2, 3, 4, 5, 6\]"):
            chance.apply_chance(die, bad)
    with pytest.raises(ValueError, match="not a chance node"):
        chance.chance_outcomes(rules.initial_state(np.random.default_rng(0)))
    with pytest.raises(ValueError, match="use apply_chance"):
        chance.apply(die, 0)


def test_scripted_dice_decide_the_start_order():
    """primordial_soup.md "Setup": everyone rolls, the highest picks a start space first."""
    rules = _rules("primordial_soup")
    # environment card 0; then two dice per player: player 2 rolls 12, the others less
    script = ScriptedChance([0, 1, 2, 3, 3, 6, 6, 2, 2])
    state = rules.initial_state(script)
    assert script.remaining == []
    assert [e.label for e in script.events] == ["environment card"] + ["die"] * 8
    assert state.stack[-1] == {"kind": "start_space", "player": 2}
    order = [f["player"] for f in reversed(state.stack) if f["kind"] == "start_space"]
    assert order == [2, 1, 3, 0]


def test_a_script_that_runs_out_says_what_came_next_or_falls_back():
    rules = _rules("primordial_soup")
    with pytest.raises(ChanceExhaustedError, match="used up; next event: 'die'"):
        rules.initial_state(ScriptedChance([0]))
    with pytest.raises(ValueError, match="environment card"):
        rules.initial_state(ScriptedChance([99]))
    a = rules.initial_state(ScriptedChance([0], then=5))
    b = rules.initial_state(ScriptedChance([0], then=5))
    assert a.to_dict() == b.to_dict() and a.environment_card == 0


def test_chance_event_probabilities():
    event = ChanceEvent("pick", "tile", (0, 1, 2), (3, 0, 1))
    assert event.probabilities() == [(0, 0.75), (1, 0.0), (2, 0.25)]
    with pytest.raises(ValueError, match="it may be \\[0, 2\\]"):
        event.check(1)
