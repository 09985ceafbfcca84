"""The rule-based Primordial Soup agent: legal, deterministic, sensible, and far better than
random play.

Board layout A (primordial_soup.md "Board layout"); ids are row-major, ``##`` is the island::

            x=0  x=1  x=2  x=3  x=4
    y=0 N    ..    0   ..   ..   ..
    y=1      1     2    3    4    5
    y=2      6     7   ##    8    9
    y=3     10    11   12   13   14
    y=4 S   15    16   17   18   ..

The win-rate test plays seeded games through ``primordial_soup_v1.raw_env``: one heuristic
seat (rotated) against RandomAgents (``against_random.play_games``); also usable as a
script::

    python -m tests.training.agents.heuristics.test_primordial_soup 200
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

from primeval.envs import primordial_soup_v1
from primeval.envs.primordial_soup.actions import LAYOUT, MEALS, TAKES, Defence, MoveChoice
from primeval.envs.primordial_soup.config import PrimordialSoupConfig
from primeval.envs.primordial_soup.data import EAST, GENE_INDEX, GENES, NORTH, SOUTH, STAY, WEST
from primeval.envs.primordial_soup.rules import PrimordialSoupRules
from primeval.envs.primordial_soup.rules.common import mutation_points
from primeval.training.agents import RandomAgent
from primeval.training.agents.heuristics import PrimordialSoupHeuristic
from tests.envs.primordial_soup.builders import (
    ScriptedDice,
    give_gene,
    put,
    run,
    set_cubes,
    table,
)
from tests.training.agents.heuristics.against_random import main, play_games

EMPTY = [0, 0, 0, 0]
W, N, E, S = WEST, NORTH, EAST, SOUTH


def card(rules, drift: str) -> int:
    """Index of an environment card with this drift (W/N/E/S/none)."""
    return next(i for i, c in enumerate(rules.config.environment_deck) if c[0] == drift)


def decide(agent, rules, state) -> tuple[str, object]:
    """The agent's answer to the pending decision, decoded; it must be legal."""
    mask = rules.legal_mask(state)
    action = agent.act(None, mask.astype(np.int8), state=state, seat=state.stack[-1]["player"])
    assert mask[action], f"illegal action {rules.layout.describe(action)}"
    return LAYOUT.decode(action)


# Measuring against random play ---------------------------------------------------------------


@pytest.mark.parametrize(("num_players", "threshold"), [(4, 0.5), (3, 0.67)])
def test_beats_random_players_clearly(num_players, threshold):
    """40 seeded games against random seats: well above chance (25% / 33%)."""
    result = play_games(PrimordialSoupHeuristic, primordial_soup_v1, num_players, 40, seed=1)
    assert result["win_rate"] >= threshold, result
    assert result["score"] > result["others_score"] + 8, result
    assert result["fallbacks"] == 0, result


# Always legal ------------------------------------------------------------------------------

GENE_SETS = (
    ("struggle", "tentacle", "holding", "speed", "movement_1", "escape"),
    ("aggression", "persistence", "parasitism", "frugality", "streamlining", "defense"),
    ("movement_2", "armor", "substitution", "spores", "ray_protection", "longevity"),
    ("struggle", "escape", "defense", "tentacle", "holding", "division_rate"),
)
#: Thick ozone everywhere: no gene defects, so the starting genes stay all game.
THICK_OZONE = tuple((drift, 40) for drift in ("none", "W", "N", "E", "S", "W", "E", "N", "S",
                                              "E", "W"))
CONFIGS = (
    {},
    {"environment_deck": THICK_OZONE},
    {"board_layout": "B", "six_allows_stay": False, "relocated_amoeba_feeds": True,
     "holding_follows_own": True, "parasitism_requires_shortage": True,
     "environment_deck": THICK_OZONE},
)


