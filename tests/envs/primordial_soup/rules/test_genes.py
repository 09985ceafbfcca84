"""Rule tests for genes: phase 2 (environment card, gene defects) and phase 3 (buying genes).

primordial_soup.md "Environment cards", "Genes", "Phase 2: Environment and gene defects" and
"Phase 3: New genes". Positions are built by hand (``builders.table``); seat ``p`` has its
ladder marker on space ``p + 1``, so the descending order (the leader first) is 3, 2, 1, 0 with
4 players.
"""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs.primordial_soup.data import GENE_INDEX, GENES, gene
from primeval.envs.primordial_soup.rules import PrimordialSoupRules
from tests.envs.primordial_soup.builders import (
    ScriptedDice,
    act,
    give_gene,
    legal,
    put,
    run,
    table,
)

#: Default deck indices by ozone value (primordial_soup.md "Environment cards").
OZONE_6, OZONE_7, OZONE_14 = 1, 7, 8


def phase2(rules, state, card: int):
    """Run phase 2 with deck card ``card`` scripted as the next card turned over."""
    state.environment_deck = [card]
    return run(rules, state, {"kind": "phase2"}, rng=ScriptedDice([0]))


def buy_legal(rules, state, key: str) -> bool:
    return f"buy_gene({gene(key).name})" in legal(rules, state)


def give_up(rules, state, key: str):
    return act(rules, state, "give_up_gene", GENE_INDEX[key])


def buy(rules, state, key: str):
    return act(rules, state, "buy_gene", GENE_INDEX[key])


# Phase 2: the environment card ---------------------------------------------------------------


def test_phase2_turns_the_next_card_from_the_remaining_deck():
    """primordial_soup.md "Phase 2: Environment and gene defects" and "Environment cards": the
    old card goes, a new one is turned from those not yet used."""
    rules, state = table()
    state.environment_card = 0
    state.environment_deck = [3, 5, 7]
    run(rules, state, {"kind": "phase2"}, rng=ScriptedDice([1]))
    assert state.phase == "environment"
    assert state.environment_card == 5
    assert state.environment_deck == [3, 7]


def test_phase2_never_turns_a_used_card_again():
    """primordial_soup.md "Environment cards" and "Phase 2: Environment and gene defects": each
    round turns one of the cards not yet turned over."""
    rules, state = table()
    rng = np.random.default_rng(7)
    seen = [state.environment_card]
    for _ in range(10):
        run(rules, state, {"kind": "phase2"}, rng=rng)
        seen.append(state.environment_card)
    assert sorted(seen) == list(range(11))
    assert state.environment_deck == []


# Phase 2: gene defects -----------------------------------------------------------------------


def test_defect_is_mp_sum_above_ozone_worked_example():
    """primordial_soup.md "Phase 2: Environment and gene defects" (S1's worked example):
    Streamlining 4 + Speed 3 + Division Rate 5 = 12 against ozone 6 means paying 6."""
    rules, state = table()
    for key in ("streamlining", "speed", "division_rate"):
        give_gene(state, 3, key)
    phase2(rules, state, OZONE_6)
    assert state.pending == {"kind": "defect", "player": 3, "remaining": 6}
    assert rules.current_player(state) == 3


def test_ray_protection_counts_minus_2_in_the_mp_sum():
    """primordial_soup.md "Phase 2: Environment and gene defects" and "Ray Protection": Ray
    Protection lowers the MP sum by 2 (12 - 2 = 10 vs 6)."""
    rules, state = table()
    for key in ("streamlining", "speed", "division_rate", "ray_protection"):
        give_gene(state, 3, key)
    phase2(rules, state, OZONE_6)
    assert state.pending["remaining"] == 4


@pytest.mark.parametrize(("genes", "due"), [
    (("speed", "intelligence"), 0),          # 6 = ozone: no defect
    (("spores",), 0),                        # 3 < ozone
    (("longevity", "movement_1"), 1),        # 7 > 6
    (("longevity", "movement_1", "ray_protection"), 0),  # 5
])
def test_defect_only_when_mp_sum_exceeds_ozone(genes, due):
    """primordial_soup.md "Phase 2: Environment and gene defects": a defect only if the MP sum
    is *greater than* the ozone value."""
    rules, state = table()
    for key in genes:
        give_gene(state, 3, key)
    phase2(rules, state, OZONE_6)
    if due:
        assert state.pending == {"kind": "defect", "player": 3, "remaining": due}
    else:
        assert state.stack == []


