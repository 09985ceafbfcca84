"""Rule tests: attacks in phase 1 (primordial_soup.md "Genes" and "Attacks"): Struggle for
Survival, Escape, Defense, Armor, Persistence, and Holding following an escaping target.

The usual position: player 0's amoeba #1 (the attacker, with Struggle) and player 1's
amoeba #1 (the target) share space 13, which has no food; the environment card has no drift,
so drifting stays. Neighbours of 13 on layout A::

        8
    12  13  14
        18

Action indices: ``attack`` (relative owner, amoeba number - 1); ``defend`` 0 Escape,
1 Defense. A Defense fight rolls the attacker's die first, then the defender's.
"""

from __future__ import annotations

import pytest

from primeval.envs.primordial_soup.actions import MEAL_INDEX, TAKE_INDEX, Defence, MoveChoice
from tests.envs.primordial_soup.builders import (
    give_gene,
    pending,
    play,
    put,
    run,
    segment_options,
    set_cubes,
    table,
)

SPACE = 13
EMPTY = [0, 0, 0, 0]


def space_of(state, player: int, number: int) -> int:
    return state.players[player].amoeba_space[number - 1]


def damage(state, player: int, number: int) -> int:
    return state.players[player].amoeba_damage[number - 1]


def struggle_table(target_genes=(), attacker_genes=("struggle",), **config):
    """The usual position, phase 1 started: player 0's amoeba #1 is about to feed on the
    empty space 13, where player 1's amoeba #1 stands (it has not had its turn yet)."""
    rules, state = table(**config)
    put(state, 0, 1, SPACE)
    put(state, 1, 1, SPACE)
    set_cubes(state, SPACE, EMPTY)
    for key in attacker_genes:
        give_gene(state, 0, key)
    for key in target_genes:
        give_gene(state, 1, key)
    state.environment_card = next(
        i for i, c in enumerate(rules.config.environment_deck) if c[0] == "none")
    state = run(rules, state, {"kind": "phase1"})
    state = play(rules, state, "move", MoveChoice.DRIFT)
    assert pending(state) == ("feed", 0, 1)
    return rules, state


# Struggle for Survival ---------------------------------------------------------------------


def test_struggle_offered_only_when_the_standard_meal_is_impossible():
    """primordial_soup.md "Struggle for Survival" and "Phase 1: Move and feed": an amoeba that
    would starve may attack another amoeba on its space; with the standard meal there it must
    eat instead."""
    rules, state = struggle_table()
    assert segment_options(rules, state, "attack") == {(1, 0)}
    assert segment_options(rules, state, "pass") == {0}
    rules, fed = table()
    put(fed, 0, 1, SPACE)
    put(fed, 1, 1, SPACE)
    give_gene(fed, 0, "struggle")
    run(rules, fed, {"kind": "feed", "player": 0, "amoeba": 0, "struggle_used": False})
    assert segment_options(rules, fed, "attack") == set()


def test_struggle_success_eats_the_target_and_leaves_1_cube_of_each_colour():
    """primordial_soup.md "Struggle attacks" (success): pay 1 BP; a target without defences is
    removed and 1 cube of each colour goes into the space; the attacker neither eats, excretes
    nor starves. The eaten amoeba misses its own phase-1 turn::

        13: [A0 #1, B1 #1], no food  ->  13: [A0 #1], cubes [1, 1, 1, 1]
    """
    rules, state = struggle_table()
    state = play(rules, state, "attack", 1, 0)
    assert state.stack == []  # player 1's amoeba was eaten: no turn for it
    assert space_of(state, 1, 1) == -1
    assert state.cubes[SPACE] == [1, 1, 1, 1]
    assert damage(state, 0, 1) == 0
    assert state.players[0].bp == 3
    assert state.players[1].bp == 4