@pytest.mark.parametrize("num_players", [3, 4])
@pytest.mark.parametrize("overrides", CONFIGS, ids=["default", "no_defects", "variants"])
def test_always_legal_and_covered_in_every_seat_with_every_gene(num_players, overrides):
    """Heuristics in every seat, each starting with a set of genes (so Struggle, Aggression,
    Tentacle, Holding, Escape, Defense, Parasitism, Speed, ... all come up): every answer is
    legal, and the rules of thumb answer every decision themselves (no random fallback)."""
    rules = PrimordialSoupRules(num_players=num_players, **overrides)
    agent = PrimordialSoupHeuristic(rules, seed=0)
    kinds = set()
    for game in range(12):
        rng = np.random.default_rng(game)
        state = rules.initial_state(rng)
        for p, ps in enumerate(state.players):
            for key in GENE_SETS[(p + game) % len(GENE_SETS)]:
                if state.gene_supply[GENE_INDEX[key]] > 0:
                    state.gene_supply[GENE_INDEX[key]] -= 1
                    ps.genes[key] = 0
        while not rules.is_terminal(state):
            kinds.add(state.stack[-1]["kind"])
            mask = rules.legal_mask(state)
            action = agent.act(None, mask, state=state, seat=rules.current_player(state))
            assert mask[action]
            state = rules.apply(state, action, rng)
    assert agent.fallbacks == 0
    assert {"move", "direction", "move_again", "feed", "buy", "divide", "aggression",
            "tentacle"} <= kinds
    if "environment_deck" in overrides:
        assert {"cling", "defend", "retry"} <= kinds
        if num_players == 4:  # Parasitism has no card with 3 players
            assert "parasite_host" in kinds
    else:
        assert "defect" in kinds


@pytest.mark.parametrize("num_players", [3, 4])
def test_always_legal_against_random_players_through_env(num_players):
    """Through ``env()`` (which ends the game on an illegal action), mixed with random seats."""
    env = primordial_soup_v1.env(num_players=num_players)
    heuristic = PrimordialSoupHeuristic(seed=3)  # default rules, built lazily
    random_agent = RandomAgent(seed=3)
    for game in range(6):
        env.reset(seed=100 + game)
        for agent in env.agent_iter():
            obs, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            seat = int(agent.rsplit("_", 1)[1])
            if seat % 2 == game % 2:
                action = heuristic.act(obs["observation"], obs["action_mask"],
                                       state=env.unwrapped.game_state, seat=seat)
                assert obs["action_mask"][action] == 1
            else:
                action = random_agent.act(obs["observation"], obs["action_mask"])
            env.step(action)
        assert env.unwrapped.rules.is_terminal(env.unwrapped.game_state)
    assert heuristic.fallbacks == 0


# Determinism and the interface ------------------------------------------------------------


def test_constructor_arguments():
    """Rules, a config or None (default rules per player count, built lazily); wrong rules
    for the state's player count and other types are rejected."""
    assert PrimordialSoupHeuristic.name == "heuristic"
    config = PrimordialSoupConfig(num_players=3)
    from_config = PrimordialSoupHeuristic(config)
    rules3, state3 = table(num_players=3)
    run(rules3, state3, {"kind": "buy", "player": 0})
    assert decide(from_config, rules3, state3)[0] in ("buy_gene", "pass")
    lazy = PrimordialSoupHeuristic()
    for n in (3, 4):
        rules, state = table(num_players=n)
        state.players[0].bp = 12
        run(rules, state, {"kind": "buy", "player": 0})
        decide(lazy, rules, state)
    rules4, state4 = table(num_players=4)
    state4.players[0].bp = 12
    run(rules4, state4, {"kind": "buy", "player": 0})
    with pytest.raises(ValueError, match="players"):
        from_config.act(None, rules4.legal_mask(state4), state=state4, seat=0)
    with pytest.raises(TypeError):
        PrimordialSoupHeuristic("rules")


# Sensible play in hand-built positions -----------------------------------------------------


