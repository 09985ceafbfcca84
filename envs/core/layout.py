"""Flat ``Discrete(n)`` action ids built from named contiguous segments.

A game lists its kinds of decision in order; each kind gets a contiguous block of ids::

    layout = ActionLayout(
        [
            ("choose_start_space", 4, "pick a start space"),
            ("place_amoeba", (7, 19), "(amoeba, space) to place"),
            ("done", 1, "end the current sub-decision"),
        ],
        labels={"choose_start_space": ["start(N)", "start(E)", "start(S)", "start(W)"]},
    )
    layout.n                                  # 138
    layout.encode("place_amoeba", 2, 5)       # 4 + 2 * 19 + 5 = 47
    layout.decode(47)                         # ("place_amoeba", (2, 5))
    layout.decode(137)                        # ("done", 0)
    layout.describe(1)                        # "start(E)" (its label)
    layout.describe(47)                       # "place_amoeba(2, 5)" (default text)

Indices: a 1-D segment (declared with an ``int`` size) uses an ``int`` index, a multi-dimensional
segment (declared with a shape tuple) uses a tuple of ints in C order. ``decode`` returns exactly
what ``encode`` takes, so ``layout.encode(*layout.decode(a)) == a`` for every id.
"""

from __future__ import annotations

import operator
from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from math import prod
from typing import TypeAlias

import numpy as np

__all__ = ["ActionLayout", "Index", "Label", "Segment", "SegmentSpec", "parse_segments"]

Index: TypeAlias = int | tuple[int, ...]
"""A position inside a segment: ``int`` for 1-D segments, a tuple of ints otherwise."""

SegmentSpec: TypeAlias = tuple[str, int | Sequence[int]] | tuple[str, int | Sequence[int], str]
"""``(name, size_or_shape)`` or ``(name, size_or_shape, description)``."""

Label: TypeAlias = Callable[[Index], str] | Sequence[str]
"""Names the positions of one segment: a function of the index, or one string per position."""


@dataclass(frozen=True)
class Segment:
    """One named block of contiguous ids (or of features, see ``FeatureBuilder``).

    Attributes:
        name: Segment name, unique within its layout.
        shape: Shape of the block; ``(size,)`` for a 1-D segment.
        offset: First flat id of the block.
        description: Free text for docs (the ``meaning`` column of the Markdown table).
        flat: True when declared with an ``int`` size (indices are ints, not tuples).
    """

    name: str
    shape: tuple[int, ...]
    offset: int
    description: str = ""
    flat: bool = True

    @property
    def size(self) -> int:
        """Number of ids in the block."""
        return prod(self.shape)

    @property
    def stop(self) -> int:
        """One past the last id of the block."""
        return self.offset + self.size

    def local_index(self, index: tuple[object, ...]) -> int:
        """Validates ``index`` and returns its flat position inside the segment.

        Args:
            index: The index arguments as given to ``encode``: empty (only for a one-entry
                segment), one int per dimension, or a single tuple of them.

        Raises:
            ValueError: Wrong number of indices, a non-integer, or an index out of range.
        """
        if len(index) == 1:
            value = index[0]
            if type(value) is int and len(self.shape) == 1 and 0 <= value < self.shape[0]:
                return value  # the common case, one in-range int, needs no other check
            if isinstance(value, tuple):
                index = value
        if not index:
            if self.size == 1:
                return 0
            raise ValueError(
                f"segment '{self.name}' has {self.size} entries: give an index ({self._ranges()})"
            )
        if len(index) != len(self.shape):
            raise ValueError(
                f"segment '{self.name}' has shape {self.shape}: expected {len(self.shape)} "
                f"index value(s), got {index!r}"
            )
        flat = 0
        for value, dim in zip(index, self.shape, strict=True):
            if isinstance(value, bool | np.bool_):
                raise ValueError(f"segment '{self.name}': index must be an int, got {value!r}")
            try:
                i = operator.index(value)
            except TypeError:
                raise ValueError(
                    f"segment '{self.name}': index must be an int, got {value!r}"
                ) from None
            if not 0 <= i < dim:
                shown = index[0] if self.flat else tuple(index)
                raise ValueError(
                    f"index {shown!r} out of range for segment '{self.name}' ({self._ranges()})"
                )
            flat = flat * dim + i
        return flat

    def index_of(self, local: int) -> Index:
        """The index (``int`` or tuple) of flat position ``local`` inside the segment."""
        if self.flat:
            return local
        out = []
        for dim in reversed(self.shape):
            local, i = divmod(local, dim)
            out.append(i)
        return tuple(reversed(out))

    def _ranges(self) -> str:
        spans = ", ".join(f"0..{dim - 1}" for dim in self.shape)
        return f"valid: {spans}" if self.flat else f"shape {self.shape}, valid: ({spans})"


