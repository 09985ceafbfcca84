"""The helpers of the games' state checks (``rules/checks.py``): each raises ``ValueError``
with a message naming the field and what it should hold.

Plain Python and numpy only, as the rules are (the import-graph test lets the rules, layer
1, import the shared core, layer 0; the purity test keeps this module free of RL and
drawing libraries).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from numbers import Integral
from typing import Any

import numpy as np

__all__ = [
    "FieldTest",
    "check_frame_list",
    "check_int",
    "check_ints",
    "check_state_dict",
    "fail",
    "int_in",
    "is_bool",
    "is_int",
    "need",
    "one_of",
    "per_rules",
    "short",
]

#: What a field holds: a description for the message, and a test.
FieldTest = tuple[str, Callable[[Any], bool]]


def need(condition: Any, what: str) -> None:
    """Raise ``ValueError(what)`` unless ``condition`` (checks inside loops test first and
    call :func:`fail`, so that the message is made only when they fail)."""
    if not condition:
        raise ValueError(what)


def fail(what: str) -> None:
    raise ValueError(what)


def is_int(value: Any) -> bool:
    return type(value) is int or (isinstance(value, Integral) and not isinstance(value, bool))


def is_bool(value: Any) -> bool:
    return isinstance(value, bool | np.bool_)


def short(value: Any) -> str:
    """``repr(value)``, cut to 60 characters for a message."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_int(name: str, value: Any, lo: int, hi: int | None = None, what: str = "") -> None:
    """``value`` is an int in ``lo..hi`` (``what`` it is, for the message)."""
    if not (is_int(value) and lo <= value and (hi is None or value <= hi)):
        fail(
            f"{name} = {short(value)}: {what or 'expected'} an int in "
            f"{lo}..{'' if hi is None else hi}"
        )


def check_ints(
    name: str, value: Any, length: int | None, lo: int, hi: int | None = None, what: str = ""
) -> None:
    """``value`` is a list of ``length`` (any number with ``None``) ints in ``lo..hi``."""
    if not (isinstance(value, list | tuple) and (length is None or len(value) == length)):
        fail(
            f"{name}: expected a list of {'' if length is None else length} ints, got "
            f"{short(value)}"
        )
    for i, v in enumerate(value):
        if not (type(v) is int and lo <= v and (hi is None or v <= hi)):
            check_int(f"{name}[{i}]", v, lo, hi, what)


def check_state_dict(data: Any, state_class: type) -> None:
    """A state's JSON form is a dict with exactly the fields of the dataclass
    ``state_class``."""
    need(isinstance(data, dict), f"expected a dict, got {type(data).__name__}")
    fields = set(state_class.__dataclass_fields__)
    if set(data) != fields:
        fail(f"fields {sorted(set(data) ^ fields)} missing or unknown")


def check_frame_list(data: dict[str, Any]) -> None:
    """A state's JSON form has a procedure stack: a list of frames (dicts)."""
    if not (isinstance(data["stack"], list) and all(isinstance(f, dict) for f in data["stack"])):
        fail(f"stack: expected a list of frames (dicts), got {short(data['stack'])}")


def int_in(lo: int, hi: int) -> FieldTest:
    """A frame field holding an int in ``lo..hi``."""
    return f"an int in {lo}..{hi}", lambda v: is_int(v) and lo <= v <= hi


def one_of(*choices: str) -> FieldTest:
    """A frame field holding one of ``choices``."""
    return f"one of {choices}", lambda v: isinstance(v, str) and v in choices


def per_rules(build: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``build(rules)`` made once per rules object (kept while the rules live)."""
    made: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def cached(rules: Any) -> Any:
        value = made.get(rules)
        if value is None:
            value = made[rules] = build(rules)
        return value

    cached.__doc__ = build.__doc__
    return cached
