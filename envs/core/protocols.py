"""What a game supplies the AEC adapter (:class:`~primeval.envs.core.aec.TurnBasedAECEnv`)
besides its observation encoder: its pure rules (:class:`GameRules`) and its view
(:class:`GameView`: how states and actions are shown to people)."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

from primeval.envs.core.layout import ActionLayout

__all__ = ["GameRules", "GameView"]


class GameRules(Protocol):
    """The pure rules of a turn-based game, as the adapter uses them.

    States are plain data; no method keeps a random generator. Action ids are the flat ids of
    ``layout``.

    Attributes:
        name: Game name, e.g. ``"primordial_soup"``.
        num_players: Number of seats, ``0 .. num_players - 1``.
        layout: The action layout; the action space is ``Discrete(layout.n)``.
    """

    name: str
    num_players: int
    layout: ActionLayout

    def initial_state(self, rng: np.random.Generator) -> Any:
        """A new game, set up with ``rng``."""
        ...

    def current_player(self, state: Any) -> int:
        """The seat to act, ``-1`` when the game is over."""
        ...

    def legal_mask(self, state: Any) -> np.ndarray:
        """Boolean mask of shape ``(layout.n,)``; at least one True while the game runs."""
        ...

    def apply(self, state: Any, action: int, rng: np.random.Generator) -> Any:
        """The state after ``action``; never mutates ``state``.

        Raises:
            IllegalActionError: The action is not legal (the message names the action, its
                meaning, the phase and some legal choices).
        """
        ...

    def is_terminal(self, state: Any) -> bool:
        """Whether the game is over."""
        ...

    def scores(self, state: Any) -> list[float]:
        """Final score per seat, higher is better (used for the final ranking)."""
        ...

    def phase_name(self, state: Any) -> str:
        """Name of the current phase or pending sub-decision."""
        ...

    def action_to_str(self, state: Any, action: int) -> str:
        """The plain name of any action id in ``[0, layout.n)``, legal or not (the layout's;
        names that depend on the state or the reader are the view's)."""
        ...

    # Optional: ``transition(state, action, rng, mask) -> (new_state, new_mask)``, ``apply``
    # plus the new state's legal mask, given ``mask = legal_mask(state)``; when the rules
    # have it, the adapter computes each state's mask once.


@runtime_checkable
class GameView(Protocol):
    """How a game's states and actions are shown to people, beside the rules.

    The adapter renders with it and names actions in its error messages with it; a console
    or a replay asks it rather than a game's modules. ``viewer`` is the seat that will read
    the text (``None``: the debugging view); a view never shows a seat what that seat may
    not see (another player's hand, say).

    Attributes:
        render_modes: The ``render_mode`` values offered: ``"ansi"`` (:meth:`to_text`),
            ``"human"`` (a window showing ``to_rgb_array``, or :meth:`to_text` printed when
            the view has no picture), plus ``"rgb_array"`` when the view has
            ``to_rgb_array``.
    """

    render_modes: tuple[str, ...]

    def to_text(self, state: Any, viewer: int | None = None) -> str:
        """The state as readable text."""
        ...

    def describe_decision(self, state: Any, viewer: int | None = None) -> str:
        """The pending decision in words."""
        ...

    def action_name(self, state: Any, action: int, viewer: int | None = None) -> str:
        """The name of any action id in ``[0, layout.n)`` in ``state``, legal or not."""
        ...

    # Optional: ``to_rgb_array(state) -> np.ndarray``, an (H, W, 3) uint8 picture of the
    # state, for ``render_mode="rgb_array"`` (and the window of ``"human"``);
    # ``board_text(state, viewer=None) -> str``, ``to_text`` without the pending decision,
    # which ``primeval play`` prints only when it changed.
