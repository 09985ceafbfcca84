"""``set_state`` with another game's, another version's or a damaged state: refused with a
clear error, and the env left as it was."""

from __future__ import annotations

import json
import re

import pytest

from primeval.envs.core.saved_state import StateError
from primeval.envs.games import GAMES
from primeval.envs.testing.random_play import advance, random_steps
from tests.helpers import mid_game, play_to_the_end


def _set(key, value):
    def damage(d):
        d[key] = value
    return damage


def _delete(key):
    return lambda d: d.pop(key)


def _entry(key, value):
    def damage(d):
        d[key][d["agents"][0]] = value
    return damage


def _next_version(d):
    """The same game one env version later (``origin_v0`` -> ``origin_v1``)."""
    d["env"] = re.sub(r"_v(\d+)$", lambda m: f"_v{int(m[1]) + 1}", d["env"])


def _wrong_selection(d):
    others = [a for a in d["agents"] if a != d["agent_selection"]]
    d["agent_selection"] = others[0]


def _some_done(d):
    d["terminations"][d["agents"][1]] = True


def _break_game_state(game):
    def damage(d):
        if game == "primordial_soup":
            d["game_state"]["supply"][0] += 1  # a cube too many
        else:
            d["game_state"]["hands"][0].append(0)  # a card twice
    return damage


def _foreign(game):
    other = "origin" if game == "primordial_soup" else "primordial_soup"
    return lambda d: d.update(mid_game(other, seed=2, steps=70).get_state())


def _other_players(game):
    def damage(d):
        env = GAMES[game].raw_env(num_players=4)
        env.reset(seed=2)
        d.update(env.get_state())
    return damage


BAD_STATES = [
    ("another_game", _foreign, "(another game or another version)"),
    ("another_env_version", lambda g: _next_version, "', this env is"),
    ("another_format_version", lambda g: _set("format_version", 2),
     "saved-state format version 2, this primeval reads 1"),
    ("another_config", _other_players, "rules config differs from this env's in "
                                       "['num_players']"),
    ("not_a_state", lambda g: _set("format", "pickle"), "not a primeval saved state"),
    ("missing_key", lambda g: _delete("rng"), "missing key(s) ['rng']"),
    ("config_not_a_dict", lambda g: _set("config", None), "'config' must be a dict"),
    ("broken_game_state", _break_game_state, "damaged game_state (ValueError"),
    ("game_state_not_a_dict", lambda g: _set("game_state", "x"), "damaged game_state"),
    ("damaged_rng", lambda g: _set("rng", {"bit_generator": "Nope"}), "damaged rng state"),
    ("agents_not_a_list", lambda g: _set("agents", "player_0"),
     "'agents' must be a list of distinct agent names"),
    ("duplicate_agents", lambda g: _set("agents", ["player_0", "player_0", "player_1"]),
     "'agents' must be a list of distinct agent names"),
    ("unknown_agent", lambda g: _set("agents", ["player_0", "player_9"]), "unknown agents"),
    ("reward_missing", lambda g: lambda d: d["rewards"].pop(d["agents"][0]),
     "'rewards' must have one entry per live agent"),
    ("reward_not_a_number", lambda g: _entry("rewards", "1.0"),
     "'rewards' values must be a finite number"),
    ("reward_nan", lambda g: _entry("cumulative_rewards", float("nan")),
     "'cumulative_rewards' values must be a finite number"),
    ("flag_not_a_bool", lambda g: _entry("terminations", "no"),
     "'terminations' values must be True or False"),
    ("info_not_a_dict", lambda g: _entry("infos", []), "'infos' values must be a dict"),
    ("unknown_selection", lambda g: _set("agent_selection", "player_9"),
     "unknown agent_selection 'player_9'"),
    ("selection_not_to_act", lambda g: _wrong_selection, "is not the player to act"),
    ("some_agents_done", lambda g: _some_done, "only some live agents are done"),
    ("negative_num_steps", lambda g: _set("num_steps", -1), "num_steps must be an int >= 0"),
    ("bool_num_steps", lambda g: _set("num_steps", True), "num_steps must be an int >= 0"),
    ("not_a_dict", lambda g: lambda d: None, "expected a dict, got list"),
]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(("case", "damage", "message"), BAD_STATES,
                         ids=[c for c, _, _ in BAD_STATES])
