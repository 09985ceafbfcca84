"""The rule-based Origin agent: legal, deterministic, sensible, and far better than random play.

The hand-built positions use the shipped map (a reconstruction, origin.md "The map"); the parts
that matter here::

    AF1 (yellow) ==S1== EU1 (orange) - EU2 (yellow) - EU4 (purple) - EU7 (green, Steppe)
    AF2 (brown)  ==S2== EU5 (yellow) - EU4
    AF0 (Origin, neutral 1/1 pawn) touches AF2, AF3 (purple), AF4 (orange), AF5 (yellow)
                                   and AF6 (green, Savanna)

``bare()`` is the builders' table with every face-up tile removed, so that a territory's
reward is only its card unless a test puts tiles back.

The win-rate test plays seeded games through ``origin_v0.raw_env``: one heuristic seat
(rotated) against RandomAgents (``against_random.play_games``); also usable as a
script::

    python -m tests.training.agents.heuristics.test_origin 200
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

from primeval.envs import origin_v0
from primeval.envs.origin.config import OriginConfig
from primeval.envs.origin.rules import OriginRules
from primeval.envs.origin.rules.objectives import holds
from primeval.training.agents import RandomAgent
from primeval.training.agents.heuristics import OriginHeuristic
from tests.envs.origin.builders import cid, give_card, put, run, table, tid
from tests.training.agents.heuristics.against_random import main, play_games


def decide(agent, rules, state) -> int:
    """The agent's answer to the pending decision; it must be legal."""
    mask = rules.legal_mask(state)
    action = agent.act(None, mask.astype(np.int8), state=state, seat=state.stack[-1]["player"])
    assert mask[action], f"illegal action {rules.layout.describe(action)}"
    return action


def said(agent, rules, state) -> str:
    """The agent's answer, in words (``evolve_at(EU7)``)."""
    return rules.layout.describe(decide(agent, rules, state))


def bare(num_players: int = 3):
    rules, state = table(num_players)
    state.slots = [0] * len(state.slots)
    return rules, state


def play_turn(agent, rules, state, rng=None):
    """Let the agent answer every decision until its turn's action (and reward) is done."""
    rng = rng if rng is not None else np.random.default_rng(0)
    for _ in range(50):
        if state.stack[-1]["kind"] == "turn" and state.turn_state.get("action_taken"):
            return state
        state = rules.apply(state, decide(agent, rules, state), rng)
    raise AssertionError("the turn's action was never taken")


def slot(rules, colour: str, k: int = 0) -> int:
    """Index of the k-th face-up tile slot of a colour."""
    return [i for i, c in enumerate(rules.data.components.slot_colours) if c == colour][k]


# Measuring against random play ---------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("num_players", "threshold"), [(2, 0.8), (3, 0.67), (4, 0.5)])
def test_beats_random_players_clearly(num_players, threshold):
    """36 seeded games against random seats: far above chance (50% / 33% / 25%)."""
    result = play_games(OriginHeuristic, origin_v0, num_players, 36, seed=1)
    assert result["win_rate"] >= threshold, result
    assert result["score"] > result["others_score"] + 15, result
    assert result["fallbacks"] == 0, result


# Always legal ------------------------------------------------------------------------------

CONFIGS = ({}, {"final_round_starts_with_trigger": True, "random_start_player": False})


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("overrides", CONFIGS, ids=["default", "trigger_first"])
def test_always_legal_and_covered_with_heuristics_in_every_seat(num_players, overrides):
    """Heuristics in every seat: every answer is legal, the rules of thumb answer every
    decision themselves (no random fallback), and the games end."""
    rules = OriginRules(num_players=num_players, **overrides)
    agent = OriginHeuristic(rules, seed=0)
    kinds = set()
    for game in range(5):
        rng = np.random.default_rng(game)
        state = rules.initial_state(rng)
        while not rules.is_terminal(state):
            kinds.add(state.stack[-1]["kind"])
            mask = rules.legal_mask(state)
            action = agent.act(None, mask, state=state, seat=rules.current_player(state))
            assert mask[action]
            state = rules.apply(state, action, rng)
    assert agent.fallbacks == 0
    assert {"keep_objective", "turn", "evolve_pawn", "migrate_to", "reward_option",
            "take_tile"} <= kinds


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_always_legal_against_random_players_through_env(num_players):
    """Through ``env()`` (which ends the game on an illegal action), mixed with random seats
    (so random players' swaps, thefts and raids happen to the heuristic)."""
    env = origin_v0.env(num_players=num_players)
    heuristic = OriginHeuristic(seed=3)  # default rules, built lazily
    random_agent = RandomAgent(seed=3)
    for game in range(4):
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


