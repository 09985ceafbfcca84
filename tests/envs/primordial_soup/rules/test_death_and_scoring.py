"""Rule tests for phase 5 (natural deaths, Aggression) and phase 6 (scoring, end of game).

primordial_soup.md "The scoring ladder", "Phase 5: Deaths", "Phase 6: Scoring" and "Attacks"
(Aggression). Seat ``p`` has its ladder marker on space ``p + 1`` unless a test moves it, so the
descending order is 3, 2, 1, 0. Board layout A::

        x=0  x=1  x=2  x=3  x=4
    y=0  ..    0   ..   ..   ..
    y=1   1    2    3    4    5
    y=2   6    7   ##    8    9
    y=3  10   11   12   13   14
    y=4  15   16   17   18   ..
"""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs.primordial_soup.actions import Defence
from primeval.envs.primordial_soup.rules import PrimordialSoupRules
from primeval.envs.primordial_soup.rules.registry import STEPS
from primeval.envs.primordial_soup.rules.scoring import advance_distance, leapfrog
from tests.envs.primordial_soup.builders import (
    ScriptedDice,
    act,
    give_gene,
    legal,
    put,
    run,
    set_cubes,
    table,
    total_cubes,
)


def cubes_added(before, after, space: int) -> list[int]:
    return [a - b for a, b in zip(after.cubes[space], before.cubes[space], strict=True)]


def step_only(rules, state, kind: str):
    """Carry out one automatic step alone and leave the frames it pushes on the stack."""
    state.stack = [{"kind": kind}]
    STEPS[kind](rules, state, state.stack[-1], np.random.default_rng(0))
    return state


# Phase 5: natural death ----------------------------------------------------------------------


def test_natural_death_at_2_dp():
    """primordial_soup.md "Phase 5: Deaths": amoebas with 2 or more DP die; fewer survive."""
    rules, state = table()
    put(state, 3, 1, 0, damage=1)
    put(state, 3, 2, 1, damage=2)
    put(state, 3, 3, 2, damage=3)
    put(state, 2, 1, 4, damage=0)
    run(rules, state, {"kind": "natural_deaths"})
    assert state.players[3].amoeba_space == [0, -1, -1, -1, -1, -1, -1]
    assert state.players[3].amoeba_damage == [1, 0, 0, 0, 0, 0, 0]
    assert state.players[2].amoeba_space[0] == 4


def test_natural_death_at_3_dp_with_longevity():
    """primordial_soup.md "Phase 5: Deaths" and "Longevity": with Longevity amoebas die only at
    3 DP."""
    rules, state = table()
    give_gene(state, 3, "longevity")
    put(state, 3, 1, 0, damage=2)
    put(state, 3, 2, 1, damage=3)
    put(state, 2, 1, 4, damage=2)                # seat 2 has no Longevity
    run(rules, state, {"kind": "natural_deaths"})
    assert state.players[3].amoeba_space[:2] == [0, -1]
    assert state.players[2].amoeba_space[0] == -1


@pytest.mark.parametrize("num_players", [3, 4])
def test_natural_death_leaves_2_cubes_of_each_colour_in_play(num_players):
    """primordial_soup.md "Phase 5: Deaths": the dead amoeba is replaced by 2 cubes of each
    colour in play."""
    rules, state = table(num_players=num_players)
    put(state, 0, 3, 7, damage=2)
    before = state.copy()
    run(rules, state, {"kind": "natural_deaths"})
    assert len(state.cubes[7]) == num_players
    assert cubes_added(before, state, 7) == [2] * num_players
    assert state.supply == [s - 2 for s in before.supply]


def test_natural_death_cubes_limited_by_the_supply():
    """primordial_soup.md "Phase 5: Deaths" and "Components": cubes are placed as far as the
    supply allows (limited supply, never another colour)."""
    rules, state = table()
    set_cubes(state, 18, [2, 2 + 16, 2, 2])      # 1 cube of colour 1 left in the supply
    put(state, 0, 1, 7, damage=2)
    before = state.copy()
    run(rules, state, {"kind": "natural_deaths"})
    assert cubes_added(before, state, 7) == [2, 1, 2, 2]
    assert state.supply[1] == 0
    assert all(total_cubes(state, c) == 55 for c in range(4))


