"""Values from outside the package, read safely: bounded reprs and plain JSON-like trees.

Saved states, positions and game records come from files other people wrote, or from
Python code that may hand over anything (numpy scalars, tuples, lists nested thousands
deep). Two helpers keep reading them safe:

* :func:`short_repr`: a repr for an error message, at most ``limit`` characters, that never
  recurses unboundedly and never raises (``repr`` of a list nested 5,000 deep raises
  ``RecursionError``; this one shows ``[[[[[[...]]]]]]``).
* :func:`plain_tree`: a checked plain copy of a tree of dicts, lists and scalars, walked
  without recursion: depth and size bounded, numpy scalars converted to Python ones, any
  other type refused with the path of the entry at fault.
"""

from __future__ import annotations

import math
import reprlib
from collections.abc import Mapping
from typing import Any

import numpy as np

__all__ = ["TreeError", "plain_tree", "short_repr"]

_REPR = reprlib.Repr()
_REPR.maxlevel = 4
_REPR.maxdict = 6
_REPR.maxlist = 8
_REPR.maxtuple = 8
_REPR.maxset = 6
_REPR.maxfrozenset = 6
_REPR.maxdeque = 6
_REPR.maxarray = 8
_REPR.maxstring = 80
_REPR.maxlong = 40
_REPR.maxother = 80


def short_repr(value: Any, limit: int = 120) -> str:
    """``repr(value)`` cut to at most ``limit`` characters (nested containers shown to a few
    levels, long strings and numbers shortened); never raises."""
    try:
        text = _REPR.repr(value)
    except Exception:  # noqa: BLE001  (a message must not fail on a strange object)
        text = f"<{type(value).__name__} object>"
    if len(text) > limit:
        text = text[: max(limit - 3, 0)] + "..."
    return text


class TreeError(ValueError):
    """A tree that :func:`plain_tree` refuses; the message names the entry's path."""


def _path(parts: tuple) -> str:
    shown = [f"[{short_repr(p, 40)}]" for p in parts]
    if len(shown) > 8:
        shown = [*shown[:3], f"...({len(shown) - 6} more)...", *shown[-3:]]
    return "".join(shown) or "(top)"


def plain_tree(
    value: Any,
    *,
    max_depth: int = 32,
    max_nodes: int = 1_000_000,
    max_string: int = 10_000,
    str_keys: bool = True,
    finite: bool = True,
) -> Any:
    """A plain copy of ``value``: dicts, lists, ``str``, ``int``, ``float``, ``bool`` and
    ``None`` only, checked without recursion.

    Tuples become lists; numpy integers, floats, bools and strings become ``int``,
    ``float``, ``bool`` and ``str``; any other type is refused.

    Args:
        max_depth: Containers nest at most this deep (the top one is depth 1).
        max_nodes: At most this many values in all.
        max_string: Strings (and dict keys) are at most this long.
        str_keys: Dict keys must be strings (as JSON's are); otherwise ints and strings.
        finite: Floats must be finite (``NaN`` and infinities are refused).

    Raises:
        TreeError: naming the path of the first entry at fault and what is wrong.
    """
    nodes = 0

    def leaf(item: Any, parts: tuple) -> Any:
        if item is None or isinstance(item, bool):
            return item
        if isinstance(item, np.bool_):
            return bool(item)
        if isinstance(item, int | np.integer):
            return int(item)
        if isinstance(item, float | np.floating):
            item = float(item)
            if finite and not math.isfinite(item):
                raise TreeError(f"{_path(parts)}: {item!r} is not a finite number")
            return item
        if isinstance(item, str):
            if len(item) > max_string:
                raise TreeError(
                    f"{_path(parts)}: a string of {len(item)} characters (at most {max_string})"
                )
            return str(item)  # a plain str, not a subclass (numpy's str_)
        raise TreeError(
            f"{_path(parts)}: a {type(item).__name__} "
            f"({short_repr(item, 60)}); only dicts, lists, strings, numbers, "
            "booleans and None are allowed"
        )

    def key_of(key: Any, parts: tuple) -> Any:
        if isinstance(key, str):
            if len(key) > max_string:
                raise TreeError(
                    f"{_path(parts)}: a key of {len(key)} characters (at most {max_string})"
                )
            return str(key)
        if (
            not str_keys
            and isinstance(key, int | np.integer)
            and not isinstance(key, bool | np.bool_)
        ):
            return int(key)
        raise TreeError(
            f"{_path(parts)}: the key {short_repr(key, 60)} is a "
            f"{type(key).__name__}; keys must be strings" + ("" if str_keys else " or ints")
        )

    def container(item: Any) -> Any:
        if isinstance(item, Mapping):
            return {}
        if isinstance(item, list | tuple):
            return []
        return None

    root = container(value)
    if root is None:
        return leaf(value, ())
    # Each entry: (source container, its copy, its path, its depth).
    stack = [(value, root, (), 1)]
    while stack:
        source, copy, parts, depth = stack.pop()
        if depth > max_depth:
            raise TreeError(f"{_path(parts)}: nested more than {max_depth} deep")
        items = (
            ((key_of(k, parts), v) for k, v in source.items())
            if isinstance(source, Mapping)
            else enumerate(source)
        )
        for key, item in items:
            nodes += 1
            if nodes > max_nodes:
                raise TreeError(f"more than {max_nodes} values in all")
            here = (*parts, key)
            sub = container(item)
            if sub is None:
                sub = leaf(item, here)
            else:
                stack.append((item, sub, here, depth + 1))
            if isinstance(copy, dict):
                copy[key] = sub
            else:
                copy.append(sub)
    return root