def test_bad_saved_state(game, case, damage, message):
    """``set_state`` refuses another game's, another version's or a damaged state with a
    StateError saying why; the env is unchanged and plays on."""
    env = mid_game(game, seed=1, steps=40)
    data = mid_game(game, seed=2, steps=70).get_state()  # a different moment of a game
    data = [data] if case == "not_a_dict" else json.loads(json.dumps(data))
    if case != "not_a_dict":
        damage(game)(data)
    before = env.get_state()
    with pytest.raises(StateError) as err:
        env.set_state(data)
    assert str(err.value).startswith("set_state: ")
    assert message in str(err.value)
    assert env.get_state() == before
    advance(env, 5)
    assert env.num_steps == 45


def test_a_primordial_soup_v0_state_is_refused_by_v1():
    """Primordial Soup v1 changed the rules (issue 15): a state saved by v0 is refused, naming
    both versions, and the env plays on."""
    env = mid_game("primordial_soup", seed=1, steps=40)
    data = json.loads(json.dumps(mid_game("primordial_soup", seed=2, steps=70).get_state()))
    data["env"] = "primordial_soup_v0"
    before = env.get_state()
    with pytest.raises(StateError, match="'primordial_soup_v0', this env is "
                                         "'primordial_soup_v1'"):
        env.set_state(data)
    assert env.get_state() == before


@pytest.mark.parametrize("game", GAMES)
def test_finished_game_with_live_flags_is_refused(game):
    """A finished game whose agents are not marked terminated is damaged."""
    source = GAMES[game].raw_env(num_players=3)
    source.reset(seed=5)
    play_to_the_end(source)
    data = source.get_state()
    data["terminations"] = dict.fromkeys(data["agents"], False)
    env = mid_game(game)
    before = env.get_state()
    with pytest.raises(StateError, match="the game is over but the live agents are not "
                                         "terminated"):
        env.set_state(data)
    assert env.get_state() == before


@pytest.mark.parametrize("game", GAMES)
def test_a_truncated_game_saved_while_agents_leave_loads(game):
    """The control of the checks above: a state saved after max_steps, while the agents
    step out one by one, loads whoever the rules would have next."""
    module = GAMES[game]
    for max_steps in range(20, 40):
        env = module.raw_env(num_players=3, max_steps=max_steps)
        env.reset(seed=0)
        advance(env, max_steps)
        env.step(None)  # player_0 leaves
        if env.possible_agents[env.rules.current_player(env.game_state)] not in env.agents:
            break
    else:
        pytest.fail("no game had its player to act leave first")
    fresh = module.raw_env(num_players=3, max_steps=max_steps)
    fresh.set_state(json.loads(json.dumps(env.get_state())))
    assert fresh.get_state() == env.get_state()
    while fresh.agents:
        fresh.step(None)


def _origin_column(d):
    cols = d["game_state"]["columns"]
    column = next(col for player in cols for col in player if len(col) >= 2)
    column.reverse()  # e.g. [[2, 1]]: a level-2 tile under a level-1 one


def _origin_strait_owner(d):
    d["game_state"]["strait_owner"][0] = 7  # no seat 7 in a 3-player game


def _origin_token_off_green(d):
    gs = d["game_state"]
    off_green = next(t for t, v in enumerate(gs["hunt_value"]) if v == 0)
    gs["hunt_owner"][off_green] = 0


def _soup_gene_and_successor(d):
    """Player 0 given Defense and Armor, its successor, from the supply."""
    from primeval.envs.primordial_soup.data import GENES

    gs = d["game_state"]
    keys = [g.key for g in GENES]
    for gene in ("defense", "armor"):
        gs["players"][0]["genes"][gene] = 1
        gs["gene_supply"][keys.index(gene)] -= 1


