"""The Primordial Soup heuristic's decisions: one ``_decide_<kind>`` method per decision.

The food and movement values they compare come from :mod:`.evaluation`; the shared skeleton
(rules, fallbacks, the mask check) from
:class:`~primeval.training.agents.heuristics.base.RuleBasedAgent`.
"""

from __future__ import annotations

import numpy as np

from primeval.envs.primordial_soup.actions import LAYOUT, MEALS, TAKES
from primeval.envs.primordial_soup.config import PrimordialSoupConfig
from primeval.envs.primordial_soup.data import ADVANCE_FOR_GENES, GENE_INDEX, GENES, STAY
from primeval.envs.primordial_soup.rules import PrimordialSoupRules
from primeval.envs.primordial_soup.rules.common import death_threshold, mutation_points
from primeval.envs.primordial_soup.rules.division import division_cost
from primeval.envs.primordial_soup.rules.feeding import meal_options
from primeval.envs.primordial_soup.rules.movement import move_cost
from primeval.envs.primordial_soup.state import GameState
from primeval.training.agents.heuristics.base import RuleBasedAgent
from primeval.training.agents.heuristics.primordial_soup.evaluation import (
    _Evaluation,
    attack_success,
)

__all__ = ["ReferencePrimordialSoupHeuristic"]

_SEG_OFFSET = {name: LAYOUT.offset(name) for name in LAYOUT.names}
_PASS = LAYOUT.encode("pass")

#: Effect of a gene in ladder points per round, as ``(constant, per amoeba on the board)``.
#: Rough guesses tuned against random play; the Advance Table value is added separately.
_EFFECT: dict[str, tuple[float, float]] = {
    "intelligence": (0.0, 0.0),
    "movement_1": (0.0, 0.04),
    "spores": (0.05, 0.0),
    "speed": (0.0, 0.02),
    "defense": (0.1, 0.01),
    "escape": (0.1, 0.01),
    "substitution": (0.0, 0.06),
    "ray_protection": (0.0, 0.0),
    "streamlining": (0.0, 0.04),
    "tentacle": (0.0, 0.03),
    "holding": (0.0, 0.02),
    "longevity": (0.0, 0.08),
    "frugality": (0.0, 0.09),
    "struggle": (0.1, 0.02),
    "parasitism": (0.0, 0.06),
    "division_rate": (0.6, 0.0),
    "persistence": (0.0, 0.03),
    "movement_2": (0.0, 0.07),
    "aggression": (0.5, 0.02),
    "armor": (0.2, 0.02),
}