def test_struggle_cubes_limited_by_the_supply():
    """primordial_soup.md "Components" (limited cubes): the violent-death cubes are placed only
    as far as the supply allows, never another colour instead."""
    rules, state = struggle_table()
    set_cubes(state, 0, [2, 2, 2 + state.supply[2], 2])  # park all of colour 2 on space 0
    assert state.supply[2] == 0
    state = play(rules, state, "attack", 1, 0)
    assert state.cubes[SPACE] == [1, 1, 0, 1]


def test_struggle_may_target_own_amoebas():
    """primordial_soup.md "Struggle for Survival" and "Struggle attacks": the target may be
    one's own amoeba."""
    rules, state = table()
    put(state, 0, 1, SPACE)
    put(state, 0, 2, SPACE)
    set_cubes(state, SPACE, EMPTY)
    give_gene(state, 0, "struggle")
    run(rules, state, {"kind": "feed", "player": 0, "amoeba": 0, "struggle_used": False})
    assert segment_options(rules, state, "attack") == {(0, 1)}
    state = play(rules, state, "attack", 0, 1)
    assert space_of(state, 0, 2) == -1
    assert space_of(state, 0, 1) == SPACE
    assert state.cubes[SPACE] == [1, 1, 1, 1]


def test_struggle_cannot_target_armored_amoebas():
    """primordial_soup.md "Armor" and "Struggle attacks": in phase 1 armored amoebas cannot be
    attacked; with no other target the amoeba simply starves."""
    def position(with_third: bool):
        rules, state = table()
        put(state, 0, 1, SPACE)
        put(state, 1, 1, SPACE)
        if with_third:
            put(state, 2, 1, SPACE)
        set_cubes(state, SPACE, EMPTY)
        give_gene(state, 0, "struggle")
        give_gene(state, 1, "armor")
        run(rules, state, {"kind": "feed", "player": 0, "amoeba": 0, "struggle_used": False})
        return rules, state

    rules, state = position(with_third=True)
    assert segment_options(rules, state, "attack") == {(2, 0)}
    rules, state = position(with_third=False)
    assert state.stack == []
    assert damage(state, 0, 1) == 1
    assert space_of(state, 1, 1) == SPACE


def test_struggle_needs_a_bp():
    """primordial_soup.md "Struggle for Survival": an attack costs 1 BP; without BP there is no
    attack."""
    rules, state = table()
    put(state, 0, 1, SPACE)
    put(state, 1, 1, SPACE)
    set_cubes(state, SPACE, EMPTY)
    give_gene(state, 0, "struggle")
    state.players[0].bp = 0
    run(rules, state, {"kind": "feed", "player": 0, "amoeba": 0, "struggle_used": False})
    assert state.stack == []
    assert damage(state, 0, 1) == 1


def test_struggle_is_optional():
    """primordial_soup.md "Struggle for Survival": the amoeba *may* attack; it may also starve."""
    rules, state = struggle_table()
    state = play(rules, state, "pass")
    assert damage(state, 0, 1) == 1
    assert space_of(state, 1, 1) == SPACE
    assert state.players[0].bp == 4


# Defense -----------------------------------------------------------------------------------


def test_defense_won_by_the_defender_makes_the_attacker_starve():
    """primordial_soup.md "Defense" and "Defences": for 1 BP the attack becomes a die fight; the
    defender rolls higher and survives; the attacker starves (+1 DP) and eats nothing."""
    rules, state = struggle_table(target_genes=("defense",))
    state = play(rules, state, "attack", 1, 0)
    assert pending(state) == ("defend", 1, 1)
    assert segment_options(rules, state, "defend") == {Defence.DEFENSE}
    assert segment_options(rules, state, "pass") == {0}
    state = play(rules, state, "defend", Defence.DEFENSE, dice=[2, 5])
    assert space_of(state, 1, 1) == SPACE
    assert damage(state, 0, 1) == 1
    assert state.cubes[SPACE] == EMPTY
    assert [state.players[0].bp, state.players[1].bp] == [3, 3]
    assert pending(state) == ("move", 1, 1)  # the defender still takes its turn