def _origin_card(gs, card_id: str) -> int:
    """Take the Origin card ``card_id`` (``"P12"``) out of wherever it is; its index."""
    from primeval.envs.origin.gamedata import load_origin_data

    index = next(c.index for c in load_origin_data().cards if c.id == card_id)
    for pile in (*gs["decks"], *gs["hands"], *gs["permanents"], gs["discard"]):
        if index in pile:
            pile.remove(index)
    return index


def _origin_third_objective(d):
    """Player 0 (two objectives in hand, no Oral Tradition) draws a third objective."""
    gs = d["game_state"]
    gs["hands"][0].append(gs["decks"][2].pop(0))


def _origin_objective_points(d):
    d["game_state"]["objective_points"][0] = 3  # no objective completed


def _origin_objective_bonus_too_high(d):
    """Player 0 completed one objective with Agriculture (+1) in play, but scored +2."""
    from primeval.envs.origin.gamedata import load_origin_data

    gs = d["game_state"]
    gs["permanents"][0].append(_origin_card(gs, "P12"))
    card = gs["decks"][2].pop(0)
    gs["objectives_done"][0].append(card)
    gs["objective_points"][0] = load_origin_data().cards[card].points + 2


def _origin_frame_territory(d):
    d["game_state"]["stack"][-1]["territory"] = 999  # the pending evolve_pawn


def _origin_waiting_draw(d):
    d["game_state"]["stack"].insert(1, {"kind": "draw", "player": 1, "deck": 0, "count": 1})


def _soup_extra_buyer(d):
    """Player 2 (before player 0 in descending ladder order) buys again after player 0."""
    d["game_state"]["stack"].insert(3, {"kind": "buy", "player": 2})


def _soup_player(key, value, player=0):
    def damage(d):
        d["game_state"]["players"][player][key] = value
    return damage