def test_natural_deaths_in_descending_then_number_order():
    """primordial_soup.md "Phase 5: Deaths": deaths resolve in descending order, and by number
    within a player; with a short supply the earlier deaths get the cubes.

        supply of colour 0: 3 cubes
        seat 3 (leader): #2 on 14, #4 on 12; seat 1: #1 on 10
        -> 14 gets 2, 12 gets 1, 10 gets none
    """
    rules, state = table()
    set_cubes(state, 18, [2 + 14, 2, 2, 2])      # supply of colour 0: 17 - 14 = 3
    put(state, 1, 1, 10, damage=2)
    put(state, 3, 4, 12, damage=2)
    put(state, 3, 2, 14, damage=2)
    before = state.copy()
    run(rules, state, {"kind": "natural_deaths"})
    assert [cubes_added(before, state, s)[0] for s in (14, 12, 10)] == [2, 1, 0]
    assert [cubes_added(before, state, s)[1] for s in (14, 12, 10)] == [2, 2, 2]
    assert not state.players[1].amoebas_on_board()
    assert not state.players[3].amoebas_on_board()


def test_phase5_natural_deaths_first_then_aggression_in_descending_order():
    """primordial_soup.md "Phase 5: Deaths" and "Aggression attacks": all natural deaths first,
    then the Aggression turns (proposed: descending order)."""
    rules, state = table()
    state.players[1].score = 9                   # order: 1, 3, 2, 0
    step_only(rules, state, "phase5")
    assert state.phase == "deaths"
    assert [(f["kind"], f.get("player")) for f in reversed(state.stack)] == [
        ("natural_deaths", None),
        ("aggression", 1), ("aggression", 3), ("aggression", 2), ("aggression", 0),
    ]


# Phase 5: Aggression -------------------------------------------------------------------------


def aggression_table(**config):
    """Seat 3 (the leader) holds Aggression, its amoeba #1 on space 5."""
    rules, state = table(**config)
    give_gene(state, 3, "aggression")
    put(state, 3, 1, 5)
    return rules, state


def test_aggression_waits_for_all_natural_deaths():
    """primordial_soup.md "Aggression attacks" and "Aggression": Aggression comes after all
    natural deaths, also those of players later in the order; an amoeba that died naturally is
    no longer a target."""
    rules, state = aggression_table()
    put(state, 0, 1, 5, damage=2)                # seat 0 is last in the order: dies first
    put(state, 1, 1, 5)
    run(rules, state, {"kind": "phase5"})
    assert rules.current_player(state) == 3
    assert state.players[0].amoeba_space[0] == -1
    assert legal(rules, state) == {"attack(player+2 amoeba #1)", "pass"}


def test_aggression_kills_a_foreign_amoeba_on_a_shared_space_for_1_bp():
    """primordial_soup.md "Advanced genes" and "Aggression attacks": for 1 BP kill one foreign
    amoeba on a space with one of your amoebas; it is replaced by 2 cubes of each colour."""
    rules, state = aggression_table()
    put(state, 0, 2, 5)
    run(rules, state, {"kind": "aggression", "player": 3})
    before = state.copy()
    state = act(rules, state, "attack", 1, 1)    # seat 0 is player+1 of seat 3
    assert state.players[0].amoeba_space[1] == -1
    assert state.players[3].bp == 3
    assert cubes_added(before, state, 5) == [2, 2, 2, 2]
    assert state.players[3].aggression_used
    assert state.stack == []


def test_aggression_targets_only_foreign_amoebas_sharing_a_space():
    """primordial_soup.md "Aggression attacks": the target is foreign and shares a space with
    one of the attacker's amoebas (own amoebas and amoebas elsewhere are not targets)."""
    rules, state = aggression_table()
    put(state, 3, 2, 5)                          # own, same space
    put(state, 3, 3, 12)
    put(state, 0, 1, 5)                          # foreign, shared: target
    put(state, 1, 1, 12)                         # foreign, shared with #3: target
    put(state, 2, 1, 9)                          # foreign, not shared
    run(rules, state, {"kind": "aggression", "player": 3})
    assert legal(rules, state) == {
        "attack(player+1 amoeba #1)", "attack(player+2 amoeba #1)", "pass",
    }