def test_defense_won_by_the_attacker_eats_the_target():
    """primordial_soup.md "Defense" and "Struggle attacks" (adopted: 1 cube of each colour after
    a fight the attacker wins): the attacker rolls higher and eats the defender."""
    rules, state = struggle_table(target_genes=("defense",))
    state = play(rules, state, "attack", 1, 0)
    state = play(rules, state, "defend", Defence.DEFENSE, dice=[6, 1])
    assert space_of(state, 1, 1) == -1
    assert damage(state, 0, 1) == 0
    assert state.cubes[SPACE] == [1, 1, 1, 1]
    assert state.stack == []


def test_defense_fight_ties_are_rerolled():
    """primordial_soup.md "Defense": both roll a die, the higher wins, ties re-roll."""
    rules, state = struggle_table(target_genes=("defense",))
    state = play(rules, state, "attack", 1, 0)
    state = play(rules, state, "defend", Defence.DEFENSE, dice=[4, 4, 1, 1, 3, 2])
    assert space_of(state, 1, 1) == -1
    assert state.dice == (3, 2)


def test_defense_needs_a_bp():
    """primordial_soup.md "Defense": the fight costs 1 BP; without BP the target cannot defend."""
    rules, state = struggle_table(target_genes=("defense",))
    state.players[1].bp = 0
    state = play(rules, state, "attack", 1, 0)
    assert space_of(state, 1, 1) == -1


def test_the_target_may_yield_instead_of_defending():
    """primordial_soup.md "Defences": defences are open to the target's owner, not compulsory."""
    rules, state = struggle_table(target_genes=("defense",))
    state = play(rules, state, "attack", 1, 0)
    state = play(rules, state, "pass")
    assert space_of(state, 1, 1) == -1
    assert state.players[1].bp == 4


# Escape ------------------------------------------------------------------------------------


def test_escape_out_of_turn_move_makes_the_attack_fail():
    """primordial_soup.md "Escape" and "Defences": for 1 BP the target makes an out-of-turn
    active move; if it leaves the space the attack fails and the attacker starves. The escaped
    amoeba does not feed now; it takes its own phase-1 turn later, from the new space::

        13 -> 14   (die 3 = East)
    """
    rules, state = struggle_table(target_genes=("escape",))
    state = play(rules, state, "attack", 1, 0)
    assert pending(state) == ("defend", 1, 1)
    assert rules.current_player(state) == 1
    assert segment_options(rules, state, "defend") == {Defence.ESCAPE}
    state = play(rules, state, "defend", Defence.ESCAPE, dice=[3])
    assert space_of(state, 1, 1) == 14
    assert damage(state, 0, 1) == 1
    assert [state.players[0].bp, state.players[1].bp] == [3, 3]
    assert pending(state) == ("move", 1, 1)
    assert state.cubes[14] == [2, 2, 2, 2]


def test_escape_is_free_with_streamlining():
    """primordial_soup.md "Streamlining" (Escape): Escape moves cost no BP with Streamlining, so
    even a player without BP can escape."""
    rules, state = struggle_table(target_genes=("escape", "streamlining"))
    state.players[1].bp = 0
    state = play(rules, state, "attack", 1, 0)
    assert segment_options(rules, state, "defend") == {Defence.ESCAPE}
    state = play(rules, state, "defend", Defence.ESCAPE, dice=[4])
    assert space_of(state, 1, 1) == 18
    assert state.players[1].bp == 0
    assert damage(state, 0, 1) == 1


def test_escape_needs_a_bp_without_streamlining():
    """primordial_soup.md "Escape": the move costs 1 BP; without BP there is no Escape."""
    rules, state = struggle_table(target_genes=("escape",))
    state.players[1].bp = 0
    state = play(rules, state, "attack", 1, 0)
    assert space_of(state, 1, 1) == -1


