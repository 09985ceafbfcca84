"""A fixed-size drawing canvas for the games' ``rgb_array`` pictures (matplotlib, Agg).

matplotlib is imported only when a canvas is made, so importing the envs never loads it. The
canvas is one axes covering the whole figure in *pixel* coordinates: x from 0 (left) to
``width``, y from 0 (top) to ``height``, so a layout can be written in pixels. No pyplot
state is used (a bare ``Figure`` on an Agg canvas): drawing never opens a window, never
touches the global backend, and the same drawing gives the same bytes.

Two ways to turn a view's drawing code into pixels, which give the same pixels:

* the **reference**: the drawing code calls ``ax.text``, ``ax.plot`` and
  ``ax.add_patch(patches.Circle(...))`` on the axes of :func:`new_canvas`, and :func:`to_array`
  draws the whole figure. About half a second a frame, nearly all of it matplotlib's work
  per artist (making it, laying out its text, building transforms) and FreeType's per glyph,
  not the painting of pixels;
* the **fast path**: the same drawing code runs against a :class:`Sketch`, which stands in
  for the axes and only records each call as a hashable tuple (:func:`shapes` stands in
  for ``matplotlib.patches``), and :func:`~primeval.envs.core.picture_fast.sketch_to_array` paints the recorded calls from
  their recorded renderer calls and cached tiles (:mod:`primeval.envs.core.picture_fast`),
  20 to 30 times faster.

The fast path is equal to the reference pixel for pixel: ``tests/envs/test_picture_fast.py``
compares them over seeded random games of each game and player count, and
:func:`sketch_reference` draws any sketch the plain way.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["Sketch", "new_canvas", "shapes", "shorten", "sketch_reference",
           "to_array"]

_DPI = 100


def new_canvas(width: int, height: int, background: str = "white") -> tuple[Any, Any]:
    """A ``(figure, axes)`` pair of exactly ``width`` x ``height`` pixels in pixel coordinates.

    Raises:
        ImportError: matplotlib is not installed (``pip install primeval[viz]``).
    """
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise _no_matplotlib() from exc
    fig = Figure(figsize=(width / _DPI, height / _DPI), dpi=_DPI, facecolor=background)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)  # y grows downwards, as in an image
    ax.set_axis_off()
    return fig, ax


def _no_matplotlib() -> ImportError:
    return ImportError("render_mode='rgb_array' draws with matplotlib; install it with "
                       "`pip install primeval[viz]`")


def to_array(fig: Any) -> np.ndarray:
    """The figure drawn as an ``(H, W, 3)`` uint8 array (alpha dropped)."""
    fig.canvas.draw()
    rgba = np.asarray(fig.canvas.buffer_rgba())
    return np.ascontiguousarray(rgba[..., :3], dtype=np.uint8)


def shorten(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ending in ``...`` when cut."""
    return text if len(text) <= limit else text[: max(limit - 3, 0)].rstrip() + "..."


# ---------------------------------------------------------------------------------------------
# The fast path: recorded calls, drawn a tile at a time
# ---------------------------------------------------------------------------------------------

#: One recorded drawing call: ``(kind, patch class or "", args, kwargs as (name, value)
#: pairs in call order)``, hashable, made on an axes by :func:`_make_artist`.
Op = tuple


class _Shapes:
    """Stands in for ``matplotlib.patches``: ``Circle(...)`` etc. return a recorded call."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)

        def make(*args: Any, **kwargs: Any) -> Op:
            return ("patch", name, args, tuple(kwargs.items()))

        return make


_SHAPES = _Shapes()


class Sketch:
    """Stands in for the canvas axes: records ``text``, ``plot`` and ``add_patch`` calls (in
    order, as hashable :data:`Op` tuples) instead of drawing them."""

    def __init__(self, width: int, height: int, background: str = "white") -> None:
        self.width, self.height, self.background = width, height, background
        self.ops: list[Op] = []

    def text(self, x: float, y: float, s: str, **kwargs: Any) -> None:
        self.ops.append(("text", "", (x, y, s), tuple(kwargs.items())))

    def plot(self, *args: Any, **kwargs: Any) -> None:
        if "color" not in kwargs:  # the colour cycle would depend on the lines drawn before
            raise ValueError("Sketch.plot needs an explicit color")
        self.ops.append(("plot", "", args, tuple(kwargs.items())))

    def add_patch(self, op: Op) -> None:
        if not (isinstance(op, tuple) and op and op[0] == "patch"):
            raise TypeError("Sketch.add_patch takes a shape made by shapes(sketch)")
        self.ops.append(op)


def shapes(ax: Any) -> Any:
    """What the drawing code should call ``patches`` for ``ax``: ``matplotlib.patches`` for a
    real axes, recorders of the same names for a :class:`Sketch`."""
    if isinstance(ax, Sketch):
        return _SHAPES
    from matplotlib import patches

    return patches


def _make_artist(ax: Any, op: Op, limits: bool = True) -> Any:
    """Make on the real axes ``ax`` exactly the call ``op`` recorded; the artist made.

    With ``limits=False`` a patch is added by ``ax.add_artist``, which leaves out what
    ``add_patch`` adds to it, the update of the axes' data limits (a tenth of the cost of a
    small patch, and nothing to the picture: the canvas's limits are fixed).
    """
    from matplotlib import patches

    kind, name, args, kwargs = op
    if kind == "text":
        return ax.text(*args, **dict(kwargs))
    if kind == "plot":
        (line,) = ax.plot(*args, **dict(kwargs))
        return line
    patch = getattr(patches, name)(*args, **dict(kwargs))
    return ax.add_patch(patch) if limits else ax.add_artist(patch)


def sketch_reference(sketch: Sketch) -> np.ndarray:
    """The sketch's calls made on :func:`new_canvas` and drawn by :func:`to_array`: the
    reference :func:`sketch_to_array` equals (for tests of the fast path)."""
    fig, ax = new_canvas(sketch.width, sketch.height, sketch.background)
    for op in sketch.ops:
        _make_artist(ax, op)
    return to_array(fig)
