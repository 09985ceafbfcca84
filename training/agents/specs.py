"""The ``NAME:KEY=VALUE,...`` agent specs' shared parsing (``mcts:``, ``rollouts:``).

:func:`spec_values` reads the items strictly (every key known and once, every value given
and valid), naming the spec and the problem; :func:`whole` and :func:`number` are the value
parsers both searches use.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

__all__ = ["number", "spec_values", "whole"]


def whole(key: str, text: str) -> int:
    """``text`` as a whole number (``ValueError`` naming ``key`` if it is not one)."""
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{key} must be a whole number, got {text!r}") from None


def number(key: str, text: str) -> float:
    """``text`` as a finite number (``ValueError`` naming ``key`` if it is not one)."""
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{key} must be a number, got {text!r}") from None
    if not math.isfinite(value):
        raise ValueError(f"{key} must be a finite number, got {text!r}")
    return value


def spec_values(kind: str, spec: str, items: str,
                parsers: dict[str, Callable[[str, str], Any]]) -> dict[str, Any]:
    """The values of the comma-separated ``KEY=VALUE`` ``items`` of ``spec`` (a ``kind``
    spec), each read by its parser.

    Raises:
        ValueError: An unknown or repeated key, a key without a value, or a bad value; the
            message starts ``"{kind} spec {spec!r}: "``.
    """
    values: dict[str, Any] = {}
    for item in items.split(",") if items else []:
        key, eq, text = item.partition("=")
        key, text = key.strip(), text.strip()
        if key not in parsers:
            raise ValueError(f"{kind} spec {spec!r}: unknown key {key!r}; keys: "
                             f"{', '.join(parsers)}")
        if not eq or not text:
            raise ValueError(f"{kind} spec {spec!r}: {key} needs a value ({key}=...)")
        if key in values:
            raise ValueError(f"{kind} spec {spec!r}: {key} is given twice")
        try:
            values[key] = parsers[key](key, text)
        except ValueError as exc:
            raise ValueError(f"{kind} spec {spec!r}: {exc}") from None
    return values
