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

__all__ = ["PictureWindow", "WindowError", "window_pixels"]


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

    @property
    def is_open(self) -> bool:
        return self._screen is not None

    def show(self, picture: np.ndarray) -> None:
        """Draw ``picture`` scaled to the window (opened at the picture's size if it is not
        open) and handle the window's events (a close request closes it).

        Raises:
            WindowError: pygame-ce is not installed or no window can be opened.
            ValueError: ``picture`` is not an (H, W, 3) uint8 array.
        """
        arr = np.asarray(picture)
        if arr.ndim != 3 or arr.shape[2] != 3 or arr.dtype != np.uint8 or not arr.size:
            raise ValueError(
                f"a window shows (H, W, 3) uint8 pictures, got shape {arr.shape} of {arr.dtype}"
            )
        pygame = _pygame()
        height, width = arr.shape[:2]
        if self._screen is None:
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
        surface = pygame.surfarray.make_surface(arr.swapaxes(0, 1))
        size = self._screen.get_size()
        if surface.get_size() != size:
            surface = pygame.transform.smoothscale(surface, size)
        self._screen.blit(surface, (0, 0))
        pygame.display.flip()
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self.close()
                break

    def close(self) -> None:
        """Close the window (nothing happens if it is not open)."""
        if self._screen is not None:
            self._screen = None
            pygame = _pygame()
            pygame.display.quit()

    def __getstate__(self) -> dict[str, Any]:
        return {"title": self.title, "_screen": None}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.title = data["title"]
        self._screen = None


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