def test_drifts_when_the_drift_destination_has_food():
    """Drift east from 13 to 14, which has the setup cubes: no BP is spent."""
    rules, state = table()
    put(state, 0, 1, 13)
    state.environment_card = card(rules, "E")
    run(rules, state, {"kind": "amoeba_turns", "player": 0})
    assert decide(PrimordialSoupHeuristic(rules), rules, state) == ("move", MoveChoice.DRIFT)


def test_pays_for_an_active_move_when_the_drift_destination_is_bare():
    """Drift east from 13 would reach the bare space 14; the other neighbours have food, so
    the amoeba pays 1 BP and rolls."""
    rules, state = table()
    put(state, 0, 1, 13)
    set_cubes(state, 14, EMPTY)
    state.environment_card = card(rules, "E")
    run(rules, state, {"kind": "amoeba_turns", "player": 0})
    assert decide(PrimordialSoupHeuristic(rules), rules, state) == ("move", MoveChoice.ACTIVE_MOVE)


def test_stays_put_with_holding_when_only_the_current_space_has_food():
    """Holding: stay on 13 (food) rather than drift to the bare space 14."""
    rules, state = table()
    put(state, 0, 1, 13)
    give_gene(state, 0, "holding")
    for space in (8, 12, 14, 18):
        set_cubes(state, space, EMPTY)
    state.environment_card = card(rules, "E")
    run(rules, state, {"kind": "amoeba_turns", "player": 0})
    assert decide(PrimordialSoupHeuristic(rules), rules, state) == ("move", MoveChoice.HOLD)


def test_movement_2_and_a_six_choose_the_direction_with_food():
    """Only the space south of 13 (18) has food; a free choice goes south."""
    rules, state = table()
    put(state, 0, 1, 13)
    for space in (8, 12, 13, 14):
        set_cubes(state, space, EMPTY)
    frame = {"kind": "direction", "player": 0, "amoeba": 0, "mode": "turn", "step": 1,
             "allowed": (W, N, E, S, STAY)}
    run(rules, state, frame)
    assert decide(PrimordialSoupHeuristic(rules), rules, state) == ("direction", S)


def test_eats_the_meal_that_leaves_food_for_the_next_amoeba():
    """3 players, colours +1 and +2 at 4 and 2 cubes: eating 2:1 leaves (2, 1), another
    meal; eating 1:2 leaves (3, 0), none."""
    rules, state = table(num_players=3)
    put(state, 0, 1, 13)
    set_cubes(state, 13, [0, 4, 2])
    run(rules, state, {"kind": "feed", "player": 0, "amoeba": 0, "struggle_used": False})
    segment, index = decide(PrimordialSoupHeuristic(rules), rules, state)
    assert segment == "eat" and MEALS[index] == (2, 1, 0)


def test_struggles_against_a_foreign_amoeba_never_an_own_one():
    """Starving on the bare space 13 with Struggle: attack player 1's amoeba, not own #2."""
    rules, state = table()
    put(state, 0, 1, 13)
    put(state, 0, 2, 13)
    put(state, 1, 1, 13)
    set_cubes(state, 13, EMPTY)
    give_gene(state, 0, "struggle")
    run(rules, state, {"kind": "feed", "player": 0, "amoeba": 0, "struggle_used": False})
    assert decide(PrimordialSoupHeuristic(rules), rules, state) == ("attack", (1, 0))


def test_defends_an_attacked_amoeba_when_affordable():
    """Player 1 (Defense, 4 BP) is attacked by player 0's Struggle: it fights."""
    rules, state = table()
    put(state, 0, 1, 13)
    put(state, 1, 1, 13)
    set_cubes(state, 13, EMPTY)
    give_gene(state, 0, "struggle")
    give_gene(state, 1, "defense")
    run(rules, state, {"kind": "feed", "player": 0, "amoeba": 0, "struggle_used": False})
    state = rules.apply(state, LAYOUT.encode("attack", 1, 0), np.random.default_rng(0))
    assert state.stack[-1]["kind"] == "defend"
    assert decide(PrimordialSoupHeuristic(rules), rules, state) == ("defend", Defence.DEFENSE)


