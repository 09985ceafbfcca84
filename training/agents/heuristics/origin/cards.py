"""How the Origin heuristic values its cards: keeping them, playing them, and their targets.

:class:`_CardEvaluation` values a card in hand (its point and what it may still do), an
orange permanent in play, a yellow card played now (against the best action without it),
and picks the targets of thefts, raids, draws and the Raft.
"""

from __future__ import annotations

from primeval.envs.origin.rules.cards import hunt_targets, raft_moves
from primeval.envs.origin.rules.effects import has_effect, objective_limit
from primeval.envs.origin.rules.tiles import can_place
from primeval.envs.origin.state import DECKS
from primeval.training.agents.heuristics.origin.context import ALL_COLUMNS, _Ctx
from primeval.training.agents.heuristics.origin.evaluation import _Evaluation

#: Yellow effects worth playing before the turn's action (the others wait until after it,
#: so that an extra action or a raft can still use the one yellow card of the turn).
PRE_ACTION_YELLOW = ("range_bonus", "free_straits", "evolve_changes", "great_hunt",
                     "steal_card", "steal_strait_token")
#: Worth (in points, over a whole game) of holding a yellow card for later, beyond its point.
YELLOW_KEEP = {
    "extra_action": 0.8, "range_bonus": 0.3, "raft": 0.4, "free_straits": 0.2,
    "steal_card": 0.3, "steal_tile": 0.6, "steal_strait_token": 0.3, "take_tile": 0.4,
    "draw_cards": 0.9, "barter": 0.1, "great_hunt": 0.8, "exchange_pawns": 0.0,
    "evolve_changes": 0.2,
}
#: Worth (in points, over a whole game) of an orange card's effect once in play.
ORANGE_EFFECT = {
    "range_bonus": 1.6, "objective_limit": 1.1, "fewer_returns": 1.6, "hunt_draw": 1.2,
    "free_straits": 1.2, "brown_any_columns": 1.4, "empty_hunt_draw": 1.1,
    "evolve_changes": 1.1, "swap_equal_width": 1.3, "evolve_distance": 1.3,
    "strait_tile": 1.3, "objective_bonus": 1.6, "column_bonus": 0.0, "leadership": 2.0,
}