RULE_DAMAGE = [
    ("origin", "tile_column_out_of_order", _origin_column, "is not stacked level 1, 2"),
    ("origin", "strait_owner_not_a_seat", _origin_strait_owner,
     r"strait_owner\[0\] = 7: the token owner is not a seat"),
    ("origin", "hunting_token_off_green", _origin_token_off_green,
     "a hunting token on a territory that is not green"),
    ("origin", "three_objectives_without_oral_tradition", _origin_third_objective,
     re.escape("hands[0]: 3 objectives in hand, over the objective hand limit of 2")),
    ("origin", "objective_points_without_objectives", _origin_objective_points,
     re.escape("objective_points[0] = 3: the completed objectives (objectives_done) are "
               "worth 0 points and no objective bonus card (Agriculture) is in play")),
    ("origin", "objective_bonus_beyond_agriculture", _origin_objective_bonus_too_high,
     re.escape("plus up to [1] each from the objective bonus in play (Agriculture)")),
    ("origin", "frame_territory_out_of_range", _origin_frame_territory,
     re.escape("stack[1] (evolve_pawn): territory = 999, expected an int in 0..41")),
    ("origin", "step_waiting_where_none_waits", _origin_waiting_draw,
     re.escape("stack[1]: a draw waits only under the tile of the same reward")),
    ("origin", "player_list_too_short", lambda d: d["game_state"]["villages"].pop(),
     re.escape("villages: expected a list of 3 ints")),
    ("origin", "count_of_another_type", lambda d: d["game_state"]["reserve"].__setitem__(3, "1"),
     re.escape("reserve[3] = '1': expected an int in 0..")),
    ("origin", "turn_out_of_order", lambda d: d["game_state"].__setitem__("turn", 16),
     "turns go clockwise"),
    ("origin", "empty_slot_beside_a_reserve", lambda d: (
        d["game_state"]["slots"].__setitem__(0, 0),
        d["game_state"].__setitem__("lost_tiles", d["game_state"]["lost_tiles"] + 1)),
     "an empty slot while the tile reserve has tiles"),
    ("origin", "missing_field", lambda d: d["game_state"].pop("lost_tiles"),
     re.escape("fields ['lost_tiles'] missing or unknown")),
    ("primordial_soup", "gene_with_its_successor", _soup_gene_and_successor,
     "and its successor"),
    ("primordial_soup", "buyer_out_of_ladder_order", _soup_extra_buyer,
     re.escape("the players still to act in phase 'new_genes' are [0, 2], expected [0] "
               "(descending ladder order)")),
    ("primordial_soup", "environment_card_missing",
     lambda d: d["game_state"]["environment_deck"].pop(),
     re.escape("environment_deck: 6 cards left in round 3, phase new_genes, but 4 of the 11 "
               "have been turned")),
    ("primordial_soup", "gene_from_a_later_round", _soup_player("genes", {"intelligence": 7}),
     re.escape("players[0].genes['intelligence'] (the round it was acquired) = 7: expected "
               "an int in 0..3")),
    ("primordial_soup", "aggression_used_without_aggression",
     _soup_player("aggression_used", True),
     re.escape("players[0].aggression_used: Aggression is used in phase 5 by its holder")),
    ("primordial_soup", "marker_in_the_finish_zone_during_play", _soup_player("score", 45, 1),
     re.escape("players[1].score = 45: a marker in the finish zone ends the game after "
               "phase 6")),
    ("primordial_soup", "bp_beyond_the_incomes", _soup_player("bp", 100),
     re.escape("players[0].bp = 100: more than the start BP and the 2 incomes so far (24)")),
    ("primordial_soup", "decision_with_only_pass", _soup_player("bp", 0),
     re.escape("the pending buy decision has only 'pass', which is taken without asking")),
    ("primordial_soup", "frame_player_not_a_seat",
     lambda d: d["game_state"]["stack"][-1].__setitem__("player", 7),
     re.escape("stack[3] (buy): player = 7, expected an int in 0..2")),
    ("primordial_soup", "flag_of_another_type",
     lambda d: d["game_state"]["players"][0]["amoeba_done"].__setitem__(0, "yes"),
     re.escape("players[0].amoeba_done: expected 7 True/False flags")),
    ("primordial_soup", "player_field_missing",
     lambda d: d["game_state"]["players"][1].pop("bp"),
     re.escape("players[1]: expected a dict with the fields")),
]


@pytest.mark.parametrize(("game", "case", "damage", "message"), RULE_DAMAGE,
                         ids=[c for _, c, _, _ in RULE_DAMAGE])
def test_a_position_the_rules_cannot_reach_is_refused(game, case, damage, message):
    """The rules' own invariant check (``check_state``, run by ``set_state``) refuses a
    position that breaks a rule, naming it; the env is left as it was."""
    env = mid_game(game, seed=1, steps=40)
    data = json.loads(json.dumps(mid_game(game, seed=2, steps=70).get_state()))
    damage(data)
    before = env.get_state()
    with pytest.raises(StateError, match=message):
        env.set_state(data)
    assert env.get_state() == before


def _origin_state_with(change):
    data = json.loads(json.dumps(mid_game("origin", seed=2, steps=70).get_state()))
    change(data["game_state"])
    return data


def _oral_tradition(gs):
    gs["permanents"][0].append(_origin_card(gs, "P2"))


def _pending_return(gs):
    """Player 1 bartered with player 0, who now returns an objective (player 1's own hand
    limit is checked after)."""
    gs["stack"] = [{"kind": "turn", "player": 1}, {"kind": "objective_limit", "player": 1},
                   {"kind": "return_card", "player": 0, "colour": "purple", "count": 1}]


def _agriculture_bonus(gs):
    from primeval.envs.origin.gamedata import load_origin_data

    gs["permanents"][0].append(_origin_card(gs, "P12"))
    card = gs["decks"][2].pop(0)
    gs["objectives_done"][0].append(card)
    gs["objective_points"][0] = load_origin_data().cards[card].points + 1


@pytest.mark.parametrize("allowed", [_oral_tradition, _pending_return, _agriculture_bonus],
                         ids=["oral_tradition", "pending_return", "agriculture_bonus"])