def test_aggression_needs_1_bp():
    """primordial_soup.md "Aggression attacks": an Aggression attack costs 1 BP; without BP
    there is no attack."""
    rules, state = aggression_table()
    state.players[3].bp = 0
    put(state, 0, 1, 5)
    run(rules, state, {"kind": "aggression", "player": 3})
    assert state.stack == []                     # only "pass" was possible
    assert state.players[0].amoeba_space[0] == 5


def test_aggression_only_with_the_gene():
    """primordial_soup.md "Aggression": only Aggression attacks in phase 5 (Struggle for
    Survival does not)."""
    rules, state = table()
    give_gene(state, 3, "struggle")
    put(state, 3, 1, 5)
    put(state, 0, 1, 5)
    run(rules, state, {"kind": "aggression", "player": 3})
    assert state.stack == []
    assert state.players[0].amoeba_space[0] == 5


def test_aggression_once_per_round():
    """primordial_soup.md "Aggression" and "Aggression attacks": Aggression is limited to once
    per round, against one amoeba; the next round allows it again."""
    rules, state = aggression_table()
    put(state, 0, 1, 5)
    put(state, 0, 2, 5)
    run(rules, state, {"kind": "aggression", "player": 3})
    state = act(rules, state, "attack", 1, 0)
    assert state.stack == []
    run(rules, state, {"kind": "aggression", "player": 3})   # a second chance: none
    assert state.stack == []
    assert state.players[0].amoeba_space[:2] == [-1, 5]
    step_only(rules, state, "begin_round")
    assert not state.players[3].aggression_used


def test_armor_takes_1_dp_instead_of_dying():
    """primordial_soup.md "Armor" and "Aggression attacks": an armored target is not killed but
    takes 1 DP."""
    rules, state = aggression_table()
    give_gene(state, 0, "armor")
    put(state, 0, 1, 5)
    run(rules, state, {"kind": "aggression", "player": 3})
    before = state.copy()
    state = act(rules, state, "attack", 1, 0)
    assert state.players[0].amoeba_space[0] == 5
    assert state.players[0].amoeba_damage[0] == 1
    assert state.players[3].bp == 3
    assert state.cubes == before.cubes
    assert state.stack == []


@pytest.mark.parametrize(("longevity", "damage", "dies"),
                         [(False, 1, True), (True, 1, False), (True, 2, True)])
def test_armor_dies_when_the_dp_reaches_its_threshold(longevity, damage, dies):
    """primordial_soup.md "Armor" and "Aggression attacks": the armored amoeba still dies if the
    DP reaches its death threshold (2, or 3 with Longevity); then 2 cubes of each colour replace
    it."""
    rules, state = aggression_table()
    give_gene(state, 0, "armor")
    if longevity:
        give_gene(state, 0, "longevity")
    put(state, 0, 1, 5, damage=damage)
    run(rules, state, {"kind": "aggression", "player": 3})
    before = state.copy()
    state = act(rules, state, "attack", 1, 0)
    assert (state.players[0].amoeba_space[0] == -1) == dies
    assert cubes_added(before, state, 5) == ([2, 2, 2, 2] if dies else [0, 0, 0, 0])


def test_armor_counts_as_success_no_persistence_retry():
    """primordial_soup.md "Aggression attacks" (S6 FAQ): Armor's damage counts as a success, so
    Persistence gives no retry."""
    rules, state = aggression_table()
    give_gene(state, 3, "persistence")
    give_gene(state, 0, "armor")
    put(state, 0, 1, 5)
    put(state, 0, 2, 5)
    run(rules, state, {"kind": "aggression", "player": 3})
    state = act(rules, state, "attack", 1, 0)
    assert state.stack == []
    assert state.players[0].amoeba_damage[:2] == [1, 0]


