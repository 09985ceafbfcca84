"""A fixed-size drawing canvas for the games' ``rgb_array`` pictures (matplotlib, Agg).

matplotlib is imported only when a canvas is made, so importing the envs never loads it. The
canvas is one axes covering the whole figure in *pixel* coordinates: x from 0 (left) to
``width``, y from 0 (top) to ``height``, so a layout can be written in pixels. No pyplot
state is used (a bare ``Figure`` on an Agg canvas): drawing never opens a window, never
touches the global backend, and the same drawing gives the same bytes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["new_canvas", "to_array", "shorten"]

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
        raise ImportError(
            "render_mode='rgb_array' draws with matplotlib; install it with "
            "`pip install primeval[viz]`"
        ) from exc
    fig = Figure(figsize=(width / _DPI, height / _DPI), dpi=_DPI, facecolor=background)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)  # y grows downwards, as in an image
    ax.set_axis_off()
    return fig, ax


def to_array(fig: Any) -> np.ndarray:
    """The figure drawn as an ``(H, W, 3)`` uint8 array (alpha dropped)."""
    fig.canvas.draw()
    rgba = np.asarray(fig.canvas.buffer_rgba())
    return np.ascontiguousarray(rgba[..., :3], dtype=np.uint8)


def shorten(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ending in ``...`` when cut."""
    return text if len(text) <= limit else text[: max(limit - 3, 0)].rstrip() + "..."