class _CardEvaluation(_Evaluation):
    """Card values of the Origin heuristic (a mixin of the agent, on top of the position
    and move values of :class:`_Evaluation`)."""

    def _card_keep_value(self, ctx: _Ctx, card_index: int) -> float:
        """Worth of holding a card (its end-of-game point plus what it may still do)."""
        st, state = ctx.st, ctx.state
        card = st.cards[card_index]
        ff = max(ctx.ff, 0.0)
        if card.colour == "purple":
            effort = self._effort(ctx, card.effect, ctx.mine,
                                  [state.pawn[t] for t in ctx.mine], 0, 0)
            return 1.0 + self._objective_worth(ctx, card.points, effort) * (
                1.0 if not ctx.last_turn or effort <= 0 else 0.0)
        if card.colour == "yellow":
            util = YELLOW_KEEP.get(card.kind, 0.2)
            if card.kind == "great_hunt" and ctx.hunts_on_board == 0:
                util = 0.0
            return 1.0 + util * ff
        tiles = state.tiles_of(ctx.player)
        top = max((col[-1] for col in state.columns[ctx.player] if col), default=0)
        if card.level in tiles:
            chance = 1.0
        elif card.level <= top + 1:
            chance = 0.6
        else:
            chance = 0.3
        return 1.0 + self._orange_effect(ctx, card_index) * chance * ff * 0.6

    def _orange_effect(self, ctx: _Ctx, card_index: int) -> float:
        """Estimated worth of an orange card's effect over the rest of the game."""
        st, state, player = ctx.st, ctx.state, ctx.player
        card = st.cards[card_index]
        kind = card.kind
        if kind == "column_bonus":
            cols = sum(1 for col in state.columns[player] if col and col[-1] >= card.effect["level"])
            near = sum(1 for col in state.columns[player]
                       if col and col[-1] == card.effect["level"] - 1)
            return card.effect["points"] * (cols + 0.5 * near * ctx.ff)
        value = ORANGE_EFFECT.get(kind, 0.8) * min(1.0, ctx.rounds_left / 4.0)
        if kind == "hunt_draw" and ctx.hunts_on_board == 0:
            value = 0.0  # no hunting token left to take
        if kind == "objective_limit" and len(ctx.objectives) < 2:
            value *= 0.5
        # Objectives that count permanents in play.
        for c in ctx.objectives:
            cond = st.cards[c].effect
            if cond["kind"] == "permanents_in_play":
                need = cond["count"] - len(state.permanents[player])
                if need == 1:
                    value += st.cards[c].points
                elif need > 1:
                    value += st.cards[c].points * 0.5 ** (need - 1) * ctx.ff
        return value

    def _best_victim(self, ctx: _Ctx, victims: list[int]) -> int | None:
        if not victims:
            return None
        return max(victims, key=lambda q: (ctx.scores[q], -((q - ctx.player) % ctx.n)))

    def _yellow_play_value(self, ctx: _Ctx, card_index: int, moves_now) -> float:
        """Net gain (points, the card's own point deducted) of playing a yellow card now."""
        st, state, player = ctx.st, ctx.state, ctx.player
        card = st.cards[card_index]
        kind = card.kind
        taken = state.turn_state.get("action_taken", False)
        keep = self._card_keep_value(ctx, card_index)
        if kind in ("range_bonus", "free_straits", "evolve_changes"):
            if taken or moves_now is None:
                return -keep
            base = self._best(moves_now)
            base_v = base[0] if base else 0.0
            trial = state.copy()
            trial.turn_state["turn_cards"] = (*trial.turn_state.get("turn_cards", ()),
                                              card_index)
            tctx = self._ctx(ctx.rules, trial, player)
            better = self._best(self._moves(tctx, ("evolve", "migrate", "swap")))
            gain = (better[0] if better else 0.0) - base_v
            return gain - keep
        if kind == "extra_action":
            if not taken:
                return -keep
            best = self._best(self._moves(ctx, (card.effect["action"],)))
            return (best[0] if best else -9.0) - keep
        if kind == "raft":
            best = self._best_raft(ctx)
            return (best[0] if best else -9.0) - keep
        if kind == "great_hunt":
            targets = hunt_targets(ctx.rules, state, player, card.effect["distance"])
            best = max((state.hunt_value[t] for t in targets), default=0)
            if has_effect(ctx.rules, state, player, "hunt_draw"):
                best += 1.2
            return best + self._token_objective_bonus(ctx, "hunting") - 1.0
        if kind == "steal_tile":
            best = self._best_raid(ctx)
            return (best[0] if best else -9.0) - 1.0
        if kind == "steal_strait_token":
            best = -9.0
            for s, (a, b) in enumerate(st.straits):
                q = state.strait_owner[s]
                if q in (-1, player) or player not in (state.owner[a], state.owner[b]):
                    continue
                v = state.strait_value[s] * (1 + ctx.weight[q])
                best = max(best, v)
            return best + (self._token_objective_bonus(ctx, "strait") if best > 0 else 0) - 1.0
        if kind == "steal_card":
            victims = [q for q in range(ctx.n) if q != player and state.hands[q]]
            if not victims:
                return -9.0
            q = self._best_victim(ctx, victims)
            return 1.0 + ctx.weight[q] - keep - 0.05
        if kind == "take_tile":
            worth, slots = self._best_tiles(ctx, ALL_COLUMNS, card.effect["count"])
            return (worth if slots else -9.0) - keep
        if kind == "draw_cards":
            if not any(state.decks):
                return -9.0
            deck, v = self._best_deck(ctx, card.effect["count"])
            return v - keep
        return -keep  # barter, exchange_pawns: kept as a point in hand

    def _token_objective_bonus(self, ctx: _Ctx, token: str) -> float:
        bonus = 0.0
        for c in ctx.objectives:
            cond = ctx.st.cards[c].effect
            if cond["kind"] == "tokens_owned" and cond["token"] == token:
                have = ctx.hunts_owned if token == "hunting" else ctx.straits_owned
                need = cond["count"] - have
                if need == 1:
                    bonus += ctx.st.cards[c].points
                elif need > 1:
                    bonus += ctx.st.cards[c].points * 0.3 * ctx.ff
        return bonus

    def _best_raid(self, ctx: _Ctx):
        """(worth, victim, column) of the best Raid (top tile of another player's column)."""
        st, state, player = ctx.st, ctx.state, ctx.player
        best = None
        for q in range(ctx.n):
            if q == player:
                continue
            for i, col in enumerate(state.columns[q]):
                level = col[-1]
                v = st.tile_points[level] * ctx.weight[q]
                if can_place(state, player, level):
                    v += self._tile_value(ctx, level)
                key = (v, ctx.scores[q])
                if best is None or key > best[3]:
                    best = (v, q, i, key)
        return best

    def _best_deck(self, ctx: _Ctx, count: int) -> tuple[int, float]:
        """The deck to draw ``count`` cards from, and the worth of the draw."""
        state = ctx.state
        best, best_v = None, -99.0
        for i, name in enumerate(DECKS):
            deck = state.decks[i]
            if not deck:
                continue
            got = min(count, len(deck))
            v = self._card_draw_value(ctx, name) * got
            if name == "purple":
                limit = objective_limit(ctx.rules, state, ctx.player)
                over = len(ctx.objectives) + got - limit
                if over > 0:
                    v -= over * (self._card_draw_value(ctx, name) - 0.1)
            if len(deck) <= count:  # emptying a deck triggers the end of the game
                v += 1.5 if ctx.lead > 0 else -1.5
            if best is None or v > best_v:
                best, best_v = i, v
        return (best if best is not None else 0), best_v

    def _best_raft(self, ctx: _Ctx):
        state, player = ctx.state, ctx.player
        moves = raft_moves(ctx.rules, state, player)
        best = None
        for src, dests in moves.items():
            for dst in dests:
                v = self._move_value(ctx, "raft", src, dst, state.pawn[src])
                if best is None or v > best[0]:
                    best = (v, src, dst)
        return best
