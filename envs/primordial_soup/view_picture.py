"""The picture of a Primordial Soup state (``render_mode="rgb_array"``), drawn with matplotlib.

Part of the view. ``to_rgb_array(state, config)`` returns a :data:`HEIGHT` x :data:`WIDTH` x 3
uint8 image:

* top: round, phase and the pending decision (:func:`view_text.describe_decision`);
* left: the soup in the board's layout, north up. Each space shows its number, one small
  square per colour with the number of food cubes, and the amoebas as discs in the owner's
  colour with the amoeba number inside and one black dot per damage point above (the amoeba
  of the pending decision has a thick black ring; during phase 1 an amoeba that had its
  turn is drawn paler). The island holds the compass: an arrow in the drift direction of the
  environment card in force (a dot for no drift) and its ozone value;
* right: the environment card, the cube supply, a key to the marks (damage dots, ``+``,
  the ring of the amoeba to act) and, per player, BP, ladder space, genes (full names,
  wrapped, in a smaller font when they need the room; ``+`` marks a gene bought this round)
  and the amoebas on the board (``*`` per damage point);
* bottom: the scoring ladder with the finish zone shaded and one marker per player.

Player ``p`` plays colour ``view_text.COLOUR_LETTERS[p]`` (red, green, blue, yellow).
matplotlib is imported only when a picture is drawn (see :mod:`primeval.envs.core.picture`).
:func:`to_rgb_array` is the fast path (the drawing recorded on a ``Sketch``, painted from
recorded renderer calls and cached tiles, 20 to 30 times faster); :func:`to_rgb_array_reference`
draws the same calls as one plain figure, and ``tests/envs/test_picture_fast.py`` checks that
the two are equal pixel for pixel.
"""

from __future__ import annotations

import math
import textwrap
from typing import Any

import numpy as np

from primeval.envs.core.picture import (
    Sketch,
    new_canvas,
    shapes,
    shorten,
    to_array,
)
from primeval.envs.core.picture_fast import sketch_to_array
from primeval.envs.core.text import wrap_items
from primeval.envs.primordial_soup.config import PrimordialSoupConfig
from primeval.envs.primordial_soup.data import GENE_INDEX, GENES
from primeval.envs.primordial_soup.state import GameState
from primeval.envs.primordial_soup.view_text import (
    COLOUR_LETTERS,
    describe_decision,
    environment_card_text,
)

__all__ = ["HEIGHT", "PLAYER_COLOURS", "WIDTH", "to_rgb_array", "to_rgb_array_reference"]

WIDTH, HEIGHT = 900, 600
#: Fill colour of player ``p``'s cubes, amoebas and marker (red, green, blue, yellow).
PLAYER_COLOURS: tuple[str, ...] = ("#d62728", "#2ca02c", "#1f77b4", "#f2c500")
_TEXT_ON = ("white", "white", "white", "black")  # readable text colour on each fill
_SOUP, _SOUP_EDGE, _ISLAND = "#d8edf8", "#4f86a8", "#efdfb0"
_ZONE, _TRACK = "#ffd8a8", "#eeeeee"
_PHASE_TITLES = {
    "setup": "setup",
    "movement_and_feeding": "phase 1: movement and feeding",
    "environment": "phase 2: environment",
    "new_genes": "phase 3: new genes",
    "cell_division": "phase 4: cell division",
    "deaths": "phase 5: deaths",
    "scoring": "phase 6: scoring",
    "game_over": "game over",
}
# Layout (pixels): title band, board, side panel, ladder band.
_BOARD = (12, 52, 482, 522)  # x0, y0, x1, y1
_PANEL = (500, 52, 890, 522)
_LADDER = (12, 532, 888, 594)


def _player_colour(p: int) -> str:
    return PLAYER_COLOURS[p % len(PLAYER_COLOURS)]


def _text_on(p: int) -> str:
    return _TEXT_ON[p % len(_TEXT_ON)]


def to_rgb_array(state: GameState, config: PrimordialSoupConfig) -> np.ndarray:
    """The picture of ``state`` as a ``(600, 900, 3)`` uint8 array: the fast path (the
    drawing recorded on a :class:`~primeval.envs.core.picture.Sketch`, assembled from cached
    tiles), equal pixel for pixel to :func:`to_rgb_array_reference`.

    Args:
        state: The game state.
        config: The rules config (the board, the environment deck and the finish zone).
    """
    sketch = Sketch(WIDTH, HEIGHT)
    _draw(sketch, state, config)
    return sketch_to_array(sketch)


def to_rgb_array_reference(state: GameState, config: PrimordialSoupConfig) -> np.ndarray:
    """The same picture drawn the plain way: every artist on one matplotlib figure (about
    0.5 s a frame). The reference the fast path is tested against."""
    fig, ax = new_canvas(WIDTH, HEIGHT)
    _draw(ax, state, config)
    return to_array(fig)


