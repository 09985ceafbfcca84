"""Small text helpers shared by the games' views."""

from __future__ import annotations

from collections.abc import Callable, Container
from typing import Any

MAX_WIDTH = 100


def describe_pending(state: Any, decisions: Container[str],
                     describe: Callable[[dict[str, Any]], str]) -> str:
    """The pending step of a procedure-stack game in words, the part both games share.

    Args:
        state: A state with ``stack`` (frames, the last one pending) and ``phase``.
        decisions: The decision kinds (``FrameRegistry.decisions``); any other kind is an
            automatic step.
        describe: The game's words for a pending decision frame.

    Returns:
        ``describe(frame)`` for a player's decision; otherwise ``"game over"``,
        ``"nothing pending"`` or ``"next step: <kind> (automatic)"``.
    """
    if not state.stack:
        return "game over" if state.phase == "game_over" else "nothing pending"
    frame = state.stack[-1]
    kind = frame.get("kind", "?")
    if kind not in decisions:
        return f"next step: {kind} (automatic)"
    return describe(frame)


def wrap_items(head: str, items: list[str], indent: str = "  ",
               width: int = MAX_WIDTH) -> list[str]:
    """``head`` followed by comma-separated items, wrapped between items (not inside them)."""
    lines: list[str] = []
    line = head
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if len(line) + 1 + len(piece) > width and line.strip():
            lines.append(line)
            line = indent + piece
        else:
            line = f"{line} {piece}"
    lines.append(line)
    return lines