def test_defense_won_by_the_defender_nothing_else_happens():
    """primordial_soup.md "Defences" (S6 FAQ): if the defender wins the Defense fight, nothing
    else happens; the Aggression attacker does not starve or take damage."""
    rules, state = aggression_table()
    give_gene(state, 0, "defense")
    put(state, 0, 1, 5)
    run(rules, state, {"kind": "aggression", "player": 3})
    state = act(rules, state, "attack", 1, 0)
    assert rules.current_player(state) == 0
    assert legal(rules, state) == {"defense", "pass"}
    before = state.copy()
    state = act(rules, state, "defend", Defence.DEFENSE, rng=ScriptedDice([2, 5]))  # attacker 2, defender 5
    assert state.stack == []
    assert state.players[0].amoeba_space[0] == 5
    assert state.players[0].bp == 3              # the fight cost the defender 1 BP
    assert state.players[3].bp == 3              # the attack cost 1 BP
    assert state.players[3].amoeba_damage == before.players[3].amoeba_damage
    assert state.cubes == before.cubes


def test_defense_lost_by_the_defender_kills_it():
    """primordial_soup.md "Basic genes" and "Defences": if the attacker wins the fight (ties
    re-roll) the target dies and leaves 2 cubes of each colour."""
    rules, state = aggression_table()
    give_gene(state, 0, "defense")
    put(state, 0, 1, 5)
    run(rules, state, {"kind": "aggression", "player": 3})
    state = act(rules, state, "attack", 1, 0)
    before = state.copy()
    state = act(rules, state, "defend", Defence.DEFENSE, rng=ScriptedDice([4, 4, 6, 1]))
    assert state.players[0].amoeba_space[0] == -1
    assert cubes_added(before, state, 5) == [2, 2, 2, 2]


def test_persistence_retries_a_failed_aggression_for_free():
    """primordial_soup.md "Advanced genes" and "Aggression attacks": with Persistence a failed
    Aggression gets one free second attempt."""
    rules, state = aggression_table()
    give_gene(state, 3, "persistence")
    give_gene(state, 0, "defense")
    put(state, 0, 1, 5)
    run(rules, state, {"kind": "aggression", "player": 3})
    state = act(rules, state, "attack", 1, 0)
    state = act(rules, state, "defend", Defence.DEFENSE, rng=ScriptedDice([1, 6]))  # the defender wins
    assert rules.current_player(state) == 3
    assert rules.decision_name(state) == "retry"
    assert legal(rules, state) == {"attack(player+1 amoeba #1)", "pass"}
    state = act(rules, state, "attack", 1, 0)    # the retry is free
    assert rules.current_player(state) == 0
    state = act(rules, state, "pass")            # the defender yields this time
    assert state.players[0].amoeba_space[0] == -1
    assert state.players[3].bp == 3
    assert state.stack == []


def test_persistence_retry_only_once():
    """primordial_soup.md "Persistence": Persistence gives one second attempt, not more."""
    rules, state = aggression_table()
    give_gene(state, 3, "persistence")
    give_gene(state, 0, "defense")
    put(state, 0, 1, 5)
    state.players[0].bp = 10
    run(rules, state, {"kind": "aggression", "player": 3})
    state = act(rules, state, "attack", 1, 0)
    state = act(rules, state, "defend", Defence.DEFENSE, rng=ScriptedDice([1, 6]))
    state = act(rules, state, "attack", 1, 0)
    state = act(rules, state, "defend", Defence.DEFENSE, rng=ScriptedDice([2, 3]))
    assert state.stack == []
    assert state.players[0].amoeba_space[0] == 5