def test_escapes_after_losing_the_defense_fight():
    """Player 1 (Defense and Escape) lost its Defense fight: it escapes rather than be eaten."""
    rules, state = table()
    put(state, 0, 1, 13)
    put(state, 1, 1, 13)
    set_cubes(state, 13, EMPTY)
    give_gene(state, 0, "struggle")
    give_gene(state, 1, "defense")
    give_gene(state, 1, "escape")
    run(rules, state, {"kind": "feed", "player": 0, "amoeba": 0, "struggle_used": False})
    state = rules.apply(state, LAYOUT.encode("attack", 1, 0), np.random.default_rng(0))
    state = rules.apply(state, LAYOUT.encode("defend", Defence.DEFENSE), ScriptedDice([6, 1]))
    assert state.stack[-1]["kind"] == "defend" and state.stack[-1]["defense_used"]
    assert decide(PrimordialSoupHeuristic(rules), rules, state) == ("defend", Defence.ESCAPE)


def test_clinging_amoeba_takes_cubes_with_its_tentacle():
    """Player 1's amoeba (Holding, Tentacle) clings to player 0's amoeba drifting 13 -> 14,
    where colour 0 (its relative +3) is missing: it takes that colour along."""
    rules, state = table()
    put(state, 0, 1, 13)
    put(state, 1, 1, 13)
    give_gene(state, 1, "holding")
    give_gene(state, 1, "tentacle")
    set_cubes(state, 14, [0, 1, 1, 1])
    state.environment_card = card(rules, "E")
    run(rules, state, {"kind": "amoeba_turns", "player": 0})
    state = rules.apply(state, LAYOUT.encode("move", MoveChoice.DRIFT), np.random.default_rng(0))
    state = rules.apply(state, LAYOUT.encode("cling"), np.random.default_rng(0))
    assert state.stack[-1]["kind"] == "tentacle" and state.stack[-1]["player"] == 1
    segment, index = decide(PrimordialSoupHeuristic(rules), rules, state)
    assert segment == "tentacle"
    take = TAKES[index]
    assert take[0] == 0 and take[3] >= 1


def test_tentacle_takes_foreign_cubes_that_complete_a_meal():
    """Moving 13 -> 14 with Tentacle; 14 lacks colour 3 (relative +3): take it along, and
    never the own colour."""
    rules, state = table()
    put(state, 0, 1, 13)
    give_gene(state, 0, "tentacle")
    set_cubes(state, 14, [0, 1, 1, 0])
    state.environment_card = card(rules, "E")
    run(rules, state, {"kind": "amoeba_turns", "player": 0})
    state = rules.apply(state, LAYOUT.encode("move", MoveChoice.DRIFT), np.random.default_rng(0))
    assert state.stack[-1]["kind"] == "tentacle"
    segment, index = decide(PrimordialSoupHeuristic(rules), rules, state)
    assert segment == "tentacle"
    take = TAKES[index]
    assert take[0] == 0 and take[3] >= 1


def test_clings_when_the_destination_has_more_food():
    """Player 1's amoeba (Holding, already fed) shares the bare space 13 with player 0's
    amoeba, which leaves for 14 (food): cling on."""
    rules, state = table()
    put(state, 0, 1, 13)
    put(state, 1, 1, 13)
    state.players[1].amoeba_done[0] = True
    give_gene(state, 1, "holding")
    set_cubes(state, 13, EMPTY)
    state.environment_card = card(rules, "E")
    run(rules, state, {"kind": "amoeba_turns", "player": 0})
    state = rules.apply(state, LAYOUT.encode("move", MoveChoice.DRIFT), np.random.default_rng(0))
    assert state.stack[-1]["kind"] == "cling"
    assert decide(PrimordialSoupHeuristic(rules), rules, state) == ("cling", 0)