def _draw(ax: Any, state: GameState, config: PrimordialSoupConfig) -> None:
    """The whole picture, on a canvas axes or a sketch."""
    _draw_title(ax, state, config)
    _draw_board(ax, state, config)
    _draw_panel(ax, state, config)
    _draw_ladder(ax, state, config)


# ---------------------------------------------------------------------------------------------
# Title
# ---------------------------------------------------------------------------------------------


def _draw_title(ax: Any, state: GameState, config: Any) -> None:
    phase = _PHASE_TITLES.get(state.phase, state.phase)
    title = f"Primordial Soup  -  round {state.round}/{config.max_rounds}  -  {phase}"
    ax.text(12, 16, title, fontsize=13, fontweight="bold", va="center", ha="left")
    if state.phase == "game_over":
        winner = state.descending()[0]
        line = f"Game over: player_{winner} wins (marker farthest along the ladder)"
    else:
        line = "Pending: " + describe_decision(state)
    ax.text(12, 38, shorten(line, 150), fontsize=8.5, va="center", ha="left", color="#333333")


# ---------------------------------------------------------------------------------------------
# Board
# ---------------------------------------------------------------------------------------------


def _pending_amoeba(state: GameState) -> tuple[int, int] | None:
    frame = state.pending
    if not frame or frame.get("kind") in ("cling",):
        return None
    p, a = frame.get("player", -1), frame.get("amoeba", -1)
    if isinstance(p, int) and isinstance(a, int) and p >= 0 and a >= 0:
        return p, a
    return None


def _draw_board(ax: Any, state: GameState, config: Any) -> None:
    patches = shapes(ax)

    board = config.board
    x0, y0, x1, y1 = _BOARD
    cell = min((x1 - x0) / board.width, (y1 - y0) / board.height)
    left = x0 + ((x1 - x0) - cell * board.width) / 2
    top = y0
    index = {c: s for s, c in enumerate(board.cells)}
    highlight = _pending_amoeba(state)
    for y in range(board.height):
        for x in range(board.width):
            cx, cy = left + x * cell, top + y * cell
            if (x, y) == board.island:
                ax.add_patch(patches.Rectangle((cx, cy), cell, cell, facecolor=_ISLAND,
                                               edgecolor=_SOUP_EDGE, linewidth=1.2))
                _draw_compass(ax, state, config, cx + cell / 2, cy + cell / 2, cell)
                continue
            s = index.get((x, y))
            if s is None:
                continue
            ax.add_patch(patches.Rectangle((cx, cy), cell, cell, facecolor=_SOUP,
                                           edgecolor=_SOUP_EDGE, linewidth=1.2))
            _draw_space(ax, state, s, cx, cy, cell, highlight)


def _draw_space(ax: Any, state: GameState, s: int, cx: float, cy: float, cell: float,
                highlight: tuple[int, int] | None) -> None:
    patches = shapes(ax)

    n = state.num_players
    ax.text(cx + 3, cy + 11, str(s), fontsize=7.5, color="#44627a", ha="left", va="center",
            fontweight="bold")
    size = min(16.0, (cell - 24) / max(n, 1) - 1.5)
    pitch = size + 1.5
    for c in range(n):
        qx, qy = cx + 21 + c * pitch, cy + 3
        count = state.cubes[s][c] if c < len(state.cubes[s]) else 0
        ax.add_patch(patches.Rectangle((qx, qy), size, size, facecolor=_player_colour(c),
                                       edgecolor="#222222", linewidth=0.5,
                                       alpha=1.0 if count else 0.25))
        ax.text(qx + size / 2, qy + size / 2 + 0.5, str(count), fontsize=7, ha="center",
                va="center", color=_text_on(c) if count else "#555555", fontweight="bold")
    amoebas = state.amoebas_at(s)
    if not amoebas:
        return
    k = len(amoebas)
    area_x, area_y, area_w, area_h = cx + 4, cy + 24, cell - 8, cell - 28
    cols = {1: 1, 2: 2, 3: 3, 4: 2}.get(k, math.ceil(k / 2) if k <= 8 else math.ceil(k / 3))
    rows = math.ceil(k / cols)
    pitch_x, pitch_y = area_w / cols, area_h / rows
    radius = min(13.0, pitch_x / 2.3, pitch_y / 2.9)
    for j, (p, a) in enumerate(amoebas):
        r, col = divmod(j, cols)
        ax_c = area_x + pitch_x * (col + 0.5)
        ay_c = area_y + pitch_y * (r + 0.5) + radius * 0.35
        ps = state.players[p]
        done = (state.phase == "movement_and_feeding" and a < len(ps.amoeba_done)
                and ps.amoeba_done[a])
        strong = highlight == (p, a)
        ax.add_patch(patches.Circle((ax_c, ay_c), radius, facecolor=_player_colour(p),
                                    edgecolor="black" if strong else "#222222",
                                    linewidth=2.6 if strong else 0.7,
                                    alpha=0.55 if done and not strong else 1.0))
        ax.text(ax_c, ay_c + 0.5, str(a + 1), fontsize=max(5.0, radius * 0.8), ha="center",
                va="center", color=_text_on(p), fontweight="bold")
        damage = ps.amoeba_damage[a] if a < len(ps.amoeba_damage) else 0
        dot = max(1.6, radius * 0.22)
        for d in range(damage):
            dx = (d - (damage - 1) / 2) * dot * 2.4
            ax.add_patch(patches.Circle((ax_c + dx, ay_c - radius - dot - 0.5), dot,
                                        facecolor="black", edgecolor="none"))


