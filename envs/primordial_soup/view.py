"""How a Primordial Soup game is shown to people: the view.

:class:`PrimordialSoupView` is what the adapter renders with and what the play console and
the replay ask, as the rules are what they play by: the board as text
(:mod:`~primeval.envs.primordial_soup.view_text`), the pending decision in words, an action's
name in the state it is taken in (absolute players and colours beside the layout's relative
ones) and the picture (:mod:`~primeval.envs.primordial_soup.view_picture`, loaded with
matplotlib only when a picture is drawn). The rules never import it.

The game has no hidden information, so every ``viewer`` is shown the same.
"""

from __future__ import annotations

import numpy as np

from primeval.envs.primordial_soup.actions import MEALS, MOVE_CHOICES, TAKES
from primeval.envs.primordial_soup.rules import PrimordialSoupRules
from primeval.envs.primordial_soup.state import GameState
from primeval.envs.primordial_soup.view_text import COLOUR_LETTERS, describe_decision, to_text

__all__ = ["PASS_MEANINGS", "PrimordialSoupView"]

#: What ``pass`` does, by the decision it answers.
PASS_MEANINGS = {
    "feed": "starve (no meal)",
    "parasite_host": "no host pays",
    "tentacle": "take no cubes along",
    "cling": "do not cling",
    "move_again": "no second move",
    "defend": "no defence",
    "retry": "no second attack",
    "aggression": "no attack",
    "buy": "done buying genes",
    "divide": "done dividing",
}


class PrimordialSoupView:
    """Text, decision and action names, and the picture of Primordial Soup states.

    Args:
        rules: The rules being played (the config gives the board, the deck and the ladder).
    """

    #: What ``render()`` offers: ``"ansi"`` returns :meth:`to_text`, ``"rgb_array"``
    #: :meth:`to_rgb_array`, ``"human"`` shows that picture in a window.
    render_modes = ("ansi", "human", "rgb_array")

    def __init__(self, rules: PrimordialSoupRules) -> None:
        self.rules = rules

    def to_text(self, state: GameState, viewer: int | None = None) -> str:
        """The readable board (every line at most 100 characters); the same for every
        ``viewer``."""
        return to_text(state, self.rules.config, moves=self._moves(state))

    def board_text(self, state: GameState, viewer: int | None = None) -> str:
        """:meth:`to_text` without the pending decision: what a console shows only when it
        changed, beside :meth:`describe_decision`."""
        return to_text(state, self.rules.config, pending=False)

    def describe_decision(self, state: GameState, viewer: int | None = None) -> str:
        """The pending decision in words, e.g. ``player_2 chooses how amoeba #3 on space 7
        feeds``; ``next step: <kind> (automatic)`` or ``game over`` when no one decides."""
        return describe_decision(state, self._moves(state))

    def _moves(self, state: GameState) -> tuple[str, ...] | None:
        """At a move decision, its legal ways to move in words (``"active move"``); else
        ``None``."""
        if self.rules.decision_name(state) != "move":
            return None
        legal = self.rules.layout.segment_view(self.rules.legal_mask(state), "move")
        return tuple(MOVE_CHOICES[i].replace("_", " ") for i in np.flatnonzero(legal))

    def action_name(self, state: GameState, action: int, viewer: int | None = None) -> str:
        """The layout's name of ``action`` (``rules.action_to_str``) and, for the choices
        whose players and colours are relative to the actor, the same choice with them
        absolute: ``eat(1x colour+1) = eat 1 G (player_1)``; ``pass`` with what it does at
        the pending decision (``pass = done buying genes``, :data:`PASS_MEANINGS`).

        Args:
            state: The state the action is (or would be) taken in; names any id of the
                layout, legal or not.
            action: An action id in ``[0, layout.n)``.
            viewer: Ignored: everyone sees everything.
        """
        base = self.rules.action_to_str(state, action)
        extra = self._absolute(state, action)
        return f"{base} = {extra}" if extra else base

    def to_rgb_array(self, state: GameState) -> np.ndarray:
        """The picture of the state, a 600 x 900 x 3 uint8 array (drawn with matplotlib)."""
        from primeval.envs.primordial_soup.view_picture import to_rgb_array

        return to_rgb_array(state, self.rules.config)

    def _absolute(self, state: GameState, action: int) -> str:
        """The choice with absolute players and colours, or ``""`` when the layout's name
        says it all."""
        segment, index = self.rules.layout.decode(action)
        actor = self.rules.current_player(state)
        n = state.num_players

        def counts(cubes: tuple[int, ...], first_offset: int) -> str:
            parts = []
            for k, count in enumerate(cubes):
                if count:
                    p = (actor + first_offset + k) % n
                    parts.append(f"{count} {COLOUR_LETTERS[p]} (player_{p})")
            return " + ".join(parts)

        if segment == "eat":
            return "eat " + counts(MEALS[index], 1)
        if segment == "tentacle":
            return "take along " + counts(TAKES[index], 0)
        if segment == "attack":
            rel, amoeba = index
            return f"attack player_{(actor + rel) % n}'s amoeba #{amoeba + 1}"
        if segment == "parasite_host":
            return f"player_{(actor + index + 1) % n} pays"
        if segment == "pass":
            return PASS_MEANINGS.get((state.pending or {}).get("kind"), "")
        return ""