def test_defects_are_paid_in_descending_order():
    """primordial_soup.md "Phase 2: Environment and gene defects" and "Order of play": the
    leader pays first, then down the ladder."""
    rules, state = table()
    state.players[2].score, state.players[0].score = 9, 8  # order: 2, 0, 3, 1
    give_gene(state, 0, "longevity")        # 5 + 3 = 8 vs 7: 1
    give_gene(state, 0, "intelligence")
    give_gene(state, 1, "division_rate")    # 5 + 4 = 9 vs 7: 2
    give_gene(state, 1, "tentacle")
    give_gene(state, 2, "frugality")        # 5 + 4 = 9 vs 7: 2
    give_gene(state, 2, "holding")
    phase2(rules, state, OZONE_7)
    assert [f["player"] for f in reversed(state.stack)] == [2, 0, 1]
    order = []
    while state.stack:
        order.append(rules.current_player(state))
        state = act(rules, state, "pay_bp")
    assert order == [2, 0, 1]
    assert [ps.bp for ps in state.players] == [3, 2, 2, 4]


def test_defect_paid_in_bp():
    """primordial_soup.md "Phase 2: Environment and gene defects": the difference may be paid in
    BP, 1 each; the genes stay."""
    rules, state = table()
    give_gene(state, 3, "longevity")
    give_gene(state, 3, "movement_1")
    phase2(rules, state, OZONE_6)
    state = act(rules, state, "pay_bp")
    assert state.players[3].bp == 3
    assert set(state.players[3].genes) == {"longevity", "movement_1"}
    assert state.stack == []


def test_bp_payment_must_cover_the_rest():
    """primordial_soup.md "Phase 2: Environment and gene defects": without enough BP the player
    must give up genes (BP never negative)."""
    rules, state = table()
    for key in ("longevity", "division_rate", "frugality"):  # 15 vs 6: 9
        give_gene(state, 3, key)
    phase2(rules, state, OZONE_6)
    assert legal(rules, state) == {
        "give_up_gene(Longevity)", "give_up_gene(Division Rate)", "give_up_gene(Frugality)",
    }


def test_defect_paid_by_giving_up_a_gene_worth_its_mp():
    """primordial_soup.md "Phase 2: Environment and gene defects": a given-up gene pays its MP."""
    rules, state = table()
    for key in ("longevity", "division_rate", "frugality"):  # 15 vs 6: 9
        give_gene(state, 3, key)
    phase2(rules, state, OZONE_6)
    state = give_up(rules, state, "longevity")
    assert state.pending == {"kind": "defect", "player": 3, "remaining": 4}
    assert "longevity" not in state.players[3].genes
    state = give_up(rules, state, "frugality")  # pays 5 >= 4
    assert state.stack == []
    assert set(state.players[3].genes) == {"division_rate"}
    assert state.players[3].bp == 4


def test_ray_protection_given_up_pays_4():
    """primordial_soup.md "Phase 2: Environment and gene defects" and "Ray Protection": Ray
    Protection given up pays 4 (not its -2 MP), and the difference fixed when the card was
    turned does not grow when it goes."""
    rules, state = table()
    state.players[3].bp = 20
    for key in ("longevity", "division_rate", "frugality", "struggle", "ray_protection"):
        give_gene(state, 3, key)                  # 5 + 5 + 5 + 4 - 2 = 17 vs 6: 11
    phase2(rules, state, OZONE_6)
    assert state.pending["remaining"] == 11
    state = give_up(rules, state, "ray_protection")
    assert state.pending["remaining"] == 7
    state = act(rules, state, "pay_bp")
    assert state.players[3].bp == 13
    assert "ray_protection" not in state.players[3].genes