@pytest.mark.parametrize(("face", "why"), [(5, "stay"), (2, "island")])
def test_failed_escape_leaves_the_target_to_be_eaten(face, why):
    """primordial_soup.md "Defences" (Escape): the escape may fail (a 5, or an obstacle); then
    the attack goes on and, with no other defence, succeeds. The BP is still spent."""
    rules, state = table()
    put(state, 0, 1, 12)  # north of 12 is the island
    put(state, 1, 1, 12)
    set_cubes(state, 12, EMPTY)
    give_gene(state, 0, "struggle")
    give_gene(state, 1, "escape")
    run(rules, state, {"kind": "feed", "player": 0, "amoeba": 0, "struggle_used": False})
    state = play(rules, state, "attack", 1, 0)
    state = play(rules, state, "defend", Defence.ESCAPE, dice=[face])
    assert space_of(state, 1, 1) == -1
    assert state.players[1].bp == 3
    assert damage(state, 0, 1) == 0
    assert state.cubes[12] == [1, 1, 1, 1]


def test_escape_uses_movement_genes_and_tentacle():
    """primordial_soup.md "Escape": all movement genes apply to the escape move: Movement II chooses
    the direction, Tentacle takes cubes along."""
    rules, state = struggle_table(target_genes=("escape", "movement_2", "tentacle"))
    set_cubes(state, SPACE, [0, 0, 1, 3])  # still no meal for player 0 (colour 1 missing)
    state = play(rules, state, "attack", 1, 0)
    state = play(rules, state, "defend", Defence.ESCAPE)
    assert pending(state) == ("direction", 1, 1)
    state = play(rules, state, "direction", 0)  # West
    assert pending(state) == ("tentacle", 1, 1)
    # player 1's relative colours: +0 = 1, +1 = 2, +2 = 3, +3 = 0
    state = play(rules, state, "tentacle", TAKE_INDEX[(0, 1, 2, 0)])
    assert space_of(state, 1, 1) == 12
    assert state.cubes[SPACE] == [0, 0, 0, 1]
    assert state.cubes[12] == [2, 2, 3, 4]
    assert damage(state, 0, 1) == 1


def test_escape_then_defense_in_one_attack():
    """primordial_soup.md "Escape" (with Defense) and "Defences": a player with both may use
    both against one attack, each once: a failed Escape (die 5) is followed by a Defense
    fight."""
    rules, state = struggle_table(target_genes=("escape", "defense"))
    state = play(rules, state, "attack", 1, 0)
    assert segment_options(rules, state, "defend") == {Defence.ESCAPE, Defence.DEFENSE}
    state = play(rules, state, "defend", Defence.ESCAPE, dice=[5])
    assert pending(state) == ("defend", 1, 1)
    assert segment_options(rules, state, "defend") == {Defence.DEFENSE}
    state = play(rules, state, "defend", Defence.DEFENSE, dice=[1, 6])
    assert space_of(state, 1, 1) == SPACE
    assert damage(state, 0, 1) == 1
    assert state.players[1].bp == 2


def test_defense_then_escape_after_a_lost_fight():
    """primordial_soup.md "Defences" (Defense, then Escape; the user's summary: a player with
    both may defend first and escape afterwards; ``escape_after_lost_defense=True``): after a
    lost Defense fight the owner may still escape, at Escape's usual 1 BP; if the amoeba gets
    away the attack fails and the attacker starves::

        13 -> 14   (fight 6:1 lost, then die 3 = East)
    """
    rules, state = struggle_table(target_genes=("escape", "defense"))
    state = play(rules, state, "attack", 1, 0)
    state = play(rules, state, "defend", Defence.DEFENSE, dice=[6, 1])
    assert pending(state) == ("defend", 1, 1)
    assert space_of(state, 1, 1) == SPACE
    assert segment_options(rules, state, "defend") == {Defence.ESCAPE}
    assert segment_options(rules, state, "pass") == {0}
    escaped = play(rules, state, "defend", Defence.ESCAPE, dice=[3])
    assert space_of(escaped, 1, 1) == 14
    assert damage(escaped, 0, 1) == 1
    assert [escaped.players[0].bp, escaped.players[1].bp] == [3, 2]
    assert escaped.cubes[SPACE] == EMPTY
    assert pending(escaped) == ("move", 1, 1)
    yielded = play(rules, state, "pass")
    assert space_of(yielded, 1, 1) == -1
    assert yielded.cubes[SPACE] == [1, 1, 1, 1]
    assert damage(yielded, 0, 1) == 0


