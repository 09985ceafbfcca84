"""Observation encoders: the protocol, a by-name factory and a named-feature vector builder.

An encoder turns a game state into the array one seat observes. It is built from the game's
rules object (``EncoderClass(rules)``), chosen by name (``obs_encoder="flat"``) and exposes
``space()`` and ``encode(state, seat)``. Encodings are ego-centric and carry only what ``seat``
may know.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol, runtime_checkable

import numpy as np
from gymnasium import spaces

from primeval.envs.core.layout import Segment, SegmentSpec, parse_segments

__all__ = ["FeatureBuilder", "ObservationEncoder", "make_encoder"]


@runtime_checkable
class ObservationEncoder(Protocol):
    """What the AEC adapter needs from an observation encoder.

    Attributes:
        name: Registry name of the encoding (``"flat"``, ``"planes"``, ...).
    """

    name: str

    def space(self) -> spaces.Box:
        """The Box every ``encode`` result lies in (same shape and dtype)."""
        ...

    def encode(self, state: Any, seat: int) -> np.ndarray:
        """The observation of ``seat`` in ``state``: public information plus its own secrets."""
        ...


def make_encoder(
    registry: Mapping[str, type], name_or_instance: str | ObservationEncoder, rules: Any
) -> ObservationEncoder:
    """Builds an encoder from its registry name, or passes a ready instance through.

    Args:
        registry: ``{name: encoder class}``; each class is called as ``cls(rules)``.
        name_or_instance: A registry name or an already-built encoder.
        rules: The game's rules object, given to the encoder class.

    Returns:
        The encoder.

    Raises:
        ValueError: Unknown name (the message lists the allowed names).
        TypeError: Neither a string nor an object with ``space`` and ``encode``.
    """
    if isinstance(name_or_instance, str):
        try:
            cls = registry[name_or_instance]
        except KeyError:
            allowed = ", ".join(repr(name) for name in sorted(registry))
            raise ValueError(
                f"unknown observation encoder {name_or_instance!r}; allowed: {allowed}"
            ) from None
        return cls(rules)
    if isinstance(name_or_instance, ObservationEncoder):
        return name_or_instance
    raise TypeError(
        "obs_encoder must be an encoder name or an object with name, space() and encode(), "
        f"got {type(name_or_instance).__name__}"
    )


class FeatureBuilder:
    """A float32 feature vector made of named contiguous pieces.

    Example::

        features = FeatureBuilder([("bp", 4), ("genes", (4, 20)), ("phase", 6)])
        out = features.zeros()
        features.write(out, "bp", [0.5, 0.1, 0.0, 0.3])
        features.view(out, "genes")[0, 3] = 1.0       # writable, shaped (4, 20)
        features.slice("phase")                       # slice(84, 90)

    Args:
        pieces: ``(name, size_or_shape)`` or ``(name, size_or_shape, description)`` in order.

    Raises:
        ValueError: Duplicate names or non-positive sizes (the message names the piece).
    """

    def __init__(self, pieces: Iterable[SegmentSpec]) -> None:
        self.pieces: tuple[Segment, ...] = parse_segments(pieces, what="feature")
        self._by_name = {piece.name: piece for piece in self.pieces}
        self.size: int = self.pieces[-1].stop if self.pieces else 0

    @property
    def names(self) -> tuple[str, ...]:
        """Piece names in order."""
        return tuple(self._by_name)

    def piece(self, name: str) -> Segment:
        """The piece called ``name`` (ValueError listing the names if unknown)."""
        try:
            return self._by_name[name]
        except KeyError:
            raise ValueError(
                f"unknown feature {name!r}; features are: {', '.join(self._by_name)}"
            ) from None

    def slice(self, name: str) -> slice:
        """Where piece ``name`` lies in the vector."""
        piece = self.piece(name)
        return slice(piece.offset, piece.stop)

    def zeros(self) -> np.ndarray:
        """A fresh all-zero float32 vector of length :attr:`size`."""
        return np.zeros(self.size, dtype=np.float32)

    def view(self, out: np.ndarray, name: str) -> np.ndarray:
        """Writable view of piece ``name`` in ``out``, shaped like the piece."""
        if out.shape != (self.size,):
            raise ValueError(f"feature vector must have shape ({self.size},), got {out.shape}")
        piece = self.piece(name)
        return out[piece.offset : piece.stop].reshape(piece.shape)

    def write(self, out: np.ndarray, name: str, values: Any) -> None:
        """Writes ``values`` (a scalar or an array of the piece's shape) into piece ``name``."""
        self.view(out, name)[...] = values

    def box(self, low: float = 0.0, high: float = 1.0) -> spaces.Box:
        """A float32 ``Box(low, high, (size,))`` for encoders whose features share bounds."""
        return spaces.Box(low=low, high=high, shape=(self.size,), dtype=np.float32)

    def __repr__(self) -> str:
        return f"FeatureBuilder(size={self.size}: {', '.join(self.names)})"


def pieces_table(pieces: dict[str, slice]) -> str:
    """A Markdown table of an encoder's named pieces (for env docstrings)."""
    lines = ["| piece | indices | size |", "|---|---|---|"]
    for name, sl in pieces.items():
        lines.append(f"| `{name}` | {sl.start}..{sl.stop - 1} | {sl.stop - sl.start} |")
    return "\n".join(lines)
