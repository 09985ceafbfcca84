"""Exceptions shared by the games and the AEC adapter."""

from __future__ import annotations

__all__ = ["IllegalActionError", "InvalidActionTypeError", "need"]


class IllegalActionError(ValueError):
    """An action id that is not legal in the current state.

    Raised by a game's ``apply`` and by the adapter's ``step``. The raiser writes the message:
    it names the action, what it means, the phase and some of the legal choices.
    """


class InvalidActionTypeError(IllegalActionError, TypeError):
    """An action that is not an integer id at all (a float, ``None``, a bool, a string, ...).

    It is both an :class:`IllegalActionError` and a :class:`TypeError`, so either catches it.
    """


def need(condition: bool, what: str) -> None:
    """Raise ``ValueError(what)`` unless ``condition``: the games' ``check_state`` reads as a
    list of the conditions a consistent state meets."""
    if not condition:
        raise ValueError(what)