_ARROW = {"W": (-1, 0), "N": (0, -1), "E": (1, 0), "S": (0, 1)}


def _draw_compass(ax: Any, state: GameState, config: Any, x: float, y: float,
                  cell: float) -> None:
    patches = shapes(ax)

    deck = config.environment_deck
    card = state.environment_card
    radius = cell * 0.3
    yc = y - cell * 0.06
    ax.add_patch(patches.Circle((x, yc), radius, facecolor="white", edgecolor="#6b5a2a",
                                linewidth=1.2))
    for letter, (dx, dy) in _ARROW.items():
        ax.text(x + dx * radius * 0.72, yc + dy * radius * 0.72, letter, fontsize=6.5,
                ha="center", va="center", color="#6b5a2a")
    if 0 <= card < len(deck):
        drift, ozone = deck[card]
        if drift in _ARROW:
            dx, dy = _ARROW[drift]
            ax.add_patch(patches.FancyArrow(x - dx * radius * 0.3, yc - dy * radius * 0.3,
                                            dx * radius * 0.75, dy * radius * 0.75,
                                            width=radius * 0.14, head_width=radius * 0.42,
                                            head_length=radius * 0.32,
                                            length_includes_head=True,
                                            facecolor="#b22222", edgecolor="#b22222"))
        else:
            ax.add_patch(patches.Circle((x, yc), radius * 0.12, facecolor="#b22222"))
        label = f"drift {drift}  ozone {ozone}"
    else:
        label = "no card yet"
    ax.text(x, y + cell * 0.4, label, fontsize=7, ha="center", va="center",
            color="#4a3d14", fontweight="bold")


# ---------------------------------------------------------------------------------------------
# Side panel
# ---------------------------------------------------------------------------------------------


def _gene_names(state: GameState, p: int) -> list[str]:
    ps = state.players[p]
    names = []
    for key in sorted(ps.genes, key=lambda k: GENE_INDEX.get(k, 99)):
        name = GENES[GENE_INDEX[key]].name if key in GENE_INDEX else key
        if ps.genes[key] == state.round > 0:
            name += "+"
        names.append(name)
    return names


def _draw_panel(ax: Any, state: GameState, config: Any) -> None:
    patches = shapes(ax)

    x0, y0, x1, y1 = _PANEL
    n = state.num_players
    env = environment_card_text(state, config) or "none yet"
    dice = " ".join(str(d) for d in state.dice) or "-"
    ax.text(x0, y0 + 6, f"Environment: {env}   deck {len(state.environment_deck)} left   "
            f"dice {dice}", fontsize=8.5, va="center")
    ax.text(x0, y0 + 24, "Supply: cubes", fontsize=8.5, va="center")
    for c in range(n):
        qx = x0 + 88 + c * 40
        ax.add_patch(patches.Rectangle((qx, y0 + 17), 13, 13, facecolor=_player_colour(c),
                                       edgecolor="#222222", linewidth=0.5))
        ax.text(qx + 16, y0 + 24, str(state.supply[c]), fontsize=8.5, va="center")
    ax.text(x0 + 88 + n * 40 + 8, y0 + 24, f"gene cards {sum(state.gene_supply)}",
            fontsize=8.5, va="center")

    _draw_key(ax, x0, y0 + 43)
    top = y0 + 56
    block = (y1 - top) / max(n, 1)
    pending = state.pending or {}
    to_act = pending.get("player", -1) if state.phase != "game_over" else -1
    for p, ps in enumerate(state.players):
        by = top + p * block
        ax.add_patch(patches.FancyBboxPatch((x0, by + 2), x1 - x0, block - 6,
                                            boxstyle="round,pad=0,rounding_size=6",
                                            facecolor="#f7f7f7",
                                            edgecolor=_player_colour(p),
                                            linewidth=2.4 if p == to_act else 1.0))
        ax.add_patch(patches.Circle((x0 + 14, by + 16), 8, facecolor=_player_colour(p),
                                    edgecolor="#222222", linewidth=0.7))
        ax.text(x0 + 14, by + 16.5, COLOUR_LETTERS[p % 4], fontsize=7.5, ha="center",
                va="center", color=_text_on(p), fontweight="bold")
        marks = []
        if p == to_act:
            marks.append("to act")
        if ps.aggression_used:
            marks.append("Aggression used")
        head = f"player_{p}    BP {ps.bp}    ladder {ps.score}"
        ax.text(x0 + 28, by + 16, head, fontsize=10, fontweight="bold", va="center")
        if marks:
            ax.text(x1 - 8, by + 16, ", ".join(marks), fontsize=8, va="center", ha="right",
                    color="#333333", style="italic")
        gene_names = _gene_names(state, p) or ["none"]
        on_board = [f"#{i + 1}" + "*" * ps.amoeba_damage[i] for i in ps.amoebas_on_board()]
        amoebas = (f"amoebas ({len(on_board)}/{len(ps.amoeba_space)} on board): "
                   + (" ".join(on_board) or "none"))
        lines, size, pitch = _fit_lines(gene_names, amoebas, block - 34)
        for i, line in enumerate(lines):
            ax.text(x0 + 10, by + 37 + i * pitch, line, fontsize=size, va="center")