def test_defect_paid_by_a_mix_of_genes_and_bp():
    """primordial_soup.md "Phase 2: Environment and gene defects": any mix of genes and BP."""
    rules, state = table()
    for key in ("longevity", "division_rate", "struggle"):  # 14 vs 7: 7
        give_gene(state, 3, key)
    phase2(rules, state, OZONE_7)
    assert "pay_bp" not in legal(rules, state)   # 4 BP < 7
    state = give_up(rules, state, "struggle")    # 7 - 4 = 3
    assert "pay_bp" in legal(rules, state)
    state = act(rules, state, "pay_bp")
    assert state.players[3].bp == 1
    assert set(state.players[3].genes) == {"longevity", "division_rate"}
    assert state.stack == []


def test_overpayment_with_a_gene_is_lost():
    """primordial_soup.md "Phase 2: Environment and gene defects": overpaying with genes is
    lost, with no change in BP."""
    rules, state = table()
    give_gene(state, 3, "longevity")
    give_gene(state, 3, "movement_1")            # 7 vs 6: 1
    phase2(rules, state, OZONE_6)
    state = give_up(rules, state, "longevity")   # pays 5 for 1
    assert state.stack == []
    assert state.players[3].bp == 4
    assert set(state.players[3].genes) == {"movement_1"}


def test_given_up_gene_returns_to_supply_and_is_buyable_in_phase3():
    """primordial_soup.md "Phase 2: Environment and gene defects" and "Buying advanced genes":
    given-up genes go back to the supply and can be bought again at once (here by the same
    player in phase 3 of the same round)."""
    rules, state = table()
    give_gene(state, 0, "longevity")
    give_gene(state, 3, "longevity")             # both copies taken
    give_gene(state, 3, "division_rate")         # 10 vs 6: 4
    state.players[3].bp = 5
    i = GENE_INDEX["longevity"]
    assert state.gene_supply[i] == 0
    phase2(rules, state, OZONE_6)
    state = give_up(rules, state, "longevity")   # pays 5 >= 4
    assert state.stack == []
    assert state.gene_supply[i] == 1
    run(rules, state, {"kind": "buy", "player": 3})
    assert buy_legal(rules, state, "longevity")
    state = buy(rules, state, "longevity")
    assert state.players[3].genes == {"division_rate": 0, "longevity": state.round}
    assert state.gene_supply[i] == 0


@pytest.mark.parametrize("seed", range(5))
def test_round_1_has_no_gene_defects(seed):
    """primordial_soup.md "Phase 2: Environment and gene defects": round 1 has no defects, since
    nobody holds genes yet."""
    rules = PrimordialSoupRules()
    rng = np.random.default_rng(seed)
    state = rules.initial_state(rng)
    phases = set()
    while state.round <= 1:
        phases.add(state.phase)
        assert rules.decision_name(state) != "defect"
        if state.phase in ("setup", "movement_and_feeding", "environment"):
            assert all(not ps.genes for ps in state.players)
        state = rules.apply(state, int(rng.choice(rules.legal_actions(state))), rng)
    assert "environment" not in phases  # phase 2 of round 1 asked nobody anything
    assert state.round == 2


# Phase 3: buying genes -----------------------------------------------------------------------


def test_buy_turns_in_descending_order():
    """primordial_soup.md "Phase 3: New genes" and "Order of play": descending order, one turn
    each."""
    rules, state = table()
    state.players[1].score = 9                   # order: 1, 3, 2, 0
    run(rules, state, {"kind": "phase3"})
    assert state.phase == "new_genes"
    order = []
    while state.stack:
        order.append(rules.current_player(state))
        state = act(rules, state, "pass")
    assert order == [1, 3, 2, 0]


def test_any_number_of_genes_in_one_turn_paying_the_price():
    """primordial_soup.md "Phase 3: New genes": one turn to buy any number of affordable cards
    at the printed price."""
    rules, state = table()
    state.players[3].bp = 12
    run(rules, state, {"kind": "phase3"})
    state = buy(rules, state, "intelligence")    # 2
    assert rules.current_player(state) == 3
    state = buy(rules, state, "speed")           # 4
    state = buy(rules, state, "spores")          # 3
    assert rules.current_player(state) == 3
    assert state.players[3].bp == 3
    assert state.players[3].genes == {"intelligence": 1, "speed": 1, "spores": 1}
    state = act(rules, state, "pass")
    assert rules.current_player(state) == 2