def test_what_the_objective_checks_allow_loads(allowed):
    """The controls of the objective refusals: three objectives in hand with Oral Tradition
    in play, or while the return of the extra one is pending; an objective scored with
    Agriculture's +1 (origin.md "Objective hand limit", "Agriculture")."""
    extra = (lambda gs: None) if allowed is _agriculture_bonus else _origin_third_objective
    data = _origin_state_with(allowed)
    extra(data)
    env = GAMES["origin"].raw_env(num_players=3)
    env.reset(seed=0)
    to_act = env.rules.current_player(env.rules.state_from_dict(data["game_state"]))
    data["agent_selection"] = env.possible_agents[to_act]
    env.set_state(data)
    assert env.get_state()["game_state"] == data["game_state"]
    play_to_the_end(env)


def _soup_waiting_for(kind: str, seed: int, steps: int) -> dict:
    """A saved 3-player Primordial Soup state whose pending decision is ``kind``: the game
    ``seed`` after ``steps`` steps, or else the first such moment of seeded games."""
    env = mid_game("primordial_soup", seed=seed, steps=steps)
    for other in range(seed, seed + 40):
        if env.game_state.stack and env.game_state.stack[-1]["kind"] == kind:
            return json.loads(json.dumps(env.get_state()))
        env = GAMES["primordial_soup"].raw_env(num_players=3)
        env.reset(seed=other)
        for _turn in random_steps(env, other):
            if env.game_state.stack and env.game_state.stack[-1]["kind"] == kind:
                break
    raise AssertionError(f"no game waits for {kind!r}")


def _relocation_from_elsewhere(gs):
    relocate = gs["stack"][-2]
    relocate["src"] = next(s for s in range(19) if s != relocate["src"])


def _directions_beyond_the_dice(gs):
    frame = gs["stack"][-1]
    frame["allowed"] = [0, 1] if frame["allowed"] != [0, 1] else [2, 3]


def _defence_of_another_attack(gs):
    gs["stack"][-1]["defense_used"] = not gs["stack"][-1]["defense_used"]


def _cling_of_an_amoeba_elsewhere(gs):
    frame = gs["stack"][-1]
    spaces = gs["players"][frame["player"]]["amoeba_space"]
    frame["amoeba"] = next(b for b, sp in enumerate(spaces) if sp != frame["space"])


INTERRUPTS = [
    ("tentacle", 2, 77, _relocation_from_elsewhere, "relocate of player .*: the moving amoeba "
                                                    "is not on space"),
    ("direction", 0, 20, _directions_beyond_the_dice, r"direction of player .*: directions "
                                                      r"\[.*\], the dice \[.*\] allow"),
    ("defend", 0, 261, _defence_of_another_attack, "does not match the attack it defends "
                                                   "against"),
    ("cling", 6, 59, _cling_of_an_amoeba_elsewhere, "cling of player .*: amoeba #.* is not on "
                                                    "the board|is not on the space being left"),
]


@pytest.mark.parametrize(("kind", "seed", "steps", "damage", "message"), INTERRUPTS,
                         ids=[k for k, *_ in INTERRUPTS])
def test_an_interrupt_that_does_not_fit_its_move_or_attack_is_refused(kind, seed, steps,
                                                                      damage, message):
    """Primordial Soup's interrupts name the relocation or attack under way (primordial_soup.md
    "Compass and dice", "Holding", "Tentacle", "Attacks"): a relocation from a space the
    amoeba is not on, directions the dice did not allow, a defence against another attack,
    an amoeba clinging from elsewhere are refused; the undamaged state loads."""
    data = _soup_waiting_for(kind, seed, steps)
    env = GAMES["primordial_soup"].raw_env(num_players=3)
    env.reset(seed=0)
    env.set_state(json.loads(json.dumps(data)))  # the control
    damage(data["game_state"])
    before = env.get_state()
    with pytest.raises(StateError, match=message):
        env.set_state(data)
    assert env.get_state() == before