def test_objective_counting_agrees_with_the_rules():
    """The agent values objectives by counting; at every position of a few games, an
    objective needs nothing more (effort 0) exactly when the rules' ``holds`` says so."""
    from primeval.training.agents.heuristics.origin.context import _Ctx

    rules = OriginRules(num_players=3)
    agent = OriginHeuristic(rules, seed=0)
    purple = [c.index for c in rules.data.cards if c.colour == "purple"]
    holding = 0
    for game in range(3):
        rng = np.random.default_rng(game)
        state = rules.initial_state(rng)
        while not rules.is_terminal(state):
            if state.stack[-1]["kind"] == "turn":
                for p in range(3):
                    ctx = _Ctx(agent, rules, state, p)
                    for c in purple:
                        effort = agent._effort(ctx, rules.data.cards[c].effect, ctx.mine,
                                               ctx.mine_types, 0, 0)
                        assert (effort <= 0) == holds(rules, state, p, c), rules.data.cards[c].id
                        holding += effort <= 0
            mask = rules.legal_mask(state)
            state = rules.apply(state, agent.act(None, mask, state=state), rng)
    assert holding > 100


# Determinism and the interface ------------------------------------------------------------


def test_constructor_arguments():
    """Rules, a config or None (default rules per player count, built lazily); wrong rules
    for the state's player count and other types are rejected."""
    assert OriginHeuristic.name == "heuristic"
    from_config = OriginHeuristic(OriginConfig(num_players=3))
    rules3, state3 = table(3)
    said(from_config, rules3, state3)
    lazy = OriginHeuristic()
    for n in (2, 3, 4):
        rules, state = table(n)
        said(lazy, rules, state)
    rules4, state4 = table(4)
    with pytest.raises(ValueError, match="players"):
        from_config.act(None, rules4.legal_mask(state4), state=state4, seat=0)
    with pytest.raises(TypeError):
        OriginHeuristic("rules")


# Sensible play in hand-built positions -----------------------------------------------------


def test_takes_a_hunting_token_in_reach():
    """A tall pawn on EU4 next to the Steppe (EU7), whose token is still there: go and take
    it rather than a card elsewhere."""
    rules, state = bare()
    put(rules, state, 0, "EU4", height=2)
    state = play_turn(OriginHeuristic(rules), rules, state)
    steppe = tid(rules, "EU7")
    assert state.owner[steppe] == 0 and state.hunt_owner[steppe] == 0


def test_enters_the_territory_whose_tile_stacks_highest():
    """Columns 1-2-3; the only face-up tile is a level 4 in the yellow column: evolve onto a
    yellow territory (Congo, next to the Origin) and take it with the yellow card."""
    rules, state = bare()
    state.slots[slot(rules, "yellow")] = 4
    state.columns[0] = [[1, 2, 3]]
    state.hunt_owner[tid(rules, "AF6")] = 1  # the Savanna's token is gone
    before = len(state.hands[0])
    state = play_turn(OriginHeuristic(rules), rules, state)
    assert state.owner[tid(rules, "AF5")] == 0
    assert state.columns[0] == [[1, 2, 3, 4]]
    assert len(state.hands[0]) == before + 1


def test_completes_a_strait_to_take_its_token():
    """A pawn on Maghreb (AF1): evolving onto Iberia (EU1) across Gibraltar completes the
    strait (token worth 3)."""
    rules, state = bare()
    put(rules, state, 0, "AF1")
    state.strait_value[0] = 3
    agent = OriginHeuristic(rules)
    assert said(agent, rules, state) == "evolve_at(EU1)"
    state = play_turn(agent, rules, state)
    assert state.strait_owner[0] == 0


def test_swaps_a_thinner_pawn_off_the_end_of_a_strait():
    """Player 0 holds the Nile (AF2); player 1's thin pawn stands on the Middle East (EU5),
    the other end of Suez. Player 0's wider pawn on EU4 swaps onto EU5 and takes the token."""
    rules, state = bare()
    put(rules, state, 0, "EU4", width=2)
    put(rules, state, 1, "EU5", colour=1)
    put(rules, state, 0, "AF2", colour=0)
    state.strait_value[1] = 3
    agent = OriginHeuristic(rules)
    assert said(agent, rules, state) == "swap_from(EU4)"
    state = play_turn(agent, rules, state)
    assert state.owner[tid(rules, "EU5")] == 0 and state.owner[tid(rules, "EU4")] == 1
    assert state.strait_owner[1] == 0