def test_defender_with_persistence_fights_a_second_time():
    """primordial_soup.md "Persistence": Persistence also gives a failed Defense one free second
    attempt (here the defender's: it loses the first fight and wins the second)."""
    rules, state = aggression_table()
    give_gene(state, 0, "defense")
    give_gene(state, 0, "persistence")
    put(state, 0, 1, 5)
    run(rules, state, {"kind": "aggression", "player": 3})
    state = act(rules, state, "attack", 1, 0)
    state = act(rules, state, "defend", Defence.DEFENSE, rng=ScriptedDice([6, 1, 1, 6]))
    assert state.players[0].amoeba_space[0] == 5
    assert state.players[0].bp == 3
    assert state.stack == []


def test_escape_dodges_aggression():
    """primordial_soup.md "Basic genes" and "Defences": the target may escape with an
    out-of-turn move for 1 BP; if it leaves the space the attack fails (and the attacker takes
    no damage)."""
    rules, state = table()
    give_gene(state, 3, "aggression")
    give_gene(state, 0, "escape")
    put(state, 3, 1, 2)
    put(state, 0, 1, 2)
    run(rules, state, {"kind": "aggression", "player": 3})
    state = act(rules, state, "attack", 1, 0)
    assert legal(rules, state) == {"escape", "pass"}
    state = act(rules, state, "defend", Defence.ESCAPE, rng=ScriptedDice([3]))   # 3 = East: 2 -> 3
    assert state.players[0].amoeba_space[0] == 3
    assert state.players[0].bp == 3
    assert state.players[3].bp == 3
    assert state.players[3].amoeba_damage[0] == 0
    assert state.stack == []


def test_blocked_escape_does_not_save_the_target():
    """primordial_soup.md "Defences": an Escape move may fail (an obstacle or a 5); then the
    attack goes on."""
    rules, state = table()
    give_gene(state, 3, "aggression")
    give_gene(state, 0, "escape")
    put(state, 3, 1, 3)
    put(state, 0, 1, 3)
    run(rules, state, {"kind": "aggression", "player": 3})
    state = act(rules, state, "attack", 1, 0)
    state = act(rules, state, "defend", Defence.ESCAPE, rng=ScriptedDice([2]))   # 2 = North: the edge
    assert state.players[0].amoeba_space[0] == -1
    assert state.stack == []


def test_escape_and_defense_both_usable_against_one_attack():
    """primordial_soup.md "Basic genes": a player with Escape and Defense may use both against
    one attack, each once; after a blocked Escape the Defense fight is still open."""
    rules, state = table()
    give_gene(state, 3, "aggression")
    give_gene(state, 0, "escape")
    give_gene(state, 0, "defense")
    put(state, 3, 1, 3)
    put(state, 0, 1, 3)
    run(rules, state, {"kind": "aggression", "player": 3})
    state = act(rules, state, "attack", 1, 0)
    assert legal(rules, state) == {"escape", "defense", "pass"}
    state = act(rules, state, "defend", Defence.ESCAPE, rng=ScriptedDice([2]))   # North: the edge
    assert legal(rules, state) == {"defense", "pass"}
    state = act(rules, state, "defend", Defence.DEFENSE, rng=ScriptedDice([3, 4]))
    assert state.players[0].amoeba_space[0] == 3
    assert state.players[0].bp == 2
    assert state.stack == []


# Phase 6: the Advance Table --------------------------------------------------------------------

BASIC = ("intelligence", "movement_1", "spores", "speed", "defense", "escape", "substitution")


def leader_advance(amoebas: int = 0, genes: tuple[str, ...] = ()) -> int:
    """Spaces seat 3 (the leader, nobody ahead) advances in phase 6."""
    rules, state = table()
    for number in range(1, amoebas + 1):
        put(state, 3, number, number)
    for key in genes:
        give_gene(state, 3, key)
    start = state.players[3].score
    run(rules, state, {"kind": "advance"})
    return state.players[3].score - start


@pytest.mark.parametrize(("amoebas", "spaces"),
                         [(0, 0), (1, 0), (2, 0), (3, 1), (4, 2), (5, 4), (6, 5), (7, 6)])
def test_advance_table_amoebas(amoebas, spaces):
    """primordial_soup.md "Advance Table": live amoebas 0-2 -> 0, 3 -> 1, 4 -> 2, 5 -> 4, 6 ->
    5, 7 -> 6."""
    assert leader_advance(amoebas=amoebas) == spaces