def parse_segments(specs: Iterable[SegmentSpec], what: str = "segment") -> tuple[Segment, ...]:
    """Builds contiguous :class:`Segment` blocks from ``(name, size_or_shape[, description])``.

    Args:
        specs: Segment declarations in order.
        what: Word used in error messages (``"segment"``, ``"feature"``).

    Returns:
        The segments with their offsets.

    Raises:
        ValueError: A malformed declaration, a duplicate name or a non-positive size; the
            message names the offending entry.
    """
    segments: list[Segment] = []
    seen: set[str] = set()
    offset = 0
    for spec in specs:
        if not isinstance(spec, tuple | list) or len(spec) not in (2, 3):
            raise ValueError(f"{what} must be (name, size) or (name, size, description): {spec!r}")
        name, size = spec[0], spec[1]
        description = spec[2] if len(spec) == 3 else ""
        if not isinstance(name, str) or not name:
            raise ValueError(f"{what} name must be a non-empty string, got {name!r}")
        if name in seen:
            raise ValueError(f"duplicate {what} name '{name}'")
        if not isinstance(description, str):
            raise ValueError(f"{what} '{name}': description must be a string")
        flat = not isinstance(size, tuple | list)
        shape = (size,) if flat else tuple(size)
        if not shape or not all(_is_positive_int(d) for d in shape):
            raise ValueError(f"{what} '{name}' must have a positive size or shape, got {size!r}")
        shape = tuple(int(d) for d in shape)
        seen.add(name)
        segments.append(Segment(name, shape, offset, description, flat))
        offset += prod(shape)
    return tuple(segments)


def _is_positive_int(value: object) -> bool:
    return isinstance(value, int | np.integer) and not isinstance(value, bool) and value > 0