def test_evolves_a_taller_or_wider_pawn():
    """Next to the neutral 1/1 pawn the choice is a 1/1 of another colour, a 2/1 or a 1/2:
    the new pawn is taller or wider."""
    rules, state = bare()
    state.hunt_owner[tid(rules, "AF6")] = 1
    agent = OriginHeuristic(rules)
    state = rules.apply(state, decide(agent, rules, state), np.random.default_rng(0))
    assert state.stack[-1]["kind"] == "evolve_pawn"
    segment, pawn = rules.layout.decode(decide(agent, rules, state))
    h, w, _c = rules.data.components.pawn_types[pawn]
    assert segment == "evolve_pawn" and h + w == 3


def test_moves_to_complete_an_objective_in_hand():
    """Two pawns in Africa and the objective "3 pawns in Africa": the third goes to Africa."""
    rules, state = bare()
    put(rules, state, 0, "AF1")
    put(rules, state, 0, "AF2", colour=1)
    give_card(rules, state, 0, "O5")
    state = play_turn(OriginHeuristic(rules), rules, state)
    assert holds(rules, state, 0, cid(rules, "O5"))


def test_plays_an_objective_as_soon_as_it_holds():
    rules, state = bare()
    for territory, height in (("AF1", 1), ("AF2", 2), ("AF3", 3)):
        put(rules, state, 0, territory, height=height)
    give_card(rules, state, 0, "O9")
    give_card(rules, state, 0, "O5")
    assert said(OriginHeuristic(rules), rules, state) == "play_card(O5)"


def test_plays_every_holding_objective_in_the_final_round():
    """In the final round several objectives may be played in one turn: both go."""
    rules, state = bare()
    for territory, height, colour in (("AF1", 1, 0), ("AF3", 1, 1), ("AF5", 2, 0),
                                      ("EU2", 3, 0)):
        put(rules, state, 0, territory, height=height, colour=colour)
    give_card(rules, state, 0, "O4")  # 3 pawns on yellow territories (AF1, AF5, EU2)
    give_card(rules, state, 0, "O5")  # 3 pawns in Africa (AF1, AF3, AF5)
    state.phase = "final_round"
    state.end_triggered = True
    state.final_turns_left = 3
    agent = OriginHeuristic(rules)
    rng = np.random.default_rng(0)
    for _ in range(2):
        action = decide(agent, rules, state)
        assert rules.layout.decode(action)[0] == "play_card"
        state = rules.apply(state, action, rng)
    assert state.objective_points[0] == 7


def test_reward_option_takes_tile_and_card_when_a_tile_fits_else_draws():
    rules, state = bare()
    run(rules, state, {"kind": "reward_option", "player": 0, "colour": "yellow"})
    state.slots[slot(rules, "yellow")] = 1
    agent = OriginHeuristic(rules)
    assert said(agent, rules, state) == "reward_option(tile_and_card/two_brown_tiles)"
    state.slots[slot(rules, "yellow")] = 3  # does not fit: no columns
    assert said(agent, rules, state) == "reward_option(draw_cards/one_other_tile)"


def test_takes_the_tile_that_stacks_highest():
    """Brown reward with columns 1-2: of the brown levels 1, 1, 2, 3 the 3 is taken."""
    rules, state = bare()
    state.columns[0] = [[1, 2]]
    for k, level in enumerate((1, 1, 2, 3)):
        state.slots[slot(rules, "brown", k)] = level
    run(rules, state, {"kind": "take_tile", "player": 0, "colours": ("brown",), "count": 2})
    expected = f"take_tile(brown slot {slot(rules, 'brown', 3)})"
    assert said(OriginHeuristic(rules), rules, state) == expected


def test_returns_the_least_useful_cards():
    """Draw 3, return 2: Resettlement (no use to this agent) goes back first."""
    rules, state = bare()
    for card in ("Y1", "Y13", "Y10"):
        give_card(rules, state, 0, card)
    run(rules, state, {"kind": "return_card", "player": 0, "colour": "yellow", "count": 2})
    assert said(OriginHeuristic(rules), rules, state) == "return_card(Y13)"


def test_keeps_the_most_valuable_objectives_under_the_hand_limit():
    """Three objectives, limit 2: 'Africa' and 'yellow' need one pawn more each; 'North
    America' is far away and goes back."""
    rules, state = bare()
    put(rules, state, 0, "AF1")
    put(rules, state, 0, "AF5", colour=1)
    for card in ("O5", "O9", "O4"):
        give_card(rules, state, 0, card)
    run(rules, state, {"kind": "objective_limit", "player": 0})
    assert said(OriginHeuristic(rules), rules, state) == "return_card(O9)"