def test_defense_then_failed_escape_leaves_the_target_to_be_eaten():
    """primordial_soup.md "Defences": after a lost fight, a failed Escape (die 5) ends the
    defences (each once per attack) and the attacker eats the target."""
    rules, state = struggle_table(target_genes=("escape", "defense"))
    state = play(rules, state, "attack", 1, 0)
    state = play(rules, state, "defend", Defence.DEFENSE, dice=[6, 1])
    state = play(rules, state, "defend", Defence.ESCAPE, dice=[5])
    assert space_of(state, 1, 1) == -1
    assert state.players[1].bp == 2
    assert damage(state, 0, 1) == 0


def test_defense_then_escape_needs_a_bp_for_the_escape():
    """primordial_soup.md "Defences" (no dead ends): Escape after a lost fight costs what Escape
    costs; a player whose last BP paid for the fight is not offered it and the amoeba is eaten
    at once (with Streamlining the Escape is free and still offered)."""
    rules, state = struggle_table(target_genes=("escape", "defense"))
    state.players[1].bp = 1
    eaten = play(rules, play(rules, state, "attack", 1, 0), "defend", Defence.DEFENSE,
                 dice=[6, 1])
    assert space_of(eaten, 1, 1) == -1
    rules, state = struggle_table(target_genes=("escape", "defense", "streamlining"))
    state.players[1].bp = 1
    state = play(rules, play(rules, state, "attack", 1, 0), "defend", Defence.DEFENSE,
                 dice=[6, 1])
    assert pending(state) == ("defend", 1, 1)
    state = play(rules, state, "defend", Defence.ESCAPE, dice=[4])
    assert (space_of(state, 1, 1), state.players[1].bp) == (18, 0)


def test_defense_lost_ends_the_attack_with_the_v0_reading():
    """primordial_soup.md "Defences" (``escape_after_lost_defense=False``, the v0 reading): a lost
    Defense fight lets the attacker eat at once, Escape or not."""
    rules, state = struggle_table(target_genes=("escape", "defense"),
                                  escape_after_lost_defense=False)
    state = play(rules, state, "attack", 1, 0)
    state = play(rules, state, "defend", Defence.DEFENSE, dice=[6, 1])
    assert space_of(state, 1, 1) == -1
    assert state.stack == []


def test_defense_then_escape_against_aggression():
    """primordial_soup.md "Aggression attacks" and "Defences": in phase 5 too, a target that
    loses its Defense fight may still escape; the Aggression attacker does not starve."""
    rules, state = table(phase="deaths")
    put(state, 0, 1, SPACE)
    put(state, 1, 1, SPACE)
    give_gene(state, 0, "aggression")
    give_gene(state, 1, "defense")
    give_gene(state, 1, "escape")
    run(rules, state, {"kind": "aggression", "player": 0})
    state = play(rules, state, "attack", 1, 0)
    state = play(rules, state, "defend", Defence.DEFENSE, dice=[6, 1])
    assert segment_options(rules, state, "defend") == {Defence.ESCAPE}
    state = play(rules, state, "defend", Defence.ESCAPE, dice=[1])
    assert space_of(state, 1, 1) == 12
    assert damage(state, 0, 1) == 0
    assert [state.players[0].bp, state.players[1].bp] == [3, 2]


# Persistence -------------------------------------------------------------------------------


