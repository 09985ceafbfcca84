"""Rule tests: feeding in phase 1 (primordial_soup.md "Basic genes" and "Phase 1: Move and feed").

Meals are written as cube counts over the three *foreign* colours relative to the eater:
``(a, b, c)`` = a cubes of the next seat's colour (+1), b of +2, c of +3. Cubes on a space
are written by absolute colour ``[colour 0, colour 1, ...]``; player ``p`` plays colour
``p``. Every space starts with 2 cubes of each colour in play.
"""

from __future__ import annotations

import itertools

import pytest

from primeval.envs.core.errors import IllegalActionError
from primeval.envs.primordial_soup.actions import MEAL_INDEX, MEALS
from tests.envs.primordial_soup.builders import (
    ScriptedDice,
    assert_conserved,
    give_gene,
    play,
    put,
    run,
    segment_options,
    set_cubes,
    table,
)

SPACE = 13


def meals(rules, state) -> set[tuple[int, int, int]]:
    """The legal meals of the pending feed decision."""
    return {MEALS[i] for i in segment_options(rules, state, "eat")}


def can_pass(rules, state) -> bool:
    return bool(segment_options(rules, state, "pass"))


def perms(*patterns: tuple[int, int, int]) -> set[tuple[int, int, int]]:
    return {p for pattern in patterns for p in itertools.permutations(pattern)}


def feed(rules, state, player: int = 0, number: int = 1):
    """Put the feed decision of ``player``'s amoeba on the stack (after its move)."""
    return run(rules, state, {"kind": "feed", "player": player, "amoeba": number - 1,
                              "struggle_used": False})


def eat(rules, state, meal):
    return play(rules, state, "eat", MEAL_INDEX[meal])


# Standard meals ----------------------------------------------------------------------------


def test_4p_standard_meal_one_of_each_foreign_colour_then_excrete_two():
    """primordial_soup.md "Feeding" (4p): 3 cubes, one of each foreign colour; the eaten cubes go
    to the supply and 2 cubes of the amoeba's colour come from the supply::

        space 13 before [2, 2, 2, 2]  ->  after [1, 1, 4, 1]   (player 2 eats)
    """
    rules, state = table()
    put(state, 2, 1, SPACE)
    feed(rules, state, 2)
    assert meals(rules, state) == {(1, 1, 1)}
    assert not can_pass(rules, state)
    supply = list(state.supply)
    state = eat(rules, state, (1, 1, 1))
    assert state.cubes[SPACE] == [1, 1, 4, 1]
    assert state.supply == [supply[0] + 1, supply[1] + 1, supply[2] - 2, supply[3] + 1]
    assert state.players[2].amoeba_damage[0] == 0
    assert state.stack == []


def test_3p_meal_two_of_one_foreign_colour_and_one_of_the_other_choice():
    """primordial_soup.md "Feeding" (3p): two of one foreign colour and one of the other; which is
    doubled is a choice. Player 1 here: +1 = colour 2, +2 = colour 0."""
    rules, state = table(num_players=3)
    put(state, 1, 1, SPACE)
    feed(rules, state, 1)
    assert meals(rules, state) == {(2, 1, 0), (1, 2, 0)}
    assert not can_pass(rules, state)
    doubled_plus2 = eat(rules, state, (1, 2, 0))
    assert doubled_plus2.cubes[SPACE] == [0, 4, 1]
    doubled_plus1 = eat(rules, state, (2, 1, 0))
    assert doubled_plus1.cubes[SPACE] == [1, 4, 0]


def test_3p_meal_doubling_only_where_two_cubes_are_there():
    """primordial_soup.md "Feeding" (3p): if only one foreign colour has 2 cubes, only that one
    can be doubled."""
    rules, state = table(num_players=3)
    put(state, 0, 1, SPACE)
    set_cubes(state, SPACE, [0, 1, 5])
    feed(rules, state)
    assert meals(rules, state) == {(1, 2, 0)}
    state = eat(rules, state, (1, 2, 0))
    assert state.cubes[SPACE] == [2, 0, 3]