def test_plays_an_orange_permanent_when_allowed():
    rules, state = bare()
    state.columns[0] = [[1]]
    give_card(rules, state, 0, "P1")
    assert said(OriginHeuristic(rules), rules, state) == "play_card(P1)"


def test_great_hunt_takes_the_best_token_in_reach():
    """Great Hunt (2 steps) from the Horn (AF4): the Savanna's token is in reach."""
    rules, state = bare()
    put(rules, state, 0, "AF4")
    give_card(rules, state, 0, "Y12")
    agent = OriginHeuristic(rules)
    assert said(agent, rules, state) == "play_card(Y12)"
    state = rules.apply(state, decide(agent, rules, state), np.random.default_rng(0))
    assert said(agent, rules, state) == "choose_territory(AF6)"


def test_extra_action_card_after_the_action():
    """Baby Boom after the turn's action: an extra Evolve with its reward."""
    rules, state = bare()
    put(rules, state, 0, "AF1")
    give_card(rules, state, 0, "Y2")
    state.turn_state = {"action_taken": True}
    agent = OriginHeuristic(rules)
    assert said(agent, rules, state) == "play_card(Y2)"
    state = rules.apply(state, decide(agent, rules, state), np.random.default_rng(0))
    assert said(agent, rules, state).startswith("evolve_at(")


def test_forced_march_reaches_a_hunting_token():
    """No village left, a short pawn on Iberia (EU1), 3 steps from the Steppe (EU7): +2 range
    reaches its token now; without the card it is 2 turns away."""
    rules, state = bare()
    put(rules, state, 0, "EU1")
    state.villages[0] = 0
    give_card(rules, state, 0, "Y3")
    agent = OriginHeuristic(rules)
    assert said(agent, rules, state) == "play_card(Y3)"
    state = play_turn(agent, rules, state)
    assert state.hunt_owner[tid(rules, "EU7")] == 0


def test_raids_and_robs_the_leader():
    """Raid: the leader's level-3 tile fits on the agent's 1-2 column. Theft: from the
    leader too."""
    rules, state = bare()
    state.columns = [[[1, 2]], [[1, 2, 3]], [[1]]]
    give_card(rules, state, 0, "Y7")
    state.turn_state = {"action_taken": True}
    agent = OriginHeuristic(rules)
    rng = np.random.default_rng(0)
    assert said(agent, rules, state) == "play_card(Y7)"
    state = rules.apply(state, decide(agent, rules, state), rng)
    assert said(agent, rules, state) == "choose_player(+1)"
    state = rules.apply(state, decide(agent, rules, state), rng)
    assert said(agent, rules, state) == "choose_column(0)"
    state = rules.apply(state, decide(agent, rules, state), rng)
    assert state.columns[0] == [[1, 2, 3]] and state.columns[1] == [[1, 2]]

    rules, state = bare()
    state.columns = [[], [[1, 2, 3]], [[1]]]
    give_card(rules, state, 1, "Y1")
    give_card(rules, state, 2, "Y5")
    give_card(rules, state, 0, "Y6")
    run(rules, state, {"kind": "steal_card", "player": 0})
    assert said(OriginHeuristic(rules), rules, state) == "choose_player(+1)"


def test_barter_takes_the_best_card_and_gives_the_worst():
    """Barter: player 1 holds 'Africa', which already holds for the agent: take it; give
    Resettlement back."""
    rules, state = bare()
    for territory, height in (("AF1", 1), ("AF2", 2), ("AF3", 3)):
        put(rules, state, 0, territory, height=height)
    give_card(rules, state, 1, "O5")
    give_card(rules, state, 1, "Y5")
    give_card(rules, state, 0, "Y13")
    give_card(rules, state, 0, "Y1")
    run(rules, state, {"kind": "barter_take", "player": 0, "victim": 1})
    agent = OriginHeuristic(rules)
    assert said(agent, rules, state) == "take_card(O5)"
    state = rules.apply(state, decide(agent, rules, state), np.random.default_rng(0))
    assert said(agent, rules, state) == "give_card(Y13)"


# Script use -------------------------------------------------------------------------------

if __name__ == "__main__":  # pragma: no cover
    main(OriginHeuristic, origin_v0, (2, 3, 4), sys.argv)