def test_persistence_gives_a_failed_struggle_one_free_retry():
    """primordial_soup.md "Persistence" and "Struggle attacks": if a Struggle fails, one free
    second attempt (no BP); the defender may defend again. A second failure starves the
    attacker."""
    rules, state = struggle_table(target_genes=("defense",),
                                  attacker_genes=("struggle", "persistence"))
    state = play(rules, state, "attack", 1, 0)
    state = play(rules, state, "defend", Defence.DEFENSE, dice=[1, 2])
    assert pending(state) == ("retry", 0, 1)
    assert segment_options(rules, state, "attack") == {(1, 0)}
    assert damage(state, 0, 1) == 0
    retried = play(rules, state, "attack", 1, 0)
    assert retried.players[0].bp == 3  # only the first attack was paid
    won = play(rules, retried, "defend", Defence.DEFENSE, dice=[6, 5])
    assert space_of(won, 1, 1) == -1
    assert damage(won, 0, 1) == 0
    assert won.cubes[SPACE] == [1, 1, 1, 1]
    lost = play(rules, retried, "defend", Defence.DEFENSE, dice=[5, 6])
    assert space_of(lost, 1, 1) == SPACE
    assert damage(lost, 0, 1) == 1
    assert pending(lost) == ("move", 1, 1)  # no third attempt
    declined = play(rules, state, "pass")
    assert damage(declined, 0, 1) == 1


def test_persistence_retry_after_the_target_escaped():
    """primordial_soup.md "Persistence": the retry may go against another amoeba still on the
    attacker's space after the first target escaped."""
    rules, state = table()
    put(state, 0, 1, SPACE)
    put(state, 1, 1, SPACE)
    put(state, 2, 1, SPACE)
    set_cubes(state, SPACE, EMPTY)
    give_gene(state, 0, "struggle")
    give_gene(state, 0, "persistence")
    give_gene(state, 1, "escape")
    run(rules, state, {"kind": "feed", "player": 0, "amoeba": 0, "struggle_used": False})
    state = play(rules, state, "attack", 1, 0)
    state = play(rules, state, "defend", Defence.ESCAPE, dice=[3])
    assert pending(state) == ("retry", 0, 1)
    assert segment_options(rules, state, "attack") == {(2, 0)}
    state = play(rules, state, "attack", 2, 0)
    assert space_of(state, 2, 1) == -1
    assert damage(state, 0, 1) == 0
    assert state.players[0].bp == 3


def test_persistence_gives_the_defender_a_second_fight():
    """primordial_soup.md "Persistence": a failed Defense fight gets one free second fight."""
    rules, state = struggle_table(target_genes=("defense", "persistence"))
    state = play(rules, state, "attack", 1, 0)
    saved = play(rules, state, "defend", Defence.DEFENSE, dice=[5, 3, 2, 4])
    assert space_of(saved, 1, 1) == SPACE
    assert damage(saved, 0, 1) == 1
    assert saved.players[1].bp == 3  # the second fight is free
    eaten = play(rules, state, "defend", Defence.DEFENSE, dice=[5, 3, 4, 2])
    assert space_of(eaten, 1, 1) == -1


# Once per amoeba; Holding follows ----------------------------------------------------------


def test_struggle_once_per_amoeba():
    """primordial_soup.md "Struggle for Survival": one attack attempt per amoeba: after a failed
    attack (without Persistence) the attacker starves at once, even with another target
    there."""
    rules, state = table()
    put(state, 0, 1, SPACE)
    put(state, 1, 1, SPACE)
    put(state, 2, 1, SPACE)
    set_cubes(state, SPACE, EMPTY)
    give_gene(state, 0, "struggle")
    give_gene(state, 1, "escape")
    run(rules, state, {"kind": "feed", "player": 0, "amoeba": 0, "struggle_used": False})
    assert segment_options(rules, state, "attack") == {(1, 0), (2, 0)}
    state = play(rules, state, "attack", 1, 0)
    state = play(rules, state, "defend", Defence.ESCAPE, dice=[3])
    assert state.stack == []
    assert damage(state, 0, 1) == 1
    assert space_of(state, 2, 1) == SPACE