@pytest.mark.parametrize(("count", "spaces"),
                         [(0, 0), (1, 0), (2, 0), (3, 1), (4, 2), (5, 3), (6, 4), (7, 4)])
def test_advance_table_genes(count, spaces):
    """primordial_soup.md "Advance Table": genes 0-2 -> 0, 3 -> 1, 4 -> 2, 5 -> 3, 6 or more ->
    4."""
    assert leader_advance(genes=BASIC[:count]) == spaces


@pytest.mark.parametrize(("genes", "spaces"), [
    (("persistence", "movement_2"), 2),                    # 2 + 2 = 4 genes
    (("aggression", "intelligence"), 1),                   # 2 + 1 = 3
    (("armor", "persistence", "movement_2"), 4),           # 6
    (("ray_protection", "intelligence", "spores"), 0),     # 0 + 2
    (("ray_protection", "intelligence", "spores", "speed"), 1),  # 0 + 3
])
def test_advanced_genes_count_2_ray_protection_0(genes, spaces):
    """primordial_soup.md "Advance Table" and "Genes": each advanced gene counts as two genes,
    Ray Protection as none."""
    assert leader_advance(genes=genes) == spaces


@pytest.mark.parametrize(("amoebas", "genes", "spaces"), [
    (5, BASIC[:6], 4 + 4),
    (3, BASIC[:3], 1 + 1),
    (7, ("armor", "persistence", "movement_2"), 6 + 4),
])
def test_both_rows_are_added(amoebas, genes, spaces):
    """primordial_soup.md "Advance Table": the amoeba row and the gene row are added together."""
    assert leader_advance(amoebas=amoebas, genes=genes) == spaces


def test_amoebas_are_counted_after_phase_5():
    """primordial_soup.md "Advance Table": the amoebas are counted after phase 5 (the dead do
    not count)."""
    rules, state = table()
    for number in range(1, 5):
        put(state, 3, number, number, damage=2 if number == 4 else 0)
    assert advance_distance(state.players[3]) == 2
    run(rules, state, {"kind": "natural_deaths"}, {"kind": "advance"})
    assert state.players[3].score == 4 + 1


# Phase 6: leapfrog and order -------------------------------------------------------------------


def test_leapfrog_occupied_spaces_are_not_counted():
    """primordial_soup.md "Leapfrog": a move of N passes N free spaces; occupied spaces are not
    counted, so the marker lands alone (S1: "Zugweite 7" jumping over another marker)."""
    assert leapfrog(1, 3, {2, 3, 4}) == 7
    assert leapfrog(1, 2, {3}) == 4
    assert leapfrog(10, 7, {12}) == 18
    assert leapfrog(5, 0, {5, 6}) == 5


def test_leapfrog_in_play():
    """primordial_soup.md "Leapfrog": the last player jumps the three markers ahead of it.

        ladder: 1=seat0 2=seat1 3=seat2 4=seat3; seat 0 advances 2 (4 amoebas): lands on 6
    """
    rules, state = table()
    for number in range(1, 5):
        put(state, 0, number, number)
    run(rules, state, {"kind": "advance"})
    assert [ps.score for ps in state.players] == [6, 2, 3, 4]


def test_scoring_in_descending_order():
    """primordial_soup.md "Phase 6: Scoring" and "Order of play": the leader advances first, so
    a follower sees the new positions.

        seat 3 on 4, seat 2 on 3, each advances 1: seat 3 -> 5, then seat 2 -> 4
        (ascending order would give seat 2 -> 5 and seat 3 -> 6)
    """
    rules, state = table()
    for p in (2, 3):
        for number in range(1, 4):
            put(state, p, number, 4 * p - 8 + number)
    run(rules, state, {"kind": "advance"})
    assert [ps.score for ps in state.players] == [1, 2, 4, 5]


# End of the game -------------------------------------------------------------------------------


