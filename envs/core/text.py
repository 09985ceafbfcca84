"""Small text helpers shared by the games' text renderers."""

from __future__ import annotations

MAX_WIDTH = 100


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
