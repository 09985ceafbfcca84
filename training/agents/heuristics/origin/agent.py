"""The Origin heuristic's decisions: one ``_decide_<kind>`` method per pending decision.

The values they compare come from :mod:`.evaluation` (positions and moves) and :mod:`.cards`
(cards); the shared skeleton (rules, fallbacks, the mask check) from
:class:`~primeval.training.agents.heuristics.base.RuleBasedAgent`.
"""

from __future__ import annotations

from primeval.envs.origin.config import OriginConfig
from primeval.envs.origin.rules import OriginRules
from primeval.envs.origin.rules.tiles import can_place, takeable_slots
from primeval.training.agents.heuristics.base import RuleBasedAgent
from primeval.training.agents.heuristics.origin.cards import PRE_ACTION_YELLOW, _CardEvaluation
from primeval.training.agents.heuristics.origin.context import (
    FIRST_HALF,
    SECOND_HALF,
    _Ctx,
    _Static,
)

__all__ = ["ReferenceOriginHeuristic"]


class ReferenceOriginHeuristic(_CardEvaluation, RuleBasedAgent):
    """Rule-based Origin player, the plain reference (see
    :mod:`primeval.training.agents.heuristics.origin`); the default
    :class:`~primeval.training.agents.heuristics.origin.fast.OriginHeuristic` makes the same
    choices faster.

    The weights of the evaluation (``objective_decay``, ``pawn_weight``, ...) are class
    attributes (from :class:`~.evaluation._Evaluation`); override them on a subclass or an
    instance to tune the agent.

    Args:
        rules: The game's :class:`OriginRules` (best: ``env.unwrapped.rules``) or an
            :class:`OriginConfig`; ``None`` builds the default rules for the state's player
            count on first use.
        seed: Seed of the generator used for fallbacks (a uniformly random legal action).

    Attributes:
        name: ``"heuristic"``.
        rng: The fallback generator.
        fallbacks: How many decisions were answered by the random fallback.
    """

    game = "origin"
    rules_class = OriginRules
    config_class = OriginConfig

    def __init__(self, rules: OriginRules | OriginConfig | None = None,
                 seed: int | None = None) -> None:
        super().__init__(rules, seed)
        self._statics: dict[int, tuple[OriginRules, _Static]] = {}

    def _static_for(self, rules: OriginRules) -> _Static:
        entry = self._statics.get(id(rules))
        if entry is None or entry[0] is not rules:
            entry = (rules, _Static(rules))
            self._statics[id(rules)] = entry
        return entry[1]

    def _ctx(self, rules: OriginRules, state, player: int) -> _Ctx:
        """The context of one decision (the fast agent builds a cheaper one)."""
        return _Ctx(self, rules, state, player)

    # ---------------------------------------------------------------------------------------
    # Decisions
    # ---------------------------------------------------------------------------------------

    def _decide_keep_objective(self, rules, state, frame, player, mask):
        ctx = self._ctx(rules, state, player)
        ctx.ff = 1.0
        st = ctx.st
        best, best_v = None, None
        for c in frame["dealt"]:
            card = st.cards[c]
            effort = self._effort(ctx, card.effect, [], [], 0, 0)
            v = card.points * self.objective_decay ** effort
            if best is None or v > best_v:
                best, best_v = c, v
        return st.offset["keep_objective"] + best

    def _decide_turn(self, rules, state, frame, player, mask):
        ctx = self._ctx(rules, state, player)
        st = ctx.st
        off = st.offset["play_card"]
        playable = [c for c in state.hands[player] if mask[off + c]]
        taken = state.turn_state.get("action_taken", False)
        # 1. Objectives score at once: play the best one that holds.
        purples = [c for c in playable if st.card_colour[c] == "purple"]
        if purples:
            return off + max(purples, key=lambda c: (st.cards[c].points, -c))
        # 2. Orange permanents worth more than the point they are in hand.
        oranges = [c for c in playable if st.card_colour[c] == "orange"]
        if oranges:
            scored = [(self._orange_effect(ctx, c) - 1.0, c) for c in oranges]
            value, card = max(scored)
            if value > 0.05:
                return off + card
        kinds = self._open_kinds(st, mask)
        moves = self._moves(ctx, kinds) if kinds else []
        # 3. A yellow card when it pays (before the action: range / straits / mutation;
        #    after it: extra actions, raft, theft, raids, ...).
        yellows = [c for c in playable if st.card_colour[c] == "yellow"
                   and (taken or st.cards[c].kind in PRE_ACTION_YELLOW)]
        if yellows:
            value, card = max((self._yellow_play_value(ctx, c, moves if not taken else None), c)
                              for c in yellows)
            if value > 0.15:
                return off + card
        # 4. The action (or an extra one granted by a card).
        best = self._best(moves)
        if best is not None and (not taken or best[0] > -0.5 or not mask[st.pass_action]):
            return st.offset[FIRST_HALF[best[1]]] + best[2]
        if mask[st.pass_action]:
            return st.pass_action
        return None

    def _decide_second_half(self, rules, state, frame, player, kind):
        ctx = self._ctx(rules, state, player)
        best = self._best(self._moves(ctx, (kind,), first=frame["territory"]))
        if best is None:
            return None
        return ctx.st.offset[SECOND_HALF[kind]] + best[3]

    def _decide_evolve_pawn(self, rules, state, frame, player, mask):
        return self._decide_second_half(rules, state, frame, player, "evolve")

    def _decide_migrate_to(self, rules, state, frame, player, mask):
        return self._decide_second_half(rules, state, frame, player, "migrate")

    def _decide_swap_onto(self, rules, state, frame, player, mask):
        return self._decide_second_half(rules, state, frame, player, "swap")

    def _decide_reward_option(self, rules, state, frame, player, mask):
        ctx = self._ctx(rules, state, player)
        _value, option = self._colour_reward(ctx, frame["colour"])
        return ctx.st.offset["reward_option"] + option

    def _decide_take_tile(self, rules, state, frame, player, mask):
        ctx = self._ctx(rules, state, player)
        st = ctx.st
        slots = takeable_slots(rules, state, player, frame["colours"])
        if not slots:
            return st.pass_action
        best = max(slots, key=lambda i: (self._tile_value(ctx, state.slots[i]), -i))
        return st.offset["take_tile"] + best

    def _decide_return_card(self, rules, state, frame, player, mask):
        ctx = self._ctx(rules, state, player)
        st = ctx.st
        off = st.offset["return_card"]
        cards = [c for c in state.hands[player] if mask[off + c]]
        if not cards:
            return None
        worst = min(cards, key=lambda c: (self._card_keep_value(ctx, c), c))
        return off + worst

    def _decide_choose_deck(self, rules, state, frame, player, mask):
        ctx = self._ctx(rules, state, player)
        st = ctx.st
        if not any(state.decks):
            return st.pass_action
        deck, _v = self._best_deck(ctx, frame.get("count", 1))
        return st.offset["choose_deck"] + deck

    def _choose_player(self, ctx: _Ctx, mask, victims: list[int]):
        off = ctx.st.offset["choose_player"]
        legal = [q for q in victims if mask[off + (q - ctx.player) % ctx.n - 1]]
        q = self._best_victim(ctx, legal)
        if q is None:
            return None
        return off + (q - ctx.player) % ctx.n - 1

    def _decide_steal_card(self, rules, state, frame, player, mask):
        ctx = self._ctx(rules, state, player)
        return self._choose_player(ctx, mask, [q for q in range(ctx.n) if q != player])

    def _decide_barter_player(self, rules, state, frame, player, mask):
        return self._decide_steal_card(rules, state, frame, player, mask)

    def _decide_steal_tile(self, rules, state, frame, player, mask):
        ctx = self._ctx(rules, state, player)
        best = self._best_raid(ctx)
        if best is None:
            return None
        return ctx.st.offset["choose_player"] + (best[1] - player) % ctx.n - 1

    def _decide_steal_tile_column(self, rules, state, frame, player, mask):
        ctx = self._ctx(rules, state, player)
        victim = frame["victim"]
        best, best_v = None, None
        for i, col in enumerate(state.columns[victim]):
            level = col[-1]
            v = ctx.st.tile_points[level] * ctx.weight[victim]
            if can_place(state, player, level):
                v += self._tile_value(ctx, level)
            if best is None or v > best_v:
                best, best_v = i, v
        if best is None:
            return None
        return ctx.st.offset["choose_column"] + best

    def _decide_claim_strait(self, rules, state, frame, player, mask):
        ctx = self._ctx(rules, state, player)
        st = ctx.st
        off = st.offset["choose_strait"]
        legal = [s for s in range(len(st.straits)) if mask[off + s]]
        if not legal:
            return None
        best = max(legal, key=lambda s: (state.strait_value[s]
                                         * (1 + ctx.weight[state.strait_owner[s]]), -s))
        return off + best

    def _decide_great_hunt(self, rules, state, frame, player, mask):
        st = self._static_for(rules)
        off = st.offset["choose_territory"]
        legal = [t for t in range(st.size) if mask[off + t]]
        if not legal:
            return None
        return off + max(legal, key=lambda t: (state.hunt_value[t], -t))

    def _decide_raft_pawn(self, rules, state, frame, player, mask):
        ctx = self._ctx(rules, state, player)
        best = self._best_raft(ctx)
        if best is None:
            return None
        return ctx.st.offset["choose_territory"] + best[1]

    def _decide_raft_destination(self, rules, state, frame, player, mask):
        ctx = self._ctx(rules, state, player)
        st = ctx.st
        src = frame["territory"]
        off = st.offset["choose_territory"]
        legal = [t for t in range(st.size) if mask[off + t]]
        if not legal:
            return None
        best = max(legal, key=lambda t: (self._move_value(ctx, "raft", src, t, state.pawn[src]),
                                         -t))
        return off + best

    def _decide_barter_take(self, rules, state, frame, player, mask):
        ctx = self._ctx(rules, state, player)
        off = ctx.st.offset["take_card"]
        legal = [c for c in state.hands[frame["victim"]] if mask[off + c]]
        if not legal:
            return None
        return off + max(legal, key=lambda c: (self._card_keep_value(ctx, c), -c))

    def _decide_barter_give(self, rules, state, frame, player, mask):
        ctx = self._ctx(rules, state, player)
        off = ctx.st.offset["give_card"]
        legal = [c for c in state.hands[player] if mask[off + c]]
        if not legal:
            return None
        return off + min(legal, key=lambda c: (self._card_keep_value(ctx, c), c))

    def _decide_exchange_first(self, rules, state, frame, player, mask):
        """Resettlement: the widest pawn goes where a pawn is most at risk of a swap."""
        ctx = self._ctx(rules, state, player)
        st = ctx.st
        mine = ctx.mine
        if len(mine) < 2:
            return None
        risky = max(mine, key=lambda t: (self._vulnerability(ctx, t, state.pawn[t]),
                                         -st.traits[state.pawn[t]][1], -t))
        return st.offset["choose_territory"] + risky

    def _decide_exchange_second(self, rules, state, frame, player, mask):
        ctx = self._ctx(rules, state, player)
        st = ctx.st
        first = frame["territory"]
        others = [t for t in ctx.mine if t != first]
        if not others:
            return None
        widest = max(others, key=lambda t: (st.traits[state.pawn[t]][1], -t))
        return st.offset["choose_territory"] + widest