@pytest.mark.parametrize(("zone", "best", "over"), [
    (42, 41, False), (42, 42, True), (42, 50, True), (41, 40, False), (41, 41, True),
])
def test_game_ends_after_phase_6_when_a_marker_is_in_the_finish_zone(zone, best, over):
    """primordial_soup.md "End of the game": the game ends after phase 6 if any marker is in the
    finish zone (starting at 42, configurable 41); otherwise the next round begins."""
    rules, state = table(finish_zone_start=zone)
    state.players[1].score = best
    step_only(rules, state, "end_of_round")
    if over:
        assert state.phase == "game_over"
        assert state.stack == []
        assert rules.is_terminal(state)
        assert rules.current_player(state) == -1
        assert not rules.legal_mask(state).any()
    else:
        assert state.phase != "game_over"
        assert state.stack == [{"kind": "begin_round"}]


def test_game_ends_after_the_round_the_last_card_was_turned():
    """primordial_soup.md "Environment cards" and "End of the game": the game ends after phase 6
    of the round in which the last environment card was turned over, even with every marker far
    from the finish zone."""
    rules, state = table(round=10)
    state.environment_deck = []
    step_only(rules, state, "end_of_round")
    assert state.phase == "game_over"
    rules, state = table(round=9)
    state.environment_deck = [4]
    step_only(rules, state, "end_of_round")
    assert state.stack == [{"kind": "begin_round"}]


def test_full_phase6_ends_the_game():
    """primordial_soup.md "Phase 6: Scoring": scoring, then the end check, in one phase."""
    rules, state = table()
    state.players[3].score = 38
    for number in range(1, 8):
        put(state, 3, number, number)
    run(rules, state, {"kind": "phase6"})
    assert state.players[3].score == 44
    assert state.phase == "game_over"


@pytest.mark.parametrize("num_players", [3, 4])
@pytest.mark.parametrize("seed", range(6))
def test_random_games_last_at_most_10_rounds_with_11_cards(num_players, seed):
    """primordial_soup.md "Environment cards" and "End of the game": one card at setup and one
    per round, so 11 cards give at most 10 rounds; an earlier end needs a marker in the finish
    zone. Markers never share a space, the winner is the farthest marker and ``scores()`` are
    the ladder positions."""
    rules = PrimordialSoupRules(num_players=num_players)
    rng = np.random.default_rng(seed)
    state = rules.initial_state(rng)
    cards = [state.environment_card]
    while not rules.is_terminal(state):
        before = state
        state = rules.apply(state, int(rng.choice(rules.legal_actions(state))), rng)
        if state.environment_card != before.environment_card:
            cards.append(state.environment_card)
        if state.round >= 1:
            scores = [ps.score for ps in state.players]
            assert len(set(scores)) == num_players
    assert len(cards) == len(set(cards)) == state.round + 1
    assert state.round <= 10
    best = max(ps.score for ps in state.players)
    if state.round < 10:
        assert best >= 42
    else:
        assert state.environment_deck == [] or best >= 42
    assert rules.scores(state) == [float(ps.score) for ps in state.players]
    winners = [p for p, s in enumerate(rules.scores(state)) if s == max(rules.scores(state))]
    assert len(winners) == 1


def test_short_deck_limits_the_rounds():
    """primordial_soup.md "Environment cards": the deck length bounds the game (3 cards: at most
    2 rounds)."""
    rules = PrimordialSoupRules(environment_deck=(("N", 9), ("S", 9), ("none", 9)))
    rng = np.random.default_rng(3)
    state = rules.initial_state(rng)
    while not rules.is_terminal(state):
        state = rules.apply(state, int(rng.choice(rules.legal_actions(state))), rng)
    assert state.round == 2


def test_scores_are_ladder_positions_and_the_farthest_wins():
    """primordial_soup.md "End of the game": the winner is the player whose marker is farthest
    along; ``scores()`` are the ladder positions."""
    rules, state = table()
    for p, position in enumerate((30, 44, 12, 39)):
        state.players[p].score = position
    step_only(rules, state, "end_of_round")
    assert rules.is_terminal(state)
    assert rules.scores(state) == [30.0, 44.0, 12.0, 39.0]