class ActionLayout:
    """A flat action space made of named contiguous segments.

    Args:
        segments: ``(name, size_or_shape)`` or ``(name, size_or_shape, description)`` tuples in
            id order. An ``int`` size makes a 1-D segment (``int`` indices); a tuple shape makes a
            multi-dimensional one (tuple indices, C order).
        labels: Optional ``{segment name: label}`` giving the whole :meth:`describe` text of
            that segment's ids: a function of the index (``int`` or tuple, as :meth:`decode`
            returns it), or a sequence with one string per position (flat order). Label
            functions may be lambdas: pickling a layout stores their texts instead.

    Raises:
        ValueError: Duplicate names, non-positive sizes, an empty layout, or a label for an
            unknown segment.
    """

    def __init__(
        self, segments: Iterable[SegmentSpec], labels: Mapping[str, Label] | None = None
    ) -> None:
        self.segments: tuple[Segment, ...] = parse_segments(segments)
        if not self.segments:
            raise ValueError("an ActionLayout needs at least one segment")
        self._by_name = {seg.name: seg for seg in self.segments}
        self._starts = [seg.offset for seg in self.segments]
        self.n: int = self.segments[-1].stop
        # Tables for the common cases (one in-range int into a 1-D segment, a plain int id),
        # giving what the validating paths would: {name: (offset, size)} and, per id, its
        # decoded (name, index).
        self._flat = {s.name: (s.offset, s.shape[0]) for s in self.segments if len(s.shape) == 1}
        # {name: offset} of the one-entry segments, encoded with no index (``encode("pass")``).
        self._single = {s.name: s.offset for s in self.segments if s.size == 1}
        self._decoded = [(s.name, s.index_of(i)) for s in self.segments for i in range(s.size)]
        self.labels: dict[str, Label] = dict(labels or {})
        for name, label in self.labels.items():
            seg = self.segment(name)
            if not callable(label) and len(label) != seg.size:
                raise ValueError(
                    f"labels for segment '{name}' have {len(label)} entries, expected {seg.size}"
                )

    # -- segments -------------------------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        """Segment names in id order."""
        return tuple(self._by_name)

    def segment(self, name: str) -> Segment:
        """The :class:`Segment` called ``name`` (ValueError listing the names if unknown)."""
        try:
            return self._by_name[name]
        except KeyError:
            raise ValueError(
                f"unknown segment {name!r}; segments are: {', '.join(self._by_name)}"
            ) from None

    def offset(self, name: str) -> int:
        """First id of segment ``name``."""
        return self.segment(name).offset

    def size(self, name: str) -> int:
        """Number of ids in segment ``name``."""
        return self.segment(name).size

    def shape(self, name: str) -> tuple[int, ...]:
        """Shape of segment ``name`` (``(size,)`` for a 1-D segment)."""
        return self.segment(name).shape

    def slice(self, name: str) -> slice:
        """The ids of segment ``name`` as a slice of the flat space."""
        seg = self.segment(name)
        return slice(seg.offset, seg.stop)

    # -- codec ----------------------------------------------------------------------------

    def encode(self, name: str, *index: int | tuple[int, ...]) -> int:
        """Flat id of ``index`` in segment ``name``.

        Args:
            name: Segment name.
            *index: One int per dimension (``encode("place_amoeba", 2, 5)``) or one tuple
                (``encode("place_amoeba", (2, 5))``, what :meth:`decode` returns). May be
                omitted only for a one-entry segment (``encode("done")``).

        Raises:
            ValueError: Unknown segment, or an index of the wrong length, type or range; the
                message names the segment and its valid range.
        """
        if len(index) == 1:
            i = index[0]
            if type(i) is int or (isinstance(i, int) and not isinstance(i, bool)):
                flat = self._flat.get(name)
                if flat is not None and 0 <= i < flat[1]:
                    return flat[0] + int(i)
        elif not index:
            single = self._single.get(name)
            if single is not None:
                return single
        seg = self.segment(name)
        return seg.offset + seg.local_index(index)

    def decode(self, action: int) -> tuple[str, Index]:
        """``(segment name, index)`` of a flat id: the inverse of :meth:`encode`.

        The index is an ``int`` for a 1-D segment and a tuple for a multi-dimensional one.

        Raises:
            ValueError: ``action`` is not an integer in ``[0, n)``.
        """
        if type(action) is int and 0 <= action < self.n:
            return self._decoded[action]
        seg, local = self._locate(action)
        return seg.name, seg.index_of(local)

    def segment_of(self, action: int) -> str:
        """Name of the segment holding flat id ``action``."""
        return self._locate(action)[0].name

    def _locate(self, action: int) -> tuple[Segment, int]:
        if isinstance(action, bool | np.bool_):
            raise ValueError(f"action id must be an int in [0, {self.n}), got {action!r}")
        try:
            a = operator.index(action)
        except TypeError:
            raise ValueError(f"action id must be an int in [0, {self.n}), got {action!r}") from None
        if not 0 <= a < self.n:
            raise ValueError(f"action id {a} out of range [0, {self.n})")
        seg = self.segments[bisect_right(self._starts, a) - 1]
        return seg, a - seg.offset

    # -- masks ----------------------------------------------------------------------------

    def empty_mask(self) -> np.ndarray:
        """An all-False boolean mask of length :attr:`n`."""
        return np.zeros(self.n, dtype=bool)

    def allow(self, mask: np.ndarray, name: str, *index: int | tuple[int, ...]) -> None:
        """Sets ``mask`` to True at ``encode(name, *index)``."""
        if len(index) == 1:
            i = index[0]
            if type(i) is int or (isinstance(i, int) and not isinstance(i, bool)):
                flat = self._flat.get(name)
                if flat is not None and 0 <= i < flat[1]:
                    mask[flat[0] + i] = True
                    return
        elif not index:
            single = self._single.get(name)
            if single is not None:
                mask[single] = True
                return
        mask[self.encode(name, *index)] = True

    def segment_view(self, mask: np.ndarray, name: str) -> np.ndarray:
        """Writable view of segment ``name`` inside ``mask``, reshaped to the segment's shape.

        Example: ``layout.segment_view(mask, "place_amoeba")[2, :] = True``.

        Raises:
            ValueError: ``mask`` is not a 1-D array of length :attr:`n`.
        """
        if not isinstance(mask, np.ndarray) or mask.shape != (self.n,):
            got = getattr(mask, "shape", type(mask).__name__)
            raise ValueError(f"mask must be a 1-D array of length {self.n}, got {got}")
        seg = self.segment(name)
        # Reshaping a slice of a 1-D array never copies, so the result is a view.
        return mask[seg.offset : seg.stop].reshape(seg.shape)

    # -- text -----------------------------------------------------------------------------

    def describe(self, action: int) -> str:
        """Short text for an id.

        With a label for its segment, the label's text (``"buy_gene(SPEED)"``, ``"drift"``).
        Otherwise the segment name and index, ``"take(1)"`` or ``"place_amoeba(2, 5)"``, or just
        the name for a one-entry segment (``"done"``).
        """
        seg, local = self._locate(action)
        index = seg.index_of(local)
        label = self.labels.get(seg.name)
        if callable(label):
            return label(index)
        if label is not None:
            return label[local]
        if seg.size == 1:
            return seg.name
        text = str(index) if seg.flat else ", ".join(map(str, index))
        return f"{seg.name}({text})"

    def markdown_table(self) -> str:
        """Markdown table ``| ids | segment | size | meaning |`` with one row per segment."""
        rows = ["| ids | segment | size | meaning |", "|---|---|---|---|"]
        for seg in self.segments:
            ids = str(seg.offset) if seg.size == 1 else f"{seg.offset}-{seg.stop - 1}"
            size = str(seg.size) if seg.flat else f"{' x '.join(map(str, seg.shape))} = {seg.size}"
            meaning = seg.description.replace("|", "\\|")
            rows.append(f"| {ids} | `{seg.name}` | {size} | {meaning} |")
        return "\n".join(rows)

    def __getstate__(self) -> dict[str, object]:
        # Label functions (often lambdas) are replaced by their texts, so layouts and the envs
        # holding them pickle; ``describe`` gives the same strings afterwards.
        state = self.__dict__.copy()
        state["labels"] = {
            name: [label(seg.index_of(i)) for i in range(seg.size)] if callable(label) else label
            for name, label in self.labels.items()
            for seg in (self._by_name[name],)
        }
        return state

    def __len__(self) -> int:
        return self.n

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __repr__(self) -> str:
        parts = ", ".join(
            f"{seg.name}={seg.size if seg.flat else seg.shape}" for seg in self.segments
        )
        return f"ActionLayout(n={self.n}: {parts})"