# Excretion ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("supply_left", "excreted"), [(2, 2), (1, 1), (0, 0)])
def test_excretion_limited_by_the_supply_never_another_colour(supply_left, excreted):
    """primordial_soup.md "Feeding" and "Components": cubes are limited to 55 per colour; if the
    supply of the amoeba's colour is short only what is left is placed, never another colour."""
    rules, state = table()
    put(state, 0, 1, SPACE)
    set_cubes(state, 0, [2 + 17 - supply_left, 2, 2, 2])  # park own cubes on space 0
    assert state.supply[0] == supply_left
    feed(rules, state)
    state = eat(rules, state, (1, 1, 1))
    assert state.cubes[SPACE] == [2 + excreted, 1, 1, 1]
    assert state.supply[0] == supply_left - excreted
    assert state.supply[1:] == [18, 18, 18]


def test_excretion_comes_from_the_supply_even_when_eaten_cubes_return():
    """primordial_soup.md "Feeding": eaten cubes return to the supply; they are foreign colours,
    so they never pay for the excretion of an own colour that ran out."""
    rules, state = table(num_players=3)
    put(state, 0, 1, SPACE)
    set_cubes(state, 0, [19, 2, 2])  # colour 0 supply empty
    feed(rules, state)
    state = eat(rules, state, (2, 1, 0))
    assert state.cubes[SPACE] == [2, 0, 1]
    assert state.supply == [0, 19, 18]


# Starvation --------------------------------------------------------------------------------


@pytest.mark.parametrize(("num_players", "cubes"), [
    (4, [9, 2, 2, 0]),  # one foreign colour missing; own cubes never count
    (4, [0, 0, 0, 0]),
    (3, [9, 1, 1]),     # 3p needs 2 of one foreign colour
    (3, [9, 3, 0]),
])
def test_starvation_when_any_required_cube_is_missing(num_players, cubes):
    """primordial_soup.md "Feeding": if any required cube is missing the amoeba starves: it eats
    nothing (even if part of the food is there), excretes nothing, and gets +1 DP. Never
    its own colour. With no other option, starving needs no decision."""
    rules, state = table(num_players=num_players)
    put(state, 0, 1, SPACE, damage=1)
    set_cubes(state, SPACE, cubes)
    supply = list(state.supply)
    feed(rules, state)
    assert state.stack == []
    assert state.players[0].amoeba_damage[0] == 2
    assert state.cubes[SPACE] == cubes
    assert state.supply == supply
    assert_conserved(rules, state)


def test_standard_meal_is_compulsory():
    """primordial_soup.md "Feeding": an amoeba cannot choose to starve when the standard meal is
    there; ``pass`` is illegal and Struggle is not offered."""
    rules, state = table()
    put(state, 0, 1, SPACE)
    put(state, 1, 1, SPACE)
    give_gene(state, 0, "struggle")
    feed(rules, state)
    assert {rules.layout.decode(a)[0] for a in rules.legal_actions(state)} == {"eat"}
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match="pass"):
        rules.apply(state, rules.layout.encode("pass"), ScriptedDice([]))
    assert state.to_dict() == before


# Substitution ------------------------------------------------------------------------------


def test_substitution_4p_patterns():
    """primordial_soup.md "Substitution" (4p): skip one foreign colour but eat one more cube:
    2:2:0 or 3:1:0 (any colours) instead of 1:1:1; the standard meal stays possible; excretion
    2."""
    rules, state = table()
    put(state, 0, 1, SPACE)
    give_gene(state, 0, "substitution")
    set_cubes(state, SPACE, [0, 4, 4, 4])
    feed(rules, state)
    assert meals(rules, state) == perms((1, 1, 1), (2, 2, 0), (3, 1, 0))
    state = eat(rules, state, (0, 1, 3))
    assert state.cubes[SPACE] == [2, 4, 3, 1]


def test_substitution_3p_pattern():
    """primordial_soup.md "Substitution" (3p): 4:0 instead of 2:1."""
    rules, state = table(num_players=3)
    put(state, 0, 1, SPACE)
    give_gene(state, 0, "substitution")
    set_cubes(state, SPACE, [0, 4, 4])
    feed(rules, state)
    assert meals(rules, state) == {(2, 1, 0), (1, 2, 0), (4, 0, 0), (0, 4, 0)}
    state = eat(rules, state, (0, 4, 0))
    assert state.cubes[SPACE] == [2, 4, 0]


