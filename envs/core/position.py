"""What the two position builders share: reading a spec written with names, and the checks
every built position passes.

A *position* is a game state written for people: a plain dict (or YAML) that names
territories, genes, cards, seats and decisions instead of holding index lists and procedure
frames. Each game's ``position`` module (``primeval.envs.primordial_soup.position``,
``primeval.envs.origin.position``) turns one into a rules state with ``build_position`` and
back with ``position_to_dict``; ``docs/positions.md`` describes both formats.

This module holds what they share: :class:`PositionError`; :class:`Spec`, a mapping of the
spec read with its path (``players[1].genes``) so every refusal says where it is; name
look-ups that suggest the nearest name; seats; and :func:`check_position`, the checks every
built state passes (the rules' own ``check_state``, and a real choice pending).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import numpy as np

from primeval.envs.core.values import TreeError, plain_tree, short_repr

__all__ = ["FrameField", "PositionError", "Spec", "check_position", "lookup", "plain_spec",
           "read_frame", "seat", "verified_dict", "write_frame"]

T = TypeVar("T")


class PositionError(ValueError):
    """A position spec that cannot be built, or a state that has no position form; the
    message names the entry at fault (its path in the spec) and what is allowed."""


#: Bounds on a position spec (the documented ones nest 4 deep and hold a few hundred values).
SPEC_MAX_DEPTH = 16
SPEC_MAX_VALUES = 100_000
SPEC_MAX_STRING = 10_000


def plain_spec(spec: Any) -> Any:
    """A checked plain copy of a position spec, before anything reads it: mappings, lists
    (tuples become lists) and scalars only, keys strings or ints, nested at most
    :data:`SPEC_MAX_DEPTH` deep, numpy scalars turned into Python ones.

    Raises:
        PositionError: naming the entry that is of another type, too deep or too large.
    """
    try:
        return plain_tree(spec, max_depth=SPEC_MAX_DEPTH, max_nodes=SPEC_MAX_VALUES,
                          max_string=SPEC_MAX_STRING, str_keys=False, finite=False)
    except TreeError as exc:
        raise PositionError(f"position spec {exc}") from None


class Spec:
    """One mapping of a position spec, with its path for error messages.

    Args:
        data: The mapping (``None`` reads as empty).
        path: Where it is in the spec, e.g. ``"players[1]"``.
        allowed: Its known keys; any other key is refused (a misspelt key would otherwise
            be ignored).
    """

    def __init__(self, data: Any, path: str, allowed: Iterable[str]) -> None:
        if data is None:
            data = {}
        if not isinstance(data, Mapping):
            raise PositionError(f"{path}: expected a mapping, got {type(data).__name__} "
                                f"{short_repr(data)}")
        allowed = tuple(allowed)
        unknown = [str(k) for k in data if k not in allowed]
        if unknown:
            raise PositionError(f"{path}: unknown key(s) {unknown}; allowed: {list(allowed)}")
        self.data = data
        self.path = path

    def where(self, key: str | int) -> str:
        """The path of one entry, e.g. ``players[1].bp``."""
        return f"{self.path}.{key}" if self.path else str(key)

    def has(self, key: str) -> bool:
        return key in self.data and self.data[key] is not None

    def get(self, key: str, default: Any = None) -> Any:
        value = self.data.get(key)
        return default if value is None else value

    def require(self, key: str) -> Any:
        """An entry that has no default, or :class:`PositionError` saying it is missing."""
        if not self.has(key):
            raise PositionError(f"{self.where(key)}: missing")
        return self.data[key]

    def sub(self, key: str, allowed: Iterable[str]) -> Spec:
        """The mapping under ``key`` as a :class:`Spec` (empty when absent)."""
        return Spec(self.data.get(key), self.where(key), allowed)

    def integer(self, key: str, default: int, low: int | None = None,
                high: int | None = None) -> int:
        """An int entry within ``[low, high]``."""
        return integer(self.get(key, default), self.where(key), low, high)

    def boolean(self, key: str, default: bool) -> bool:
        value = self.get(key, default)
        if not isinstance(value, bool):
            raise PositionError(f"{self.where(key)}: expected true or false, got "
                                f"{short_repr(value)}")
        return value

    def sequence(self, key: str) -> list[Any]:
        """A list entry (empty when absent)."""
        value = self.get(key, [])
        if not isinstance(value, list | tuple):
            raise PositionError(f"{self.where(key)}: expected a list, got {short_repr(value)}")
        return list(value)

    def mapping(self, key: str) -> dict[Any, Any]:
        """A mapping entry whose keys are names (empty when absent)."""
        value = self.get(key, {})
        if not isinstance(value, Mapping):
            raise PositionError(f"{self.where(key)}: expected a mapping, got {short_repr(value)}")
        return dict(value)


def integer(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an int within ``[low, high]`` (a string of digits, as JSON keys are, is
    read as its number), or :class:`PositionError` naming ``where``."""
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise PositionError(f"{where}: expected an integer, got {short_repr(value)}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"{low}..{high}" if high is not None else f"at least {low}"
        raise PositionError(f"{where}: {value} is out of range ({span})")
    return value


def lookup(name: Any, names: Mapping[str, T], what: str, where: str) -> T:
    """The value ``names`` gives ``name`` (case-insensitive), or :class:`PositionError`
    naming it, the closest names and ``where`` it was written.

    Args:
        name: The name written in the spec (``"AF1"``, ``"tentacle"``).
        names: Every accepted name and what it stands for.
        what: What a name names, for the message (``"territory"``, ``"gene"``).
        where: The path of the entry in the spec.
    """
    if isinstance(name, str):
        folded = {k.casefold(): v for k, v in names.items()}
        if name.casefold() in folded:
            return folded[name.casefold()]
        close = difflib.get_close_matches(name, list(names), n=3, cutoff=0.6)
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    else:
        hint = ""
    shown = list(names)
    listed = ", ".join(shown[:60]) + (", ..." if len(shown) > 60 else "")
    raise PositionError(f"{where}: unknown {what} {short_repr(name)}{hint} ({what}s: {listed})")


def seat(value: Any, num_players: int, where: str) -> int:
    """A seat written as its number (``2``) or agent name (``"player_2"``)."""
    if isinstance(value, str) and value.startswith("player_"):
        value = value[len("player_"):]
    try:
        number = integer(value, where)
    except PositionError:
        raise PositionError(f"{where}: {short_repr(value)} is not a seat; seats are "
                            f"0..{num_players - 1}"
                            f" (or player_0..player_{num_players - 1})") from None
    if not 0 <= number < num_players:
        raise PositionError(f"{where}: seat {number} is not in this {num_players}-player game "
                            f"(seats 0..{num_players - 1})")
    return number


def check_position(rules: Any, state: Any) -> None:
    """The checks every built position passes: the rules' ``check_state`` (when the rules
    have it), and a decision pending that is a real choice, as after every step of real
    play (the rules carry out a decision whose only legal action is ``pass`` without
    asking, so no game stops there).

    Raises:
        PositionError: naming what failed.
    """
    check = getattr(rules, "check_state", None)
    if check is not None:
        try:
            check(state)
        except ValueError as exc:
            raise PositionError(f"the position is inconsistent: {exc}") from None
    legal = np.flatnonzero(rules.legal_mask(state))
    describe = getattr(rules, "describe_decision", None)
    what = describe(state) if describe is not None else "the pending decision"
    if legal.size == 0:
        raise PositionError(f"{what}: no legal action in this position")
    pass_action = getattr(rules, "pass_action", None)
    if legal.size == 1 and pass_action is not None and legal[0] == pass_action:
        raise PositionError(f"{what}: only 'pass' is legal here, so the rules would pass it "
                            "without asking; no game stops at this decision")


def verified_dict(rules: Any, state: Any, spec: dict[str, Any],
                  build: Callable[[Any, dict[str, Any]], Any]) -> dict[str, Any]:
    """``spec`` if building it gives ``state`` back exactly, else :class:`PositionError`
    naming the first part of the state the spec does not hold (``position_to_dict``
    promises a spec that rebuilds the very state)."""
    try:
        rebuilt = build(rules, spec).to_dict()
    except PositionError as exc:
        raise PositionError(f"this state has no position form: {exc}") from None
    original = state.to_dict()
    if rebuilt != original:
        diff = next(k for k in original if rebuilt.get(k) != original[k])
        raise PositionError(
            f"this state has no position form: its {short_repr(diff)} is not what a position "
            "at this "
            f"decision holds ({short_repr(original[diff])} != {short_repr(rebuilt[diff])})")
    return spec


# Procedure frames by name --------------------------------------------------------------------

class FrameField:
    """How one field of a procedure frame is written in a position spec.

    Args:
        read: ``(value, where, context) -> frame value`` for a value written in the spec
            (raising :class:`PositionError` naming ``where``).
        write: ``(frame value, context) -> spec value``.
        default: ``context -> frame value`` when the spec leaves the field out (``None``:
            the field is required). ``position_to_dict`` leaves a field out when it equals
            its default.

    ``context`` is a dict the game fills: at least ``below``, the frames already built under
    this one (bottom first), and ``frame``, the fields of this frame read so far.
    """

    def __init__(self, read: Callable[[Any, str, dict], Any],
                 write: Callable[[Any, dict], Any] | None = None,
                 default: Callable[[dict], Any] | None = None) -> None:
        self.read = read
        self.write = write if write is not None else (lambda value, context: value)
        self.default = default


def read_frame(spec: Spec, kind: str, fields: Mapping[str, FrameField],
               context: dict) -> dict[str, Any]:
    """The procedure frame of ``kind`` written in ``spec`` (a :class:`Spec` whose other
    keys were checked by the caller), its fields in ``fields`` order."""
    frame: dict[str, Any] = {"kind": kind}
    context = {**context, "frame": frame}
    for name, field in fields.items():
        if spec.has(name):
            frame[name] = field.read(spec.get(name), spec.where(name), context)
        elif field.default is not None:
            try:
                frame[name] = field.default(context)
            except PositionError as exc:
                raise PositionError(f"{spec.where(name)}: missing, and {exc}") from None
        else:
            raise PositionError(f"{spec.where(name)}: missing (a {kind} frame names its "
                                f"{', '.join(fields)})")
    return frame


def write_frame(frame: Mapping[str, Any], fields: Mapping[str, FrameField],
                context: dict) -> dict[str, Any]:
    """``frame`` as a spec mapping (``kind`` first), leaving out each field equal to its
    default."""
    out: dict[str, Any] = {"kind": frame["kind"]}
    partial: dict[str, Any] = {"kind": frame["kind"]}
    context = {**context, "frame": partial}
    for name, field in fields.items():
        value = frame[name]
        try:
            same = field.default is not None and field.default(context) == value
        except PositionError:  # no default here (e.g. nothing below to copy it from)
            same = False
        if not same:
            out[name] = field.write(value, context)
        partial[name] = value
    return out