@pytest.mark.parametrize("key", [g.key for g in GENES if not g.advanced])
def test_buying_costs_the_printed_price(key):
    """primordial_soup.md "Basic genes" and "Phase 3: New genes": the price in BP; a gene
    costing more than the BP left cannot be bought."""
    price = gene(key).price
    rules, state = table()
    state.players[3].bp = price
    run(rules, state, {"kind": "buy", "player": 3})
    state = buy(rules, state, key)
    assert state.players[3].bp == 0
    assert state.players[3].genes == {key: 1}
    rules, state = table()
    state.players[3].bp = price - 1
    run(rules, state, {"kind": "buy", "player": 3})
    if state.stack:  # otherwise nothing was affordable and the turn passed by itself
        assert not buy_legal(rules, state, key)


def test_stock_is_limited():
    """primordial_soup.md "Phase 3: New genes" and "Genes": stock is limited; when every copy is
    taken nobody can buy it."""
    rules, state = table()
    state.players[3].bp = 20
    give_gene(state, 0, "escape")
    run(rules, state, {"kind": "buy", "player": 3})
    assert buy_legal(rules, state, "escape")     # one of the two 4p copies left
    give_gene(state, 1, "escape")
    assert not buy_legal(rules, state, "escape")
    assert state.gene_supply[GENE_INDEX["escape"]] == 0


@pytest.mark.parametrize("num_players", [3, 4])
def test_stock_is_the_copies_for_the_player_count(num_players):
    """primordial_soup.md "Genes" and "Setup": with 3 players only the cards marked "3" are used
    (no Frugality or Parasitism); with 4 players all 30."""
    rules, state = table(num_players=num_players)
    assert state.gene_supply == [g.copies(num_players) for g in GENES]
    assert sum(state.gene_supply) == (20 if num_players == 3 else 30)
    leader = num_players - 1
    state.players[leader].bp = 100
    run(rules, state, {"kind": "buy", "player": leader})
    for key in ("frugality", "parasitism"):
        assert buy_legal(rules, state, key) == (num_players == 4)


def test_stock_runs_out_after_buying_the_last_copy():
    """primordial_soup.md "Phase 3: New genes": after a player buys the last copy the next
    player cannot."""
    rules, state = table()
    for p in (2, 3):
        state.players[p].bp = 10
    run(rules, state, {"kind": "phase3"})
    state = buy(rules, state, "spores")          # the only copy, by seat 3
    state = act(rules, state, "pass")
    assert rules.current_player(state) == 2
    assert not buy_legal(rules, state, "spores")


def test_no_duplicate_genes():
    """primordial_soup.md "Advanced genes" and "Phase 3: New genes": nobody may own two copies
    of the same gene."""
    rules, state = table()
    state.players[3].bp = 20
    run(rules, state, {"kind": "buy", "player": 3})
    state = buy(rules, state, "speed")
    assert state.gene_supply[GENE_INDEX["speed"]] == 1   # a copy is left, but not for seat 3
    assert not buy_legal(rules, state, "speed")


ADVANCED = {
    "persistence": ("speed",),
    "movement_2": ("movement_1",),
    "aggression": ("struggle",),
    "armor": ("defense", "escape"),
}


@pytest.mark.parametrize(("advanced", "basic"),
                         [(a, b) for a, bs in ADVANCED.items() for b in bs])
def test_predecessor_cannot_be_bought_while_holding_the_advanced_gene(advanced, basic):
    """primordial_soup.md "Buying advanced genes": a player may not own a gene and its
    predecessor, nor buy the given-up card while holding the higher gene."""
    rules, state = table()
    state.players[3].bp = 30
    give_gene(state, 3, advanced)
    run(rules, state, {"kind": "buy", "player": 3})
    assert state.gene_supply[GENE_INDEX[basic]] > 0
    assert not buy_legal(rules, state, basic)


@pytest.mark.parametrize(("advanced", "basic"),
                         [(a, b) for a, bs in ADVANCED.items() for b in bs])