def test_substitution_saves_an_amoeba_but_is_optional():
    """primordial_soup.md "Substitution" and "Phase 1: Move and feed": without the standard meal
    a gene meal can be eaten; feeding genes never have to be used, so starving stays
    possible."""
    rules, state = table()
    put(state, 0, 1, SPACE)
    give_gene(state, 0, "substitution")
    set_cubes(state, SPACE, [0, 2, 2, 0])
    feed(rules, state)
    assert meals(rules, state) == {(2, 2, 0)}
    assert can_pass(rules, state)
    fed = eat(rules, state, (2, 2, 0))
    assert fed.cubes[SPACE] == [2, 0, 0, 0]
    assert fed.players[0].amoeba_damage[0] == 0
    starved = play(rules, state, "pass")
    assert starved.players[0].amoeba_damage[0] == 1
    assert starved.cubes[SPACE] == [0, 2, 2, 0]


# Frugality ---------------------------------------------------------------------------------


def test_frugality_one_cube_fewer():
    """primordial_soup.md "Frugality" (4p only): needs one cube fewer, which one is chosen case by
    case: 1:1:0 in any colours; excretion stays 2."""
    rules, state = table()
    put(state, 0, 1, SPACE)
    give_gene(state, 0, "frugality")
    feed(rules, state)
    assert meals(rules, state) == perms((1, 1, 1), (1, 1, 0))
    state = eat(rules, state, (1, 0, 1))
    assert state.cubes[SPACE] == [4, 1, 2, 1]


def test_frugality_saves_an_amoeba_when_one_colour_is_missing():
    """primordial_soup.md "Frugality": with one foreign colour missing, 1:1:0 still feeds the
    amoeba (starving stays possible, feeding genes are optional)."""
    rules, state = table()
    put(state, 0, 1, SPACE)
    give_gene(state, 0, "frugality")
    set_cubes(state, SPACE, [0, 1, 0, 1])
    feed(rules, state)
    assert meals(rules, state) == {(1, 0, 1)}
    assert can_pass(rules, state)
    state = eat(rules, state, (1, 0, 1))
    assert state.cubes[SPACE] == [2, 0, 0, 0]
    assert state.players[0].amoeba_damage[0] == 0


def test_frugality_and_substitution_together():
    """primordial_soup.md "Combining feeding genes": Frugality + Substitution allow 1:1:1, 2:2:0,
    3:1:0, 1:1:0, 2:1:0 and 3:0:0 (any colours)."""
    rules, state = table()
    put(state, 0, 1, SPACE)
    give_gene(state, 0, "frugality")
    give_gene(state, 0, "substitution")
    set_cubes(state, SPACE, [0, 4, 4, 4])
    feed(rules, state)
    assert meals(rules, state) == perms(
        (1, 1, 1), (2, 2, 0), (3, 1, 0), (1, 1, 0), (2, 1, 0), (3, 0, 0))


# Parasitism --------------------------------------------------------------------------------


def test_parasitism_host_pays_1_bp():
    """primordial_soup.md "Parasitism": feed with one cube fewer if a foreign amoeba whose owner has
    BP shares the space; that owner pays 1 BP to the bank. No defence against it::

        space 13: player 0 (Parasitism), player 1 (host); colour 3 missing
    """
    rules, state = table()
    put(state, 0, 1, SPACE)
    put(state, 1, 1, SPACE)
    give_gene(state, 0, "parasitism")
    set_cubes(state, SPACE, [0, 2, 2, 0])
    feed(rules, state)
    assert meals(rules, state) == {(1, 1, 0)}
    state = eat(rules, state, (1, 1, 0))
    assert rules.decision_name(state) == "parasite_host"
    assert segment_options(rules, state, "parasite_host") == {0}
    assert not can_pass(rules, state)
    state = play(rules, state, "parasite_host", 0)
    assert state.players[1].bp == 3
    assert state.players[0].bp == 4
    assert state.cubes[SPACE] == [2, 1, 1, 0]
    assert state.players[0].amoeba_damage[0] == 0