def test_attacks_with_aggression():
    """Phase 5: player 0 (Aggression, 1 BP) shares space 13 with player 1: attack."""
    rules, state = table()
    put(state, 0, 1, 13)
    put(state, 1, 1, 13)
    give_gene(state, 0, "aggression")
    state.players[0].bp = 1
    run(rules, state, {"kind": "aggression", "player": 0})
    assert decide(PrimordialSoupHeuristic(rules), rules, state) == ("attack", (1, 0))


def test_buys_genes_within_the_ozone_budget_and_keeps_bp_for_division():
    """With 30 BP and 5 amoebas the agent buys genes, keeps the MP sum within its cap, and
    leaves enough BP (with the income) to divide up to 7 amoebas."""
    rules, state = table()
    for number, space in zip(range(1, 6), (1, 3, 5, 15, 17), strict=True):
        put(state, 0, number, space)
    state.players[0].bp = 30
    run(rules, state, {"kind": "buy", "player": 0})
    agent = PrimordialSoupHeuristic(rules)
    rng = np.random.default_rng(0)
    while state.stack and state.stack[-1]["kind"] == "buy":
        segment, index = decide(agent, rules, state)
        state = rules.apply(state, LAYOUT.encode(segment, *(() if segment == "pass"
                                                            else (index,))), rng)
    ps = state.players[0]
    assert ps.genes, "bought nothing"
    assert mutation_points(ps) <= agent.mp_cap
    cost = rules.config.division_cost_with_rate if ps.has("division_rate") else \
        rules.config.division_cost
    assert ps.bp + rules.config.income_bp >= 2 * cost


def test_gives_up_the_least_useful_gene_or_pays_bp():
    """A defect of 1 with BP to spare is paid in BP; a defect of 6 with no BP gives up a
    gene that covers much of it."""
    rules, state = table()
    put(state, 0, 1, 13)
    for key in ("intelligence", "movement_1", "longevity"):
        give_gene(state, 0, key)
    run(rules, state, {"kind": "defect", "player": 0, "remaining": 1})
    agent = PrimordialSoupHeuristic(rules)
    assert decide(agent, rules, state)[0] == "pay_bp"
    rules, state = table()
    put(state, 0, 1, 13)
    for key in ("intelligence", "movement_1", "longevity"):
        give_gene(state, 0, key)
    state.players[0].bp = 0
    run(rules, state, {"kind": "defect", "player": 0, "remaining": 6})
    segment, index = decide(agent, rules, state)
    assert segment == "give_up_gene" and GENES[index].key != "movement_1"


def test_divides_onto_spaces_with_food_and_keeps_a_reserve():
    """Phase 4 with 12 BP after income: the new amoeba goes next to an old one, onto a
    neighbour with food (8, 12 and 18 are bare, no drift); then the agent stops, keeping
    6 BP rather than dividing down to 0."""
    rules, state = table()
    put(state, 0, 1, 13)
    put(state, 0, 2, 0)
    state.environment_card = card(rules, "none")
    for space in (8, 12, 18):
        set_cubes(state, space, EMPTY)
    state.players[0].bp = 2
    run(rules, state, {"kind": "division_income", "player": 0})
    agent = PrimordialSoupHeuristic(rules)
    segment, (number, space) = decide(agent, rules, state)
    assert segment == "place_amoeba" and space in (14, 2)
    state = rules.apply(state, LAYOUT.encode(segment, number, space), np.random.default_rng(0))
    assert state.players[0].bp == 6
    assert decide(agent, rules, state) == ("pass", 0)


def test_picks_the_farthest_free_start_space():
    """Setup: the ladder start space is a head start, so take the farthest one free."""
    rules = PrimordialSoupRules(num_players=4)
    state = rules.initial_state(np.random.default_rng(0))
    agent = PrimordialSoupHeuristic(rules)
    assert state.stack[-1]["kind"] == "start_space"
    assert decide(agent, rules, state) == ("start_space", 3)


# Script use -------------------------------------------------------------------------------

if __name__ == "__main__":  # pragma: no cover
    main(PrimordialSoupHeuristic, primordial_soup_v1, (4, 3), sys.argv)
