"""The window of ``render_mode="human"``: the game's picture shown with pygame-ce.

As PettingZoo's classic games do, ``render_mode="human"`` opens a window and draws the game in
it after every step; here the drawing is the game's own picture
(``view.to_rgb_array(state)``, the ``rgb_array`` render), scaled to the window (the window
opens at the picture's size and may be resized). The window lives in the env
(:class:`PictureWindow`) and closes with ``env.close()`` or when its close button is pressed
(the next render opens it again).

pygame-ce (the ``window`` extra: ``pip install 'primeval[window]'``; PettingZoo draws with
it too; never install ``pygame`` beside it, both are ``import pygame``) is imported only
when a window opens. Without a display (a server, CI), set ``SDL_VIDEODRIVER=dummy``: the
window is then drawn off screen, which is how the tests check it.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

__all__ = ["PictureWindow", "WindowError", "pump_events", "window_pixels"]


class WindowError(RuntimeError):
    """The window cannot be opened (pygame-ce missing, or no display)."""


def _pygame() -> Any:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no banner on stdout
    try:
        import pygame
    except ImportError as exc:
        raise WindowError(
            "render_mode='human' opens a window with pygame-ce; install it with "
            "`pip install 'primeval[window]'` (or use render_mode='ansi' for text, "
            "'rgb_array' for the picture as an array)"
        ) from exc
    return pygame


class PictureWindow:
    """A window showing pictures, ``(H, W, 3)`` uint8 arrays, scaled to its size.

    Args:
        title: The window's caption.

    A copy (``copy.deepcopy``, pickling: ``env.clone()`` does both) holds no window: it
    opens its own when it shows a picture.
    """

    def __init__(self, title: str = "primeval") -> None:
        self.title = title
        self._screen: Any = None
        self._last: np.ndarray | None = None  # the picture shown, drawn again on a resize

    @property
    def is_open(self) -> bool:
        return self._screen is not None

    def show(self, picture: np.ndarray) -> None:
        """Draw ``picture`` scaled to the window (opened at the picture's size if it is not
        open) and handle the window's events (:func:`pump_events`).

        Raises:
            WindowError: pygame-ce is not installed or no window can be opened.
            ValueError: ``picture`` is not an (H, W, 3) uint8 array.
        """
        global _OPEN
        arr = np.asarray(picture)
        if arr.ndim != 3 or arr.shape[2] != 3 or arr.dtype != np.uint8 or not arr.size:
            raise ValueError(
                f"a window shows (H, W, 3) uint8 pictures, got shape {arr.shape} of {arr.dtype}"
            )
        pygame = _pygame()
        # pygame has one display: it may have been closed (or resized) since.
        current = pygame.display.get_surface() if pygame.display.get_init() else None
        if current is not None:
            self._screen = current
        else:
            height, width = arr.shape[:2]
            try:
                pygame.display.init()
                self._screen = pygame.display.set_mode((width, height), pygame.RESIZABLE)
            except pygame.error as exc:
                self._screen = None
                raise WindowError(
                    f"render_mode='human' cannot open a window ({exc}); without a display "
                    "set SDL_VIDEODRIVER=dummy, or use render_mode='ansi' or 'rgb_array'"
                ) from None
            pygame.display.set_caption(self.title)
        self._last = arr.copy()
        _OPEN = self
        self._draw(pygame)
        pump_events()

    def _draw(self, pygame: Any) -> None:
        surface = pygame.surfarray.make_surface(self._last.swapaxes(0, 1))
        size = self._screen.get_size()
        if surface.get_size() != size:
            surface = pygame.transform.smoothscale(surface, size)
        self._screen.blit(surface, (0, 0))
        pygame.display.flip()

    def close(self) -> None:
        """Close the window (nothing happens if it is not open)."""
        global _OPEN
        if self._screen is not None:
            self._screen = None
            if _OPEN is self:
                _OPEN = None
                _pygame().display.quit()

    def __getstate__(self) -> dict[str, Any]:
        return {"title": self.title, "_screen": None, "_last": None}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.title = data["title"]
        self._screen = self._last = None


#: The window on the display now (pygame has one display per process).
_OPEN: PictureWindow | None = None


def pump_events() -> None:
    """Handle the open window's events: a close request closes it (the next picture opens
    it again), a resize draws the picture again at the new size. A program that waits (for
    input, say) calls it now and then so the window stays responsive; ``primeval play
    --window`` does while it waits for a line."""
    window = _OPEN
    if window is None or not window.is_open:
        return
    pygame = _pygame()
    redraw = False
    for event in pygame.event.get():
        if event.type == pygame.QUIT:
            window.close()
            return
        if event.type in (
            pygame.VIDEORESIZE,
            pygame.VIDEOEXPOSE,
            pygame.WINDOWEXPOSED,
            pygame.WINDOWSIZECHANGED,
        ):
            redraw = True
    if redraw:
        window._screen = pygame.display.get_surface()
        window._draw(pygame)


def window_pixels() -> np.ndarray:
    """The pixels of the open window's surface as an ``(H, W, 3)`` uint8 array (what a
    test compares with the picture).

    Raises:
        WindowError: No window is open.
    """
    pygame = _pygame()
    surface = pygame.display.get_surface() if pygame.display.get_init() else None
    if surface is None:
        raise WindowError("no window is open")
    return np.ascontiguousarray(pygame.surfarray.array3d(surface).swapaxes(0, 1))
