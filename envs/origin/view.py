"""How an Origin game is shown to people: the view.

:class:`OriginView` is what the adapter renders with and what the play console and the
replay ask, as the rules are what they play by: the table as text
(:mod:`~primeval.envs.origin.view_text`), the pending decision in words, an action's name in
the state it is taken in (territories, cards, players, tiles and straits by name) and the
picture (:mod:`~primeval.envs.origin.view_picture`, loaded with matplotlib only when a
picture is drawn). The rules never import it.

Hidden information: every method that names cards takes a ``viewer``, the seat that will
read it. A card kept, returned, taken or given is named only to the player deciding and to
the other party of a barter (:func:`~primeval.envs.origin.view_text.may_see_pending`), as
the observations hide it; any other seat reads its colour. ``viewer=None`` is the debugging
view, which names everything the deciding player may see.
"""

from __future__ import annotations

import numpy as np

from primeval.envs.origin.actions import pawn_name
from primeval.envs.origin.rules import OriginRules
from primeval.envs.origin.state import OriginState
from primeval.envs.origin.view_text import (
    card_label,
    describe_decision,
    may_see_pending,
    owner_name,
    to_text,
)

__all__ = ["PASS_MEANINGS", "SECRET_CARD_SEGMENTS", "OriginView"]

#: Choices of a card that only the actor (and the other party of a barter) may see.
SECRET_CARD_SEGMENTS = ("keep_objective", "return_card", "take_card", "give_card")
_TERRITORY_SEGMENTS = ("evolve_at", "migrate_from", "migrate_to", "swap_from", "swap_onto",
                       "choose_territory")
_CARD_SEGMENTS = ("keep_objective", "play_card", "return_card", "take_card", "give_card")
#: What ``pass`` does, by the decision it answers.
PASS_MEANINGS = {
    "turn": "end the turn",
    "take_tile": "take no tile (none fits)",
    "choose_deck": "draw nothing (every deck is empty)",
}


class OriginView:
    """Text, decision and action names, and the picture of Origin states.

    Args:
        rules: The rules being played (the data give the map, the cards and the tiles).
    """

    #: What ``render()`` offers: ``"ansi"`` returns :meth:`to_text`, ``"rgb_array"``
    #: :meth:`to_rgb_array`, ``"human"`` shows that picture in a window.
    render_modes = ("ansi", "human", "rgb_array")

    def __init__(self, rules: OriginRules) -> None:
        self.rules = rules

    def to_text(self, state: OriginState, viewer: int | None = None) -> str:
        """The readable table (every line at most 100 characters), with the hand of the
        player to decide when ``viewer`` is that player (or ``None``)."""
        return to_text(state, self.rules, viewer)

    def board_text(self, state: OriginState, viewer: int | None = None) -> str:
        """:meth:`to_text` without the pending decision: what a console shows only when it
        changed, beside :meth:`describe_decision`."""
        return to_text(state, self.rules, viewer, pending=False)

    def describe_decision(self, state: OriginState, viewer: int | None = None) -> str:
        """The pending decision in words with its territory, cards and players named, as
        ``viewer`` may see them; ``next step: <kind> (automatic)`` or ``game over`` when no
        one decides."""
        return describe_decision(state, self.rules, viewer)

    def action_name(self, state: OriginState, action: int, viewer: int | None = None) -> str:
        """The layout's name of ``action`` (``rules.action_to_str``) and what it names in
        this state: ``evolve_at(AF4) = AF4 Horn (orange)``, ``play_card(Y3) = Y3 Forced
        March``, ``choose_player(+1) = player_2``, ``pass = end the turn`` (what ``pass``
        does at the pending decision, :data:`PASS_MEANINGS`).

        Args:
            state: The state the action is (or would be) taken in; names any id of the
                layout, legal or not.
            action: An action id in ``[0, layout.n)``.
            viewer: The seat that reads the name. A card in :data:`SECRET_CARD_SEGMENTS`
                chosen by another player is named by its colour only
                (``keep_objective(a purple card)``) unless ``viewer`` is the other party of
                the barter; ``None`` names every card.
        """
        segment, index = self.rules.layout.decode(action)
        if segment in SECRET_CARD_SEGMENTS and not may_see_pending(state, viewer):
            return f"{segment}(a {self.rules.data.cards[index].colour} card)"
        base = self.rules.action_to_str(state, action)
        extra = self._details(state, segment, index)
        return f"{base} = {extra}" if extra else base

    def to_rgb_array(self, state: OriginState) -> np.ndarray:
        """The picture of the state, a 720 x 1200 x 3 uint8 array (drawn with matplotlib);
        it shows hand sizes, never which cards."""
        from primeval.envs.origin.view_picture import to_rgb_array

        return to_rgb_array(state, self.rules)

    def _details(self, state: OriginState, segment: str, index: int) -> str:
        """What the choice names in this state, or ``""`` when the layout's name says it
        all."""
        rules = self.rules
        world = rules.data.world
        if segment in _TERRITORY_SEGMENTS:
            terr = world.territories[index]
            text = f"{terr.id} {terr.name} ({terr.colour})"
            if state.pawn[index] >= 0:
                text += (f", {pawn_name(rules.data, state.pawn[index])} of "
                         f"{owner_name(state.owner[index])}")
            return text
        if segment in _CARD_SEGMENTS:
            return card_label(rules, index)
        if segment == "choose_player":
            actor = rules.current_player(state)
            return f"player_{(actor + index + 1) % state.num_players}"
        if segment == "take_tile":
            level = state.slots[index]
            return f"a level {level} tile" if level else "an empty slot"
        if segment == "pass":
            kind = state.stack[-1].get("kind") if state.stack else None
            return PASS_MEANINGS.get(kind, "")
        if segment == "choose_strait":
            a, b = world.straits[index]
            return (f"strait {world.territories[a].id}-{world.territories[b].id}, token "
                    f"{state.strait_value[index]}")
        return ""
