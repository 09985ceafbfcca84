"""The picture of an Origin state (``render_mode="rgb_array"``), drawn with matplotlib.

Part of the view; it shows only what every player may see. ``to_rgb_array(state, rules)``
returns a :data:`HEIGHT` x :data:`WIDTH` x 3 uint8 image:

* top: turn, phase, whose turn it is, the end trigger and the pending decision in words
  (``rules.describe_decision``, which names no card);
* left: the map as a graph. Each territory is a disc in its colour with its id below; land
  connections are grey lines, straits dashed blue lines with their token (value) in the
  middle while it is still on the board; a hunting token still on the board is a dark green
  hexagon with its value. A pawn is a rectangle in its colour (white, brown, black) whose
  height and width grow with the pawn's height and width (1..3), with ``height/width``
  written inside (``2/1``); the disc's ring has the owner's colour (dashed grey for the
  neutral pawn on the Origin territory);
* right: the rewards board (tile level per slot), deck sizes and, per player, points by
  source, villages left, hand size by colour (never which cards), orange cards in play,
  completed objectives, hunting and strait tokens and the innovation tile columns.

Territory positions come from the map data only (:func:`layout_positions`): continents are
placed at hand-tuned anchors when their ids are the shipped ones (AF, EU, NA, SA, OC, AN),
otherwise on a grid in file order; inside a continent the territories start on a circle in
file order and a fixed number of force-directed steps (land edges pull, straits pull weakly,
territories repel, each continent is held to its anchor) spreads them out. The layout is
deterministic and cached per map. matplotlib is imported only when a picture is drawn.
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
from primeval.envs.core.text import describe_pending
from primeval.envs.origin.gamedata import PAWN_COLOURS, REWARD_COLOURS, WorldMap
from primeval.envs.origin.rules import scoring
from primeval.envs.origin.rules.turn import end_condition
from primeval.envs.origin.state import DECKS, NEUTRAL, OriginState
from primeval.envs.origin.view_text import decider

__all__ = ["HEIGHT", "PLAYER_COLOURS", "WIDTH", "layout_positions", "to_rgb_array",
           "to_rgb_array_reference"]

WIDTH, HEIGHT = 1200, 720
#: Ring colour of player ``p``'s territories (red, blue, teal, magenta).
PLAYER_COLOURS: tuple[str, ...] = ("#e31a1c", "#1f5fd0", "#00a39e", "#d6237f")
TERRITORY_FILL: dict[str, str] = {
    "origin": "#d0d0d0",
    "green": "#8fcf86",
    "yellow": "#f7e379",
    "orange": "#f6a85c",
    "purple": "#b9a3e3",
    "brown": "#b08d74",
}
PAWN_FILL: dict[str, str] = {"white": "#fbfbfb", "brown": "#8b5a2b", "black": "#1c1c1c"}
#: The colour of the ``height/width`` written on a pawn of each colour.
PAWN_TEXT: dict[str, str] = {"white": "black", "brown": "white", "black": "white"}
#: A pawn's rectangle: ``PAWN_BASE + PAWN_STEP * (width, height)`` pixels.
PAWN_BASE, PAWN_STEP = (13.0, 10.0), 5.0
_CARD_FILL = {"yellow": "#f7e379", "orange": "#f6a85c", "purple": "#b9a3e3"}
_STRAIT = "#2f6db3"
_HUNT = "#1b5e20"
_LABELS = (("objectives", "obj"), ("cards_in_hand", "cards"), ("hunting_tokens", "hunt"),
           ("strait_tokens", "straits"), ("tiles", "tiles"), ("column_bonus", "col bonus"))
# Layout (pixels).
_MAP = (14, 64, 786, 712)  # x0, y0, x1, y1
_PANEL = (800, 64, 1190, 712)
_NODE = 17.0  # territory disc radius
_LEGEND = 22  # strip under the map for the legend
_ATTEMPTS = 12  # starting arrangements tried by layout_positions

#: Anchor (fraction of the map area) of the shipped map's continents, roughly as on a globe.
CONTINENT_ANCHORS: dict[str, tuple[float, float]] = {
    "NA": (0.15, 0.22),
    "SA": (0.25, 0.66),
    "EU": (0.66, 0.22),
    "AF": (0.50, 0.58),
    "OC": (0.86, 0.66),
    "AN": (0.57, 0.90),
}


def _player_colour(p: int) -> str:
    return PLAYER_COLOURS[p % len(PLAYER_COLOURS)]


# ---------------------------------------------------------------------------------------------
# Map layout
# ---------------------------------------------------------------------------------------------

_LAYOUT_CACHE: dict[tuple, np.ndarray] = {}
#: Map layouts kept (one per map and picture size); the cache is emptied when it is full.
_LAYOUT_CACHE_SIZE = 16


def _anchors(world: WorldMap) -> dict[str, tuple[float, float]]:
    """Continent anchors in [0, 1]^2: the hand-tuned ones, or a grid in file order."""
    if all(c in CONTINENT_ANCHORS for c in world.continents):
        return {c: CONTINENT_ANCHORS[c] for c in world.continents}
    k = len(world.continents)
    cols = max(1, math.ceil(math.sqrt(k * 1.2)))
    rows = math.ceil(k / cols)
    out = {}
    for i, c in enumerate(world.continents):
        r, q = divmod(i, cols)
        out[c] = ((q + 0.5) / cols, (r + 0.5) / rows)
    return out


def layout_positions(world: WorldMap, width: float = _MAP[2] - _MAP[0],
                     height: float = _MAP[3] - _MAP[1] - _LEGEND) -> np.ndarray:
    """Pixel position ``(x, y)`` of every territory inside a ``width`` x ``height`` box.

    Derived from the data only (continent order, territory order, edges), so it works for
    user-supplied maps. A few fixed starting arrangements (each continent's circle turned and
    mirrored by a fixed rule) are relaxed and the one with the fewest crossing connections
    (then the shortest straits) is kept. Deterministic, and cached per map and box.
    """
    land = sorted({tuple(sorted((i, j))) for i, ns in enumerate(world.neighbours) for j in ns}
                  - {tuple(sorted(s)) for s in world.straits})
    key = (tuple((t.id, t.continent) for t in world.territories), tuple(land),
           tuple(world.straits), world.continents, float(width), float(height))
    cached = _LAYOUT_CACHE.get(key)
    if cached is not None:
        return cached
    n = world.size
    anchors = _anchors(world)
    members: dict[str, list[int]] = {c: [] for c in world.continents}
    for i, t in enumerate(world.territories):
        members[t.continent].append(i)
    # Scale: the continents share the area; a territory wants about `unit` pixels of room.
    unit = min(math.sqrt(width * height / max(n, 1)) * 0.65, 70.0)
    edges = land + [tuple(sorted(s)) for s in world.straits]
    gaps = np.full((n, n), 3.2 * _NODE)  # wanted room between territories
    for a, b in world.straits:  # room for the strait token between the ends
        gaps[a, b] = gaps[b, a] = 5.0 * _NODE
    best: tuple[tuple[int, float], np.ndarray] | None = None
    for attempt in range(_ATTEMPTS if n > 1 else 1):
        centre = np.zeros((n, 2))
        pos = np.zeros((n, 2))
        for ci, (c, idx) in enumerate(members.items()):
            cx, cy = anchors[c][0] * width, anchors[c][1] * height
            radius = unit * math.sqrt(len(idx)) * 0.45
            turn = 2 * math.pi * ((attempt * 0.618034 * (ci + 1)) % 1.0)
            sign = -1 if (attempt >> (ci % 4)) & 1 else 1
            for j, i in enumerate(idx):
                angle = sign * 2 * math.pi * j / max(len(idx), 1) + turn - math.pi / 2
                pos[i] = (cx + radius * math.cos(angle), cy + radius * math.sin(angle))
                centre[i] = (cx, cy)
        if n > 1:
            pos = _relax(pos, centre, land, list(world.straits), unit)
        pos = _spread(_fit(pos, width, height), gaps, width, height)
        strait_length = float(sum(np.hypot(*(pos[a] - pos[b])) for a, b in world.straits))
        gap = np.hypot(*(pos[:, None, :] - pos[None, :, :]).transpose(2, 0, 1))
        close = int(np.triu(gap < 3.0 * _NODE, 1).sum())
        score = (_crossings(pos, edges) + 2 * close, strait_length)
        if best is None or score < best[0]:
            best = (score, pos)
    pos = best[1]
    pos.setflags(write=False)
    if len(_LAYOUT_CACHE) >= _LAYOUT_CACHE_SIZE:
        _LAYOUT_CACHE.clear()
    _LAYOUT_CACHE[key] = pos
    return pos


def _fit(pos: np.ndarray, width: float, height: float) -> np.ndarray:
    """``pos`` centred in the box and shrunk if needed, with a margin for discs and labels."""
    margin = _NODE + 14
    lo, hi = pos.min(axis=0), pos.max(axis=0)
    span = np.maximum(hi - lo, 1e-6)
    scale = min((width - 2 * margin) / span[0], (height - 2 * margin) / span[1], 1.0)
    return (pos - (lo + hi) / 2) * scale + np.array([width / 2, height / 2])


def _spread(pos: np.ndarray, gap: np.ndarray, width: float, height: float) -> np.ndarray:
    """Territories closer than ``gap[i, j]`` pushed apart (a few passes), kept in the box."""
    pos = pos.copy()
    margin = _NODE + 14
    for _ in range(60):
        delta = pos[:, None, :] - pos[None, :, :]
        dist = np.sqrt((delta**2).sum(-1)) + 1e-6
        np.fill_diagonal(dist, np.inf)
        short = np.clip(gap - dist, 0.0, None)
        if not short.any():
            break
        pos += ((short / dist)[..., None] * delta).sum(axis=1) * 0.5
        pos[:, 0] = pos[:, 0].clip(margin, width - margin)
        pos[:, 1] = pos[:, 1].clip(margin, height - margin)
    return pos


def _crossings(pos: np.ndarray, edges: list[tuple[int, int]]) -> int:
    """Pairs of connections (without a common end) whose segments cross."""
    if len(edges) < 2:
        return 0
    e = np.array(edges)
    a, b = pos[e[:, 0]], pos[e[:, 1]]

    def orient(p, q, r):  # sign of the turn p -> q -> r, broadcast over pairs
        return np.sign((q[..., 0] - p[..., 0]) * (r[..., 1] - p[..., 1])
                       - (q[..., 1] - p[..., 1]) * (r[..., 0] - p[..., 0]))

    A, B = a[:, None], b[:, None]
    C, D = a[None, :], b[None, :]
    cross = ((orient(A, B, C) * orient(A, B, D) < 0)
             & (orient(C, D, A) * orient(C, D, B) < 0))
    shared = ((e[:, None, 0] == e[None, :, 0]) | (e[:, None, 0] == e[None, :, 1])
              | (e[:, None, 1] == e[None, :, 0]) | (e[:, None, 1] == e[None, :, 1]))
    return int(np.triu(cross & ~shared, 1).sum())


def _relax(pos: np.ndarray, centre: np.ndarray, land: list[tuple[int, int]],
           straits: list[tuple[int, int]], unit: float, iterations: int = 400,
           strait_weight: float = 0.6) -> np.ndarray:
    """Fruchterman-Reingold steps with continent gravity; deterministic."""
    pos = pos.copy()
    edges = np.array(land + straits, dtype=int).reshape(-1, 2)
    weight = np.array([1.0] * len(land) + [strait_weight] * len(straits))
    k = unit
    for it in range(iterations):
        delta = pos[:, None, :] - pos[None, :, :]
        dist = np.sqrt((delta**2).sum(-1)) + 1e-6
        np.fill_diagonal(dist, np.inf)
        rep = (k * k / dist**2)[..., None] * delta  # k^2 / d along the unit vector
        rep[dist > 3 * k] = 0.0
        force = rep.sum(axis=1)
        if len(edges):
            d = pos[edges[:, 0]] - pos[edges[:, 1]]
            length = np.sqrt((d**2).sum(-1)) + 1e-6
            pull = (weight * length / k)[:, None] * d  # d^2 / k along the unit vector
            np.add.at(force, edges[:, 0], -pull)
            np.add.at(force, edges[:, 1], pull)
        force += 0.08 * (centre - pos)
        temp = k * (1 - it / iterations) + 0.5
        size = np.sqrt((force**2).sum(-1)) + 1e-9
        pos += force / size[:, None] * np.minimum(size, temp)[:, None]
    return pos


# ---------------------------------------------------------------------------------------------
# Drawing
# ---------------------------------------------------------------------------------------------


def to_rgb_array(state: OriginState, rules: Any) -> np.ndarray:
    """The picture of ``state`` as a ``(720, 1200, 3)`` uint8 array: the fast path (the
    drawing recorded on a :class:`~primeval.envs.core.picture.Sketch`, assembled from cached
    tiles), equal pixel for pixel to :func:`to_rgb_array_reference`.

    Args:
        state: The game state.
        rules: The ``OriginRules`` (its data give the map, pawns, tiles and cards).
    """
    sketch = Sketch(WIDTH, HEIGHT)
    _draw(sketch, state, rules)
    return sketch_to_array(sketch)


def to_rgb_array_reference(state: OriginState, rules: Any) -> np.ndarray:
    """The same picture drawn the plain way: every artist on one matplotlib figure (about
    0.5 s a frame). The reference the fast path is tested against."""
    fig, ax = new_canvas(WIDTH, HEIGHT)
    _draw(ax, state, rules)
    return to_array(fig)


def _draw(ax: Any, state: OriginState, rules: Any) -> None:
    """The whole picture, on a canvas axes or a sketch."""
    _draw_title(ax, state, rules)
    _draw_map(ax, state, rules)
    _draw_panel(ax, state, rules)


def _draw_title(ax: Any, state: OriginState, rules: Any) -> None:
    who = decider(state, rules)
    if state.phase == "game_over":
        head = f"Origin  -  turn {state.turn}  -  game over"
    elif state.phase == "setup":  # each player keeps an objective: no one's turn yet
        head = f"Origin  -  setup  -  start player player_{state.start_player}"
        if who >= 0:
            head += f"  -  player_{who} to decide"
    else:
        head = (f"Origin  -  turn {state.turn}  -  {state.phase.replace('_', ' ')}  -  "
                f"player_{state.current}'s turn")
    ax.text(14, 16, head, fontsize=13, fontweight="bold", va="center")
    if state.phase == "game_over":
        totals = [scoring.total(rules, state, p) for p in range(state.num_players)]
        ranking = sorted(range(state.num_players),
                         key=lambda p: (-totals[p], -len(state.hands[p])))
        status = "Final: " + ", ".join(f"player_{p} {totals[p]}" for p in ranking)
    elif state.end_triggered:
        reason = end_condition(rules, state) or "an end condition was met"
        status = (f"End triggered ({reason}): {state.final_turns_left} final turn(s) left"
                  if state.phase == "final_round"
                  else f"End triggered ({reason}): final round after this turn")
    else:
        status = "End not triggered yet"
    ax.text(14, 37, shorten(status, 170), fontsize=8.5, va="center", color="#333333")
    if state.stack:
        pending = describe_pending(state, rules.registry.decisions,
                                   lambda frame: rules.describe_decision(state))
        ax.text(14, 53, shorten("Pending: " + pending, 170), fontsize=8.5, va="center",
                color="#333333")


def _draw_map(ax: Any, state: OriginState, rules: Any) -> None:
    patches = shapes(ax)

    world = rules.data.world
    comps = rules.data.components
    x0, y0, x1, y1 = _MAP
    pos = layout_positions(world, x1 - x0, y1 - y0 - _LEGEND) + np.array([x0, y0])
    ax.add_patch(patches.FancyBboxPatch((x0, y0), x1 - x0, y1 - y0,
                                        boxstyle="round,pad=0,rounding_size=8",
                                        facecolor="#eaf3fb", edgecolor="#c5d9ea",
                                        linewidth=1.0))
    strait_pairs = {frozenset(s) for s in world.straits}
    for i, ns in enumerate(world.neighbours):
        for j in ns:
            if i < j and frozenset((i, j)) not in strait_pairs:
                ax.plot(*zip(pos[i], pos[j], strict=True), color="#8a8a8a", linewidth=1.3,
                        zorder=1, solid_capstyle="round")
    for s, (a, b) in enumerate(world.straits):
        ax.plot(*zip(pos[a], pos[b], strict=True), color=_STRAIT, linewidth=1.4,
                linestyle=(0, (4, 3)), zorder=1)
        mx, my = (pos[a] + pos[b]) / 2
        if state.strait_owner[s] < 0:
            ax.add_patch(patches.FancyBboxPatch((mx - 7, my - 7), 14, 14,
                                                boxstyle="round,pad=0,rounding_size=3",
                                                facecolor="white", edgecolor=_STRAIT,
                                                linewidth=1.2, zorder=3))
            ax.text(mx, my + 0.5, str(state.strait_value[s]), fontsize=7.5, ha="center",
                    va="center", color=_STRAIT, fontweight="bold", zorder=4)
    # Continent names above (or below) their clusters, wherever there is more room.
    marks = np.vstack([pos] + [(pos[a] + pos[b]) / 2 for a, b in world.straits])
    for c, name in zip(world.continents, world.continent_names, strict=True):
        idx = [i for i, t in enumerate(world.territories) if t.continent == c]
        if not idx:
            continue
        cx = float(pos[idx, 0].mean())
        above = float(pos[idx, 1].min()) - _NODE - 9
        below = float(pos[idx, 1].max()) + _NODE + 21
        spots = [(cx + dx, cy) for cy in (max(above, y0 + 8), below) for dx in (0, -30, 30)
                 if cy <= y1 - _LEGEND - 6]
        room = [float(np.min(np.abs(marks - spot) @ (0.5, 1.0))) for spot in spots]
        lx, ly = spots[int(np.argmax(room))]
        ax.text(lx, ly, name, fontsize=9, ha="center", va="center", color="#4b6478",
                fontweight="bold", style="italic", zorder=2)
    for t, terr in enumerate(world.territories):
        x, y = pos[t]
        owner = state.owner[t]
        fill = TERRITORY_FILL.get(terr.colour, "#cccccc")
        if owner >= 0:
            ring = dict(edgecolor=_player_colour(owner), linewidth=3.6)
        elif owner == NEUTRAL:
            ring = dict(edgecolor="#444444", linewidth=2.0, linestyle=(0, (2.5, 1.5)))
        else:
            ring = dict(edgecolor="#6f6f6f", linewidth=0.9)
        ax.add_patch(patches.Circle((x, y), _NODE, facecolor=fill, zorder=5, **ring))
        if terr.colour == "origin":
            ax.add_patch(patches.Circle((x, y), _NODE + 4.5, facecolor="none",
                                        edgecolor="#c9a227", linewidth=1.6, zorder=4))
        ax.text(x, y + _NODE + 7, terr.id, fontsize=6.8, ha="center", va="center",
                color="#222222", zorder=6)
        if state.pawn[t] >= 0:
            _draw_pawn(ax, x, y, *comps.pawn_types[state.pawn[t]])
        if terr.colour == "green" and state.hunt_owner[t] < 0 and state.hunt_value[t] > 0:
            hx, hy = x + _NODE * 0.95, y - _NODE * 0.95
            ax.add_patch(patches.RegularPolygon((hx, hy), 6, radius=8.5, facecolor=_HUNT,
                                                edgecolor="white", linewidth=0.8, zorder=8))
            ax.text(hx, hy + 0.5, str(state.hunt_value[t]), fontsize=7, ha="center",
                    va="center", color="white", fontweight="bold", zorder=9)
    _draw_legend(ax, state)


def pawn_box(height: int, width: int) -> tuple[float, float]:
    """``(w, h)`` in pixels of a pawn's rectangle: each step of height or width adds
    :data:`PAWN_STEP` pixels, so the three sizes are told apart at a glance."""
    return PAWN_BASE[0] + PAWN_STEP * width, PAWN_BASE[1] + PAWN_STEP * height


def _draw_pawn(ax: Any, x: float, y: float, height: int, width: int, colour: int) -> None:
    """A pawn on its territory: a rectangle in its colour, taller and wider with its height
    and width, with ``height/width`` written inside (``2/1``: height 2, width 1)."""
    patches = shapes(ax)
    pw, ph = pawn_box(height, width)
    name = PAWN_COLOURS[colour]
    ax.add_patch(patches.FancyBboxPatch((x - pw / 2, y - ph / 2), pw, ph,
                                        boxstyle="round,pad=0,rounding_size=2",
                                        facecolor=PAWN_FILL[name],
                                        edgecolor="#555555" if name == "black" else "black",
                                        linewidth=1.0, zorder=7))
    ax.text(x, y + 0.5, f"{height}/{width}", fontsize=6.8, ha="center", va="center",
            color=PAWN_TEXT[name], fontweight="bold", zorder=8)


def _draw_legend(ax: Any, state: OriginState) -> None:
    patches = shapes(ax)

    x, y = _MAP[0] + 10, _MAP[3] - _LEGEND / 2 - 2
    for p in range(state.num_players):
        ax.add_patch(patches.Circle((x + 6, y), 6, facecolor="white",
                                    edgecolor=_player_colour(p), linewidth=2.6, zorder=5))
        ax.text(x + 16, y, f"player_{p}", fontsize=7.5, va="center", zorder=5)
        x += 64
    ax.text(x + 4, y, "ring: owner;  pawn: its colour, height/width inside;  "
            "hexagon: hunting token;  dashed: strait + token",
            fontsize=6.8, va="center", color="#444444", zorder=5)


def _draw_panel(ax: Any, state: OriginState, rules: Any) -> None:
    patches = shapes(ax)

    x0, y0, x1, y1 = _PANEL
    comps = rules.data.components
    # Rewards board: one row of slots per reward colour.
    ax.text(x0, y0 + 6, "Rewards board", fontsize=9, fontweight="bold", va="center")
    slot_colours = comps.slot_colours
    row_y = y0 + 20
    for r, colour in enumerate(REWARD_COLOURS):
        yy = row_y + (r // 2) * 20
        xx = x0 + (r % 2) * 195
        ax.text(xx, yy + 7, colour, fontsize=7.5, va="center", color="#333333")
        levels = [lv for lv, c in zip(state.slots, slot_colours, strict=True) if c == colour]
        for j, level in enumerate(levels):
            sx = xx + 40 + j * 19
            ax.add_patch(patches.Rectangle((sx, yy), 16, 15, facecolor=TERRITORY_FILL[colour],
                                           edgecolor="#555555", linewidth=0.6,
                                           alpha=1.0 if level else 0.3))
            ax.text(sx + 8, yy + 8, str(level) if level else "-", fontsize=7.5, ha="center",
                    va="center", fontweight="bold")
    decks = ", ".join(f"{name} {len(deck)}" for name, deck in zip(DECKS, state.decks,
                                                                  strict=True))
    ax.text(x0, row_y + 50, f"tile reserve {sum(state.tile_reserve)}   decks: {decks}   "
            f"pawns in reserve {sum(state.reserve)}", fontsize=7.5, va="center",
            color="#333333")

    top = row_y + 62
    n = state.num_players
    block = (y1 - top) / max(n, 1)
    for p in range(n):
        _draw_player(ax, state, rules, p, x0, top + p * block, x1, block)


def _draw_player(ax: Any, state: OriginState, rules: Any, p: int, x0: float, by: float,
                 x1: float, block: float) -> None:
    patches = shapes(ax)

    cards = rules.data.cards
    if state.phase == "setup":  # no turn yet: the player keeping an objective decides
        playing, word = p == decider(state, rules), "to decide"
    else:
        playing, word = p == state.current and state.phase != "game_over", "to play"
    ax.add_patch(patches.FancyBboxPatch((x0, by + 2), x1 - x0, block - 6,
                                        boxstyle="round,pad=0,rounding_size=6",
                                        facecolor="#f7f7f7", edgecolor=_player_colour(p),
                                        linewidth=2.6 if playing else 1.0))
    ax.add_patch(patches.Circle((x0 + 13, by + 15), 7, facecolor="white",
                                edgecolor=_player_colour(p), linewidth=3.0))
    pts = scoring.points(rules, state, p)
    marks = [m for m, on in ((word, playing), ("start", p == state.start_player)) if on]
    ax.text(x0 + 27, by + 15, f"player_{p}   {sum(pts.values())} points", fontsize=10,
            fontweight="bold", va="center")
    if marks:
        ax.text(x1 - 8, by + 15, ", ".join(marks), fontsize=8, va="center", ha="right",
                style="italic", color="#333333")
    tiles_w = 120  # lower right part of the block: tile columns
    text_right = x1 - tiles_w - 6
    line_h = 14.0
    ty = by + 33
    ax.text(x0 + 9, ty, "   ".join(f"{short} {pts.get(key, 0)}" for key, short in _LABELS),
            fontsize=7.8, va="center")
    ty += line_h
    ax.text(x0 + 9, ty, f"villages left {state.villages[p]}    pawns "
            f"{len(state.territories_of(p))}    hand {len(state.hands[p])}:", fontsize=7.8,
            va="center")
    # Hand sizes by colour as small card shapes (counts only, never identities).
    hx = x0 + 222
    for colour in DECKS:
        count = sum(cards[c].colour == colour for c in state.hands[p])
        ax.add_patch(patches.Rectangle((hx, ty - 6), 9, 12, facecolor=_CARD_FILL[colour],
                                       edgecolor="#555555", linewidth=0.6))
        ax.text(hx + 12, ty, str(count), fontsize=7.8, va="center")
        hx += 30
    # Tokens.
    ty += line_h + 1
    tx = x0 + 9
    ax.text(tx, ty, "tokens", fontsize=7.8, va="center")
    tx += 40
    hunts = [state.hunt_value[t] for t, o in enumerate(state.hunt_owner) if o == p]
    straits = [state.strait_value[s] for s, o in enumerate(state.strait_owner) if o == p]
    if not hunts and not straits:
        ax.text(tx, ty, "-", fontsize=7.8, va="center")
    for value in hunts:
        if tx > text_right - 16:
            break
        ax.add_patch(patches.RegularPolygon((tx + 7, ty), 6, radius=7.5, facecolor=_HUNT,
                                            edgecolor="white", linewidth=0.6))
        ax.text(tx + 7, ty + 0.5, str(value), fontsize=6.8, ha="center", va="center",
                color="white", fontweight="bold")
        tx += 18
    for value in straits:
        if tx > text_right - 16:
            break
        ax.add_patch(patches.FancyBboxPatch((tx, ty - 6.5), 13, 13,
                                            boxstyle="round,pad=0,rounding_size=3",
                                            facecolor="white", edgecolor=_STRAIT,
                                            linewidth=1.1))
        ax.text(tx + 6.5, ty + 0.5, str(value), fontsize=6.8, ha="center", va="center",
                color=_STRAIT, fontweight="bold")
        tx += 17
    orange = " ".join(cards[c].id for c in state.permanents[p]) or "-"
    done = " ".join(cards[c].id for c in state.objectives_done[p]) or "-"
    extra = textwrap.wrap(f"orange in play: {orange}", 40, subsequent_indent="  ")
    extra += textwrap.wrap(f"objectives done: {done} ({state.objective_points[p]} pts)", 40,
                           subsequent_indent="  ")
    room = max(0, int((by + block - 8 - ty) // line_h))
    if len(extra) > room > 0:
        extra = extra[: room - 1] + [shorten(" ".join(extra[room - 1:]), 40)]
    for line in extra[:room]:
        ty += line_h
        ax.text(x0 + 9, ty, line, fontsize=7.8, va="center")
    _draw_columns(ax, state.columns[p], x1 - tiles_w, by + 58, x1 - 8, by + block - 10)


def _draw_columns(ax: Any, columns: list[list[int]], x0: float, y0: float, x1: float,
                  y1: float) -> None:
    """A player's tile columns as stacks of squares, bottom first, level inside."""
    patches = shapes(ax)

    if not columns:
        ax.text(x0, y1 - 6, "tiles -", fontsize=7.5, va="center", color="#555555")
        return
    tallest = max(len(col) for col in columns)
    size = min(14.0, (x1 - x0) / len(columns) - 2, (y1 - y0 - 14) / max(tallest, 1) - 1.5)
    plural = "" if len(columns) == 1 else "s"
    ax.text(x0, y1 - tallest * (size + 1.5) - 8, f"tiles ({len(columns)} column{plural})",
            fontsize=7.5, va="center", color="#555555")
    for c, col in enumerate(columns):
        cx = x0 + c * (size + 2)
        for j, level in enumerate(col):
            cy = y1 - (j + 1) * (size + 1.5)
            ax.add_patch(patches.Rectangle((cx, cy), size, size, facecolor="#fff3c4",
                                           edgecolor="#6b5a2a", linewidth=0.6))
            ax.text(cx + size / 2, cy + size / 2 + 0.5, str(level),
                    fontsize=max(5.0, size * 0.55), ha="center", va="center")