def test_parasitism_choose_one_of_several_hosts():
    """primordial_soup.md "Parasitism": with several candidates, pick one; only that owner pays."""
    rules, state = table()
    put(state, 0, 1, SPACE)
    put(state, 1, 1, SPACE)
    put(state, 2, 1, SPACE)
    give_gene(state, 0, "parasitism")
    set_cubes(state, SPACE, [0, 2, 2, 0])
    state = eat(rules, feed(rules, state), (1, 1, 0))
    assert segment_options(rules, state, "parasite_host") == {0, 1}
    state = play(rules, state, "parasite_host", 1)  # player +2
    assert [ps.bp for ps in state.players] == [4, 4, 3, 4]


@pytest.mark.parametrize("why", ["host has no BP", "host elsewhere", "only own amoeba"])
def test_parasitism_needs_a_foreign_host_with_bp_on_the_space(why):
    """primordial_soup.md "Parasitism": the host must be a foreign amoeba on the same space whose
    owner still has BP; otherwise there is no Parasitism and the amoeba starves."""
    rules, state = table()
    put(state, 0, 1, SPACE)
    give_gene(state, 0, "parasitism")
    set_cubes(state, SPACE, [0, 2, 2, 0])
    if why == "host has no BP":
        put(state, 1, 1, SPACE)
        state.players[1].bp = 0
    elif why == "host elsewhere":
        put(state, 1, 1, SPACE + 1)
    else:
        put(state, 0, 2, SPACE)
    feed(rules, state)
    assert state.stack == []
    assert state.players[0].amoeba_damage[0] == 1
    assert [ps.bp for ps in state.players] == [4, 0 if why == "host has no BP" else 4, 4, 4]


def test_parasitism_optional_when_not_needed():
    """primordial_soup.md "Parasitism" and "Where the user's summary differs" (Parasitism,
    rulebook reading): no shortage is needed; with the full meal there, eating it costs the host
    nothing; a 1:1:0 meal makes the host pay."""
    rules, state = table()
    put(state, 0, 1, SPACE)
    put(state, 1, 1, SPACE)
    give_gene(state, 0, "parasitism")
    feed(rules, state)
    assert meals(rules, state) == perms((1, 1, 1), (1, 1, 0))
    full = eat(rules, state, (1, 1, 1))
    assert full.stack == [] and full.players[1].bp == 4
    short = eat(rules, state, (0, 1, 1))
    short = play(rules, short, "parasite_host", 0)
    assert short.players[1].bp == 3
    assert short.cubes[SPACE] == [4, 2, 1, 1]


def test_parasitism_with_frugality_host_is_optional_for_one_cube_fewer():
    """primordial_soup.md "Combining feeding genes": Frugality and Parasitism each remove up to one
    cube (at least one is eaten); when Frugality alone covers the meal, the host may be
    declined."""
    rules, state = table()
    put(state, 0, 1, SPACE)
    put(state, 1, 1, SPACE)
    give_gene(state, 0, "parasitism")
    give_gene(state, 0, "frugality")
    feed(rules, state)
    assert meals(rules, state) == perms((1, 1, 1), (1, 1, 0), (1, 0, 0))
    two = eat(rules, state, (1, 1, 0))
    assert rules.decision_name(two) == "parasite_host" and can_pass(rules, two)
    assert play(rules, two, "pass").players[1].bp == 4
    one = eat(rules, state, (0, 0, 1))
    assert not can_pass(rules, one)
    one = play(rules, one, "parasite_host", 0)
    assert one.players[1].bp == 3
    assert one.cubes[SPACE] == [4, 2, 2, 1]


def test_parasitism_requires_shortage_variant():
    """primordial_soup.md "Where the user's summary differs" (seed reading,
    ``parasitism_requires_shortage=True``): Parasitism only when the standard meal is
    missing."""
    rules, state = table(parasitism_requires_shortage=True)
    put(state, 0, 1, SPACE)
    put(state, 1, 1, SPACE)
    give_gene(state, 0, "parasitism")
    assert meals(rules, feed(rules, state.copy())) == {(1, 1, 1)}
    set_cubes(state, SPACE, [0, 2, 0, 2])
    feed(rules, state)
    assert meals(rules, state) == {(1, 0, 1)}
    state = play(rules, eat(rules, state, (1, 0, 1)), "parasite_host", 0)
    assert state.players[1].bp == 3