def test_attacker_follows_escaping_target_with_holding_and_feeds_there():
    """primordial_soup.md "Struggle attacks" (Holding follows an escaping target, S6 FAQ): the
    attack still ends; in phase 1 the attacker may then eat normally at the new space if the
    food is there::

        13 (no food) -> 14 (food): the target escapes East, the attacker clings on
    """
    rules, state = struggle_table(target_genes=("escape",),
                                  attacker_genes=("struggle", "holding"))
    state = play(rules, state, "attack", 1, 0)
    state = play(rules, state, "defend", Defence.ESCAPE, dice=[3])
    assert pending(state) == ("cling", 0, 1)
    state = play(rules, state, "cling")
    assert (space_of(state, 0, 1), space_of(state, 1, 1)) == (14, 14)
    assert pending(state) == ("feed", 0, 1)
    assert segment_options(rules, state, "attack") == set()
    state = play(rules, state, "eat", MEAL_INDEX[(1, 1, 1)])
    assert damage(state, 0, 1) == 0
    assert state.cubes[14] == [4, 1, 1, 1]
    assert space_of(state, 1, 1) == 14
    assert pending(state) == ("move", 1, 1)


def test_attacker_following_escaping_target_cannot_struggle_again():
    """primordial_soup.md "Struggle for Survival" (one attempt per amoeba) and "Struggle
    attacks": after following the escaping target, without food at the new space the attacker
    starves; no second attack."""
    rules, state = struggle_table(target_genes=("escape",),
                                  attacker_genes=("struggle", "holding"))
    set_cubes(state, 14, EMPTY)
    state = play(rules, state, "attack", 1, 0)
    state = play(rules, state, "defend", Defence.ESCAPE, dice=[3])
    state = play(rules, state, "cling")
    assert (space_of(state, 0, 1), space_of(state, 1, 1)) == (14, 14)
    assert damage(state, 0, 1) == 1
    assert pending(state) == ("move", 1, 1)


def test_struggle_offered_alongside_a_gene_meal():
    """primordial_soup.md "Phase 1: Move and feed": without the standard meal, Struggle is open
    even when a feeding gene could feed the amoeba (feeding genes never have to be used)."""
    rules, state = struggle_table(attacker_genes=("struggle", "substitution"))
    set_cubes(state, SPACE, [0, 2, 2, 0])
    assert {rules.layout.decode(a)[0] for a in rules.legal_actions(state)} == {
        "eat", "attack", "pass"}
    state = play(rules, state, "attack", 1, 0)
    assert space_of(state, 1, 1) == -1
    assert state.cubes[SPACE] == [1, 3, 3, 1]


def test_escape_with_speed_may_move_twice():
    """primordial_soup.md "Escape": Speed applies to the escape move too (a second move, no extra
    BP); the attacker starves when the target ends elsewhere::

        13 -> 14 -> 9
    """
    rules, state = struggle_table(target_genes=("escape", "speed"))
    state = play(rules, state, "attack", 1, 0)
    state = play(rules, state, "defend", Defence.ESCAPE, dice=[3])
    assert pending(state) == ("move_again", 1, 1)
    state = play(rules, state, "move_again", dice=[2])
    assert space_of(state, 1, 1) == 9
    assert state.players[1].bp == 3
    assert damage(state, 0, 1) == 1


def test_defense_then_escape_the_attacker_may_follow_with_holding():
    """primordial_soup.md "Defences" and "Struggle attacks" (Holding follows an escaping target):
    after a lost fight the target escapes; an attacker with Holding may cling on, the attack
    ends and the attacker eats at the new space, as after any Escape::

        13 (no food) -> 14 (food): fight lost 6:1, the target escapes East, the attacker clings
    """
    rules, state = struggle_table(target_genes=("escape", "defense"),
                                  attacker_genes=("struggle", "holding"))
    state = play(rules, state, "attack", 1, 0)
    state = play(rules, state, "defend", Defence.DEFENSE, dice=[6, 1])
    state = play(rules, state, "defend", Defence.ESCAPE, dice=[3])
    assert pending(state) == ("cling", 0, 1)
    state = play(rules, state, "cling")
    assert (space_of(state, 0, 1), space_of(state, 1, 1)) == (14, 14)
    assert pending(state) == ("feed", 0, 1)
    assert segment_options(rules, state, "attack") == set()