class ReferencePrimordialSoupHeuristic(_Evaluation, RuleBasedAgent):
    """Rule-based Primordial Soup player (see :mod:`primeval.training.agents.heuristics.primordial_soup`).

    Args:
        rules: The game's :class:`PrimordialSoupRules` (best: ``env.unwrapped.rules``) or a
            :class:`PrimordialSoupConfig`; ``None`` builds the default rules for the state's
            player count on first use.
        seed: Seed of the generator used for fallbacks (a uniformly random legal action).

    Attributes:
        name: ``"heuristic"``.
        rng: The fallback generator.
        fallbacks: How many decisions were answered by the random fallback.
    """

    game = "primordial_soup"
    rules_class = PrimordialSoupRules
    config_class = PrimordialSoupConfig

    #: BP kept back after cell division for next round's active moves.
    move_reserve = 2
    #: Ladder points per round that one BP of expected gene defect per round is worth.
    defect_weight = 0.3
    #: Ladder points per round that one BP spent now on cell division is worth.
    amoeba_ratio = 0.86 / 6
    #: Highest MP sum (Ray Protection counting -2) a purchase may lead to while gene defects
    #: are still to come; the environment cards' ozone averages about 10.
    mp_cap = 10

    # ---------------------------------------------------------------------------------------
    # Setup
    # ---------------------------------------------------------------------------------------

    def _decide_start_space(self, rules, state, frame, player, mask):
        view = LAYOUT.segment_view(mask, "start_space")
        return _SEG_OFFSET["start_space"] + int(np.flatnonzero(view)[-1])

    def _decide_place_start(self, rules, state, frame, player, mask):
        return self._place(rules, state, player, mask, setup=True)

    # ---------------------------------------------------------------------------------------
    # Phase 1: movement
    # ---------------------------------------------------------------------------------------

    def _decide_move(self, rules, state, frame, player, mask):
        amoeba = frame["amoeba"]
        ps = state.players[player]
        src = ps.amoeba_space[amoeba]
        starve_cost = self._starve_cost(state, rules, player, amoeba)
        cost = move_cost(rules, ps)
        src_here = self._foreign(state, player, src)
        stay = self._feed_value(state, rules, player, amoeba, src, src_here, ps.bp,
                                starve_cost)
        drift_dest = self._drift_destination(state, rules, src)
        if drift_dest == src:
            drift = stay
        else:
            here = self._with_tentacle(state, rules, ps, src_here,
                                       self._foreign(state, player, drift_dest))
            drift = self._feed_value(state, rules, player, amoeba, drift_dest, here, ps.bp,
                                     starve_cost)
        options = [(drift + 0.01, 0)]
        if mask[_SEG_OFFSET["move"] + 2]:
            options.append((stay + 0.005, 2))
        if mask[_SEG_OFFSET["move"] + 1] and drift < starve_cost:
            speed = ps.has("speed") or ps.has("persistence")
            active = self._active_value(state, rules, player, amoeba, src, ps.bp - cost,
                                        starve_cost, speed)
            options.append((active - 1.0 * cost - 0.3, 1))
        return _SEG_OFFSET["move"] + max(options)[1]

    def _decide_direction(self, rules, state, frame, player, mask):
        amoeba = frame["amoeba"]
        ps = state.players[player]
        src = ps.amoeba_space[amoeba]
        allowed = [d for d in frame["allowed"] if mask[_SEG_OFFSET["direction"] + d]]
        if not allowed:
            return None
        neighbours = rules.board.neighbours[src]
        if frame["mode"] == "escape":
            starve_cost = 1.0
            values = self._outcome_values(state, rules, player, amoeba, src, ps.bp,
                                          starve_cost)
            best = max(allowed, key=lambda d: ((d != STAY and neighbours[d] >= 0), values[d]))
            return _SEG_OFFSET["direction"] + best
        starve_cost = self._starve_cost(state, rules, player, amoeba)
        values = self._outcome_values(state, rules, player, amoeba, src, ps.bp, starve_cost)
        if frame["step"] == 1 and (ps.has("speed") or ps.has("persistence")):
            for d in allowed:
                dest = neighbours[d] if d != STAY else src
                if dest < 0:
                    dest = src
                second = self._dice_expectation(
                    rules, ps,
                    self._outcome_values(state, rules, player, amoeba, dest, ps.bp,
                                         starve_cost),
                )
                values[d] = max(values[d], second - 0.01)
        best = max(allowed, key=lambda d: (values[d], d == STAY))
        return _SEG_OFFSET["direction"] + best

    def _decide_move_again(self, rules, state, frame, player, mask):
        amoeba = frame["amoeba"]
        ps = state.players[player]
        space = ps.amoeba_space[amoeba]
        if frame["mode"] == "escape":
            for f in reversed(state.stack):
                if f["kind"] == "attack" and f["target_player"] == player \
                        and f["target_amoeba"] == amoeba:
                    return LAYOUT.encode("move_again") if f["space"] == space else _PASS
            return _PASS
        starve_cost = self._starve_cost(state, rules, player, amoeba)
        here = self._foreign(state, player, space)
        stay = self._feed_value(state, rules, player, amoeba, space, here, ps.bp, starve_cost)
        again = self._active_value(state, rules, player, amoeba, space, ps.bp, starve_cost,
                                   False)
        return LAYOUT.encode("move_again") if again > stay + 0.05 else _PASS

    def _decide_tentacle(self, rules, state, frame, player, mask):
        """Take the foreign cubes that best complete a meal at the destination (the mover's
        take and a clinging amoeba's alike: the mask leaves only the cubes still there)."""
        ps = state.players[player]
        dest_here = self._foreign(state, player, frame["dest"])
        table = self._table(state, ps)
        view = LAYOUT.segment_view(mask, "tentacle")
        best, best_key = None, None
        for i in np.flatnonzero(view):
            take = TAKES[i]
            if take[0]:  # own colour: no use to this player
                continue
            here = (dest_here[0] + take[1], dest_here[1] + take[2], dest_here[2] + take[3])
            key = (self._fits(here, table), self._meal_count(here, table), sum(take))
            if best_key is None or key > best_key:
                best, best_key = i, key
        if best is None:
            return _PASS
        return _SEG_OFFSET["tentacle"] + int(best)

    def _decide_cling(self, rules, state, frame, player, mask):
        """Holding: cling to the leaving amoeba when the destination has more food."""
        amoeba = frame["amoeba"]
        ps = state.players[player]
        table = self._table(state, ps)
        src, dest = frame["space"], frame["dest"]
        n = state.num_players
        carry = next((f["carry"] for f in reversed(state.stack) if f["kind"] == "relocate"),
                     ())
        rel = [carry[(player + k) % n] if carry and k < n else 0 for k in (1, 2, 3)]
        src_here = tuple(c - r for c, r in zip(self._foreign(state, player, src), rel,
                                                strict=True))
        dest_here = tuple(c + r for c, r in zip(self._foreign(state, player, dest), rel,
                                                strict=True))
        if ps.amoeba_done[amoeba]:
            # It has fed this round: where it stands decides next round's start.
            v_src = self._meal_count(src_here, table)
            v_dest = self._meal_count(dest_here, table)
        else:
            # Its own turn is still to come and starts from wherever it is: compare the food
            # at the drift destinations.
            def start_value(space: int, here) -> int:
                drift_dest = self._drift_destination(state, rules, space)
                if drift_dest != space:
                    here = self._foreign(state, player, drift_dest)
                return self._meal_count(here, table)

            v_src, v_dest = start_value(src, src_here), start_value(dest, dest_here)
        return LAYOUT.encode("cling") if v_dest > v_src else _PASS

    # ---------------------------------------------------------------------------------------
    # Phase 1: feeding and attacks
    # ---------------------------------------------------------------------------------------

    def _decide_feed(self, rules, state, frame, player, mask):
        amoeba = frame["amoeba"]
        ps = state.players[player]
        space = ps.amoeba_space[amoeba]
        eats = np.flatnonzero(LAYOUT.segment_view(mask, "eat"))
        if eats.size:
            here = self._foreign(state, player, space)
            table = self._table(state, ps)
            options = meal_options(rules, state, player, space)
            best, best_key = None, None
            for i in eats:
                meal = MEALS[i]
                rest = (here[0] - meal[0], here[1] - meal[1], here[2] - meal[2])
                without, _with_host = options.get(meal, (True, False))
                key = (self._meal_count(rest, table), -sum(meal), not without, min(rest[:2]))
                if best_key is None or key > best_key:
                    best, best_key = i, key
            return _SEG_OFFSET["eat"] + int(best)
        attack = self._best_attack(rules, state, player, mask)
        if attack is not None:
            return attack
        return _PASS

    def _best_attack(self, rules, state, player: int, mask, aggression: bool = False):
        """The best legal attack on a foreign amoeba, or None (own amoebas are never eaten)."""
        view = LAYOUT.segment_view(mask, "attack")
        n = state.num_players
        best, best_key = None, None
        for offset, b in zip(*np.nonzero(view), strict=True):
            if offset == 0:
                continue
            q = (player + int(offset)) % n
            other = state.players[q]
            chance = attack_success(other)
            if aggression and other.has("armor"):
                thr = death_threshold(rules.config, other)
                chance = 0.8 if other.amoeba_damage[b] + 1 >= thr else 0.1
            key = (chance, other.score, -other.amoeba_damage[b])
            if best_key is None or key > best_key:
                best, best_key = LAYOUT.encode("attack", int(offset), int(b)), key
        return best

    def _decide_parasite_host(self, rules, state, frame, player, mask):
        n = state.num_players
        view = LAYOUT.segment_view(mask, "parasite_host")
        hosts = [int(k) for k in np.flatnonzero(view)]
        if not hosts:
            return _PASS
        best = max(hosts, key=lambda k: state.players[(player + k + 1) % n].score)
        return _SEG_OFFSET["parasite_host"] + best

    def _decide_defend(self, rules, state, frame, player, mask):
        """Defend whenever affordable: with both open, the likelier of Escape and Defense first
        (the other stays open if it fails: Escape then Defense, or a lost fight then Escape),
        so the second BP is spent less often; after a lost fight, escape rather than be
        eaten."""
        amoeba = frame["amoeba"]
        ps = state.players[player]
        can_escape = bool(mask[_SEG_OFFSET["defend"]])
        can_defend = bool(mask[_SEG_OFFSET["defend"] + 1])
        if not (can_escape or can_defend):
            return _PASS
        escape_chance = 0.0
        if can_escape:
            src = ps.amoeba_space[amoeba]
            neighbours = rules.board.neighbours[src]
            leaves = [1.0 if neighbours[d] >= 0 else 0.0 for d in range(4)] + [0.0]
            escape_chance = self._dice_expectation(rules, ps, leaves)
            if ps.has("speed") or ps.has("persistence"):
                escape_chance = 1 - (1 - escape_chance) ** 2
        defend_chance = 0.75 if ps.has("persistence") else 0.5
        if can_escape and (not can_defend or escape_chance >= defend_chance):
            return _SEG_OFFSET["defend"]
        return _SEG_OFFSET["defend"] + 1

    def _decide_retry(self, rules, state, frame, player, mask):
        attack = self._best_attack(rules, state, player, mask,
                                   aggression=frame["attack_kind"] == "aggression")
        return attack if attack is not None else _PASS

    def _decide_aggression(self, rules, state, frame, player, mask):
        attack = self._best_attack(rules, state, player, mask, aggression=True)
        return attack if attack is not None else _PASS

    # ---------------------------------------------------------------------------------------
    # Phases 2 and 3: gene defects and buying genes
    # ---------------------------------------------------------------------------------------

    @staticmethod
    def _expected_defect(state: GameState, rules, mp: int) -> float:
        """Expected gene defect (BP) of one future round at this MP sum."""
        deck = state.environment_deck
        if not deck:
            return 0.0
        cards = rules.config.environment_deck
        return sum(max(0, mp - cards[c][1]) for c in deck) / len(deck)

    def _gene_points(self, state, rules, genes: dict[str, int], amoebas: int,
                     rounds: int) -> float:
        """Ladder points per round a gene set is worth (Advance Table + effects)."""
        count = sum(GENES[GENE_INDEX[k]].advance_count for k in genes)
        # Near the end the exact table; before, smoothed (the first genes pay off later).
        table = ADVANCE_FOR_GENES[min(count, 6)] if rounds <= 2 else min(count, 6) * 4 / 6
        effect = sum(_EFFECT[k][0] + _EFFECT[k][1] * amoebas for k in genes)
        if "division_rate" in genes and rounds < 3:
            effect -= _EFFECT["division_rate"][0] * (1 - rounds / 3)
        mp = sum(GENES[GENE_INDEX[k]].mp for k in genes)
        defect = self._expected_defect(state, rules, mp) * (rounds - 1) / max(rounds, 1)
        return table + effect - self.defect_weight * defect

    def _decide_defect(self, rules, state, frame, player, mask):
        ps = state.players[player]
        remaining = frame["remaining"]
        rounds = self._rounds_left(state, rules)
        amoebas = len(ps.amoebas_on_board())
        base = self._gene_points(state, rules, ps.genes, amoebas, rounds)
        bp_ratio = self.amoeba_ratio if amoebas < rules.config.max_amoebas else 0.05
        options = []
        if mask[LAYOUT.encode("pay_bp")]:
            options.append((remaining * bp_ratio, LAYOUT.encode("pay_bp")))
        for key in ps.genes:
            action = LAYOUT.encode("give_up_gene", GENE_INDEX[key])
            if not mask[action]:
                continue
            rest = {k: v for k, v in ps.genes.items() if k != key}
            loss = base - self._gene_points(state, rules, rest, amoebas, rounds)
            left = max(0, remaining - GENES[GENE_INDEX[key]].pays)
            options.append((loss + left * bp_ratio, action))
        if not options:
            return None
        return min(options)[1]

    def _decide_buy(self, rules, state, frame, player, mask):
        ps = state.players[player]
        rounds = self._rounds_left(state, rules)
        amoebas = len(ps.amoebas_on_board())
        max_amoebas = rules.config.max_amoebas
        base = self._gene_points(state, rules, ps.genes, amoebas, rounds)
        # BP the coming cell division wants (up to the amoeba limit).
        income = rules.config.income_bp
        reserve = self.move_reserve if rounds > 1 else 0
        cost = division_cost(rules, ps)
        wanted = min(max_amoebas - amoebas, max(0, (ps.bp + income - reserve) // max(cost, 1)))
        amoeba_value = self.amoeba_ratio * (6 / cost if cost else 1.0)
        best, best_ratio = None, 0.0
        for i in np.flatnonzero(LAYOUT.segment_view(mask, "buy_gene")):
            g = GENES[i]
            genes = {k: v for k, v in ps.genes.items() if k not in g.replaces}
            genes[g.key] = state.round
            gain = self._gene_points(state, rules, genes, amoebas, rounds) - base
            if g.key == "division_rate":
                new_cost = rules.config.division_cost_with_rate
                gain += wanted * (cost - new_cost) * self.amoeba_ratio * 0.5
            if gain <= 0:
                continue
            if rounds > 1 and mutation_points(ps) - sum(
                    GENES[GENE_INDEX[k]].mp for k in g.replaces if k in ps.genes
            ) + g.mp > max(self.mp_cap, mutation_points(ps)):
                continue
            ratio = gain / max(g.price, 1)
            left_for_division = ps.bp - g.price + income - reserve
            new_cost = (rules.config.division_cost_with_rate if g.key == "division_rate"
                        else cost)
            divisions_lost = wanted - min(wanted, max(0, left_for_division) // max(new_cost, 1))
            if divisions_lost > 0 and ratio < amoeba_value * 1.2:
                continue
            if ratio > best_ratio:
                best, best_ratio = int(i), ratio
        if best is None:
            return _PASS
        return _SEG_OFFSET["buy_gene"] + best

    # ---------------------------------------------------------------------------------------
    # Phase 4: cell division
    # ---------------------------------------------------------------------------------------

    def _decide_divide(self, rules, state, frame, player, mask):
        ps = state.players[player]
        rounds = self._rounds_left(state, rules)
        own = len(ps.amoebas_on_board())
        free = own == 0 and not frame["free_used"]
        reserve = self.move_reserve if rounds > 1 else 0
        if not free and ps.bp - division_cost(rules, ps) < reserve and own >= 2:
            return _PASS
        return self._place(rules, state, player, mask, setup=False)

    def _place(self, rules, state, player: int, mask, setup: bool):
        """The best legal (number, space) placement: lowest free number, most food ahead."""
        view = LAYOUT.segment_view(mask, "place_amoeba")
        numbers, spaces = np.nonzero(view)
        if numbers.size == 0:
            return None
        number = int(numbers.min())
        candidates = [int(s) for n, s in zip(numbers, spaces, strict=True) if n == number]
        ps = state.players[player]
        table = self._table(state, ps)
        board = rules.board
        # Where does everybody drift to next round? Crowded spaces feed fewer amoebas.
        eaters: dict[int, int] = {}
        for other in state.players:
            for sp in other.amoeba_space:
                if sp >= 0:
                    d = self._drift_destination(state, rules, sp)
                    eaters[d] = eaters.get(d, 0) + 1
        danger_spaces = set()
        for q, other in enumerate(state.players):
            if q != player and (other.has("aggression") or other.has("struggle")):
                danger_spaces.update(sp for sp in other.amoeba_space if sp >= 0)
        own_spaces = {sp for sp in ps.amoeba_space if sp >= 0}
        best, best_key = None, None
        for s in candidates:
            d = self._drift_destination(state, rules, s)
            meals = self._meal_count(self._foreign(state, player, d), table, limit=6)
            here_meals = self._meal_count(self._foreign(state, player, s), table, limit=6)
            score = min(meals - eaters.get(d, 0), 3) + 0.3 * min(here_meals, 3)
            if s in danger_spaces or d in danger_spaces:
                score -= 1.5
            if setup:
                free_adjacent = sum(1 for a in board.adjacent(s) if not state.amoebas_at(a))
                score += 0.3 * free_adjacent
            else:
                score += 0.1 * sum(1 for a in board.adjacent(s) if a not in own_spaces)
            if best_key is None or score > best_key:
                best, best_key = s, score
        return LAYOUT.encode("place_amoeba", number, best)