#: (font size, characters a line, line pitch) tried in turn for a player's lines.
_FONTS = ((8.8, 60, 14.0), (7.6, 70, 12.0), (6.8, 78, 10.5))


def _fit_lines(gene_names: list[str], amoebas: str, height: float
               ) -> tuple[list[str], float, float]:
    """A player's gene and amoeba lines with their font size and pitch: gene names whole
    (lines break between names), in the largest font of :data:`_FONTS` whose lines fit in
    ``height`` pixels; only if even the smallest does not fit is the last line cut."""
    for size, chars, pitch in _FONTS:
        lines = (wrap_items("genes:", gene_names, "    ", chars)
                 + textwrap.wrap(amoebas, chars, subsequent_indent="    "))
        room = max(1, int(height // pitch))
        if len(lines) <= room:
            return lines, size, pitch
    lines = lines[: room - 1] + [shorten(" ".join(lines[room - 1:]), chars)]
    return lines, size, pitch


def _draw_key(ax: Any, x: float, y: float) -> None:
    """The key to the marks: damage dots, a gene bought this round, the amoeba to act."""
    patches = shapes(ax)
    ax.add_patch(patches.Circle((x + 6, y + 2.5), 4.5, facecolor="#bbbbbb",
                                edgecolor="#222222", linewidth=0.7))
    ax.add_patch(patches.Circle((x + 6, y - 4.5), 1.8, facecolor="black", edgecolor="none"))
    ax.text(x + 15, y, "damage point (* in lists)", fontsize=7.5, va="center",
            color="#333333")
    ax.text(x + 160, y, "Gene+ = bought this round", fontsize=7.5, va="center",
            color="#333333")
    ax.add_patch(patches.Circle((x + 306, y), 5, facecolor="#bbbbbb", edgecolor="black",
                                linewidth=2.2))
    ax.text(x + 315, y, "amoeba to act", fontsize=7.5, va="center", color="#333333")


# ---------------------------------------------------------------------------------------------
# Ladder
# ---------------------------------------------------------------------------------------------


def _draw_ladder(ax: Any, state: GameState, config: Any) -> None:
    patches = shapes(ax)

    x0, y0, x1, y1 = _LADDER
    fzs = config.finish_zone_start
    top = max([fzs + 9] + [ps.score for ps in state.players])
    ax.text(x0, y0 + 5, f"Scoring ladder (finish zone from {fzs})", fontsize=8.5,
            va="center", fontweight="bold")
    cw = (x1 - x0) / (top + 1)
    ty, th = y0 + 16, 22
    for i in range(top + 1):
        ax.add_patch(patches.Rectangle((x0 + i * cw, ty), cw, th,
                                       facecolor=_ZONE if i >= fzs else _TRACK,
                                       edgecolor="#999999", linewidth=0.5))
        if i % 5 == 0:
            ax.text(x0 + (i + 0.5) * cw, ty + th + 8, str(i), fontsize=6.5, ha="center",
                    va="center", color="#555555")
    at: dict[int, list[int]] = {}
    for p, ps in enumerate(state.players):
        at.setdefault(ps.score, []).append(p)
    for space, players in at.items():
        k = len(players)
        radius = min(cw / 2 - 0.8, th / 2 - 1, (th / k) / 2 + 2)
        for j, p in enumerate(players):
            my = ty + th / 2 + (j - (k - 1) / 2) * min(2 * radius, th / k)
            ax.add_patch(patches.Circle((x0 + (space + 0.5) * cw, my), radius,
                                        facecolor=_player_colour(p), edgecolor="black",
                                        linewidth=0.8))
