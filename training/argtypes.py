"""Argument types shared by the command lines (``primeval`` and its ``benchmark`` command),
below both so neither imports the other for them."""

from __future__ import annotations

import argparse

__all__ = ["count"]


def count(text: str) -> int:
    """A whole number of at least 1 (``--games``, ``--seeds``: 0 games would print a table
    of nan)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value