def test_advanced_gene_needs_the_basic_gene_owned_since_an_earlier_round(advanced, basic):
    """primordial_soup.md "Buying advanced genes": the gene given up must have been acquired at
    least one round earlier, so a basic gene bought in this phase 3 cannot be upgraded at once;
    without it, no purchase."""
    rules, state = table(round=3)
    state.players[3].bp = 30
    run(rules, state, {"kind": "buy", "player": 3})
    assert not buy_legal(rules, state, advanced)           # no basic gene at all
    state = buy(rules, state, basic)                       # bought this round
    assert state.players[3].genes[basic] == 3
    assert not buy_legal(rules, state, advanced)
    state.players[3].genes[basic] = 2                      # acquired last round
    assert buy_legal(rules, state, advanced)


@pytest.mark.parametrize(("advanced", "basic"),
                         [(a, b) for a, bs in ADVANCED.items() for b in bs])
def test_advanced_gene_costs_price_plus_basic_gene_returned_to_supply(advanced, basic):
    """primordial_soup.md "Buying advanced genes": price plus giving up the basic gene, which
    goes back to the supply (and can be bought again, but not by the holder of the higher
    gene)."""
    rules, state = table(round=2)
    state.players[3].bp = 10
    give_gene(state, 3, basic, acquired=1)
    supply_before = state.gene_supply[GENE_INDEX[basic]]
    run(rules, state, {"kind": "buy", "player": 3})
    state = buy(rules, state, advanced)
    ps = state.players[3]
    assert ps.genes == {advanced: 2}
    assert ps.bp == 10 - gene(advanced).price
    assert state.gene_supply[GENE_INDEX[basic]] == supply_before + 1
    assert state.gene_supply[GENE_INDEX[advanced]] == gene(advanced).copies(4) - 1


def test_armor_with_both_defense_and_escape_returns_both():
    """primordial_soup.md "Buying advanced genes" (UNKNOWN, proposed default): Armor gives up
    Defense or Escape; a player holding both returns one as the price and the other too (no gene
    with its predecessor)."""
    rules, state = table(round=2)
    state.players[3].bp = 10
    give_gene(state, 3, "defense", acquired=1)
    give_gene(state, 3, "escape", acquired=1)
    run(rules, state, {"kind": "buy", "player": 3})
    state = buy(rules, state, "armor")
    assert state.players[3].genes == {"armor": 2}
    assert state.players[3].bp == 4
    assert state.gene_supply[GENE_INDEX["defense"]] == 1
    assert state.gene_supply[GENE_INDEX["escape"]] == 2
    assert not buy_legal(rules, state, "defense")
    assert not buy_legal(rules, state, "escape")


def test_armor_with_escape_from_earlier_and_defense_bought_now():
    """primordial_soup.md "Buying advanced genes": one predecessor owned since an earlier round
    suffices for Armor; the other, bought this round, goes back too."""
    rules, state = table(round=2)
    state.players[3].bp = 20
    give_gene(state, 3, "escape", acquired=1)
    run(rules, state, {"kind": "buy", "player": 3})
    state = buy(rules, state, "defense")
    assert buy_legal(rules, state, "armor")
    state = buy(rules, state, "armor")
    assert state.players[3].genes == {"armor": 2}
    assert state.players[3].bp == 20 - 4 - 6


def test_bought_genes_act_at_once_division_rate():
    """primordial_soup.md "Phase 3: New genes": new genes work at once (Division Rate in the
    same round's phase 4)."""
    rules, state = table()
    state.players[3].bp = 8
    put(state, 3, 1, 2)
    put(state, 3, 2, 3)
    run(rules, state, {"kind": "buy", "player": 3}, {"kind": "division_income", "player": 3})
    state = buy(rules, state, "division_rate")
    state = act(rules, state, "pass")
    assert rules.decision_name(state) == "divide"
    assert state.players[3].bp == 12
    state = act(rules, state, "place_amoeba", 2, 4)
    assert state.players[3].bp == 8


def test_bought_genes_act_at_once_longevity():
    """primordial_soup.md "Phase 3: New genes": new genes work at once (Longevity in the same
    round's phase 5)."""
    rules, state = table()
    state.players[3].bp = 7
    put(state, 3, 1, 2, damage=2)
    run(rules, state, {"kind": "buy", "player": 3}, {"kind": "natural_deaths"})
    state = buy(rules, state, "longevity")
    state = act(rules, state, "pass")
    assert state.players[3].amoeba_space[0] == 2
